"""Drop every cache (projections, snapshots) and rebuild it from the events.

Safe because caches are caches (DESIGN.md, invariant 4): the result must be
the same as before, which a test checks.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis
from redis.cluster import RedisCluster

from events.snapshot_store import SnapshotStore
from service.adapters.tokens import Seeds, Tokens
from service.usecases.games import Games
from service.usecases.ports import NoFollowUps
from service.wiring import event_store, game_rows


@dataclass(frozen=True)
class RebuildReport:
    games: int
    feed_entries: int
    snapshots: int


def rebuild(client: redis.Redis, events: redis.Redis | RedisCluster | None = None) -> RebuildReport:
    """Rebuild every cache: the game index (on ``client``) from the feed, every
    game's snapshot (beside its events, on ``events``; default: the same server)."""
    store = event_store(events if events is not None else client)
    snapshots = SnapshotStore(store.redis)
    snapshots.delete_all()
    seeds = Seeds(client)
    games = Games(store, snapshots, seeds, Tokens(client, seeds=seeds), NoFollowUps(), recent_games=0)
    index = game_rows(client, store, games)
    index.drop()
    applied = index.catch_up()
    written = 0
    for game_id in store.game_ids():
        loaded = games.load(game_id)
        tip = loaded.head_hash or store.head(game_id)[1]
        snapshots.save(game_id, loaded.version, games.folder.format, games.folder.dump(loaded.state), tip)
        written += 1
    return RebuildReport(len(store.game_ids()), applied, written)
