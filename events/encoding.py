"""How an envelope is kept in Redis: the compact encoding, and reading today's full one.

The hash chain is defined over the envelope (``events.envelope``: sha256 of
the canonical JSON of every field but ``hash``), not over the bytes Redis
holds, so the same envelope may be stored in fewer bytes as long as it
decodes to exactly itself. A game stream entry (id ``0-<version>``) holds
one field, ``c``, whose value is three parts back to back:

- the hash, 32 raw bytes;
- the timestamp, integer microseconds since the epoch, 8 bytes big-endian
  (rendered back as ISO 8601 with six digits and ``Z``, the only form
  ``now_utc`` makes);
- compact JSON ``[type, data, actor]``, with a fourth element ``{"s":
  schema_version, "c": causation_id, "r": correlation_id, "ts": timestamp,
  "id": event_id}`` holding only what differs from the defaults below
  (usually absent).

One field rather than three: a stream entry's fields each cost Redis a few
bytes and redis-py a few parsed elements on every read.

What is not stored is derived: ``game_id`` from the key, ``version`` from the
entry id, ``prev_hash`` from the entry before (64 zeros for version 1), the
``event_id`` from game and version (a name-based UUID: unique as the pair is,
and covered by the hash like any field). A feed entry holds a reference only,
one per append: ``G`` the game id as 16 raw bytes (``g`` as text when it is
not 32 hex digits), ``v`` the append's first version and ``n`` how many
events it wrote.

Entries written before this encoding hold the whole envelope as canonical
JSON in ``e`` (the feed's also ``g`` and ``v``); they are read as they are
(``FULL``), and a game may hold both kinds, old entries first. Nothing is
rewritten: events are facts. About 460 bytes per event in the stream and as
much again in the feed became about 165 and 11 (docs/event-store.md).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

# A C JSON parser: a fold spends a third of its time parsing entries with the standard one; and its
# writer for the same entries (``_dumps``).
from orjson import JSONEncodeError
from orjson import dumps as _orjson_dumps
from orjson import loads as _loads

from events.envelope import GENESIS, Envelope, derived_event_id

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICRO = timedelta(microseconds=1)
#: An entry field map as redis-py answers it (bytes, no RESP3).
Fields = dict[bytes, bytes]
#: An entry's fields as the server sends them, names and values alternating: what a game stream's reader
#: decodes (a dict of them per entry, as redis-py makes, was a tenth of a fold's time).
FlatFields = list[bytes]
#: A stream's entries: (entry id, fields) pairs.
Rows = list[tuple[bytes, FlatFields]]


#: The only form ``render_micros`` makes (ASCII digits: ``\\d`` would take any script's).
_RENDERED = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z")


@functools.lru_cache(maxsize=64)  # an append's events share their moment
def timestamp_micros(timestamp: str) -> int | None:
    """``timestamp`` as integer microseconds, or None when rendering those back would not give it exactly.

    Every string of ``render_micros``'s form that ``fromisoformat`` takes renders back to itself, field
    for field, so the form is checked rather than the rendering made again (a tenth of an append)."""
    if _RENDERED.fullmatch(timestamp) is None:
        return None
    try:
        moment = datetime.fromisoformat(timestamp)
    except ValueError:
        return None
    return (moment - EPOCH) // _MICRO


@functools.lru_cache(maxsize=64)  # a batch's events share their moment
def render_micros(micros: int) -> str:
    return (EPOCH + timedelta(microseconds=micros)).isoformat(timespec="microseconds").replace("+00:00", "Z")


_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)  # made once, as envelope's _CANONICAL


def _dumps(value: Any) -> bytes:
    """Compact JSON of an entry's body, read back by orjson: orjson's own writer (a fifth of the
    standard one's time on an event), and the standard one for what orjson refuses (keys that are not
    strings, which both word as strings) and wherever orjson wrote a null, since it writes NaN and the
    infinities as null too: there the standard writer writes what it always did. The bytes need not
    match any other writer's: the chain hashes the envelope's canonical JSON, not what Redis holds."""
    try:
        written = _orjson_dumps(value)
    except JSONEncodeError:
        _refuse_wide_integers(value)
        return _COMPACT.encode(value).encode()
    return written if b"null" not in written else _COMPACT.encode(value).encode()


#: The integers orjson reads back as integers: wider ones it reads as floats, so they would not read back.
_NARROWEST, _WIDEST = -(2**63), 2**64 - 1


def _refuse_wide_integers(value: Any) -> None:
    """Refuse an event whose data holds an integer that would read back as a float (``ValueError``)."""
    if isinstance(value, int) and not isinstance(value, bool) and not _NARROWEST <= value <= _WIDEST:
        raise ValueError(f"an event's integers must fit in 64 bits to read back as they were: {value}")
    parts = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
    for part in parts:
        _refuse_wide_integers(part)


def encode(envelope: Envelope) -> bytes:
    """The stream entry's ``c`` for a sealed envelope."""
    extras: dict[str, Any] = {}
    if envelope.schema_version != 1:
        extras["s"] = envelope.schema_version
    if envelope.causation_id is not None:
        extras["c"] = envelope.causation_id
    if envelope.correlation_id is not None:
        extras["r"] = envelope.correlation_id
    micros = timestamp_micros(envelope.timestamp)
    if micros is None:
        extras["ts"] = envelope.timestamp
        micros = 0
    if envelope.event_id != derived_event_id(envelope.game_id, envelope.version):
        extras["id"] = envelope.event_id
    body: list[Any] = [envelope.type, envelope.data, envelope.actor]
    if extras:
        body.append(extras)
    return bytes.fromhex(envelope.hash) + micros.to_bytes(8, "big", signed=True) + _dumps(body)


def decode_rows(game_id: str, rows: Rows, *, lead: bool) -> list[Envelope]:
    """The envelopes of consecutive entries of one game stream (in either encoding), oldest first.

    ``lead``: the first row is the entry before the wanted ones, read only
    for its hash (the next one's ``prev_hash``); without one the rows start
    at version 1.
    """
    return list(decoded(game_id, rows, lead=lead))


def decoded(game_id: str, rows: Rows, *, lead: bool) -> Iterator[Envelope]:
    """``decode_rows`` one envelope at a time, each made when the caller comes to it: a fold that keeps
    none of them holds only the entries, and each envelope is gone before the next is made (a fifth of a
    10,000-event fold's time went on envelopes made at once and kept to the end)."""
    entries = iter(rows)
    prev = GENESIS
    if lead:
        before = next(entries, None)
        if before is not None:
            prev = _hash_of(before[1])
    moment, timestamp = b"", ""
    new = object.__new__
    for entry_id, fields in entries:
        version = int(entry_id[2:])  # a game stream's entry ids are all 0-<version>
        if fields[0] != b"c":  # FULL: the envelope as it was written before the compact encoding
            envelope = Envelope(**json.loads(dict(zip(fields[::2], fields[1::2], strict=True))[b"e"]))
        else:
            value = fields[1]
            body = _loads(value[40:])
            if value[32:40] != moment:  # an append's events share their moment: rendered once
                moment = value[32:40]
                timestamp = render_micros(int.from_bytes(moment, "big", signed=True))
            if len(body) == 3:
                # Nearly every entry: built without the frozen dataclass's __init__ (an object.__setattr__
                # per field), as a fold builds one per event, and field by field: dict.update would make
                # the instance's dict a table of its own rather than one sharing the class's keys, three
                # times the bytes and half again the time. The event_id is derived when first asked for
                # (Envelope.__getattr__).
                envelope = new(Envelope)
                fields_of = envelope.__dict__
                fields_of["game_id"] = game_id
                fields_of["version"] = version
                fields_of["type"] = body[0]
                fields_of["schema_version"] = 1
                fields_of["data"] = body[1]
                fields_of["timestamp"] = timestamp
                fields_of["actor"] = body[2]
                fields_of["causation_id"] = None
                fields_of["correlation_id"] = None
                fields_of["prev_hash"] = prev
                fields_of["hash"] = value[:32].hex()
            else:
                envelope = _with_extras(game_id, version, body, value, timestamp, prev)
        yield envelope
        prev = envelope.hash


def _hash_of(fields: FlatFields) -> str:
    """The hash of the envelope an entry holds, without decoding the rest."""
    if fields[0] == b"c":
        return fields[1][:32].hex()
    return str(json.loads(dict(zip(fields[::2], fields[1::2], strict=True))[b"e"])["hash"])


def _with_extras(game_id: str, version: int, body: list[Any], value: bytes, timestamp: str, prev_hash: str) -> Envelope:
    extras = body[3]
    return Envelope(
        event_id=extras.get("id") or derived_event_id(game_id, version),
        game_id=game_id,
        version=version,
        type=body[0],
        schema_version=extras.get("s", 1),
        data=body[1],
        timestamp=extras.get("ts") or timestamp,
        actor=body[2],
        causation_id=extras.get("c"),
        correlation_id=extras.get("r"),
        prev_hash=prev_hash,
        hash=value[:32].hex(),
    )


def flattened(rows: list[tuple[bytes, Fields]]) -> Rows:
    """Entries as redis-py hands most commands' back (each one's fields a dict), as the server sent them."""
    return [(entry_id, [part for pair in fields.items() for part in pair]) for entry_id, fields in rows]


# -- the feed's entries ---------------------------------------------------------


@dataclass(frozen=True)
class FeedRef:
    """A compact feed entry: which game, its first version, how many events (the envelopes are in the game's stream)."""

    game_id: str
    version: int
    count: int = 1


@functools.lru_cache(maxsize=4096)  # every append names its game in the feed
def feed_fields(game_id: str) -> tuple[str, bytes | str]:
    """The field and value naming ``game_id`` in a feed entry: 16 raw bytes for a 32-digit hex id."""
    if len(game_id) == 32:
        try:
            raw = bytes.fromhex(game_id)
        except ValueError:
            raw = b""
        if raw.hex() == game_id:
            return "G", raw
    return "g", game_id


def feed_entry(fields: Fields) -> Envelope | FeedRef:
    """What a feed entry holds: the whole envelope (FULL) or a reference to it."""
    if b"e" in fields:
        return Envelope(**json.loads(fields[b"e"]))
    raw = fields.get(b"G")
    game_id = raw.hex() if raw is not None else fields[b"g"].decode()
    return FeedRef(game_id, int(fields[b"v"]), int(fields.get(b"n", b"1")))
