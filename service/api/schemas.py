"""Wire shapes several endpoints share: an event as a caller sees it, a version."""

from __future__ import annotations

from typing import Any, TypedDict

from marshmallow import Schema, fields, validate
from marshmallow.types import Validator


class FieldOptions(TypedDict, total=False):
    """Options several fields share, unpacked into each (``fields.String(required=True, **SEED_SOURCE)``).

    Typed so the unpacking is checked; ``required`` stays at each field.
    """

    validate: Validator
    metadata: dict[str, Any]
    allow_none: bool


EXAMPLE_GAME_ID = "3f2c9a7e5b1d4e6f8a0b2c4d6e8f0a1b"
#: How a game's `seed_source` is described wherever it is shown.
SEED_SOURCE: FieldOptions = {
    "validate": validate.OneOf(["server", "creator"]),
    "metadata": {
        "description": "`server`: a secret random seed; `creator`: chosen by the game's creator at creation "
        "(tests, replays), who can therefore know every hidden card: not a fair game for strangers",
        "example": "server",
    },
}
#: The largest version a request may name (twelve digits, as in If-Match and Last-Event-ID).
MAX_VERSION = 10**12 - 1
EXAMPLE_HASH = "9b1e3a60c2f4d8e7a5b3c1d9e7f5a3b1c9d7e5f3a1b9c7d5e3f1a9b7c5d3e1f0"


class EventSchema(Schema):
    """One event of the log, as the caller may see it, with its sentence for the caller.

    Every envelope field is here, so once the game is over (nothing
    redacted) anyone can recompute each ``hash`` (docs/audit.md).
    """

    event_id = fields.String(required=True)
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    type = fields.String(required=True)
    schema_version = fields.Integer(required=True)
    data = fields.Dict(required=True)
    timestamp = fields.String(required=True)
    actor = fields.String(required=True, metadata={"description": "seat:<n>, bot:<level> or system"})
    causation_id = fields.String(allow_none=True)
    correlation_id = fields.String(allow_none=True)
    prev_hash = fields.String(required=True)
    hash = fields.String(required=True)
    redacted = fields.Boolean(
        required=True, metadata={"description": "True: data was hidden in part from this caller"}
    )
    text = fields.String(
        required=True,
        metadata={
            "description": "The event in plain English as this caller may read it: made when served, never stored "
            "nor hashed, from the log up to the event, the caller's seat and whether the game has ended",
            "example": "Bob takes seat 1.",
        },
    )


EXAMPLE_EVENT = {
    "event_id": "5d0c1f7e-2a4b-4c6d-8e0f-1a2b3c4d5e6f",
    "game_id": EXAMPLE_GAME_ID,
    "version": 5,
    "type": "SeatJoined",
    "schema_version": 1,
    "data": {"seat": 1, "name": "Bob"},
    "timestamp": "2026-11-21T10:15:02.123456Z",
    "actor": "seat:0",
    "causation_id": None,
    "correlation_id": None,
    "prev_hash": EXAMPLE_HASH,
    "hash": EXAMPLE_HASH,
    "redacted": False,
}
#: An event as the log pages, the stream, the export and the answer to an action serve it: with its words.
EXAMPLE_TOLD = {**EXAMPLE_EVENT, "text": "Bob takes seat 1."}


class ChangedSchema(Schema):
    """What a change to a game returns: the version it left the game at."""

    game_id = fields.String(required=True)
    version = fields.Integer(required=True)


class SeatSchema(Schema):
    seat = fields.Integer(required=True)
    kind = fields.String(required=True, metadata={"description": "human, bot or open"})
    name = fields.String(allow_none=True, metadata={"description": "The player's display name"})
    bot = fields.String(allow_none=True, metadata={"description": "The bot's level, for a bot's seat"})
