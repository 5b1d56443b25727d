"""Games over HTTP: create, look, list what you may do, act, read the log.

Who is asking is told by a bearer token: a seat token (handed out once, at
creation) acts for and sees as that seat; no token sees as a spectator. Every
view and every event passes through the game's own redaction for that seat.
"""

from __future__ import annotations

from typing import Any

from flask import current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import INCLUDE, Schema, ValidationError, fields, validate

from domain import registry
from domain.game import Event
from events.store import ConcurrencyError
from service.api.problems import Problem
from service.application import Games

blp = Blueprint("games", __name__, url_prefix="/games", description="Create and play games")


def _games() -> Games:
    return current_app.extensions["holotape.games"]


def _bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _caller_seat(game_id: str) -> int | None:
    """The seat the caller's token holds; None for a caller without a token."""
    token = _bearer()
    if token is None:
        return None
    seat = _games().seat_for_token(game_id, token)
    if seat is None:
        _games().load(game_id)  # 404 before 403 for a game that does not exist
        raise Problem(403, "token_not_for_this_game", "the token holds no seat in this game")
    return seat


def _acting_seat(game_id: str) -> int:
    seat = _caller_seat(game_id)
    if seat is None:
        raise Problem(
            401,
            "token_required",
            "send the seat token as 'Authorization: Bearer <token>'",
            headers={"WWW-Authenticate": 'Bearer realm="holotape"'},
        )
    return seat


def _expected_version() -> int | None:
    value = request.headers.get("If-Match")
    if value is None:
        return None
    value = value.strip().removeprefix("W/").strip('"')
    if not value.isdigit():
        raise Problem(400, "bad_if_match", "If-Match takes the game's version, e.g. \"12\"")
    return int(value)


# -- schemas ----------------------------------------------------------------


def _unknown_game(name: str) -> bool:
    raise ValidationError(f"unknown game {name!r}; this server hosts {', '.join(registry.names())}")



class CreateGameSchema(Schema):
    game = fields.String(
        load_default="fallout",
        # Checked when called, not at import: hosts may register more games.
        validate=lambda name: name in registry.names() or _unknown_game(name),
        metadata={"description": "Which game (`fallout`)", "example": "fallout"},
    )
    seats = fields.Integer(
        required=True, validate=validate.Range(1, 4), metadata={"description": "Number of seats", "example": 2}
    )
    scenario = fields.String(metadata={"description": "Scenario id (default: the pack's first)"})
    seed = fields.String(
        validate=validate.Length(1, 128),
        metadata={"description": "Fix the game's secret seed (tests, replays); default: random"},
    )
    survivors = fields.List(
        fields.String(), metadata={"description": "Survivor ids by seat; seats left out choose in play"}
    )


class SeatTokenSchema(Schema):
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={"description": "Shown once; send as a bearer token"})


class CreatedSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    seats = fields.List(fields.Nested(SeatTokenSchema), required=True)
    creator_token = fields.String(required=True)


class StateSchema(Schema):
    game_id = fields.String(required=True)
    game = fields.String(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(allow_none=True, metadata={"description": "The seat this view is for"})
    waiting_for = fields.List(fields.Integer(), required=True)
    over = fields.Boolean(required=True)
    view = fields.Dict(required=True, metadata={"description": "The game as this seat may see it"})


class CommandSchema(Schema):
    """A command exactly as listed by GET /games/{id}/actions."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(required=True, validate=validate.Length(1, 64), metadata={"example": "move"})


class ActionsSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(allow_none=True)
    actions = fields.List(fields.Dict(), required=True)


class EventSchema(Schema):
    version = fields.Integer(required=True)
    type = fields.String(required=True)
    data = fields.Dict(required=True)
    timestamp = fields.String(required=True)
    actor = fields.String(required=True)
    hash = fields.String(required=True)
    prev_hash = fields.String(required=True)


class ActedSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)


class EventPageArgs(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0))
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 1000))


class EventPageSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)
    next_after = fields.Integer(allow_none=True)


# -- views ------------------------------------------------------------------


def _redacted(games: Games, record, envelopes, seat: int | None) -> list[dict[str, Any]]:
    module = record.module
    over = module.is_over(record.state)
    out = []
    for envelope in envelopes:
        event = Event(envelope.type, envelope.data)
        if not over and envelope.type != "GameCreated":
            event = module.redact(event, seat)
        out.append(
            {
                "version": envelope.version,
                "type": event.type,
                "data": event.data,
                "timestamp": envelope.timestamp,
                "actor": envelope.actor,
                "hash": envelope.hash,
                "prev_hash": envelope.prev_hash,
            }
        )
    return out


@blp.route("")
class GameCollection(MethodView):
    @blp.arguments(CreateGameSchema, example={"game": "fallout", "seats": 2, "seed": "demo"})
    @blp.response(201, CreatedSchema)
    def post(self, body):
        """Create a game; the answer holds one secret token per seat, shown once."""
        games = _games()
        seats = [{"seat": i, "kind": "human", "name": None, "bot": None} for i in range(body["seats"])]
        options = {k: v for k, v in body.items() if k not in ("game", "seats")}
        created = games.create(body["game"], options, seats)
        return {
            "game_id": created.game_id,
            "version": created.version,
            "seats": [{"seat": s, "token": t} for s, t in sorted(created.seat_tokens.items())],
            "creator_token": created.creator_token,
        }


@blp.route("/<game_id>/state")
class GameState(MethodView):
    @blp.response(200, StateSchema)
    def get(self, game_id: str):
        """The game as the caller may see it; the ETag is the game's version."""
        games = _games()
        seat = _caller_seat(game_id)
        loaded = games.load(game_id)
        record = loaded.state
        module = record.module
        body = {
            "game_id": game_id,
            "game": record.game,
            "version": loaded.version,
            "seat": seat,
            "waiting_for": module.waiting_for(record.state),
            "over": module.is_over(record.state),
            "view": module.view(record.state, seat),
        }
        return body, 200, {"ETag": f'"{loaded.version}"'}


@blp.route("/<game_id>/actions")
class GameActions(MethodView):
    @blp.response(200, ActionsSchema)
    def get(self, game_id: str):
        """Every command the caller's seat may post now, each a complete body."""
        games = _games()
        seat = _caller_seat(game_id)
        loaded = games.load(game_id)
        record = loaded.state
        actions = [] if seat is None else record.module.legal_actions(record.state, seat)
        return (
            {"game_id": game_id, "version": loaded.version, "seat": seat, "actions": actions},
            200,
            {"ETag": f'"{loaded.version}"'},
        )

    @blp.arguments(CommandSchema, example={"type": "move"})
    @blp.response(200, ActedSchema)
    @blp.alt_response(401, description="No seat token")
    @blp.alt_response(403, description="The token holds no seat in this game")
    @blp.alt_response(409, description="Not allowed now (the problem names the rule), or a lost race")
    @blp.alt_response(412, description="If-Match names a version the game has moved past")
    @blp.alt_response(422, description="Not a command of this game")
    def post(self, command, game_id: str):
        """Post one command for the caller's seat, optionally at the version in If-Match."""
        games = _games()
        seat = _acting_seat(game_id)
        expected = _expected_version()
        if expected is not None:
            current = games.store.version(game_id)
            if current != expected:
                raise Problem(
                    412,
                    "stale_version",
                    f"the game is at version {current}",
                    current_version=current,
                )
        try:
            acted = games.act(
                game_id,
                seat,
                dict(command),
                expected_version=expected,
                idempotency_key=request.headers.get("Idempotency-Key"),
            )
        except ConcurrencyError as moved:
            if expected is None:
                raise
            raise Problem(
                412, "stale_version", f"the game is at version {moved.current}", current_version=moved.current
            ) from moved
        loaded = games.load(game_id)
        envelopes = games.store.read(game_id, acted.version - len(acted.events) + 1, acted.version)
        return (
            {
                "game_id": game_id,
                "version": acted.version,
                "events": _redacted(games, loaded.state, envelopes, seat),
            },
            200,
            {"ETag": f'"{loaded.version}"'},
        )


@blp.route("/<game_id>/events")
class GameEvents(MethodView):
    @blp.arguments(EventPageArgs, location="query")
    @blp.response(200, EventPageSchema)
    def get(self, args, game_id: str):
        """The event log as the caller may see it, a page at a time."""
        games = _games()
        seat = _caller_seat(game_id)
        loaded = games.load(game_id)
        after, limit = args["after"], args["limit"]
        envelopes = games.store.read(game_id, after + 1, min(after + limit, loaded.version))
        events = _redacted(games, loaded.state, envelopes, seat)
        last = events[-1]["version"] if events else after
        return {
            "game_id": game_id,
            "version": loaded.version,
            "events": events,
            "next_after": last if last < loaded.version else None,
        }
