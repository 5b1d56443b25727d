"""The game index: one row per game for the lobby listing, folded from the global feed.

A row says what a game is (its game, its options as resolved, its seats) and
how far it has got (lobby, running, ended; its version). It reads only the
service's own events, so it indexes every hosted game alike. The rows are a
projection (``events.projections.RowProjection``): deleting them loses
nothing, ``holotape rebuild`` folds them again.

The listing reads sorted indexes of the rows (``listing_indexes``), one per
combination of the filters clients use most (game, status, having an open
seat), each ordered newest first by creation time and game id. A page walks
the one index its filters name and checks the rest (the options a game lists,
``Game.listed_options``; more than one open seat) on the rows it meets, so it costs the same at 100 or 100,000
games. A page whose rarer filters match few of the rows it may look at
(``SCAN_ROWS``) comes back short, with a ``next_cursor`` to go on.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable
from typing import Any

from domain import registry
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
            seed_source=data.get("seed_source", "server"),
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


def turns(waiting_for: Callable[[str], list[int]]) -> Callable[[str, Row], Row]:
    """The row's ``waiting_for`` (the seats the game waits on, the lobby's "whose turn"), from the game
    itself: the service's own events do not say it. Asked when the row is written, so it is as current
    as the row."""

    def enrich(game_id: str, row: Row) -> Row:
        return {"waiting_for": waiting_for(game_id) if row.get("status") == "running" else []}

    return enrich


def listed(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options ``game`` shows in the lobby (``Game.listed_options``), as the game resolved them."""
    try:
        names = registry.game_module(game).listed_options
    except registry.UnknownGame:  # a row of a game this server no longer hosts
        names = ()
    return {name: options.get(name) for name in names}


def option_value(value: Any) -> str:
    """An option's value as a filter names it: a string as itself, anything else as JSON (``null``, ``true``, ``2``)."""
    return value if isinstance(value, str) else json.dumps(value)


def summary(row: Row) -> dict[str, Any]:
    names = row.get("names") or [None] * row["seats"]
    options = row.get("options") or {}
    return {
        "game_id": row["game_id"],
        "game": row["game"],
        "options": options,
        "listed": listed(row["game"], options),
        "status": row.get("status", "running"),
        "version": row["version"],
        "seats": [
            {"seat": i, "kind": kind, "name": names[i], "bot": None}
            for i, kind in enumerate(row.get("seat_kinds") or ["human"] * row["seats"])
        ],
        "open_seats": row.get("open_seats", 0),
        "waiting_for": row.get("waiting_for", []),
        "seed_source": row.get("seed_source", "server"),
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


#: Rows a page may look at before it comes back short (with a cursor to go on).
SCAN_ROWS = 1000
_ANY = "*"


def _sort_key(row: Row) -> tuple[str, str]:
    return row.get("created_at", ""), row.get("game_id", "")


def _member(key: tuple[str, str]) -> str:
    return "|".join(key)  # created_at has a fixed width: the bytes order as the pair


def _index_name(game: str, status: str, open_seat: str) -> str:
    return f"game={game}|status={status}|open={open_seat}"


def listing_indexes(row: Row) -> dict[str, str]:
    """The sorted indexes ``row`` belongs to, each with its member (created_at|game_id)."""
    if "game_id" not in row:
        return {}
    member = _member(_sort_key(row))
    opens = [_ANY, "yes"] if row.get("open_seats", 0) >= 1 else [_ANY]
    return {
        _index_name(game, status, open_seat): member
        for game in (_ANY, row["game"])
        for status in (_ANY, row.get("status", "running"))
        for open_seat in opens
    }


#: Feed entries a listing request may apply itself before it reads: the index is kept current by
#: the workers (``keep``), so a request pays for a bounded backlog only, never for a whole burst.
READ_CATCH_UP = 50


class GameIndex:
    def __init__(self, rows: GameRows, read_catch_up: int = READ_CATCH_UP):
        self.rows = rows
        self.read_catch_up = read_catch_up

    def keep(self) -> int:
        """Apply everything the feed holds after the index (what a worker does, every ``KEEP_SECONDS``)."""
        return self.rows.catch_up()

    def page(
        self,
        *,
        game: str | None = None,
        options: dict[str, str] | None = None,
        status: str | None = None,
        min_open_seats: int | None = None,
        cursor: str | None = None,
        limit: int = 20,
    ) -> dict[str, Any]:
        """Games newest first, filtered; ``cursor`` is the ``next_cursor`` of the page
        before (a page never repeats or skips a game when new games arrive meanwhile).
        ``options``: listed options and the values they must have (``option_value``).
        """
        wanted = options or {}
        before = _member(decode_cursor(cursor)) if cursor is not None else None
        self.rows.catch_up(limit=self.read_catch_up)
        index = _index_name(game or _ANY, status or _ANY, "yes" if (min_open_seats or 0) >= 1 else _ANY)
        found: list[Row] = []
        scanned = 0
        while len(found) <= limit and scanned < SCAN_ROWS:
            members = self.rows.index_page(index, before, min(limit + 1, SCAN_ROWS - scanned))
            if not members:
                return {"games": [summary(r) for r in found], "next_cursor": None}
            rows = self.rows.rows_of([m.rpartition("|")[2] for m in members])
            for member, row in zip(members, rows, strict=True):
                before = member
                if (
                    row is not None
                    and all(option_value((row.get("options") or {}).get(k)) == v for k, v in wanted.items())
                    and (min_open_seats is None or row.get("open_seats", 0) >= min_open_seats)
                ):
                    found.append(row)
                    if len(found) > limit:
                        break
            scanned += len(members)
        page = found[:limit]
        if len(found) > limit:  # one more than the page: go on after its last
            created_at, game_id = _sort_key(page[-1])
        else:  # a scan cut short: go on after the last row looked at
            created_at, _, game_id = (before or "").partition("|")
        return {"games": [summary(r) for r in page], "next_cursor": encode_cursor((created_at, game_id))}

    def row(self, game_id: str) -> Row | None:
        """The game's row as of its last event: the stored row brought up to date from the game's own
        stream, so one game's entry is exact however far the index is behind."""
        return self.rows.current_row(game_id)
