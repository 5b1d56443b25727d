"""Versioned event schemas and the upcasters between their versions.

Stored events are facts and are never rewritten, so when the shape of an
event type changes we bump its schema version and register an upcaster that
turns the old data into the new. Reading upcasts step by step (v1 -> v2 ->
v3) and then validates against the current marshmallow schema. The hash
chain always covers the bytes as stored, never the upcast form.

Types nobody registered are accepted as free-form objects: a game module may
add events before it declares their schemas, and a reader must never fail on
a stored event (DESIGN.md, invariant 2).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class SchemaError(Exception):
    pass


@dataclass
class EventType:
    name: str
    version: int
    schema: Schema
    upcasters: dict[int, Upcaster] = field(default_factory=dict)  # from version -> next


class SchemaRegistry:
    def __init__(self) -> None:
        self._types: dict[str, EventType] = {}

    def register(self, name: str, version: int, schema: Schema) -> None:
        """Declare the current ``version`` of event type ``name``."""
        known = self._types.get(name)
        upcasters = known.upcasters if known else {}
        self._types[name] = EventType(name, version, schema, upcasters)

    def upcaster(self, name: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
        """Decorator: the function that turns ``name`` v``from_version`` data into the next."""

        def register(fn: Upcaster) -> Upcaster:
            if name not in self._types:
                raise SchemaError(f"register {name} before its upcasters")
            self._types[name].upcasters[from_version] = fn
            return fn

        return register

    def current_version(self, name: str) -> int:
        known = self._types.get(name)
        return known.version if known else 1

    def validate(self, name: str, data: dict[str, Any]) -> dict[str, Any]:
        """Validate data about to be written in the current version."""
        known = self._types.get(name)
        if known is None:
            return data
        try:
            return known.schema.load(data)
        except ValidationError as err:
            raise SchemaError(f"{name}: {err.messages}") from err

    def upcast(self, name: str, version: int, data: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """Bring stored data up to the current version of its type."""
        known = self._types.get(name)
        if known is None:
            return version, data
        while version < known.version:
            step = known.upcasters.get(version)
            if step is None:
                raise SchemaError(f"no upcaster for {name} v{version}")
            data = step(dict(data))
            version += 1
        return version, data


# The events the service itself writes, besides each game's own.
class SeatSchema(Schema):
    class Meta:
        unknown = RAISE

    seat = fields.Integer(required=True)
    kind = fields.String(required=True)  # "human" or "bot"
    name = fields.String(load_default=None, allow_none=True)
    bot = fields.String(load_default=None, allow_none=True)


class GameCreatedV2(Schema):
    """v2 (current): seats as objects, so a seat can be held by a bot.
    v1 stored only ``players`` (a count) and made every seat human."""

    class Meta:
        unknown = RAISE

    game = fields.String(required=True)
    options = fields.Dict(required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    seed_commitment = fields.String(required=True)


def _game_created_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    players = data.pop("players")
    data["seats"] = [{"seat": i, "kind": "human", "name": None, "bot": None} for i in range(players)]
    return data


class _Strict(Schema):
    class Meta:
        unknown = RAISE


class _SeatOrSystem(fields.Field):
    """A seat number, or ``"system"`` for the commands nobody at the table sends."""

    def _deserialize(self, value, attr, data, **kwargs):
        if value == "system" or (type(value) is int and value >= 0):
            return value
        raise ValidationError("a seat number or 'system'")


# The lobby: who sits where. The seat's token lives in the game's secrets,
# never in the log, which every seat reads.
class SeatJoinedV1(_Strict):
    seat = fields.Integer(required=True)
    name = fields.String(required=True)


class SeatLeftV1(_Strict):
    seat = fields.Integer(required=True)
    removed = fields.Boolean(required=True)  # True: the creator removed the player


class SeatHandedToBotV1(_Strict):
    seat = fields.Integer(required=True)
    bot = fields.String(required=True)


class GameStartedV1(_Strict):
    pass


# Provable fairness: each batch a command caused opens with the command and its
# seat, so an auditor can re-run the decision (docs/audit.md); the seed is
# revealed in the batch that ends the game.
class CommandAcceptedV1(_Strict):
    seat = _SeatOrSystem(required=True)
    command = fields.Dict(required=True)


class SeedRevealedV1(_Strict):
    seed = fields.String(required=True)


# Rewind and fork by agreement of every human seat.
class ProposalMadeV1(_Strict):
    kind = fields.String(required=True)  # "rewind" or "fork"
    to_version = fields.Integer(required=True)
    by = fields.Integer(required=True)


class ProposalAnsweredV1(_Strict):
    proposal = fields.Integer(required=True)  # the version of its ProposalMade
    by = fields.Integer(required=True)


class GameRewoundV1(_Strict):
    to_version = fields.Integer(required=True)
    proposal = fields.Integer(load_default=None, allow_none=True)


class GameForkedV1(_Strict):
    fork_game_id = fields.String(required=True)
    at_version = fields.Integer(required=True)
    proposal = fields.Integer(load_default=None, allow_none=True)


class ForkedFromV1(_Strict):
    """The first rules state of a fork: the origin's state at ``version``."""

    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    hash = fields.String(required=True)  # the origin's event at ``version``, to check against its log
    state_format = fields.String(required=True)
    state = fields.Dict(required=True)


def default_registry() -> SchemaRegistry:
    registry = SchemaRegistry()
    registry.register("GameCreated", 2, GameCreatedV2())
    registry.upcaster("GameCreated", 1)(_game_created_v1_to_v2)
    for name, schema in {
        "SeatJoined": SeatJoinedV1,
        "SeatLeft": SeatLeftV1,
        "SeatHandedToBot": SeatHandedToBotV1,
        "GameStarted": GameStartedV1,
        "CommandAccepted": CommandAcceptedV1,
        "SeedRevealed": SeedRevealedV1,
        "ProposalMade": ProposalMadeV1,
        "ProposalAccepted": ProposalAnsweredV1,
        "ProposalDeclined": ProposalAnsweredV1,
        "GameRewound": GameRewoundV1,
        "GameForked": GameForkedV1,
        "ForkedFrom": ForkedFromV1,
    }.items():
        registry.register(name, 1, schema())
    return registry
