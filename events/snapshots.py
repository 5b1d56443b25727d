"""Snapshots: cached folds of a game's stream, and loading through them.

A snapshot is a cache (DESIGN.md, invariant 4): loading takes the newest
snapshot at or below the wanted version and folds the events after it, and
deleting every snapshot changes nothing but speed. Each snapshot records the
``format`` of the folder that wrote it; a snapshot of another format (the
state's shape changed in a release) is ignored rather than trusted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import redis

from events.envelope import Envelope
from events.store import EventStore

S = TypeVar("S")


class Folder(Protocol[S]):
    """How to fold one kind of stream into a state, and to (de)serialise it."""

    format: str

    def initial(self) -> S: ...

    def apply(self, state: S, envelope: Envelope) -> S: ...

    def dump(self, state: S) -> dict[str, Any]: ...

    def load(self, data: dict[str, Any]) -> S: ...


def snapshots_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:snapshots"


@dataclass(frozen=True)
class Loaded(Generic[S]):
    state: S
    version: int
    from_snapshot: int  # the snapshot version it started from (0: none)


class SnapshotStore:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def save(self, game_id: str, version: int, fmt: str, state: dict[str, Any]) -> None:
        member = json.dumps({"version": version, "format": fmt, "state": state}, sort_keys=True)
        key = snapshots_key(game_id)
        pipe = self.redis.pipeline()
        # One snapshot per version: drop any older member scored at this version.
        pipe.zremrangebyscore(key, version, version)
        pipe.zadd(key, {member: version})
        pipe.execute()

    def newest_at_or_below(self, game_id: str, version: int | None, fmt: str) -> tuple[int, dict] | None:
        high = "+inf" if version is None else version
        for member in self.redis.zrevrangebyscore(snapshots_key(game_id), high, "-inf", start=0, num=8):
            body = json.loads(member)
            if body["format"] == fmt:
                return body["version"], body["state"]
        return None

    def delete_all(self) -> int:
        deleted = 0
        for key in self.redis.scan_iter(match="game:{*}:snapshots", count=1000):
            deleted += self.redis.delete(key)
        return deleted


def fold(
    store: EventStore,
    snapshots: SnapshotStore | None,
    folder: Folder[S],
    game_id: str,
    at: int | None = None,
) -> Loaded[S]:
    """The state of ``game_id`` after version ``at`` (default: the latest)."""
    state, start = folder.initial(), 0
    if snapshots is not None:
        found = snapshots.newest_at_or_below(game_id, at, folder.format)
        if found is not None:
            start, data = found
            state = folder.load(data)
    version = start
    for envelope in store.read(game_id, start + 1, at):
        state = folder.apply(state, envelope)
        version = envelope.version
    return Loaded(state, version, start)
