"""Projections: read models built from the global feed, and rebuilt at will.

A projection keeps its checkpoint (the feed position of the last event it
applied) in the same transaction as its data, so a crash between the two is
impossible and catching up never applies an event twice or skips one.

``RowProjection`` keeps one JSON row per game in a Redis hash; what a row
holds is its owner's business (the service's game index), given as
``apply(row, envelope) -> row``. Its owner may also name, for each row, the
sorted indexes it belongs to (``indexes(row) -> {index: member}``): one
sorted set per index, every member at score 0 so the set is ordered by the
member's bytes, written in the same transaction as the row. A page of an
index (``index_page``) then costs the same however many rows there are.
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
#: The sorted indexes a row belongs to, each with the row's member in it.
IndexesOf = Callable[[Row], dict[str, str]]
#: What the owner adds to a game's row from the game itself once the feed's entries are applied
#: (``(game_id, row) -> fields``): a cache of the game's current state, like the row.
Enrich = Callable[[str, Row], Row]


def _no_indexes(row: Row) -> dict[str, str]:
    return {}


class RowProjection:
    def __init__(
        self, client: redis.Redis, store: EventLog, name: str, apply: ApplyRow, indexes: IndexesOf = _no_indexes,
        enrich: Enrich | None = None,
    ):
        self.redis = client
        self.store = store
        self.key = f"holotape:proj:{name}"
        self.checkpoint_key = f"{self.key}:checkpoint"
        #: The names of every index set written, so ``drop`` finds them all.
        self.indexes_key = f"{self.key}:indexes"
        self.keys = (self.key, self.checkpoint_key, self.indexes_key)
        self.apply = apply
        self.indexes = indexes
        self.enrich = enrich

    def index_key(self, index: str) -> str:
        return f"{self.key}:by:{index}"

    def checkpoint(self) -> str:
        value = self.redis.get(self.checkpoint_key)
        return value.decode() if isinstance(value, bytes) else "0-0"

    def catch_up(self, batch: int = 500, limit: int | None = None) -> int:
        """Apply the feed's entries after the checkpoint (all of them, or at most ``limit``), ``batch`` to a
        transaction; returns how many."""
        applied = 0
        while limit is None or applied < limit:
            if limit is not None:
                batch = min(batch, limit - applied)
            after = self.checkpoint()
            entries = self.store.feed(after=after, count=batch)
            if not entries:
                return applied
            rows: dict[str, Row] = {}
            before: dict[str, Row] = {}
            for entry in entries:
                game_id = entry.envelope.game_id
                if game_id not in rows:
                    before[game_id] = self.row(game_id) or {}
                row = rows.get(game_id) or before[game_id]
                rows[game_id] = self.apply(row, entry.envelope)
            if self.enrich is not None:
                rows = {gid: {**row, **self.enrich(gid, row)} for gid, row in rows.items()}
            with self.redis.pipeline(transaction=True) as pipe:
                # Refuse to write if another catch-up moved the checkpoint first.
                pipe.watch(self.checkpoint_key)
                if self.checkpoint() != after:
                    pipe.reset()
                    continue
                pipe.multi()
                pipe.hset(self.key, mapping={gid: json.dumps(row, sort_keys=True) for gid, row in rows.items()})
                for game_id, row in rows.items():
                    self._reindex(pipe, self.indexes(before[game_id]) if before[game_id] else {}, self.indexes(row))
                pipe.set(self.checkpoint_key, entries[-1].position)
                try:
                    pipe.execute()
                except redis.WatchError:
                    continue
            applied += len(entries)
        return applied

    def current_row(self, game_id: str) -> Row | None:
        """``game_id``'s row as of its stream's last event, whatever the checkpoint: the stored row with
        the game's own later events applied (read from its stream; nothing written)."""
        row = self.row(game_id) or {}
        later = self.store.read(game_id, from_version=int(row.get("version", 0)) + 1)
        for envelope in later:
            row = self.apply(row, envelope)
        if row and later and self.enrich is not None:
            row = {**row, **self.enrich(game_id, row)}
        return row or None

    def _reindex(self, pipe: Any, was: dict[str, str], now: dict[str, str]) -> None:
        for index, member in was.items():
            if now.get(index) != member:
                pipe.zrem(self.index_key(index), member)
        added = {index: member for index, member in now.items() if was.get(index) != member}
        for index, member in added.items():
            pipe.zadd(self.index_key(index), {member: 0})
        if added:
            pipe.sadd(self.indexes_key, *added)

    def index_page(self, index: str, before: str | None, count: int) -> list[str]:
        """Up to ``count`` members of ``index``, greatest first, each less than ``before`` (None: from the top)."""
        high = "+" if before is None else "(" + before
        members: list[bytes] = self.redis.zrevrangebylex(self.index_key(index), high, "-", start=0, num=count)  # type: ignore[assignment]
        return [m.decode() for m in members]

    def rows_of(self, game_ids: list[str]) -> list[Row | None]:
        if not game_ids:
            return []
        raw: list[bytes | None] = self.redis.hmget(self.key, game_ids)  # type: ignore[assignment]
        return [json.loads(r) if r else None for r in raw]

    def row(self, game_id: str) -> Row | None:
        raw = self.redis.hget(self.key, game_id)
        return json.loads(raw) if raw else None

    def rows(self) -> dict[str, Row]:
        found: dict[bytes, bytes] = self.redis.hgetall(self.key)  # type: ignore[assignment]
        return {k.decode(): json.loads(v) for k, v in found.items()}

    def drop(self) -> None:
        indexes: set[bytes] = self.redis.smembers(self.indexes_key)  # type: ignore[assignment]
        self.redis.delete(*self.keys, *(self.index_key(i.decode()) for i in indexes))
