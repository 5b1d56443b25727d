"""Snapshots kept in Redis: one sorted set per game, scored by version.

Each member holds the folder's format, the dumped state and the chain's tip
at that version, so a load that starts from a snapshot can append on top of
it without reading the head again.

Only the newest ``KEEP`` snapshots of a game are kept, and further back one
in every ``SPARSE`` versions (the oldest of each stretch): a long game's state
dumped every 200 events and kept for ever cost more Redis than its events
(about 10 MB for a 10,000-event game of four), while the sparse ones cost a
tenth of that and bound what a load at an older version folds (a page of the
log far back, whose words need the game at its start; a rewind or fork far
back, a view of the past) to about ``SPARSE`` events. Slower than a recent
one, never wrong, as snapshots are caches.
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
#: Past the newest ``KEEP``, one snapshot per this many versions is kept (0: none).
SPARSE = 1000

# Save one snapshot (ARGV[1] at version ARGV[2], replacing any at that
# version), then past the newest ARGV[3] keep only the oldest of each stretch of
# ARGV[4] versions (none when ARGV[4] is 0): one script, so nothing of the
# states leaves Redis and a cluster runs it as it is (one key).
_SAVE = """
local version, keep, sparse = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], version, version)
redis.call('ZADD', KEYS[1], version, ARGV[1])
local old = redis.call('ZRANGE', KEYS[1], 0, -keep - 1, 'WITHSCORES')
local last = nil
for i = 1, #old, 2 do
  local stretch = sparse > 0 and math.floor(tonumber(old[i + 1]) / sparse) or nil
  if stretch == nil or stretch == last then
    redis.call('ZREM', KEYS[1], old[i])
  else
    last = stretch
  end
end
return 0
"""


def snapshots_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:snapshots"


class SnapshotStore:
    def __init__(self, client: redis.Redis | redis.RedisCluster, keep: int = KEEP, sparse: int = SPARSE):
        self.redis = client
        self.keep = keep
        self.sparse = sparse
        self._save = client.register_script(_SAVE)

    def save(self, game_id: str, version: int, fmt: str, state: dict[str, Any], head_hash: str) -> None:
        member = json.dumps({"version": version, "format": fmt, "hash": head_hash, "state": state}, sort_keys=True)
        self._save(keys=[snapshots_key(game_id)], args=[member, version, self.keep, self.sparse])

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
