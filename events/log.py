"""What an event log promises, whatever keeps it: the port the application layer uses.

``events.store.EventStore`` keeps it on Redis Streams; the use cases only ever
see this interface, so they import no Redis client and could run on any
store that keeps these promises (tests/events run one suite per backend).

Promises: a game's versions are contiguous from 1; ``append`` is all or
nothing and refuses a batch decided on a version the stream has moved past
(``ConcurrencyError``); an idempotency key appends once and answers the same
result after; each envelope carries its predecessor's hash (``verify``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from events.envelope import GENESIS, Envelope, NewEvent, canonical_json


class StoreError(Exception):
    pass


class ConcurrencyError(StoreError):
    """The stream moved on since the version the decision was made on."""

    def __init__(self, game_id: str, expected: int, current: int):
        super().__init__(f"game {game_id} is at version {current}, not {expected}")
        self.game_id = game_id
        self.expected = expected
        self.current = current


class IdempotencyConflict(StoreError):
    """An idempotency key reused for different events."""


class NotDurable(StoreError):
    """An append reached the master but not enough replicas in time: it was not acknowledged.

    It may survive or be lost with the master; whoever made it reads the game
    again to learn which (an idempotency key makes the retry safe).
    """

    def __init__(self, game_id: str, version: int, copies: int, wanted: int):
        super().__init__(f"game {game_id} v{version}: {copies} of {wanted} replicas hold it")
        self.game_id = game_id
        self.version = version


class AllowanceSpent(StoreError):
    """An append refused, writing nothing, because one of its allowances (``Allowances``) is spent."""

    def __init__(self, index: int, retry_after: int):
        super().__init__(f"allowance {index} is spent for {retry_after} s")
        self.index = index  # which of the allowances, from 0
        self.retry_after = retry_after  # whole seconds until its window closes


#: How an append treats an allowance: counted before it is judged (allowed while
#: the count is at most the limit); judged only (allowed while below it); or
#: judged, then counted once every allowance allowed the append.
HIT, PEEK, PEEK_THEN_COUNT = "hit", "peek", "count"


@dataclass(frozen=True)
class Allowance:
    """A fixed-window counter (a rate limit) an append judges in its own round trip.

    ``key`` is the counter; a new one lives ``window`` seconds. The caller
    names keys the store can reach in one script (a standalone server).
    """

    key: str
    limit: int
    window: int
    mode: str = HIT


@dataclass
class Allowances:
    """The allowances a caller hands an append, and whether the append got as far as judging them.

    ``judged`` is set by the store once its round trip has judged (and counted)
    them, whatever the append's outcome; a caller whose request ended before
    the append judges them itself.
    """

    items: tuple[Allowance, ...] = ()
    judged: bool = False


@dataclass(frozen=True)
class SnapshotWrite:
    """A snapshot an append keeps at its last version, in its own round trip and only if the append is made.

    ``state`` is what the batch leaves, dumped by the folder of ``format``;
    ``keep`` and ``sparse`` are the snapshot store's thinning
    (``events.snapshot_store``). A snapshot is a cache (DESIGN.md): one
    written with its append is one round trip less for the action that
    brought it due, and never a snapshot of a batch that was refused.
    """

    format: str
    state: dict[str, Any]
    keep: int
    sparse: int


@dataclass(frozen=True)
class AppendResult:
    game_id: str
    first_version: int
    last_version: int
    event_ids: tuple[str, ...]
    last_hash: str
    duplicate: bool = False  # True: an earlier append with this key already did it
    #: The sealed envelopes this append wrote (empty for a duplicate: it wrote nothing).
    envelopes: tuple[Envelope, ...] = field(default=(), compare=False)
    #: For each key the append was asked to ``probe``: whether it existed (read in the same round trip).
    probed: tuple[bool, ...] = field(default=(), compare=False)

    def as_json(self) -> str:
        return canonical_json(
            {
                "game_id": self.game_id,
                "first_version": self.first_version,
                "last_version": self.last_version,
                "event_ids": list(self.event_ids),
                "last_hash": self.last_hash,
            }
        )

    @classmethod
    def from_json(cls, raw: str, duplicate: bool) -> AppendResult:
        body = json.loads(raw)
        body["event_ids"] = tuple(body["event_ids"])
        return cls(**body, duplicate=duplicate)


@dataclass(frozen=True)
class FeedEntry:
    position: str  # the feed's stream id: a reader's checkpoint
    envelope: Envelope


@dataclass(frozen=True)
class ChainReport:
    game_id: str
    ok: bool
    checked: int
    broken_at: int | None = None  # the first version whose link is broken
    reason: str | None = None


def walk_chain(game_id: str, envelopes: Sequence[Envelope]) -> ChainReport:
    """Walk a game's hash chain (``envelopes`` as stored, from version 1) and name the first broken link.

    Pure, so an auditor's copy of the log (an export) is checked exactly as the store checks its own.
    """
    expected_prev = GENESIS
    checked = 0
    for checked, envelope in enumerate(envelopes, start=1):
        if envelope.version != checked:
            return ChainReport(game_id, False, checked, checked, "version out of sequence")
        if envelope.prev_hash != expected_prev:
            return ChainReport(game_id, False, checked, checked, "prev_hash does not match the event before")
        if envelope.computed_hash() != envelope.hash:
            return ChainReport(game_id, False, checked, checked, "content does not match hash")
        expected_prev = envelope.hash
    return ChainReport(game_id, True, checked)


class EventLog(Protocol):
    """The event store as the application layer uses it."""

    def append(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        actor: str = "system",
        causation_id: str | None = None,
        correlation_id: str | None = None,
        idempotency_key: str | None = None,
        prev_hash: str | None = None,
        allowances: Allowances | None = None,
        probe: Sequence[str] = (),
        stamped_at: str | None = None,
        snapshot: SnapshotWrite | None = None,
    ) -> AppendResult: ...

    def recall(self, game_id: str, key: str) -> AppendResult | None: ...

    def new_game_id(self) -> str: ...

    def head(self, game_id: str) -> tuple[int, str]: ...

    def version(self, game_id: str) -> int: ...

    def versions(self, game_ids: Sequence[str]) -> list[int]: ...

    def read(
        self, game_id: str, from_version: int = 1, to_version: int | None = None, *, upcast: bool = True
    ) -> list[Envelope]: ...

    def each(self, game_id: str, from_version: int = 1, to_version: int | None = None) -> Iterator[Envelope]: ...

    def newest_snapshot_and_after(self, game_id: str, at: int | None) -> tuple[bytes | None, Iterator[Envelope]]: ...

    def wait(self, game_id: str, after_version: int, block_ms: int, count: int = 100) -> list[Envelope]: ...

    def feed(self, after: str = "0-0", count: int = 500, block_ms: int | None = None) -> list[FeedEntry]: ...

    def game_ids(self) -> list[str]: ...

    def verify(self, game_id: str) -> ChainReport: ...
