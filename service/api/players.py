"""Players over HTTP: create one, rotate its token, bind seats to it, and its inbox.

A player token (``<player_id>.<secret>``) is sent as a bearer token like a
seat's. On /players/me… it names the player; on /games/{id}… it acts for the
seat bound to the player in that game (``service.api.callers``), naming it
with the ``Holotape-Seat`` header when the player holds two seats there.
docs/players.md says it for client authors.
"""

from __future__ import annotations

from typing import Any

from flask import Response, g, jsonify, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import EXCLUDE, Schema, fields, validate

from domain import registry
from service.api.callers import bearer, services, token_required
from service.api.problems import Problem
from service.api.schemas import EXAMPLE_GAME_ID, SeatSchema
from service.usecases.players import FILTERS, is_player_token
from service.usecases.ports import PLAYER_BUCKET, Player

blp = Blueprint("players", __name__, url_prefix="/players", description="Players across games: the inbox")

EXAMPLE_PLAYER_ID = "5f3a9c1e7b2d4f60"
EXAMPLE_PLAYER_TOKEN = f"{EXAMPLE_PLAYER_ID}.Jq3v9ZkP2xWm7RtY4nB8cL1sD6fH0gAe"
#: The longest long poll of the inbox (seconds): a connection is never held longer.
MAX_WAIT = 30


class CreatePlayerSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(1, 40), metadata={"example": "Alice"})
    email = fields.Email(
        validate=validate.Length(3, 254),
        metadata={"description": "Where notifications go, once confirmed (docs/players.md); optional"},
    )


class PlayerSchema(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    email = fields.String(allow_none=True, metadata={"description": "Shown only to the player itself"})
    email_confirmed = fields.Boolean(required=True)
    created_at = fields.String(required=True)


class CreatedPlayerSchema(PlayerSchema):
    token = fields.String(
        required=True, metadata={"description": "The player token, shown once; send as a bearer token"}
    )


class PlayerTokenSchema(Schema):
    player_id = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": "The new player token, shown once"})


class BindSeatSchema(Schema):
    game_id = fields.String(required=True, validate=validate.Length(1, 64), metadata={"example": EXAMPLE_GAME_ID})
    token = fields.String(
        required=True,
        validate=validate.Length(1, 200),
        metadata={"description": "The seat's token (or the game's creator token)", "example": "q8Vv3mT0b1xYcR7n2LkP9sWd4FgH6jZa"},
    )


class BoundSchema(Schema):
    game_id = fields.String(required=True)
    seat = fields.Integer(allow_none=True, metadata={"description": "The seat bound; null: the creator role"})


class LastEventSchema(Schema):
    version = fields.Integer(required=True)
    type = fields.String(required=True)
    text = fields.String(allow_none=True, metadata={"description": "The event in words, as the seat reads it"})


class InboxEntrySchema(Schema):
    game_id = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(required=True, metadata={"description": "The game's options as it resolved them"})
    status = fields.String(required=True, metadata={"description": "lobby, running or ended"})
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True, metadata={"description": "The player's seat in this game"})
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    waiting = fields.Boolean(required=True, metadata={"description": "True: the game waits for this seat now"})
    waiting_for = fields.List(fields.Integer(), required=True, metadata={"description": "The seats it waits for"})
    prompt = fields.String(allow_none=True, metadata={"description": "What the game waits for, in words for the seat"})
    deadline = fields.String(allow_none=True, metadata={"description": "When the seat's play-by-post time runs out"})
    last_event = fields.Nested(LastEventSchema, allow_none=True)
    updated_at = fields.String(required=True)


class InboxSchema(Schema):
    games = fields.List(fields.Nested(InboxEntrySchema), required=True)
    next_cursor = fields.String(allow_none=True, metadata={"description": "null on the last page"})


class InboxArgs(Schema):
    status = fields.String(
        validate=validate.OneOf(FILTERS),
        metadata={"description": "waiting (for this player), running, ended or lobby; left out: every game",
                  "example": "waiting"},
    )
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 100), metadata={"example": 20})
    cursor = fields.String(
        validate=validate.Length(1, 300),
        metadata={"description": "`next_cursor` of the page before", "example": "WyIxfHx_fn4iLCAiM2YyY3wwIl0"},
    )
    wait = fields.Integer(
        load_default=0,
        validate=validate.Range(0, MAX_WAIT),
        metadata={
            "description": "A long poll: with If-None-Match, wait up to this many seconds for the inbox to change "
            "(a game of the player moves on, a seat is bound or freed); 304 if it did not",
            "example": 25,
        },
    )


EXAMPLE_PLAYER = {
    "player_id": EXAMPLE_PLAYER_ID,
    "name": "Alice",
    "email": None,
    "email_confirmed": False,
    "created_at": "2026-11-21T10:15:00Z",
}
EXAMPLE_ENTRY = {
    "game_id": EXAMPLE_GAME_ID,
    "game": registry.builtin_names()[0],
    "options": {},
    "status": "running",
    "version": 41,
    "seat": 0,
    "seats": [{"seat": 0, "kind": "human", "name": "Alice", "bot": None}, {"seat": 1, "kind": "bot", "name": None, "bot": "greedy"}],
    "waiting": True,
    "waiting_for": [0],
    "prompt": "Alice (seat 0): take an action (2 left this turn).",
    "deadline": "2026-11-22T10:15:00.000000Z",
    "last_event": {"version": 41, "type": "CommandAccepted", "text": "The greedy bot (seat 1) ends its turn."},
    "updated_at": "2026-11-21T10:15:00.000000Z",
}
class InboxHeaders(Schema):
    class Meta:
        unknown = EXCLUDE  # every other header of the request

    if_none_match = fields.String(
        data_key="If-None-Match",
        validate=validate.Length(max=100),
        metadata={"description": "The inbox's last ETag: 304 while it is the same (with `wait`, after waiting "
                  "for a change)", "example": '"9c1f0e7a2b4d6f8e0a1c3e5f7b9d1f3a"'},
    )


def player_body(player: Player) -> dict[str, Any]:
    return {
        "player_id": player.player_id,
        "name": player.name,
        "email": player.email,
        "email_confirmed": player.email_confirmed,
        "created_at": player.created_at,
    }


def creating_a_player() -> None:
    """Count a player's creation against the client's address; 429 past its allowance (RATE_LIMIT_PLAYERS)."""
    limiter = services().rate_limits
    verdict = limiter.hit(PLAYER_BUCKET, str(request.remote_addr)) if limiter is not None else None
    if verdict is not None and not verdict.allowed:
        raise Problem(429, "rate_limited", f"too many players created from this address; try again in "
                      f"{verdict.retry_after} s", headers={"Retry-After": str(verdict.retry_after)})  # fmt: skip


def me() -> tuple[Player, str]:
    """The player whose token the request carries; 401 without one, 403 if it is no player's."""
    token = bearer()
    if token is None:
        raise token_required()
    if not is_player_token(token):
        raise Problem(403, "unknown_player_token", "this is a seat's or a creator's token, not a player's")
    # As for a game's tokens (service.api.app): a token that names nobody counts as a failed authentication.
    g.authenticated = False
    player = services().players.me(token)
    g.authenticated = True
    return player, token


@blp.route("")
class PlayerCollection(MethodView):
    @blp.arguments(CreatePlayerSchema, example={"name": "Alice"})
    @blp.response(201, CreatedPlayerSchema, example={**EXAMPLE_PLAYER, "token": EXAMPLE_PLAYER_TOKEN})
    @blp.doc(operationId="createPlayer")
    def post(self, body: dict[str, Any]) -> tuple[dict[str, Any], int]:
        """Create a player: one identity across games; the answer holds its token, shown once."""
        creating_a_player()
        player, token = services().players.create(body["name"], None)
        if body.get("email"):
            services().player_notices.set_email(player, body["email"])  # the confirmation mail
            player = services().players.me(token)
        return {**player_body(player), "token": token}, 201


@blp.route("/me")
class Me(MethodView):
    @blp.response(200, PlayerSchema, example=EXAMPLE_PLAYER)
    @blp.doc(operationId="getPlayer")
    def get(self) -> dict[str, Any]:
        """The player the token names."""
        return player_body(me()[0])


@blp.route("/me/token")
class MyToken(MethodView):
    @blp.response(200, PlayerTokenSchema, example={"player_id": EXAMPLE_PLAYER_ID, "token": EXAMPLE_PLAYER_TOKEN})
    @blp.doc(operationId="rotatePlayerToken")
    def post(self) -> dict[str, Any]:
        """Replace the player token with a new one; the old one stops working at once."""
        player, token = me()
        return {"player_id": player.player_id, "token": services().players.rotate(token)}


@blp.route("/me/seats")
class MySeats(MethodView):
    @blp.arguments(BindSeatSchema, example={"game_id": EXAMPLE_GAME_ID, "token": "q8Vv3mT0b1xYcR7n2LkP9sWd4FgH6jZa"})
    @blp.response(201, BoundSchema, example={"game_id": EXAMPLE_GAME_ID, "seat": 1})
    @blp.doc(operationId="bindSeat")
    def post(self, body: dict[str, Any]) -> tuple[dict[str, Any], int]:
        """Bind a seat you hold to the player by presenting the seat's token once.

        From then on the player token acts for that seat, for as long as the
        seat token it was bound with is the seat's (leaving the seat, or
        rotating its token, ends the binding). The seat token keeps working.
        """
        player, _ = me()
        holder = services().players.bind_seat(player, body["game_id"], body["token"])
        return {"game_id": body["game_id"], "seat": holder.seat}, 201


@blp.route("/me/games")
class MyGames(MethodView):
    @blp.arguments(InboxArgs, location="query")
    @blp.arguments(InboxHeaders, location="headers")
    @blp.response(200, InboxSchema, example={"games": [EXAMPLE_ENTRY], "next_cursor": None})
    @blp.alt_response(304, description="Not modified: the inbox is as the ETag sent in If-None-Match")
    @blp.doc(
        operationId="listMyGames",
        responses={200: {"headers": {"ETag": {"description": "The inbox's version", "schema": {"type": "string"}}}}},
    )
    def get(self, args: dict[str, Any], headers: dict[str, Any]) -> Response:
        """The player's games, those waiting for the player first; one entry per seat held.

        Each entry has the game, its options, the seat, what the game waits
        for in words, the deadline and the last event in words. Filter with
        `status`; page with `cursor`. The ETag changes when any of the games
        moves on: send it as If-None-Match with `wait` to wait for a change.
        """
        player, _ = me()
        players = services().players
        key = (args.get("status"), args.get("cursor"), args["limit"])
        sent = (headers.get("if_none_match") or "").strip().strip('"')
        held = players.held_now(player)
        etag = players.stamp(held, key)
        if sent and sent == etag and args["wait"]:
            held, etag = players.wait_for_change(player, key, sent, float(args["wait"]))
        if sent and sent == etag:
            response = Response(status=304)
        else:
            response = jsonify(InboxSchema().dump(players.inbox(held, args.get("status"), args.get("cursor"), args["limit"])))
        response.headers["ETag"] = f'"{etag}"'
        response.headers["Cache-Control"] = "private, no-cache"
        return response
