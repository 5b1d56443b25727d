"""The envelope every stored event travels in, and its hash chain.

Each envelope carries the previous event's hash and its own, so the log of a
game is tamper-evident: changing what any stored event says breaks the chain
at that event. The hash is SHA-256 over a canonical JSON encoding (sorted
keys, no insignificant white space, UTF-8) of every field except ``hash``
itself, which an auditor can recompute in any language. How an envelope is
kept in Redis (in fewer bytes, decoding to exactly itself) is
``events.encoding``'s business.
"""

from __future__ import annotations

import functools
import hashlib
import json
import uuid
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from typing import Any

#: The ``prev_hash`` of a game's first event.
GENESIS = "0" * 64


# One encoder, made once: json.dumps with options builds a JSONEncoder on every call, a third of
# the cost of hashing an event. The options are the chain's for good (see above).
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_json(value: Any) -> str:
    return _CANONICAL.encode(value)


#: The namespace of derived event ids (any fixed UUID would do; this one is ours for good).
EVENT_ID_NAMESPACE = uuid.UUID("6f1d5c8e-3b0a-4f7e-9c2d-8a4b6e0f1d3c")
_NAMESPACE_BYTES = EVENT_ID_NAMESPACE.bytes


@functools.lru_cache(maxsize=1024)  # an append derives each id twice: sealing it, then encoding it compactly
def derived_event_id(game_id: str, version: int) -> str:
    """``str(uuid.uuid5(EVENT_ID_NAMESPACE, f"{game_id}/{version}"))``, without building UUID objects."""
    digest = bytearray(hashlib.sha1(_NAMESPACE_BYTES + f"{game_id}/{version}".encode()).digest()[:16])
    digest[6] = (digest[6] & 0x0F) | 0x50
    digest[8] = (digest[8] & 0x3F) | 0x80
    h = digest.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


@dataclass(frozen=True)
class Envelope:
    event_id: str
    game_id: str
    version: int
    type: str
    schema_version: int
    data: dict[str, Any]
    timestamp: str
    actor: str
    causation_id: str | None = None
    correlation_id: str | None = None
    prev_hash: str = GENESIS
    hash: str = ""

    def __getattr__(self, name: str) -> Any:
        # Only for attributes not set: an envelope decoded from a compact entry
        # (events.encoding) leaves its derived event id to be worked out on
        # first use, which a fold never makes (a sixth of its time otherwise).
        if name == "event_id":
            value = derived_event_id(self.__dict__["game_id"], self.__dict__["version"])
            object.__setattr__(self, "event_id", value)
            return value
        raise AttributeError(name)

    def content(self) -> dict[str, Any]:
        """Every field the hash covers (the data as it is, not a copy: asdict's deep copy
        was a third of an append's Python time, and canonical JSON reads it the same)."""
        return {name: getattr(self, name) for name in _HASHED}

    def computed_hash(self) -> str:
        return hashlib.sha256(canonical_json(self.content()).encode()).hexdigest()

    def to_json(self) -> str:
        return canonical_json(asdict(self))

    @classmethod
    def from_json(cls, raw: str | bytes) -> Envelope:
        return cls(**json.loads(raw))

    def as_dict(self) -> dict[str, Any]:
        """Every field, sharing its value with the envelope: an event is never changed in place, and
        ``asdict``'s deep copy of ``data`` was 5% of an action's time under cProfile."""
        return {name: getattr(self, name) for name in _FIELDS}


_FIELDS = tuple(f.name for f in fields(Envelope))
#: The fields the hash covers: all but ``hash``.
_HASHED = tuple(name for name in _FIELDS if name != "hash")


def seal(**fields: Any) -> Envelope:
    """An envelope of ``fields`` (every one but ``hash``) and the hash of them, built without the
    dataclass's ``__init__`` (a ``object.__setattr__`` per field): an append seals every event."""
    if fields.keys() != _HASHED_NAMES:
        raise TypeError(f"an envelope's fields but its hash, not {sorted(fields)}")
    envelope = object.__new__(Envelope)
    envelope.__dict__.update(fields)
    # The given fields are content()'s, so they are hashed as given rather than gathered again.
    envelope.__dict__["hash"] = hashlib.sha256(canonical_json(fields).encode()).hexdigest()
    return envelope


_HASHED_NAMES = frozenset(_HASHED)


@dataclass(frozen=True)
class NewEvent:
    """What a caller hands ``append``: the store assigns version, ids and hashes."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    schema_version: int | None = None  # None: the current version of the type


def now_utc() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def new_event_id() -> str:
    return str(uuid.uuid4())
