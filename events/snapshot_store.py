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

from events.log import SnapshotWrite

#: Snapshots kept per game: with one every 200 events, the last ~1,600 events
#: of a game load from one.
KEEP = 8
#: Past the newest ``KEEP``, one snapshot per this many versions is kept (0: none).
SPARSE = 1000

# Save one snapshot (``member`` at ``version``, replacing any at that version),
# then past the newest ``keep`` keep only the oldest of each stretch of
# ``sparse`` versions (none when ``sparse`` is 0), in Redis, so nothing of the
# states leaves it and a cluster runs it as it is (one key). A Lua function,
# because the append script (events.store) runs it too: an action whose batch
# brings a snapshot due writes it in the append's own round trip, only when
# the append is made.
SAVE_FUNCTION = """
local function save_snapshot(key, member, version, keep, sparse)
  redis.call('ZREMRANGEBYSCORE', key, version, version)
  redis.call('ZADD', key, version, member)
  local old = redis.call('ZRANGE', key, 0, -keep - 1, 'WITHSCORES')
  local last = nil
  for i = 1, #old, 2 do
    local stretch = sparse > 0 and math.floor(tonumber(old[i + 1]) / sparse) or nil
    if stretch == nil or stretch == last then
      redis.call('ZREM', key, old[i])
    else
      last = stretch
    end
  end
end
"""
_SAVE = SAVE_FUNCTION + """
save_snapshot(KEYS[1], ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]))
return 0
"""


def member(version: int, fmt: str, head_hash: str, state: dict[str, Any]) -> str:
    """A snapshot as its sorted set holds it."""
    return json.dumps({"version": version, "format": fmt, "hash": head_hash, "state": state}, sort_keys=True)


def snapshots_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:snapshots"


class SnapshotStore:
    def __init__(self, client: redis.Redis | redis.RedisCluster, keep: int = KEEP, sparse: int = SPARSE):
        self.redis = client
        self.keep = keep
        self.sparse = sparse
        self._save = client.register_script(_SAVE)

    def save(self, game_id: str, version: int, fmt: str, state: dict[str, Any], head_hash: str) -> None:
        self._save(keys=[snapshots_key(game_id)], args=[member(version, fmt, head_hash, state), version, self.keep, self.sparse])

    def with_append(self, fmt: str, state: dict[str, Any]) -> SnapshotWrite:
        """This snapshot, for an append to keep at its last version in its own round trip."""
        return SnapshotWrite(fmt, state, self.keep, self.sparse)

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
                found = self.parse(member, fmt)
                if found is not None:
                    return found
            if len(members) < num:
                break
        return None

    @staticmethod
    def parse(member: bytes, fmt: str) -> tuple[int, dict[str, Any], str | None] | None:
        """A snapshot as its sorted set holds it: its version, state and tip, or None when of another format."""
        body = _loads(member)
        if body["format"] != fmt:
            return None
        return body["version"], body["state"], body.get("hash")

    def delete_all(self) -> int:
        deleted = 0
        for key in self.redis.scan_iter(match="game:{*}:snapshots", count=1000):
            deleted += self.redis.delete(key)
        return deleted
