"""Tamper evidence (the hash chain) and reading old schema versions (upcasters)."""

from __future__ import annotations

import hashlib
import json
import uuid

import pytest

from events.encoding import decode_rows, flattened, render_micros, timestamp_micros
from events.envelope import GENESIS, Envelope, NewEvent, now_utc, seal
from events.schemas import SchemaError
from events.store import EventStore, stream_key


def _rewrite_stream(raw, game_id: str, change) -> None:
    """Edit stored events behind the store's back, as an attacker with Redis access could
    (writing each back whole, in the encoding of entries older than the compact one)."""
    key = stream_key(game_id)
    envelopes = decode_rows(game_id, flattened(raw.xrange(key)), lead=False)
    raw.delete(key)
    for envelope in envelopes:
        raw.xadd(key, {"e": json.dumps(change(envelope.as_dict()))}, id=f"0-{envelope.version}")


def test_verify_passes_an_untouched_game(store: EventStore):
    g = store.new_game_id()
    store.append(g, 0, [NewEvent("E", {"i": i}) for i in range(6)])
    report = store.verify(g)
    assert report.ok and report.checked == 6 and report.broken_at is None


def test_verify_names_the_event_whose_data_was_edited(store: EventStore, raw):
    g = store.new_game_id()
    store.append(g, 0, [NewEvent("Rolled", {"faces": [i, i]}) for i in range(6)])

    def cheat(body):
        if body["version"] == 4:
            body["data"]["faces"] = [6, 6]
        return body

    _rewrite_stream(raw, g, cheat)
    report = store.verify(g)
    assert not report.ok
    assert report.broken_at == 4
    assert "hash" in report.reason


def test_verify_names_an_event_whose_hash_was_recomputed_to_hide_an_edit(store: EventStore, raw):
    g = store.new_game_id()
    store.append(g, 0, [NewEvent("Rolled", {"faces": [i]}) for i in range(6)])

    def careful_cheat(body):
        if body["version"] == 2:
            body["data"]["faces"] = [6]
            body["hash"] = Envelope(**body).computed_hash()
        return body

    _rewrite_stream(raw, g, careful_cheat)
    report = store.verify(g)
    assert not report.ok
    assert report.broken_at == 3  # the next link no longer points at it
    assert "prev_hash" in report.reason


def test_a_stored_v1_game_created_is_upcast_to_v2_on_read(store: EventStore):
    """v1 of GameCreated stored a player count; v2 stores seats, which may be bots."""
    old = store.new_game_id()
    store.append(
        old,
        0,
        [
            NewEvent(
                "GameCreated",
                {"game": "counter", "options": {}, "players": 2, "seed_commitment": "ab"},
                schema_version=1,
            )
        ],
    )
    stored = store.read(old, upcast=False)[0]
    assert stored.schema_version == 1 and stored.data["players"] == 2
    current = store.read(old)[0]
    assert current.schema_version == 2
    assert current.data["seats"] == [
        {"seat": 0, "kind": "human", "name": None, "bot": None},
        {"seat": 1, "kind": "human", "name": None, "bot": None},
    ]
    assert "players" not in current.data
    # The chain covers the bytes as stored, so upcasting never breaks it.
    assert store.verify(old).ok


def test_new_game_created_events_are_validated_against_the_current_schema(store: EventStore):
    bad = store.new_game_id()
    with pytest.raises(SchemaError):
        store.append(bad, 0, [NewEvent("GameCreated", {"game": "counter"})])
    assert store.version(bad) == 0


def _write_as_before(raw, store: EventStore, game_id: str, events: list[NewEvent]) -> None:
    """Events appended as the store wrote them before the compact encoding: the whole
    envelope (a random event id, its prev_hash) as JSON in the stream and again in the feed."""
    prev = GENESIS
    for version, event in enumerate(events, start=1):
        envelope = seal(
            event_id=str(uuid.uuid4()), game_id=game_id, version=version, type=event.type,
            schema_version=event.schema_version or 1, data=event.data, timestamp="2026-11-20T10:00:00.5Z",
            actor="seat:0", causation_id=None, correlation_id=None, prev_hash=prev,
        )  # fmt: skip
        raw.xadd(stream_key(game_id), {"e": envelope.to_json()}, id=f"0-{version}")
        raw.xadd(store.partitions.keys[store.partitions.partition_of(game_id)],
                 {"g": game_id, "v": version, "e": envelope.to_json()})  # fmt: skip
        prev = envelope.hash
    raw.hset(f"game:{{{game_id}}}:head", mapping={"version": len(events), "hash": prev})


def test_a_log_written_before_the_compact_encoding_reads_verifies_and_grows(store: EventStore, raw):
    """Issue 13, footprint: today's entries still read as they were, the chain runs on
    across the change of encoding, and the feed carries both kinds."""
    g = store.new_game_id()
    _write_as_before(raw, store, g, [NewEvent("Rolled", {"faces": [i]}) for i in range(3)])
    before = store.read(g)
    store.append(g, 3, [NewEvent("Rolled", {"faces": [i]}, 1) for i in range(3, 6)], actor="seat:1")
    after = store.read(g)
    assert after[:3] == before and [e.data["faces"] for e in after] == [[i] for i in range(6)]
    assert after[3].prev_hash == before[2].hash and store.verify(g).ok
    assert store.read(g, 4) == after[3:] and store.read(g, 3, 4) == after[2:4]
    # One at a time, as a fold reads them, the same, from either kind of entry before the first.
    assert list(store.each(g)) == after and list(store.each(g, 4)) == after[3:] and list(store.each(g, 2, 4)) == after[1:4]
    assert [(e.envelope.game_id, e.envelope.version) for e in store.feed()] == [(g, v) for v in range(1, 7)]
    assert [e.envelope for e in store.feed()] == after
    # What a compact entry costs: well under the whole envelope as JSON.
    fields = raw.xrange(stream_key(g), "0-4", "0-4")[0][1]
    assert sum(len(v) for v in fields.values()) < len(after[3].to_json()) / 2


def test_verify_names_a_compact_entry_whose_data_was_edited(store: EventStore, raw):
    g = store.new_game_id()
    store.append(g, 0, [NewEvent("Rolled", {"faces": [i, i]}) for i in range(6)])
    key = stream_key(g)
    rows = raw.xrange(key)
    raw.delete(key)
    for entry_id, fields in rows:
        if entry_id == b"0-4":  # the data edited, the stored hash and time (40 bytes) left alone
            body = json.loads(fields[b"c"][40:])
            body[1]["faces"] = [6, 6]
            fields = {b"c": fields[b"c"][:40] + json.dumps(body).encode()}
        raw.xadd(key, fields, id=entry_id)
    report = store.verify(g)
    assert not report.ok and report.broken_at == 4 and "hash" in report.reason


def test_a_compact_entry_decodes_to_exactly_the_envelope_that_was_hashed(store: EventStore):
    g = store.new_game_id()
    result = store.append(g, 0, [NewEvent("Rolled", {"faces": [1], "note": "é"})], correlation_id="c-1")
    written = result.envelopes[0]
    assert store.read(g, upcast=False) == [written]
    assert written.computed_hash() == written.hash and written.correlation_id == "c-1"


@pytest.mark.parametrize(
    "data",
    [
        {"faces": [1, 6], "note": "é ☢ 💀 \u0007 \"quoted\""},  # orjson's writer
        {"bot": None, "faces": []},  # a null: the standard writer, as NaN would be
        {"wide": 2**64 - 1, "narrow": -(2**63)},  # the widest integers that read back as integers
        {1: {"two": 2}},  # a key that is no string: the standard writer, which words it as a string
    ],
    ids=["orjson", "null", "64-bit", "int-key"],
)
@pytest.mark.parametrize(
    "stamped_at", [None, "2026-11-20T10:00:00.500000Z", "2026-11-20T10:00:00.5Z", "2026-11-20 10:00:00.500000Z"]
)
def test_every_entry_decodes_to_the_envelope_hashed_whichever_writer_and_timestamp_form(
    store: EventStore, data, stamped_at
):
    """The compact entry's body goes through orjson's writer or the standard one (events.encoding._dumps), and its
    timestamp as microseconds or, in a form those would not render back to, as itself: each way it reads back
    as the envelope that was hashed."""
    g = store.new_game_id()
    written = store.append(g, 0, [NewEvent("Rolled", data), NewEvent("Rolled", data)], stamped_at=stamped_at).envelopes
    read = store.read(g, upcast=False)
    assert [e.data for e in read] == [json.loads(json.dumps(data))] * 2
    assert read == list(written) or 1 in data  # an integer key reads back as the string the hash wrote
    assert all(e.computed_hash() == e.hash for e in written) and store.verify(g).ok
    if stamped_at is not None:
        assert written[0].timestamp == stamped_at


def test_an_event_holding_an_integer_wider_than_64_bits_is_refused_and_nothing_is_written(store: EventStore):
    """orjson reads such an integer back as a float: the event would not read back as it was hashed."""
    g = store.new_game_id()
    for wide in (2**64, -(2**63) - 1):
        with pytest.raises(ValueError, match="64 bits"):
            store.append(g, 0, [NewEvent("Rolled", {"faces": [1, [wide]]})])
    assert store.version(g) == 0


def test_only_the_form_now_utc_writes_is_kept_as_microseconds():
    assert timestamp_micros("1970-01-01T00:00:01.000002Z") == 1_000_002
    assert timestamp_micros(now := now_utc()) is not None and render_micros(timestamp_micros(now)) == now
    for other in (
        "2026-11-20T10:00:00.5Z",
        "2026-11-20 10:00:00.500000Z",
        "2026-11-20T10:00:00.500000+00:00",
        "2026-11-20T10:00:00.500000",
        "2026-02-30T10:00:00.500000Z",
        "٢٠٢٦-11-20T10:00:00.500000Z",
    ):
        assert timestamp_micros(other) is None, other


def test_a_sealed_envelope_hashes_the_canonical_json_of_every_field_but_its_hash():
    """The hash an auditor recomputes in any language (events.envelope): SHA-256 of the sorted, compact
    JSON of the fields, written out here by hand so no shortcut of the store's can drift from it."""
    fields = {
        "event_id": "e-1", "game_id": "g", "version": 1, "type": "Moved", "schema_version": 1,
        "data": {"to": "t03", "survivor": "s1", "note": "ü"}, "timestamp": "2026-11-20T10:00:00.500000Z",
        "actor": "seat:0", "causation_id": None, "correlation_id": None, "prev_hash": GENESIS,
    }  # fmt: skip
    by_hand = (
        '{"actor":"seat:0","causation_id":null,"correlation_id":null,"data":{"note":"ü","survivor":"s1",'
        '"to":"t03"},"event_id":"e-1","game_id":"g","prev_hash":"' + GENESIS + '","schema_version":1,'
        '"timestamp":"2026-11-20T10:00:00.500000Z","type":"Moved","version":1}'
    )
    sealed = seal(**fields)
    assert sealed.hash == hashlib.sha256(by_hand.encode()).hexdigest()
    assert sealed == Envelope(**fields, hash=sealed.hash)
    with pytest.raises(TypeError):
        seal(**{k: v for k, v in fields.items() if k != "actor"})
