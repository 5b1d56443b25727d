"""Projections: read models built from the global feed, and rebuilt at will.

A projection keeps its checkpoint (the feed position of the last event it
applied) in the same transaction as its data, so a crash between the two is
impossible and catching up never applies an event twice or skips one.

``RowProjection`` keeps one JSON row per game in a Redis hash; what a row
holds is its owner's business (the service's game index), given as
``apply(row, envelope) -> row``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import redis

from events.envelope import Envelope
from events.log import EventLog

Row = dict[str, Any]
ApplyRow = Callable[[Row, Envelope], Row]


class RowProjection:
    def __init__(self, client: redis.Redis, store: EventLog, name: str, apply: ApplyRow):
        self.redis = client
        self.store = store
        self.key = f"holotape:proj:{name}"
        self.checkpoint_key = f"{self.key}:checkpoint"
        self.keys = (self.key, self.checkpoint_key)
        self.apply = apply

    def checkpoint(self) -> str:
        value = self.redis.get(self.checkpoint_key)
        return value.decode() if isinstance(value, bytes) else "0-0"

    def catch_up(self, batch: int = 500) -> int:
        """Apply every feed entry after the checkpoint; returns how many."""
        applied = 0
        while True:
            after = self.checkpoint()
            entries = self.store.feed(after=after, count=batch)
            if not entries:
                return applied
            rows: dict[str, Row] = {}
            for entry in entries:
                game_id = entry.envelope.game_id
                row = rows.get(game_id) or self.row(game_id) or {}
                rows[game_id] = self.apply(row, entry.envelope)
            with self.redis.pipeline(transaction=True) as pipe:
                # Refuse to write if another catch-up moved the checkpoint first.
                pipe.watch(self.checkpoint_key)
                if self.checkpoint() != after:
                    pipe.reset()
                    continue
                pipe.multi()
                pipe.hset(self.key, mapping={gid: json.dumps(row, sort_keys=True) for gid, row in rows.items()})
                pipe.set(self.checkpoint_key, entries[-1].position)
                try:
                    pipe.execute()
                except redis.WatchError:
                    continue
            applied += len(entries)

    def row(self, game_id: str) -> Row | None:
        raw = self.redis.hget(self.key, game_id)
        return json.loads(raw) if raw else None

    def rows(self) -> dict[str, Row]:
        found: dict[bytes, bytes] = self.redis.hgetall(self.key)  # type: ignore[assignment]
        return {k.decode(): json.loads(v) for k, v in found.items()}

    def drop(self) -> None:
        self.redis.delete(*self.keys)
