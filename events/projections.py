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
        data = envelope.data
        if envelope.type == "GameCreated":
            row.update(
                game_id=envelope.game_id,
                game=data["game"],
                seats=len(data["seats"]),
                options=data["options"],
                scenario=data["options"].get("scenario"),
                seat_kinds=[s["kind"] for s in data["seats"]],
                names=[s.get("name") for s in data["seats"]],
                status="lobby",
                created_at=envelope.timestamp,
            )
        kinds = list(row.get("seat_kinds", []))
        names = list(row.get("names", []))
        if envelope.type in ("SeatJoined", "SeatLeft", "SeatHandedToBot") and data["seat"] < len(kinds):
            seat = data["seat"]
            kinds[seat] = {"SeatJoined": "human", "SeatLeft": "open", "SeatHandedToBot": "bot"}[envelope.type]
            names[seat] = data.get("name")
        row.update(seat_kinds=kinds, names=names, open_seats=kinds.count("open"))
        if envelope.type == "GameStarted":
            row.update(status="running", started_at=envelope.timestamp)
        # GameEnded is every game module's last word; SeedRevealed the service's.
        if envelope.type in ("GameEnded", "SeedRevealed"):
            row["status"] = "ended"
            row.setdefault("ended_at", envelope.timestamp)
        row["version"] = envelope.version
        row["updated_at"] = envelope.timestamp
        row["last_event"] = envelope.type
        return row

    def page(
        self,
        *,
        game: str | None = None,
        scenario: str | None = None,
        status: str | None = None,
        min_open_seats: int | None = None,
        after: tuple[str, str] | None = None,
        limit: int = 20,
    ) -> tuple[list[dict[str, Any]], tuple[str, str] | None]:
        """Rows newest first, filtered; ``after`` is the sort key of the last
        row of the page before (so a page never repeats or skips a game when
        new games arrive meanwhile). Returns the rows and the key to go on from.

        One HGETALL and a sort: fine for the thousands of games one server
        hosts; a sorted set per filter is the step to take beyond that.
        """
        rows = sorted(self.rows().values(), key=_sort_key, reverse=True)
        wanted = [
            row
            for row in rows
            if (game is None or row.get("game") == game)
            and (scenario is None or row.get("scenario") == scenario)
            and (status is None or row.get("status") == status)
            and (min_open_seats is None or row.get("open_seats", 0) >= min_open_seats)
            and (after is None or _sort_key(row) < after)
        ]
        page = wanted[:limit]
        more = len(wanted) > limit
        return page, _sort_key(page[-1]) if more and page else None

    def row(self, game_id: str) -> dict[str, Any] | None:
        raw = self.redis.hget(GAME_INDEX_KEY, game_id)
        return json.loads(raw) if raw else None

    def rows(self) -> dict[str, dict[str, Any]]:
        return {k.decode(): json.loads(v) for k, v in self.redis.hgetall(GAME_INDEX_KEY).items()}

    def drop(self) -> None:
        self.redis.delete(*self.keys)


def _sort_key(row: dict[str, Any]) -> tuple[str, str]:
    return row.get("created_at", ""), row.get("game_id", "")
