"""Playing over HTTP: look at the game, list what you may do, do it.

Every view passes through the game's own ``view`` for the caller's seat (a
spectator's without a seat token). Posting an action requires ``If-Match``
with the version the client decided on, so a client never acts on a game it
has not seen (428 without it, 412 when the game has moved on), and honours
``Idempotency-Key`` so a retry after a lost answer acts once
(the ``IdempotentRequests`` port).
"""

from __future__ import annotations

from typing import Any

from flask import Request, Response, g, request
from flask.globals import request_ctx
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import INCLUDE, Schema, fields, validate

from events.envelope import canonical_json
from events.log import ConcurrencyError
from service.api.answers import json_answer
from service.api.callers import caller, seat_holder, services
from service.api.problems import Problem
from service.api.schemas import (
    EXAMPLE_GAME_ID,
    EXAMPLE_TOLD,
    MAX_VERSION,
    SEED_SOURCE,
    EventSchema,
    FieldOptions,
    SeatSchema,
)
from service.usecases.ports import IN_FLIGHT, MISMATCH, REPLAY, fingerprint

blp = Blueprint("games", __name__, url_prefix="/games", description="Play a game")

IF_MATCH: dict[str, Any] = {
    "in": "header",
    "name": "If-Match",
    "required": True,
    "description": 'The version the command was decided on (the ETag of the state), e.g. `"12"`',
    "schema": {"type": "string", "pattern": '^(W/)?"?[0-9]{1,12}"?$', "example": '"12"'},
}
IDEMPOTENCY_KEY: dict[str, Any] = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "description": "Any unique string (a UUID): a retry with the same key and body gets the first answer",
    "schema": {"type": "string", "pattern": "^[!-~]{1,128}$", "example": "5b4a1c52-8d0e-4f43-9a8e-2c1b7d3e6f90"},
}
MAX_COMMAND_BYTES = 4096
ETAG = {"ETag": {"description": 'The game\'s version, quoted: `"12"`', "schema": {"type": "string"}}}


def etag(version: int) -> dict[str, str]:
    return {"ETag": f'"{version}"'}


def expected_version(asking: Request | None = None) -> int:
    """The version in If-Match (``asking``: the request, when the caller holds it already)."""
    value = (request if asking is None else asking).headers.get("If-Match")
    if value is None:
        raise Problem(
            428, "if_match_required", 'send If-Match with the version you decided on (the state\'s ETag), e.g. "12"'
        )
    value = value.strip().removeprefix("W/").strip('"')
    if not value.isdigit() or len(value) > 12:
        raise Problem(400, "bad_if_match", 'If-Match takes the game\'s version, e.g. "12"')
    return int(value)


def idempotency_key(asking: Request | None = None) -> str | None:
    key = (request if asking is None else asking).headers.get("Idempotency-Key")
    if key is None:
        return None
    if not 1 <= len(key) <= 128 or not all("!" <= c <= "~" for c in key):
        raise Problem(400, "bad_idempotency_key", "Idempotency-Key takes 1-128 printable ASCII characters")
    return key


# -- schemas ----------------------------------------------------------------


class UndoOfferSchema(Schema):
    to_version = fields.Integer(required=True, metadata={"description": "The version an undo goes back to"})
    text = fields.String(required=True, metadata={"description": "The move it takes back, in words",
                                                   "example": "Take back: you add 2, making 9."})


class ProposalSchema(Schema):
    id = fields.Integer(required=True, metadata={"description": "The version of the proposal's event"})
    kind = fields.String(required=True, metadata={"description": "rewind or fork"})
    to_version = fields.Integer(required=True)
    by = fields.Integer(required=True)
    accepted = fields.List(fields.Integer(), required=True)


class ClockSchema(Schema):
    seat = fields.Integer(required=True)
    since = fields.Integer(required=True, metadata={"description": "The version the seat's wait began at"})
    deadline = fields.String(required=True, metadata={"description": "When the seat's time runs out (UTC)"})
    reminder = fields.String(allow_none=True, required=True, metadata={"description": "When it is reminded"})


class StateArgs(Schema):
    at = fields.Integer(
        validate=validate.Range(1, MAX_VERSION),
        metadata={"description": "Time travel: the view as it was right after this version", "example": 12},
    )

#: The pending decision in words, on the state and the actions alike.
PROMPT: FieldOptions = {
    "allow_none": True,
    "metadata": {
        "description": "What the game waits for now, in plain English as this caller may read it; "
        "null before the start, once over, and while nobody is waited on",
        "example": "Seat 0 must add 1, 2 or 3 to the total of 7 (50 wins).",
    },
}


class SeatContributionSchema(Schema):
    seat = fields.Integer(required=True)
    contribution = fields.String(required=True)


class StateSchema(Schema):
    game_id = fields.String(required=True)
    game = fields.String(required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True, metadata={"description": "lobby, running or ended"})
    seat = fields.Integer(allow_none=True, metadata={"description": "The seat this view is for"})
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    waiting_for = fields.List(fields.Integer(), required=True)
    over = fields.Boolean(required=True)
    proposal = fields.Nested(ProposalSchema, allow_none=True, required=True)
    seed_commitment = fields.String(
        required=True, metadata={"description": "sha256 of the server's secret, published at creation"}
    )
    seed_source = fields.String(required=True, **SEED_SOURCE)
    seed = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The server's secret, revealed when the game ends (docs/audit.md derives the "
            "seed from it and the contributions)"},
    )
    contributions = fields.List(
        fields.Nested(SeatContributionSchema),
        required=True,
        metadata={"description": "Each seat's contribution to the seed, public as soon as given; fixed at the start"},
    )
    view = fields.Dict(required=True, metadata={"description": "The game as this seat may see it (the game's View schema)"})
    prompt = fields.String(required=True, **PROMPT)
    clocks = fields.List(
        fields.Nested(ClockSchema),
        required=True,
        metadata={"description": "Play by post: the running clock of each player the game waits on"},
    )


class CommandSchema(Schema):
    """A command exactly as listed by GET /games/{id}/actions (the game's Command schemas).

    Only its ``type`` is read here; the game checks the rest against the
    command's own schema and refuses unknown fields.
    """

    class Meta:
        unknown = INCLUDE

    type = fields.String(required=True, validate=validate.Length(1, 64), metadata={"example": "add"})
    text = fields.String(
        metadata={"description": "The action's words as GET /games/{id}/actions lists them: accepted and left out, "
                  "never part of the command the game reads or the log keeps"},
    )


COMMAND_SCHEMA = CommandSchema()


def _well_formed(body: dict[str, Any]) -> bool:
    """Whether ``COMMAND_SCHEMA`` loads ``body`` as it is (its two fields are strings, ``type`` 1-64 long)."""
    kind, text = body.get("type"), body.get("text", "")
    return isinstance(kind, str) and 1 <= len(kind) <= 64 and isinstance(text, str)


class ActionsSchema(Schema):
    game_id = fields.String(required=True)
    game = fields.String(required=True, metadata={"description": "Which game (the schemas of its commands and events)"})
    version = fields.Integer(required=True, metadata={"description": "Send it back as If-Match"})
    seat = fields.Integer(allow_none=True)
    actions = fields.List(
        fields.Dict(),
        required=True,
        metadata={"description": "Each one a complete body to POST here, with its `text`: the command in words for "
                  "this seat, as a button says it (posting it back with `text` is fine: it is left out)"},
    )
    prompt = fields.String(required=True, **PROMPT)
    undo = fields.Nested(
        UndoOfferSchema,
        allow_none=True,
        metadata={"description": "When the caller may take back its last move (POST /games/{id}/undo), where "
                  "that goes back to and the move in words; else null"},
    )


class ActedSchema(Schema):
    game_id = fields.String(required=True)
    game = fields.String(required=True, metadata={"description": "Which game (the schemas of its commands and events)"})
    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)


EXAMPLE_STATE = {
    "game_id": EXAMPLE_GAME_ID,
    "game": "…",
    "version": 12,
    "status": "running",
    "seat": 0,
    "seats": [
        {"seat": 0, "kind": "human", "name": "Alice", "bot": None},
        {"seat": 1, "kind": "human", "name": "Bob", "bot": None},
    ],
    "waiting_for": [0],
    "over": False,
    "proposal": None,
    "seed_commitment": "5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8",
    "seed_source": "server",
    "seed": None,
    "contributions": [{"seat": 0, "contribution": "b7e0c4f19a2d6e83"}, {"seat": 1, "contribution": "3c9f5a1e7d2b8046"}],
    "view": {},
    "prompt": "Seat 0 must add 1, 2 or 3 to the total of 7 (50 wins).",
    "clocks": [{"seat": 0, "since": 11, "deadline": "2026-11-22T10:15:00.000000Z", "reminder": "2026-11-22T05:27:00.000000Z"}],
}


# -- views ------------------------------------------------------------------


@blp.route("/<game_id>/state")
class GameState(MethodView):
    @blp.arguments(StateArgs, location="query")
    @blp.response(200, StateSchema, example=EXAMPLE_STATE, headers=ETAG)
    @blp.alt_response(422, description="`at` is past the game's version")
    @blp.doc(operationId="getState")
    def get(self, args: dict[str, Any], game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
        """The game as the caller may see it, now or (`at`) right after an earlier version.

        The ETag is the version; send it back as If-Match when posting an action.
        """
        seat = caller(game_id).seat
        body = services().queries.state(game_id, seat, args.get("at"))
        return body, 200, etag(body["version"])


@blp.route("/<game_id>/actions")
class GameActions(MethodView):
    def dispatch_request(self, **kwargs: Any) -> Any:
        # The hot path: a well-formed command goes straight to the action. The
        # decorators below (webargs' parse, flask-smorest's response and doc
        # wrappers) would only load it with the same schema and pass the
        # Response through: an eighth of the request's time in the worker.
        # Anything else takes the decorated path, which answers it as before.
        if request.method == "POST":
            body = g.get("json_body")  # parsed and checked once (service.api.inputs)
            if isinstance(body, dict) and _well_formed(body):
                return _act(dict(body), kwargs["game_id"])
        return super().dispatch_request(**kwargs)

    @blp.response(
        200,
        ActionsSchema,
        headers=ETAG,
        example={
            "game_id": EXAMPLE_GAME_ID,
            "version": 12,
            "seat": 0,
            "actions": [
                {"type": "add", "amount": 1, "text": "Add 1 to the total of 7"},
                {"type": "add", "amount": 2, "text": "Add 2 to the total of 7"},
                {"type": "redraw", "text": "Redraw your secret"},
            ],
            "prompt": "You must add 1, 2 or 3 to the total of 7 (50 wins).",
            "undo": {"to_version": 11, "text": "Take back: you add 2, making 9."},
        },
    )
    @blp.doc(operationId="listActions")
    def get(self, game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
        """Every command the caller's seat may post now, each a complete body (none for a spectator)."""
        seat = caller(game_id).seat
        body = services().queries.actions(game_id, seat)
        offered = services().undo.offer(game_id, seat)
        # Only an offer made at the version listed: the game may have moved on between the two reads.
        body["undo"] = offered if offered is None or body["version"] == services().games.load(game_id).version else None
        return body, 200, etag(body["version"])

    # An instance, made once: given the class, webargs makes one on every request.
    @blp.arguments(COMMAND_SCHEMA, example={"type": "add", "amount": 2})
    @blp.response(
        200,
        ActedSchema,
        headers={**ETAG, "Idempotent-Replayed": {"description": "true: the answer to an earlier request with this key", "schema": {"type": "string"}}},
        example={"game_id": EXAMPLE_GAME_ID, "version": 14, "events": [EXAMPLE_TOLD]},
    )
    @blp.alt_response(400, description="A malformed If-Match or Idempotency-Key")
    @blp.alt_response(401, description="No seat token")
    @blp.alt_response(403, description="The token holds no seat in this game")
    @blp.alt_response(409, description="Not allowed now (the problem names the rule), or the same key still in flight")
    @blp.alt_response(412, description="If-Match names a version the game has moved past (see current_version)")
    @blp.alt_response(422, description="Not a command of this game, or an Idempotency-Key reused with another body")
    @blp.alt_response(428, description="No If-Match")
    @blp.doc(parameters=[IF_MATCH, IDEMPOTENCY_KEY], operationId="postAction")
    def post(self, command: dict[str, Any], game_id: str) -> Response:
        """Post one command for the caller's seat, decided on the version in If-Match."""
        return _act(command, game_id)


def _act(command: dict[str, Any], game_id: str) -> Response:
    """The action, its command loaded by ``COMMAND_SCHEMA`` (``GameActions.post``)."""
    seat = seat_holder(game_id)
    asking, served = request_ctx.request, services()  # each read through Flask's proxies looks them up again
    expected = expected_version(asking)
    # An action posted back as GET …/actions listed it carries its words: they are no part of the command.
    command = {key: value for key, value in command.items() if key != "text"}
    if len(canonical_json(command)) > MAX_COMMAND_BYTES:
        # The command is kept in the log for good (CommandAccepted): no ballast.
        raise Problem(422, "command_too_large", f"a command takes at most {MAX_COMMAND_BYTES} bytes of JSON")
    key = idempotency_key(asking)
    if key is not None:
        replay = _begin_idempotent(game_id, seat, key, dict(command))
        if replay is not None:
            return replay
    try:
        acted = served.games.act(
            game_id, seat, dict(command), expected_version=expected, idempotency_key=key,
            allowances=g.get("allowances"),  # the rate limits, judged by the append (service.api.app)
        )  # fmt: skip
    except ConcurrencyError as moved:
        raise Problem(
            412,
            "stale_version",
            f"the game is at version {moved.current}, not {expected}",
            headers=etag(moved.current),
            current_version=moved.current,
        ) from moved
    # Built by the service from its own records: not dumped through ActedSchema again (service.api.answers).
    return json_answer(served.queries.acted(acted, seat), 200, etag(acted.version))


def _begin_idempotent(game_id: str, seat: int, key: str, body: dict[str, Any]) -> Response | None:
    """Start an idempotent request; returns the stored answer to replay, if any."""
    requests = services().requests
    name = requests.key_for(game_id, f"seat{seat}", key)
    print_ = fingerprint(request.method, request.path, body)
    begun = requests.begin(name, print_)
    if begun.outcome == MISMATCH:
        raise Problem(422, "idempotency_key_reused", "this Idempotency-Key was used with another request")
    if begun.outcome == IN_FLIGHT:
        raise Problem(409, "idempotency_key_in_flight", "a request with this Idempotency-Key is still running")
    if begun.outcome == REPLAY:
        stored = begun.response
        assert stored is not None, "a replay carries the stored answer"
        headers = {**stored["headers"], "Idempotent-Replayed": "true"}
        return Response(stored["body"], status=stored["status"], headers=headers)
    g.idempotent_request = (name, print_)  # finished or released after the response
    return None
