"""Folding a stream into a state, through the newest usable snapshot.

A snapshot is a cache (DESIGN.md, invariant 4): loading takes the newest
snapshot at or below the wanted version and folds the events after it, and
deleting every snapshot changes nothing but speed. Each snapshot records the
``format`` of the folder that wrote it; a snapshot of another format (the
state's shape changed in a release) is ignored rather than trusted.

A folder sees the stream a batch at a time (the events one append wrote),
because some facts are settled once per batch rather than per event: a
batch's events share their moment, and what the batch leaves behind is what
a reader sees. ``opens_batch`` tells where a batch begins.

This module holds no storage: ``events.snapshot_store`` keeps snapshots in
Redis, and any ``Snapshots`` will do.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from events.envelope import GENESIS, Envelope
from events.log import EventLog, SnapshotWrite

S = TypeVar("S")


class Folder(Protocol[S]):
    """How to fold one kind of stream into a state, and to (de)serialise it."""

    format: str

    def initial(self) -> S: ...

    def opens_batch(self, envelope: Envelope) -> bool: ...

    def apply_batch(self, state: S, batch: Sequence[Envelope]) -> S: ...

    def dump(self, state: S) -> dict[str, Any]: ...

    def load(self, data: dict[str, Any]) -> S: ...


class Snapshots(Protocol):
    def save(self, game_id: str, version: int, fmt: str, state: dict[str, Any], head_hash: str) -> None: ...

    def with_append(self, fmt: str, state: dict[str, Any]) -> SnapshotWrite: ...

    def parse(self, member: bytes, fmt: str) -> tuple[int, dict[str, Any], str | None] | None: ...

    def newest_at_or_below(
        self, game_id: str, version: int | None, fmt: str
    ) -> tuple[int, dict[str, Any], str | None] | None: ...


@dataclass(frozen=True)
class Loaded(Generic[S]):
    state: S
    version: int
    from_snapshot: int  # the snapshot version it started from (0: none)
    #: The hash of the event at ``version`` (the chain's tip there); None when unknown.
    head_hash: str | None = GENESIS


def fold_onto(folder: Folder[S], loaded: Loaded[S], envelopes: Iterable[Envelope]) -> Loaded[S]:
    """``loaded`` carried on through ``envelopes`` (which follow it in the stream), cut into batches
    where the folder says one begins."""
    state, last = loaded.state, None
    opens_batch, apply_batch = folder.opens_batch, folder.apply_batch
    batch: list[Envelope] = []
    for last in envelopes:
        if batch and opens_batch(last):
            state = apply_batch(state, batch)
            batch = []
        batch.append(last)
    if last is None:
        return loaded
    return Loaded(apply_batch(state, batch), last.version, loaded.from_snapshot, last.hash)


def fold(
    store: EventLog,
    snapshots: Snapshots | None,
    folder: Folder[S],
    game_id: str,
    at: int | None = None,
) -> Loaded[S]:
    """The state of ``game_id`` after version ``at`` (default: the latest)."""
    start: Loaded[S] = Loaded(folder.initial(), 0, 0, GENESIS)
    if snapshots is None:
        return fold_onto(folder, start, store.each(game_id, 1, at))
    # The newest snapshot and the events after it, in one round trip: a process loading a game it has
    # not seen (any action on another API process than the game's last) pays one read, not two.
    member, after = store.newest_snapshot_and_after(game_id, at)
    found = snapshots.parse(member, folder.format) if member is not None else None
    if member is not None and found is None:
        # The newest is of another format (a release changed the state's shape): an older one, apart.
        found = snapshots.newest_at_or_below(game_id, at, folder.format)
        after = store.each(game_id, found[0] + 1 if found is not None else 1, at)
    if found is not None:
        version, data, tip = found
        start = Loaded(folder.load(data), version, version, tip)
    return fold_onto(folder, start, after)
