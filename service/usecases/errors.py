"""How a use case refuses: a kind, not an HTTP status.

The domain's ``RuleViolation`` says whether a command could ever be right
(``Refusal``); the service adds the refusals only it makes (who may do
what, what exists). ``service.api.problems`` holds the one table from kind
to status.
"""

from __future__ import annotations

import enum

from domain.game import Refusal, RuleViolation


class Rejection(enum.Enum):
    #: The caller may not do this (not a player, not the creator).
    FORBIDDEN = "forbidden"
    #: What the request names does not exist (a seat, a proposal).
    NOT_FOUND = "not_found"
    #: The request itself is malformed, whatever the game (a cursor this server never gave out).
    BAD_REQUEST = "bad_request"


Kind = Refusal | Rejection


class Refused(RuleViolation):
    """A request the service refuses; it changes nothing."""

    NOT_NOW = Refusal.NOT_NOW
    MALFORMED = Refusal.MALFORMED
    FORBIDDEN = Rejection.FORBIDDEN
    NOT_FOUND = Rejection.NOT_FOUND
    BAD_REQUEST = Rejection.BAD_REQUEST

    def __init__(self, code: str, message: str, kind: Kind = Refusal.NOT_NOW, rule: str | None = None):
        super().__init__(code, message, rule=rule)
        self.kind = kind  # type: ignore[assignment]  # the service widens the domain's kinds


class GameNotFound(Exception):
    def __init__(self, game_id: str):
        super().__init__(f"no game {game_id}")
        self.game_id = game_id
