"""Snapshots kept in Redis: one sorted set per game, scored by version.

Each member holds the folder's format, the dumped state and the chain's tip
at that version, so a load that starts from a snapshot can append on top of
it without reading the head again.

Only the newest ``KEEP`` snapshots of a game are kept: a long game's state
dumped every 200 events and kept for ever cost more Redis than its events
(about 10 MB for a 10,000-event game of four). A load at an older version
(a rewind or fork far back, a view of the past) folds from an older one or
from the start: slower, never wrong, as snapshots are caches.
"""

from __future__ import annotations

import json
from typing import Any

import redis

# A C JSON parser: a snapshot is the largest thing a load parses.
from orjson import loads as _loads

#: Snapshots kept per game: with one every 200 events, the last ~1,600 events
#: of a game load from one.
KEEP = 8


def snapshots_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:snapshots"


class SnapshotStore:
    def __init__(self, client: redis.Redis, keep: int = KEEP):
        self.redis = client
        self.keep = keep

    def save(self, game_id: str, version: int, fmt: str, state: dict[str, Any], head_hash: str) -> None:
        member = json.dumps({"version": version, "format": fmt, "hash": head_hash, "state": state}, sort_keys=True)
        key = snapshots_key(game_id)
        pipe = self.redis.pipeline()
        # One snapshot per version: drop any older member scored at this version.
        pipe.zremrangebyscore(key, version, version)
        pipe.zadd(key, {member: version})
        pipe.zremrangebyrank(key, 0, -self.keep - 1)
        pipe.execute()

    def newest_at_or_below(
        self, game_id: str, version: int | None, fmt: str
    ) -> tuple[int, dict[str, Any], str | None] | None:
        high = "+inf" if version is None else version
        # The newest first, alone: it is nearly always of the current format,
        # and a state is large (a long game's is tens of KB); then the rest.
        for start, num in ((0, 1), (1, self.keep)):
            members: list[bytes] = self.redis.zrevrangebyscore(  # type: ignore[assignment]
                snapshots_key(game_id), high, "-inf", start=start, num=num
            )
            for member in members:
                body = _loads(member)
                if body["format"] == fmt:
                    return body["version"], body["state"], body.get("hash")
            if len(members) < num:
                break
        return None

    def delete_all(self) -> int:
        deleted = 0
        for key in self.redis.scan_iter(match="game:{*}:snapshots", count=1000):
            deleted += self.redis.delete(key)
        return deleted
