"""The lobby over HTTP: create and list games, take and leave seats, start.

Creating a game hands out, once, a creator token (start the game, remove a
player before the start, give a seat to a bot) and a token for each seat
taken at creation. Anyone may take an open seat under a display name and
gets that seat's token, once. Listing reads the game index projection,
caught up first, so a game shows up as soon as its creation is answered.
"""

from __future__ import annotations

from typing import Any

from flask import current_app, url_for
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from bots import LEVELS
from domain import registry
from service.api.callers import bearer, creator, seat_holder, services, token_holder
from service.api.games import IDEMPOTENCY_KEY, idempotency_key
from service.api.problems import Problem
from service.api.schemas import EXAMPLE_GAME_ID, SEED_SOURCE, ChangedSchema, SeatSchema
from service.usecases import genesis
from service.usecases.index import summary
from service.usecases.players import is_player_token
from service.usecases.ports import CREATOR, SEAT, Holder, Player
from service.usecases.record import BOT, HUMAN, OPEN

blp = Blueprint("lobby", __name__, url_prefix="/games", description="Create, find and join games")

NAME = validate.Length(1, 40)
EXAMPLE_TOKEN = "q8Vv3mT0b1xYcR7n2LkP9sWd4FgH6jZa"
EXAMPLE_SEATS = [
    {"seat": 0, "kind": "human", "name": "Alice", "bot": None},
    {"seat": 1, "kind": "open", "name": None, "bot": None},
]


MIN_CLAIM = 16
JOIN_KEY: dict[str, Any] = {
    **IDEMPOTENCY_KEY,
    "description": "A secret only you know (a random UUID; 16 characters at least): sending the join again "
    "with it gets the seat it took, with a new token, if the first answer was lost",
    "schema": {**IDEMPOTENCY_KEY["schema"], "pattern": "^[!-~]{16,128}$"},
}

#: A bound on seats for any game, before the game's own range applies.
MAX_SEATS = 16
#: The table's own settings (play by post, bots), kept beside the game's options.
SETTINGS = ("turn_seconds", "on_timeout", "timeout_bot", "reminder", "vacation_days", "bot_budget_ms")


def _default_game() -> str:
    return registry.builtin_names()[0]


def _known_game(name: str) -> bool:
    try:
        registry.game_module(name)  # also finds the games HOLOTAPE_GAMES adds
    except registry.UnknownGame:
        raise ValidationError(f"unknown game {name!r}; this server hosts {', '.join(registry.names())}") from None
    return True


class BotSeatSchema(Schema):
    seat = fields.Integer(required=True, validate=validate.Range(0, MAX_SEATS - 1), metadata={"example": 1})
    level = fields.String(
        load_default="greedy", validate=validate.OneOf(LEVELS), metadata={"description": "random, greedy or planner"}
    )


class CreateGameSchema(Schema):
    game = fields.String(
        load_default=_default_game,
        # Checked when called, not at import: hosts may register more games.
        validate=_known_game,
        metadata={"description": "Which game: one this server hosts (each has its `…Options` schema below); "
            "default: the first it ships"},
    )
    seats = fields.Integer(
        required=True,
        validate=validate.Range(1, MAX_SEATS),
        metadata={"description": "Number of seats, within the game's own range", "example": 2},
    )
    options = fields.Dict(
        metadata={"description": "The game's own options (its `…Options` schema); left out: every default"},
    )
    players = fields.List(
        fields.String(validate=NAME),
        validate=validate.Length(max=MAX_SEATS),
        metadata={
            "description": "Display names of the seats taken now, from seat 0; the other seats stay "
            "open for anyone to join. Left out: every seat is taken now (one device passed around)."
        },
    )
    start = fields.Boolean(
        metadata={"description": "Start at once (default: when no seat is open); else the creator starts it"}
    )
    seed = fields.String(
        validate=validate.Length(1, 128),
        metadata={"description": "Fix the game's seed (tests, replays); default: a secret random one. A chosen "
            "seed lets its chooser know every hidden card, so the game shows `seed_source: creator` to every "
            "seat and in the listing"},
    )
    bots = fields.List(
        fields.Nested(BotSeatSchema),
        validate=validate.Length(max=MAX_SEATS),
        metadata={"description": "Seats a bot holds from the start (docs/bots.md); not among `players`' seats"},
    )
    turn_seconds = fields.Integer(
        validate=validate.Range(1, 60 * 86400),
        metadata={
            "description": "Play by post: each seat's time per turn, in seconds (an hour: 3600; three days: "
            "259200). Left out: no clock",
            "example": 86400,
        },
    )
    on_timeout = fields.String(
        validate=validate.OneOf(["pass", "bot"]),
        metadata={"description": "When a seat's time runs out: `pass` (default) or `bot` (a bot plays that turn)"},
    )
    timeout_bot = fields.String(
        validate=validate.OneOf(LEVELS), metadata={"description": "The bot that plays a lapsed turn (default greedy)"}
    )
    reminder = fields.Boolean(metadata={"description": "Remind a seat at 80% of its time (default true)"})
    vacation_days = fields.Integer(
        validate=validate.Range(0, 60),
        metadata={"description": "Days each seat may spend pausing its clock (default 0)"},
    )
    bot_budget_ms = fields.Integer(
        validate=validate.Range(1, 10000),
        metadata={"description": "The planner bot's time per decision, in milliseconds of its CPU time (a loaded server answers later, not worse; default: the game's own, else 50)"},
    )


class SeatTokenSchema(Schema):
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={"description": "Shown once; send as a bearer token"})


class CreatedSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True, metadata={"description": "lobby, running or ended"})
    seats = fields.List(
        fields.Nested(SeatTokenSchema), required=True, metadata={"description": "Tokens of the seats taken now"}
    )
    creator_token = fields.String(required=True, metadata={"description": "Shown once"})


class GameSummarySchema(Schema):
    game_id = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(
        required=True, metadata={"description": "The game's options as it resolved them, and the table's settings"}
    )
    listed = fields.Dict(
        required=True,
        metadata={"description": "The options the game shows in the lobby (its `listed_options`, a scenario or a "
                  "board side, say), as it resolved them; filter by them with `option`"},
    )
    status = fields.String(required=True, metadata={"description": "lobby, running or ended"})
    version = fields.Integer(required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    open_seats = fields.Integer(required=True)
    waiting_for = fields.List(
        fields.Integer(), required=True,
        metadata={"description": "The seats the game waits on now (whose turn); empty unless running. As current "
                  "as the listing: the workers keep it within a second or so of the game"},
    )
    seed_source = fields.String(required=True, **SEED_SOURCE)
    created_at = fields.String(required=True)
    updated_at = fields.String(required=True)


#: A listed option of the first game this server ships, for the example.
_FIRST_LISTED = (registry.game_module(registry.builtin_names()[0]).listed_options or ("option",))[0]


class GameListArgs(Schema):
    game = fields.String(
        validate=validate.Length(1, 64),
        metadata={"description": "Only games of this game", "example": registry.builtin_names()[0]},
    )
    option = fields.List(
        fields.String(validate=validate.Regexp(r"^[a-z][a-z0-9_]{0,63}:.{1,64}$")),
        metadata={
            "description": "Only games whose listed option has this value, as `name:value` (repeat for more): a "
            "string as itself, anything else as JSON (`side:null`). The names a game lists are its summaries' "
            "`listed` keys",
            "example": [f"{_FIRST_LISTED}:a-value"],
        },
    )
    status = fields.String(validate=validate.OneOf(["lobby", "running", "ended"]), metadata={"example": "lobby"})
    open_seats = fields.Integer(
        validate=validate.Range(0, MAX_SEATS),
        metadata={"description": "Only games with at least this many open seats", "example": 1},
    )
    limit = fields.Integer(load_default=20, validate=validate.Range(1, 100), metadata={"example": 20})
    cursor = fields.String(
        validate=validate.Length(1, 200),
        metadata={
            "description": "`next_cursor` of the page before",
            "example": "WyIyMDI2LTExLTIxVDEwOjE1OjAwLjAwMDAwMFoiLCAiM2YyYyJd",
        },
    )

    @validates_schema
    def _listed(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Each filtered option is one the game named (or, with no game named, some hosted game) lists."""
        games = [data["game"]] if data.get("game") in registry.names() else registry.names()
        listed = {name for game in games for name in registry.game_module(game).listed_options}
        unknown = sorted({f.split(":", 1)[0] for f in data.get("option", [])} - listed)
        if unknown:
            raise ValidationError(f"no listed option {', '.join(unknown)}; the lobby lists {', '.join(sorted(listed))}",
                                  "option")


class GameListSchema(Schema):
    games = fields.List(fields.Nested(GameSummarySchema), required=True)
    next_cursor = fields.String(allow_none=True, metadata={"description": "null on the last page"})


#: How a seat's contribution to the seed is described wherever it is taken.
CONTRIBUTION = {
    "description": "Your part of the game's seed (docs/audit.md): 16 to 128 printable ASCII characters "
    "without spaces, drawn at random by your client (say 32 random bytes in hex). Public from the moment it "
    "is given; mixed, when the game starts, with the server's secret committed at creation, so neither the "
    "server nor any player alone knows the seed in advance. Only before the start (else 409 `seed_fixed`)",
    "example": "9f2c47a1e0b35d86c7e41f0a2b9d3e58",
}


def _contribution(*, required: bool = False) -> fields.String:
    return fields.String(required=required, validate=validate.Regexp(genesis.CONTRIBUTION), metadata=CONTRIBUTION)


class JoinSchema(Schema):
    name = fields.String(required=True, validate=NAME, metadata={"example": "Bob"})
    seat = fields.Integer(
        validate=validate.Range(0, MAX_SEATS - 1), metadata={"description": "Which seat (default: the first open one)"}
    )
    contribution = _contribution()


class GiveContributionSchema(Schema):
    contribution = _contribution(required=True)


class JoinedSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={"description": "Shown once; send as a bearer token"})


class BotSchema(Schema):
    bot = fields.String(
        load_default="greedy",
        validate=validate.OneOf(LEVELS),
        metadata={"description": "The bot's level: random, greedy or planner", "example": "greedy"},
    )


class RotatedSchema(Schema):
    game_id = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": "The new token, shown once"})
    seat = fields.Integer(allow_none=True, metadata={"description": "The seat it holds; null for the creator"})


#: The operations on one game, which a client reaches from its game_id.
GAME_OPERATIONS = (
    "getGame", "joinGame", "leaveSeat", "giveContribution", "handSeatToBot", "startGame", "rotateToken", "getState",
    "listActions", "postAction", "getEvents", "exportGame", "streamGame", "propose", "getAudit",
    "takeVacation", "registerWebhook", "listWebhooks", "listDeliveries",
)  # fmt: skip


def _player_of_request() -> Player | None:
    """The player whose token a create or a join carries, to bind the seats it takes; None without one.

    A seat's or creator's token sent along is ignored, as it always was.
    """
    token = bearer()
    if token is None or not is_player_token(token):
        return None
    return services().players.me(token)


def _links_to(operations: tuple[str, ...], game_id: str) -> dict[str, Any]:
    """OpenAPI links from a response naming a game to every operation on it."""
    return {
        operation[0].upper() + operation[1:]: {"operationId": operation, "parameters": {"game_id": game_id}}
        for operation in operations
    }


@blp.route("")
class GameCollection(MethodView):
    @blp.arguments(
        CreateGameSchema,
        example={"seats": 2, "players": ["Alice"], "seed": "demo"},
    )
    @blp.response(
        201,
        CreatedSchema,
        example={
            "game_id": EXAMPLE_GAME_ID,
            "version": 2,
            "status": "lobby",
            "seats": [{"seat": 0, "token": EXAMPLE_TOKEN}],
            "creator_token": "Zc5uX2pQ8rT1vN4mK7jH0gF3dS6aL9wE",
        },
    )
    @blp.doc(
        responses={201: {"links": _links_to(GAME_OPERATIONS, "$response.body#/game_id")}},
        operationId="createGame",
    )
    def post(self, body: dict[str, Any]) -> tuple[dict[str, Any], int, dict[str, str]]:
        """Create a game; the answer holds the creator's token and those of the seats taken now, shown once.

        With a player token, the creator role and the seats taken now are bound to that player
        (docs/players.md).
        """
        player = _player_of_request()
        seats_count = body["seats"]
        names = body.get("players")
        if names is not None and len(names) > seats_count:
            raise Problem(422, "too_many_players", f"{len(names)} players for {seats_count} seats")
        bots = {b["seat"]: b["level"] for b in body.get("bots") or []}
        if len(bots) != len(body.get("bots") or []) or any(seat >= seats_count for seat in bots):
            raise Problem(422, "bad_bot_seats", f"give each bot its own seat among the {seats_count}")
        if names is not None and any(seat < len(names) for seat in bots):
            raise Problem(422, "bad_bot_seats", "a bot's seat is one of the players' seats")
        seats = []
        for i in range(seats_count):
            if i in bots:
                seats.append({"seat": i, "kind": BOT, "name": None, "bot": bots[i]})
            elif names is None or i < len(names):
                seats.append({"seat": i, "kind": HUMAN, "name": names[i] if names else None, "bot": None})
            else:
                seats.append({"seat": i, "kind": OPEN, "name": None, "bot": None})
        if "seed" in body and current_app.config["CHOSEN_SEEDS"] == "private" and any(s["kind"] == OPEN for s in seats):
            # Whoever joined would play a game whose hidden cards the creator can know.
            raise Problem(
                422, "seed_not_allowed", "this server takes a chosen seed only for a game with no seat left open to join"
            )
        created = services().games.create(
            body["game"],
            body.get("options") or {},
            seats,
            settings={k: body[k] for k in SETTINGS if k in body},
            seed=body.get("seed"),
            start=body.get("start"),
        )
        if player is not None:
            issued = {Holder(SEAT, s): t for s, t in created.seat_tokens.items()}
            services().players.bind_issued(player, created.game_id, {Holder(CREATOR): created.creator_token, **issued})
        headers = {"Location": url_for("games.GameState", game_id=created.game_id)}
        return (
            {
                "game_id": created.game_id,
                "version": created.version,
                "status": created.status,
                "seats": [{"seat": s, "token": t} for s, t in sorted(created.seat_tokens.items())],
                "creator_token": created.creator_token,
            },
            201,
            headers,
        )

    @blp.arguments(GameListArgs, location="query")
    @blp.response(200, GameListSchema, example={"games": [], "next_cursor": None})
    @blp.doc(operationId="listGames")
    def get(self, args: dict[str, Any]) -> dict[str, Any]:
        """Find games, newest first: filter by game, listed options, status and open seats; page with `cursor`."""
        return services().index.page(
            game=args.get("game"),
            options=dict(filter.split(":", 1) for filter in args.get("option", [])),
            status=args.get("status"),
            min_open_seats=args.get("open_seats"),
            cursor=args.get("cursor"),
            limit=args["limit"],
        )


@blp.route("/<game_id>")
class GameSummary(MethodView):
    @blp.response(
        200,
        GameSummarySchema,
        example={
            "game_id": EXAMPLE_GAME_ID,
            "game": registry.builtin_names()[0],
            "options": {},
            "listed": {},
            "status": "lobby",
            "version": 2,
            "seats": EXAMPLE_SEATS,
            "open_seats": 1,
            "seed_source": "server",
            "created_at": "2026-11-21T10:15:00.000000Z",
            "updated_at": "2026-11-21T10:15:00.000000Z",
        },
    )
    @blp.doc(operationId="getGame")
    def get(self, game_id: str) -> dict[str, Any]:
        """One game's lobby entry: its seats, who sits where, and its status."""
        record = services().games.load(game_id).state  # 404 for no such game
        row = services().index.row(game_id)
        if row is None or "game_id" not in row:
            raise Problem(503, "index_behind", "the game index has not caught up; try again")
        found = summary(row)
        found["seats"] = [dict(s) for s in record.seats]  # bots' levels too
        return found


@blp.route("/<game_id>/seats")
class Seats(MethodView):
    @blp.arguments(JoinSchema, example={"name": "Bob"})
    @blp.response(
        201,
        JoinedSchema,
        example={"game_id": EXAMPLE_GAME_ID, "version": 3, "seat": 1, "token": EXAMPLE_TOKEN},
    )
    @blp.doc(
        operationId="joinGame",
        parameters=[JOIN_KEY],
        responses={201: {"links": _links_to(("getState", "listActions", "postAction", "leaveSeat"), "$request.path.game_id")}},
    )
    def post(self, body: dict[str, Any], game_id: str) -> tuple[dict[str, Any], int]:
        """Take an open seat under a display name; the answer holds the seat's token, shown once.

        Send an `Idempotency-Key`: if the answer is lost, the same request with
        the same key gets the seat it took, with a new token. With a player token,
        the seat is bound to that player.
        """
        player = _player_of_request()
        claim = idempotency_key()
        if claim is not None and len(claim) < MIN_CLAIM:
            # It proves a seat is yours: short keys could be guessed.
            raise Problem(400, "bad_idempotency_key", f"a join's Idempotency-Key takes at least {MIN_CLAIM} characters")
        seat, token, version = services().lobby.join(
            game_id, body["name"], body.get("seat"), claim=claim, contribution=body.get("contribution")
        )
        if player is not None:
            services().players.bind_issued(player, game_id, {Holder(SEAT, seat): token})
        return {"game_id": game_id, "version": version, "seat": seat, "token": token}, 201


@blp.route("/<game_id>/seats/<int:seat>")
class SeatResource(MethodView):
    @blp.response(200, ChangedSchema, example={"game_id": EXAMPLE_GAME_ID, "version": 4})
    @blp.doc(operationId="leaveSeat")
    def delete(self, game_id: str, seat: int) -> dict[str, Any]:
        """Leave your seat (with its token), or remove its player before the start (creator token).

        The seat opens again and its token stops working.
        """
        who = token_holder(game_id)
        if who.seat == seat:
            version = services().lobby.leave(game_id, seat)
        elif who.is_creator:
            version = services().lobby.leave(game_id, seat, removed=True)
        else:
            raise Problem(403, "not_your_seat", "a seat token may only leave its own seat")
        return {"game_id": game_id, "version": version}


@blp.route("/<game_id>/seats/<int:seat>/contribution")
class SeatContribution(MethodView):
    @blp.arguments(GiveContributionSchema, example={"contribution": "9f2c47a1e0b35d86c7e41f0a2b9d3e58"})
    @blp.response(200, ChangedSchema, example={"game_id": EXAMPLE_GAME_ID, "version": 4})
    @blp.doc(operationId="giveContribution")
    def put(self, body: dict[str, Any], game_id: str, seat: int) -> dict[str, Any]:
        """Give your seat's part of the seed (its token), or replace it, before the start.

        For a seat taken at creation, or one that joined without; the last one
        given before the start counts. The game's seed is fixed when it starts.
        """
        if seat_holder(game_id) != seat:
            raise Problem(403, "not_your_seat", "only a seat's own token gives its contribution")
        return {"game_id": game_id, "version": services().lobby.contribute(game_id, seat, body["contribution"])}


@blp.route("/<game_id>/seats/<int:seat>/bot")
class SeatBot(MethodView):
    @blp.arguments(BotSchema, example={"bot": "greedy"})
    @blp.response(200, ChangedSchema, example={"game_id": EXAMPLE_GAME_ID, "version": 4})
    @blp.doc(operationId="handSeatToBot")
    def put(self, body: dict[str, Any], game_id: str, seat: int) -> dict[str, Any]:
        """Hand a seat to a bot (creator token): any seat before the start, an open seat after it."""
        creator(game_id)
        return {"game_id": game_id, "version": services().lobby.hand_to_bot(game_id, seat, body["bot"])}


@blp.route("/<game_id>/start")
class Start(MethodView):
    @blp.response(200, ChangedSchema, example={"game_id": EXAMPLE_GAME_ID, "version": 5})
    @blp.doc(operationId="startGame")
    def post(self, game_id: str) -> dict[str, Any]:
        """Start the game (creator token) once every seat is taken by a player or a bot."""
        creator(game_id)
        return {"game_id": game_id, "version": services().lobby.start(game_id)}


@blp.route("/<game_id>/token")
class Token(MethodView):
    @blp.response(200, RotatedSchema, example={"game_id": EXAMPLE_GAME_ID, "token": EXAMPLE_TOKEN, "seat": 1})
    @blp.doc(operationId="rotateToken")
    def post(self, game_id: str) -> dict[str, Any]:
        """Replace the caller's token with a new one; the old one stops working at once."""
        who = token_holder(game_id)
        if who.player:
            raise Problem(403, "player_token", "a player token is rotated at POST /players/me/token")
        holder, token = services().lobby.rotate_token(game_id, who.token or "")
        return {"game_id": game_id, "token": token, "seat": holder.seat}

