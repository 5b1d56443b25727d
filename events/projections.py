"""Projections: read models built from the global feed, and rebuilt at will.

A projection keeps its checkpoint (the feed position of the last event it
applied) in the same transaction as its data, so a crash between the two is
impossible and catching up never applies an event twice or skips one.
"""

from __future__ import annotations

import json
from typing import Any

import redis

from events.envelope import Envelope
from events.store import EventStore

GAME_INDEX_KEY = "holotape:proj:games"
GAME_INDEX_CHECKPOINT = "holotape:proj:games:checkpoint"


class GameIndex:
    """One row per game: what it is, who sits at it, how far it has got.

    It feeds the lobby listing and ``holotape rebuild``; the games themselves
    are always folded from their own streams.
    """

    keys = (GAME_INDEX_KEY, GAME_INDEX_CHECKPOINT)

    def __init__(self, client: redis.Redis, store: EventStore):
        self.redis = client
        self.store = store

    def checkpoint(self) -> str:
        value = self.redis.get(GAME_INDEX_CHECKPOINT)
        return value.decode() if value else "0-0"

    def catch_up(self, batch: int = 500) -> int:
        """Apply every feed entry after the checkpoint; returns how many."""
        applied = 0
        while True:
            after = self.checkpoint()
            entries = self.store.feed(after=after, count=batch)
            if not entries:
                return applied
            rows: dict[str, dict[str, Any]] = {}
            for entry in entries:
                game_id = entry.envelope.game_id
                row = rows.get(game_id) or self.row(game_id) or {}
                rows[game_id] = self._apply(row, entry.envelope)
            with self.redis.pipeline(transaction=True) as pipe:
                # Refuse to write if another catch-up moved the checkpoint first.
                pipe.watch(GAME_INDEX_CHECKPOINT)
                if self.checkpoint() != after:
                    pipe.reset()
                    continue
                pipe.multi()
                pipe.hset(
                    GAME_INDEX_KEY,
                    mapping={gid: json.dumps(row, sort_keys=True) for gid, row in rows.items()},
                )
                pipe.set(GAME_INDEX_CHECKPOINT, entries[-1].position)
                try:
                    pipe.execute()
                except redis.WatchError:
                    continue
            applied += len(entries)

    @staticmethod
    def _apply(row: dict[str, Any], envelope: Envelope) -> dict[str, Any]:
        row = dict(row)
        if envelope.type == "GameCreated":
            row.update(
                game_id=envelope.game_id,
                game=envelope.data["game"],
                seats=len(envelope.data["seats"]),
                options=envelope.data["options"],
                created_at=envelope.timestamp,
            )
        if envelope.type == "GameEnded":
            row["ended_at"] = envelope.timestamp
        row["version"] = envelope.version
        row["updated_at"] = envelope.timestamp
        row["last_event"] = envelope.type
        return row

    def row(self, game_id: str) -> dict[str, Any] | None:
        raw = self.redis.hget(GAME_INDEX_KEY, game_id)
        return json.loads(raw) if raw else None

    def rows(self) -> dict[str, dict[str, Any]]:
        return {k.decode(): json.loads(v) for k, v in self.redis.hgetall(GAME_INDEX_KEY).items()}

    def drop(self) -> None:
        self.redis.delete(*self.keys)
