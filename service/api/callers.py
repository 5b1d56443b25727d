"""Who is asking: the bearer token of a request, and what it may do in a game.

A seat token acts for and sees as its seat; the creator token manages the
lobby and sees as a spectator; no token sees as a spectator. A token that
holds nothing in the game is refused (403) rather than downgraded, so a
client with a stale or mistyped token finds out at once.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app, g, request

from service.api.problems import Problem
from service.usecases.ports import CREATOR, Holder
from service.usecases.queries import seat_of
from service.usecases.services import Services


def services() -> Services:
    found: Services = current_app.extensions["holotape.services"]
    return found


def bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


@dataclass(frozen=True)
class Caller:
    token: str | None
    holder: Holder | None

    @property
    def seat(self) -> int | None:
        """The seat whose view this caller gets (None: a spectator's)."""
        return seat_of(self.holder)

    @property
    def is_creator(self) -> bool:
        return self.holder is not None and self.holder.kind == CREATOR


def caller(game_id: str) -> Caller:
    token = bearer()
    if token is None:
        return Caller(None, None)
    # Whether the token held something here: the rate limits count it against
    # the token, or against the address as a failed authentication (service.api.app).
    g.authenticated = False
    holder = services().queries.holder(game_id, token)
    g.authenticated = True
    return Caller(token, holder)


def _token_required() -> Problem:
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
        raise _token_required()
    if who.seat is None:
        raise Problem(403, "not_a_seat_token", "only a seat's token may do this")
    return who.seat


def creator(game_id: str) -> Caller:
    who = caller(game_id)
    if who.token is None:
        raise _token_required()
    if not who.is_creator:
        raise Problem(403, "not_the_creator", "only the game's creator token may do this")
    return who


def token_holder(game_id: str) -> Caller:
    who = caller(game_id)
    if who.token is None:
        raise _token_required()
    return who
