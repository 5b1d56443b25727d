"""Drop every cache (projections, snapshots) and rebuild it from the events.

Safe because caches are caches (DESIGN.md, invariant 4): the result must be
the same as before, which a test checks.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis

from events.projections import GameIndex
from events.snapshots import SnapshotStore
from events.store import EventStore
from service.application import Games


@dataclass(frozen=True)
class RebuildReport:
    games: int
    feed_entries: int
    snapshots: int


def rebuild(client: redis.Redis) -> RebuildReport:
    store = EventStore(client)
    snapshots = SnapshotStore(client)
    index = GameIndex(client, store)
    index.drop()
    snapshots.delete_all()
    applied = index.catch_up()
    games = Games(client, store=store, snapshots=snapshots)
    written = 0
    for game_id in store.game_ids():
        loaded = games.load(game_id)
        snapshots.save(game_id, loaded.version, games.folder.format, games.folder.dump(loaded.state))
        written += 1
    return RebuildReport(len(store.game_ids()), applied, written)
