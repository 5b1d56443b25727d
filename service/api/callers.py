"""Who is asking: the bearer token of a request, and what it may do in a game.

A seat token acts for and sees as its seat; the creator token manages the
lobby and sees as a spectator; no token sees as a spectator. A token that
holds nothing in the game is refused (403) rather than downgraded, so a
client with a stale or mistyped token finds out at once.

A player token acts for the seat bound to its player in the game, and as the
creator too if the player created it; a player with two seats there names
the one it acts as in the ``Holotape-Seat`` header (docs/players.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Request, current_app, g, request

from service.api.problems import Problem
from service.usecases.players import is_player_token
from service.usecases.ports import CREATOR, Holder
from service.usecases.queries import seat_of
from service.usecases.services import Services


def services() -> Services:
    found: Services = current_app.extensions["holotape.services"]
    return found


def bearer(asking: Request | None = None) -> str | None:
    """The request's bearer token (``asking``: the request, when the caller holds it already)."""
    header = (request if asking is None else asking).headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


#: The header a player token names its seat with, when its player holds two in one game.
SEAT_HEADER = "Holotape-Seat"


def chosen_seat() -> int | None:
    raw = request.headers.get(SEAT_HEADER)
    if raw is None:
        return None
    if not raw.strip().isdigit() or len(raw.strip()) > 3:
        raise Problem(400, "bad_seat_header", f"{SEAT_HEADER} is a seat's number, e.g. 1")
    return int(raw.strip())


@dataclass(frozen=True)
class Caller:
    token: str | None
    holder: Holder | None
    #: A player token: whose player also holds the game's creator role.
    player_creator: bool = False
    #: Whether the token is a player's (not a seat's or a creator's).
    player: bool = False

    @property
    def seat(self) -> int | None:
        """The seat whose view this caller gets (None: a spectator's)."""
        return seat_of(self.holder)

    @property
    def is_creator(self) -> bool:
        return (self.holder is not None and self.holder.kind == CREATOR) or self.player_creator


def caller(game_id: str) -> Caller:
    token = bearer()
    if token is None:
        return Caller(None, None)
    # Whether the token held something here: the rate limits count it against
    # the token, or against the address as a failed authentication (service.api.app).
    g.authenticated = False
    if is_player_token(token):
        acting = services().players.acting(game_id, token, chosen_seat())
        g.authenticated = True
        return Caller(token, acting.holder, player_creator=acting.creator, player=True)
    holder = services().queries.holder(game_id, token)
    g.authenticated = True
    return Caller(token, holder)


def token_required() -> Problem:
    return Problem(
        401,
        "token_required",
        "send your token as 'Authorization: Bearer <token>'",
        headers={"WWW-Authenticate": 'Bearer realm="holotape"'},
    )


def seat_holder(game_id: str) -> int:
    """The seat the caller holds; 401 without a token, 403 with a token that holds no seat."""
    who = caller(game_id)
    if who.token is None:
        raise token_required()
    if who.seat is None:
        raise Problem(403, "not_a_seat_token", "only a seat's token may do this")
    return who.seat


def creator(game_id: str) -> Caller:
    who = caller(game_id)
    if who.token is None:
        raise token_required()
    if not who.is_creator:
        raise Problem(403, "not_the_creator", "only the game's creator token may do this")
    return who


def token_holder(game_id: str) -> Caller:
    who = caller(game_id)
    if who.token is None:
        raise token_required()
    return who
