"""The log over HTTP: page through it, or take all of it as NDJSON.

Both show each event as the caller may see it (``service.usecases.redaction``):
redacted for the caller's seat while the game runs, everything once it is
over, with its words for the caller (``text``, ``service.usecases.words``).
The export serves events exactly as stored (no upcasting) beside ``redacted``
and ``text``, which are not stored and not hashed, so with a finished game
anyone can recompute every hash and run the audit themselves (docs/audit.md).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Response, stream_with_context
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from service.api.callers import caller, services
from service.api.schemas import EXAMPLE_GAME_ID, EXAMPLE_TOLD, MAX_VERSION, EventSchema

blp = Blueprint("log", __name__, url_prefix="/games", description="The event log")

NDJSON = "application/x-ndjson"


class EventPageArgs(Schema):
    after = fields.Integer(
        load_default=0,
        validate=validate.Range(0, MAX_VERSION),
        metadata={"description": "Events after this version", "example": 4},
    )
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 1000), metadata={"example": 100})


class EventPageSchema(Schema):
    game_id = fields.String(required=True)
    game = fields.String(required=True, metadata={"description": "Which game (the schemas of its events)"})
    version = fields.Integer(required=True, metadata={"description": "The game's version now"})
    events = fields.List(fields.Nested(EventSchema), required=True)
    next_after = fields.Integer(allow_none=True, metadata={"description": "`after` for the next page; null at the end"})


@blp.route("/<game_id>/events")
class GameEvents(MethodView):
    @blp.arguments(EventPageArgs, location="query")
    @blp.response(
        200,
        EventPageSchema,
        example={"game_id": EXAMPLE_GAME_ID, "version": 5, "events": [EXAMPLE_TOLD], "next_after": None},
    )
    @blp.doc(operationId="getEvents")
    def get(self, args: dict[str, Any], game_id: str) -> dict[str, Any]:
        """The event log as the caller may see it, a page at a time."""
        seat = caller(game_id).seat
        return services().queries.events(game_id, seat, args["after"], args["limit"])


@blp.route("/<game_id>/export")
class GameExport(MethodView):
    @blp.response(
        200,
        content_type=NDJSON,
        description="One event per line, oldest first, as stored (redacted for the caller while the game runs), "
        "with `redacted` and its words for the caller as `text` beside the stored fields (neither is hashed)",
        example=json.dumps(EXAMPLE_TOLD, sort_keys=True) + "\n",
    )
    @blp.doc(
        operationId="exportGame",
        responses={200: {"content": {NDJSON: {"schema": {
            "type": "string",
            "description": "One JSON event per line, as stored: an `Event` without its `text` (client generators "
            "that know no NDJSON leave this answer out: read it as text and split it into lines)",
        }}}}},
    )  # fmt: skip
    def get(self, game_id: str) -> Response:
        """The whole log as NDJSON, one event per line, to keep or to audit offline."""
        seat = caller(game_id).seat
        version, events = services().queries.export(game_id, seat)
        lines = (json.dumps(event, sort_keys=True) + "\n" for event in events)
        headers = {"Content-Disposition": f'attachment; filename="{game_id}.ndjson"', "ETag": f'"{version}"'}
        return Response(stream_with_context(lines), mimetype=NDJSON, headers=headers)
