"""The game index: one row per game for the lobby listing, folded from the global feed.

A row says what a game is (its game, its options as resolved, its seats) and
how far it has got (lobby, running, ended; its version). It reads only the
service's own events, so it indexes every hosted game alike. The rows are a
projection (``events.projections.RowProjection``): deleting them loses
nothing, ``holotape rebuild`` folds them again.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from events.envelope import Envelope
from service.usecases.errors import Refused
from service.usecases.ports import GameRows

Row = dict[str, Any]
_SEAT_KINDS = {"SeatJoined": "human", "SeatLeft": "open", "SeatHandedToBot": "bot"}


def apply_row(row: Row, envelope: Envelope) -> Row:
    """The row of ``envelope``'s game after it."""
    row = dict(row)
    data = envelope.data
    if envelope.type == "GameCreated":
        row.update(
            game_id=envelope.game_id,
            game=data["game"],
            seats=len(data["seats"]),
            options=data["options"],
            seat_kinds=[s["kind"] for s in data["seats"]],
            names=[s.get("name") for s in data["seats"]],
            status="lobby",
            created_at=envelope.timestamp,
        )
    kinds = list(row.get("seat_kinds", []))
    names = list(row.get("names", []))
    if envelope.type in _SEAT_KINDS and data["seat"] < len(kinds):
        kinds[data["seat"]] = _SEAT_KINDS[envelope.type]
        names[data["seat"]] = data.get("name")
    row.update(seat_kinds=kinds, names=names, open_seats=kinds.count("open"))
    if envelope.type == "GameStarted":
        row.update(status="running", started_at=envelope.timestamp)
    # The service reveals the seed in the batch that ends a game, whatever the game.
    if envelope.type == "SeedRevealed":
        row["status"] = "ended"
        row.setdefault("ended_at", envelope.timestamp)
    row["version"] = envelope.version
    row["updated_at"] = envelope.timestamp
    return row


def summary(row: Row) -> dict[str, Any]:
    names = row.get("names") or [None] * row["seats"]
    options = row.get("options") or {}
    return {
        "game_id": row["game_id"],
        "game": row["game"],
        "options": options,
        "scenario": options.get("scenario"),
        "status": row.get("status", "running"),
        "version": row["version"],
        "seats": [
            {"seat": i, "kind": kind, "name": names[i], "bot": None}
            for i, kind in enumerate(row.get("seat_kinds") or ["human"] * row["seats"])
        ],
        "open_seats": row.get("open_seats", 0),
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
    }


def encode_cursor(key: tuple[str, str]) -> str:
    return base64.urlsafe_b64encode(json.dumps(list(key)).encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[str, str]:
    try:
        key = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        if isinstance(key, list) and len(key) == 2 and all(isinstance(k, str) for k in key):
            return key[0], key[1]
    except (binascii.Error, ValueError):
        pass
    raise Refused("bad_cursor", "cursor is not a next_cursor this server gave out", Refused.BAD_REQUEST)


def _sort_key(row: Row) -> tuple[str, str]:
    return row.get("created_at", ""), row.get("game_id", "")


class GameIndex:
    def __init__(self, rows: GameRows):
        self.rows = rows

    def page(
        self,
        *,
        game: str | None = None,
        scenario: str | None = None,
        status: str | None = None,
        min_open_seats: int | None = None,
        cursor: str | None = None,
        limit: int = 20,
    ) -> dict[str, Any]:
        """Games newest first, filtered; ``cursor`` is the ``next_cursor`` of the page
        before (a page never repeats or skips a game when new games arrive meanwhile).

        One read of every row and a sort: fine for the thousands of games one
        server hosts; a sorted set per filter is the step beyond that.
        """
        after = decode_cursor(cursor) if cursor is not None else None
        self.rows.catch_up()
        rows = sorted(self.rows.rows().values(), key=_sort_key, reverse=True)
        wanted = [
            row
            for row in rows
            if (game is None or row.get("game") == game)
            and (scenario is None or (row.get("options") or {}).get("scenario") == scenario)
            and (status is None or row.get("status") == status)
            and (min_open_seats is None or row.get("open_seats", 0) >= min_open_seats)
            and (after is None or _sort_key(row) < after)
        ]
        page = wanted[:limit]
        more = len(wanted) > limit and page
        return {
            "games": [summary(r) for r in page],
            "next_cursor": encode_cursor(_sort_key(page[-1])) if more else None,
        }

    def row(self, game_id: str) -> Row | None:
        self.rows.catch_up()
        return self.rows.row(game_id)
