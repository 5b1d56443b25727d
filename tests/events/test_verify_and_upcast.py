"""Tamper evidence (the hash chain) and reading old schema versions (upcasters)."""

from __future__ import annotations

import json

import pytest

from events.envelope import Envelope, NewEvent
from events.schemas import SchemaError
from events.store import EventStore, stream_key


def _rewrite_stream(raw, game_id: str, change) -> None:
    """Edit stored events behind the store's back, as an attacker with Redis access could."""
    key = stream_key(game_id)
    rows = raw.xrange(key)
    raw.delete(key)
    for entry_id, fields in rows:
        body = json.loads(fields[b"e"])
        raw.xadd(key, {"e": json.dumps(change(body))}, id=entry_id)


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
