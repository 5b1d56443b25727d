"""RFC 9457 problem details for every error the API returns.

Each problem carries a stable, machine-readable ``code`` that clients switch
on; ``title`` and ``detail`` are for people. Nothing here ever shows a stack
trace: an unexpected exception becomes a bare 500 ``internal_error`` (and is
logged), because a 5xx is a bug to fix, not a message to a client.
"""

from __future__ import annotations

import http
import logging
from typing import Any

from flask import Response, json
from marshmallow import Schema, fields
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from domain.game import Refusal
from service.usecases.errors import Kind, Rejection

PROBLEM_JSON = "application/problem+json"

log = logging.getLogger(__name__)

# Codes for the errors Flask, werkzeug and webargs raise on their own (every
# other problem names its code where it is raised); docs/api.md lists them all.
CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    500: "internal_error",
}


#: The one table from a refusal's kind (the domain's and the service's) to its status.
STATUS_OF: dict[Kind, int] = {
    Refusal.NOT_NOW: 409,  # legal in general, not now: the problem names the rule
    Refusal.MALFORMED: 422,  # never right for this game: unknown command, field or space
    Rejection.FORBIDDEN: 403,
    Rejection.NOT_FOUND: 404,
    Rejection.BAD_REQUEST: 400,
}

#: The statuses a game's own refusal may answer with, its code the rule's (``domain.game.RuleViolation``).
RULE_STATUSES = (STATUS_OF[Refusal.NOT_NOW], STATUS_OF[Refusal.MALFORMED])

#: Every problem code the API answers, by status, with what it means. The API
#: document lists each status's codes from here (``service.api.errordocs``) and
#: docs/api.md's table says the same; tests/service/test_error_codes.py finds
#: every code the source raises and fails on one that is not here. Besides these,
#: a game's rules refuse with codes of their own (``RULE_STATUSES``, with ``rule``),
#: which each game declares (``Game.refusals``) and the document lists from there.
CATALOG: dict[int, dict[str, str]] = {
    400: {
        "bad_if_match": "If-Match is not a version: send the state's ETag",
        "bad_idempotency_key": "Idempotency-Key takes 1-128 printable ASCII characters (16 at least to join)",
        "bad_last_event_id": "Last-Event-ID is not an event's id (a version)",
        "bad_cursor": "`cursor` is not a `next_cursor` this server gave out",
        "malformed_json": "the body is not JSON (or not UTF-8, or holds `NaN`/`Infinity`)",
        "json_too_deep": "the body nests more than 32 levels",
        "number_out_of_range": "an integer beyond ±(2^53 − 1), or a number no double holds: send I-JSON (RFC 7493)",
        "invalid_string": "a string or member name holds a lone UTF-16 surrogate",
        "bad_request": "the HTTP request itself is malformed (what the server's parser refuses); the connection closes",
        "seat_required": "the player holds two seats of this game: name one in the `Holotape-Seat` header",
        "bad_seat_header": "`Holotape-Seat` is not a seat's number",
    },
    401: {"token_required": "this needs a token: `Authorization: Bearer <token>`"},
    403: {
        "forbidden": "a proxy header from an address not trusted with it (the HTTP server's own check)",
        "token_not_for_this_game": "the token holds nothing in this game",
        "not_a_seat_token": "only a seat's token may do this",
        "not_the_creator": "only the game's creator token may do this",
        "not_your_seat": "a seat token acts for its own seat only",
        "not_a_player": "only a player's seat (not a bot's) may do this",
        "unknown_player_token": "the token is no player's (a seat's, a creator's, rotated or mistyped)",
        "player_token": "a player token is rotated at `POST /players/me/token`, not a game's",
    },
    404: {
        "game_not_found": "no such game",
        "no_such_seat": "the game has no such seat",
        "no_such_proposal": "no open proposal by that id",
        "no_such_webhook": "no such webhook",
        "bad_confirmation": "no address waits for this confirmation code",
        "bad_unsubscribe_link": "this unsubscribe link is not one we sent",
        "no_such_invitation": "no such invitation: never made, taken, revoked or expired (one answer for all)",
        "not_found": "no such path",
    },
    405: {"method_not_allowed": "not this method here; `Allow` lists those that are"},
    408: {"body_timeout": "the body did not arrive in time; the connection closes"},
    409: {
        "not_started": "the game has not started yet",
        "seat_taken": "the seat is not open",
        "seat_open": "nobody plays that seat",
        "no_open_seat": "every seat is taken",
        "seats_open": "seats are still open: fill them or hand them to bots",
        "no_player": "nobody sits at that seat",
        "already_a_bot": "a bot already holds the seat",
        "already_started": "the game has started",
        "seed_fixed": "the seed is fixed: a contribution would change nothing",
        "game_over": "the game is over",
        "nothing_to_do": "the command changed nothing",
        "proposal_pending": "another proposal is still open",
        "already_accepted": "this seat has accepted already",
        "nothing_to_undo": "no move of yours in this turn to take back: it is not your turn, or the last move is "
        "another's (ask the others to rewind)",
        "undo_after_reveal": "your last move showed something hidden: only a rewind by agreement takes it back",
        "undo_after_chance": "your last move rolled dice or drew from a deck: only a rewind by agreement takes it back",
        "idempotency_key_in_flight": "a request with this Idempotency-Key is still running",
        "no_turn_timer": "the game has no turn clock",
        "no_vacation_left": "the seat has no vacation days left",
        "too_many_webhooks": "the game has as many webhooks as it may",
        "version_conflict": "another write won a race inside the server (see `current_version`): read the state "
        "and decide again",
    },
    412: {"stale_version": "If-Match names a past version; see `current_version`"},
    413: {"payload_too_large": "the body is over 64 KiB"},
    414: {"request_line_too_long": "the request line is over 4,094 bytes"},
    415: {"unsupported_media_type": "send the body as `application/json`"},
    417: {"expectation_failed": "an `Expect` header other than `100-continue`"},
    422: {
        "invalid_request": "a field or a query parameter out of its range (see `errors`)",
        "unknown_game": "this server hosts no such game",
        "bad_seats": "a seat count outside the game's range",
        "bad_options": "an option the game does not know, or out of its range",
        "unknown_command": "not a command of this game",
        "bad_command": "a field the command's schema does not know, or a value out of its range",
        "command_too_large": "a command takes at most 4 KiB of JSON",
        "no_such_version": "the game has no such version yet",
        "bad_version": "not a version the game can go back to",
        "not_a_resting_point": "that version is in the middle of a move",
        "game_over": "the game was over at that version",
        "no_such_seat": "the game has no such seat",
        "seats_open": "a game cannot start with seats open",
        "idempotency_key_reused": "this Idempotency-Key came with another request",
        "too_many_players": "more players than seats",
        "bad_bot_seats": "give each bot its own seat, none of the players'",
        "unknown_bot": "no such bot level",
        "webhook_url_refused": "not an http(s) URL, or one that points at a private address",
        "seed_not_allowed": "this server takes a chosen seed only for a game with no seat left open",
    },
    428: {"if_match_required": "posting an action needs If-Match"},
    429: {
        "rate_limited": "too many requests: wait `Retry-After` seconds",
        "too_many_streams": "this token (or address) has as many open streams as it may; close one",
    },
    431: {"headers_too_large": "over 100 headers, or one over 8,190 bytes"},
    500: {"internal_error": "a bug (it is logged); nothing a client did"},
    501: {"not_implemented": "a `Transfer-Encoding` the server does not support"},
    503: {
        "store_unavailable": "the event store does not answer: wait `Retry-After` seconds and try again (a write "
        "may or may not have been done: retry it with the same Idempotency-Key or If-Match)",
        "streams_busy": "this server holds as many streams as it may; wait `Retry-After` seconds",
        "index_behind": "the lobby listing has not caught up with a game just created; try again",
    },
}


def codes() -> list[str]:
    """Every code in the catalogue, once each, sorted."""
    return sorted({code for by_code in CATALOG.values() for code in by_code})


class ProblemSchema(Schema):
    """A problem detail (RFC 9457) with Holotape's ``code`` member."""

    type = fields.String(metadata={"description": "A URI reference naming the problem type"})
    title = fields.String(metadata={"description": "A short summary of the problem type"})
    status = fields.Integer(metadata={"description": "The HTTP status code"})
    detail = fields.String(metadata={"description": "What went wrong this time"})
    code = fields.String(
        required=True,
        metadata={
            "description": "Stable machine-readable error code, one of `ProblemCode`'s: those the error "
            "response lists (`x-problem-codes`), or, on a 409 or 422 refusal by a game's rules, one of that "
            "game's (`x-rule-codes`), with `rule`"
        },
    )
    rule = fields.String(metadata={"description": "The Rules Reference topic that applies (a game's refusal)"})
    errors = fields.Dict(metadata={"description": "Validation errors by location and field (`invalid_request`)"})
    current_version = fields.Integer(
        metadata={"description": "The game's version now (`stale_version`, `version_conflict`)"}
    )


class StaleVersionSchema(ProblemSchema):
    """412 ``stale_version``: the problem with the game's version now; decide again on it."""

    current_version = fields.Integer(required=True, metadata={"description": "The game's version now"})


class Problem(HTTPException):
    """Raise from a view to answer with a problem."""

    def __init__(
        self, status: int, code: str, detail: str | None = None, headers: dict | None = None, **extra: Any
    ):
        super().__init__(description=detail)
        self.code = status
        self.problem_code = code
        self.problem_headers = headers or {}
        self.extra = extra


def problem_response(
    status: int, code: str, detail: str | None = None, headers: dict | None = None, **extra: Any
) -> Response:
    body = {
        "type": f"/problems/{code}",
        "title": http.HTTPStatus(status).phrase,
        "status": status,
        "code": code,
    }
    if detail:
        body["detail"] = detail
    body.update({k: v for k, v in extra.items() if v is not None})
    response = Response(json.dumps(body), status=status, mimetype=PROBLEM_JSON)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


#: Seconds a client waits before trying again while Redis is away.
RETRY_AFTER_UNAVAILABLE = 2


def unavailable_response() -> Response:
    """503: the store does not answer now (down, paused, failing over); nothing is lost by trying again."""
    return problem_response(
        503,
        "store_unavailable",
        "the event store does not answer; try again shortly (a write may or may not have been done: "
        "retry it with the same Idempotency-Key or If-Match)",
        headers={"Retry-After": str(RETRY_AFTER_UNAVAILABLE)},
    )


def from_http_exception(error: HTTPException) -> Response:
    status = error.code or 500
    if isinstance(error, Problem):
        return problem_response(
            status, error.problem_code, error.description, error.problem_headers, **error.extra
        )
    if status >= 500:
        original = getattr(error, "original_exception", None)
        if original is not None:
            log.error("unhandled error", exc_info=original)
        return problem_response(status, "internal_error", "internal error")
    data = getattr(error, "data", None) or {}
    headers = dict(data.get("headers") or {})
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        headers["Allow"] = ", ".join(error.valid_methods)
    errors = data.get("errors") or data.get("messages")
    detail = data.get("message") or (error.description if error.description else None)
    if errors and status == 422:
        detail = "the request did not validate"
    return problem_response(
        status, CODES.get(status, http.HTTPStatus(status).name.lower()), detail, headers, errors=errors
    )
