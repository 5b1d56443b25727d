"""Players: one identity across games, the seats bound to it, and its inbox.

A player token acts for the seats bound to its player and for nothing else
(docs/players.md). A seat is bound by presenting its seat token (once); a
game created or a seat joined or an invitation taken with a player token
binds the seats it hands out the same way. A binding lasts while the seat
token it was made with is the seat's (``service.adapters.players``).

Bindings are account data, not game facts: they are never in the game's log
(nothing in a game's stream, export or audit tells which player holds a
seat), so a game's log means the same whoever its players are.

When a player holds two seats of one game (a table played on one device, or
two invitations taken), it names the seat it acts as (the ``Holotape-Seat``
header); it is refused rather than given one view or the other.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any

from service.usecases import clock
from service.usecases.errors import GameNotFound, Refused
from service.usecases.games import Games
from service.usecases.index import GameIndex, decode_cursor, encode_cursor, summary
from service.usecases.ports import CREATOR, SEAT, Holder, Player, PlayerStore
from service.usecases.queries import Queries
from service.usecases.words import prompt

#: Inbox filters: what waits for the player, games running, games over, games in their lobby.
WAITING, RUNNING, ENDED, LOBBY = "waiting", "running", "ended", "lobby"
FILTERS = (WAITING, RUNNING, ENDED, LOBBY)
#: How often a long poll of the inbox looks again (seconds): a round trip for the bindings of all
#: the player's games, and one for the versions of those a seat is held in.
POLL_EVERY = 0.25


def is_player_token(token: str) -> bool:
    """A player token holds a dot (``<player_id>.<secret>``); a seat's or creator's token never does."""
    return "." in token


@dataclass(frozen=True)
class Acting:
    """What a player token acts as in one game."""

    player: Player
    holder: Holder
    creator: bool  # the player also holds the game's creator role


def _no_player() -> Refused:
    return Refused("unknown_player_token", "the token is no player's (rotated, or mistyped)", Refused.FORBIDDEN)


class Players:
    def __init__(self, games: Games, store: PlayerStore, index: GameIndex, queries: Queries):
        self.games = games
        self.store = store
        self.index = index
        self.queries = queries

    # -- the player ----------------------------------------------------------------

    def create(self, name: str, email: str | None = None) -> tuple[Player, str]:
        return self.store.create(name, email)

    def me(self, token: str) -> Player:
        found = self.store.by_token(token)
        if found is None:
            raise _no_player()
        return found

    def rotate(self, token: str) -> str:
        fresh = self.store.rotate(token)
        if fresh is None:
            raise _no_player()
        return fresh

    # -- seats -----------------------------------------------------------------------

    def bind_seat(self, player: Player, game_id: str, seat_token: str) -> Holder:
        """Bind the seat (or creator role) ``seat_token`` holds in ``game_id`` to ``player``."""
        holder = self.games.tokens.holder(game_id, seat_token)
        if holder is None:
            self.games.load(game_id)  # no such game reads as such
            raise Refused("token_not_for_this_game", "the seat token holds nothing in this game", Refused.FORBIDDEN)
        if not self.store.bind(player.player_id, game_id, holder, seat_token):
            raise Refused("token_not_for_this_game", "the seat token was revoked meanwhile", Refused.FORBIDDEN)
        return holder

    def bind_issued(self, player: Player, game_id: str, issued: dict[Holder, str]) -> None:
        """Bind the holders whose tokens were just handed out (a game created, a seat joined)."""
        for holder, token in issued.items():
            self.store.bind(player.player_id, game_id, holder, token)

    def acting(self, game_id: str, token: str, seat: int | None) -> Acting:
        """What ``token`` (a player's) acts as in ``game_id``: the seat it names, or its only seat there."""
        player = self.me(token)
        held = self.store.bound(game_id, player.player_id)
        seats = [h.seat for h in held if h.kind == SEAT]
        creator = any(h.kind == CREATOR for h in held)
        if not held:
            self.games.load(game_id)  # no such game reads as such
            raise Refused("token_not_for_this_game", "this player holds nothing in this game", Refused.FORBIDDEN)
        if seat is not None:
            if seat not in seats:
                raise Refused("not_your_seat", f"this player holds no seat {seat} in this game", Refused.FORBIDDEN)
            return Acting(player, Holder(SEAT, seat), creator)
        if len(seats) > 1:
            raise Refused(
                "seat_required",
                f"this player holds seats {', '.join(map(str, seats))} of this game: name one with the Holotape-Seat header",
                Refused.BAD_REQUEST,
            )
        return Acting(player, Holder(SEAT, seats[0]) if seats else Holder(CREATOR), creator)

    # -- the inbox ---------------------------------------------------------------------

    def held_now(self, player: Player) -> list[tuple[str, int, int]]:
        """Each (game, seat, version) the player holds now: what the inbox is made of, and its ETag."""
        bound = self.store.bound_in(self.store.games(player.player_id), player.player_id)
        seats = {game_id: [h.seat for h in held if h.kind == SEAT and h.seat is not None] for game_id, held in bound.items()}
        playing = [game_id for game_id, held in seats.items() if held]
        versions = self.games.store.versions(playing)
        return [(game_id, seat, version) for game_id, version in zip(playing, versions, strict=True) for seat in seats[game_id]]

    def stamp(self, held: list[tuple[str, int, int]], args: Any) -> str:
        """The inbox's ETag: it changes whenever a game of the player moves, or a seat is bound or freed."""
        return hashlib.sha256(repr((sorted(held), args)).encode()).hexdigest()[:32]

    def wait_for_change(self, player: Player, args: Any, etag: str, seconds: float) -> tuple[list[tuple[str, int, int]], str]:
        """The player's seats and the inbox's ETag, once it differs from ``etag`` or after ``seconds``."""
        until = time.monotonic() + seconds
        while True:
            held = self.held_now(player)
            now = self.stamp(held, args)
            if now != etag or time.monotonic() >= until:
                return held, now
            time.sleep(POLL_EVERY)

    def inbox(
        self, held: list[tuple[str, int, int]], status: str | None, cursor: str | None, limit: int
    ) -> dict[str, Any]:
        """The player's games, those waiting for the player first (soonest deadline first), then the
        others by their last change, newest first; one entry per seat held."""
        after = _cursor_key(cursor) if cursor is not None else None
        self.index.rows.catch_up()
        game_ids = sorted({g for g, _, _ in held})
        rows = dict(zip(game_ids, self.index.rows.rows_of(game_ids), strict=True))
        entries = []
        for game_id, seat, _ in held:
            row = rows.get(game_id)
            if row is None or "game_id" not in row:
                continue
            try:
                entry = self._entry(game_id, seat, row)
            except GameNotFound:
                continue
            if _passes(entry, status):
                entries.append(entry)
        entries.sort(key=_sort_key)
        if after is not None:
            entries = [e for e in entries if _sort_key(e) > after]
        page = entries[:limit]
        more = len(entries) > limit
        return {
            "games": page,
            "next_cursor": encode_cursor(_encode_key(_sort_key(page[-1]))) if more and page else None,
        }

    def _entry(self, game_id: str, seat: int, row: dict[str, Any]) -> dict[str, Any]:
        loaded = self.games.load(game_id)
        record = loaded.state
        waiting_for = record.module.waiting_for(record.state) if record.started and not record.over else []
        deadline = next((c.due for c in clock.clocks(record) if c.seat == seat), None)
        last = None
        if loaded.version:
            told = self.queries.events(game_id, seat, loaded.version - 1, 1)["events"]
            if told:
                last = {"version": told[-1]["version"], "type": told[-1]["type"], "text": told[-1].get("text")}
        listed = summary(row)
        return {
            "game_id": game_id,
            "game": record.game,
            "options": listed["options"],
            "status": record.status,
            "version": loaded.version,
            "seat": seat,
            "seats": [dict(s) for s in record.seats],
            "waiting": seat in waiting_for,
            "waiting_for": list(waiting_for),
            "prompt": prompt(record, seat),
            "deadline": clock.iso(deadline) if deadline is not None else None,
            "last_event": last,
            "updated_at": listed["updated_at"],
        }


def _passes(entry: dict[str, Any], status: str | None) -> bool:
    if status is None:
        return True
    if status == WAITING:
        return bool(entry["waiting"])
    return bool(entry["status"] == status)


def _sort_key(entry: dict[str, Any]) -> tuple[int, str, str, str, int]:
    """Waiting first, soonest deadline first; then the newest change first."""
    if entry["waiting"]:
        return (0, entry["deadline"] or "~", "", entry["game_id"], entry["seat"])
    return (1, "", _descending(entry["updated_at"]), entry["game_id"], entry["seat"])


def _descending(text: str) -> str:
    """A string that sorts in the opposite order to ``text`` (ISO times, ASCII)."""
    return "".join(chr(0x7F - ord(c)) for c in text)


def _encode_key(key: tuple[int, str, str, str, int]) -> tuple[str, str]:
    return f"{key[0]}|{key[1]}|{key[2]}", f"{key[3]}|{key[4]}"


def _cursor_key(cursor: str) -> tuple[int, str, str, str, int]:
    first, second = decode_cursor(cursor)
    try:
        rank, deadline, updated = first.split("|")
        game_id, seat = second.split("|")
        return int(rank), deadline, updated, game_id, int(seat)
    except ValueError:
        raise Refused("bad_cursor", "the cursor is not one this server gave out", Refused.BAD_REQUEST) from None
