"""Play-by-post over HTTP: vacations, and a seat's webhooks with their delivery log.

See docs/play-by-post.md and docs/webhooks.md. Every operation here takes a
seat's token and acts for that seat only.
"""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from service.api.callers import seat_holder, services
from service.api.schemas import EXAMPLE_GAME_ID
from service.usecases.notifications import KINDS

blp = Blueprint("notify", __name__, url_prefix="/games", description="Play by post: vacations and webhooks")

EXAMPLE_URL = "https://example.org/holotape-hook"
EXAMPLE_WEBHOOK = {
    "id": "wh_3f2c9a7e5b1d4e6f",
    "seat": 0,
    "url": EXAMPLE_URL,
    "kinds": list(KINDS),
    "created_at": "2026-11-21T10:15:00.000000Z",
}


class VacationSchema(Schema):
    days = fields.Integer(required=True, validate=validate.Range(1, 60), metadata={"example": 2})


class VacationTakenSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    days = fields.Integer(required=True)
    start = fields.String(required=True, data_key="from", metadata={"description": "When the pause begins"})
    until = fields.String(required=True)
    days_left = fields.Integer(required=True)


class NewWebhookSchema(Schema):
    url = fields.String(
        required=True,
        validate=validate.Length(8, 2000),
        metadata={"description": "An http(s) URL on the public internet", "example": EXAMPLE_URL},
    )
    kinds = fields.List(
        fields.String(validate=validate.OneOf(KINDS)),
        validate=validate.Length(1, len(KINDS)),
        metadata={"description": "What to be told of (default: all)", "example": ["your_turn", "reminder"]},
    )


class WebhookSchema(Schema):
    id = fields.String(required=True)
    seat = fields.Integer(required=True)
    url = fields.String(required=True)
    kinds = fields.List(fields.String(), required=True)
    created_at = fields.String(required=True)


class RegisteredSchema(WebhookSchema):
    secret = fields.String(
        required=True,
        metadata={"description": "The Standard Webhooks signing secret (whsec_…), shown once"},
    )


class WebhookListSchema(Schema):
    webhooks = fields.List(fields.Nested(WebhookSchema), required=True)


class DeliverySchema(Schema):
    message_id = fields.String(required=True, metadata={"description": "The webhook-id header; the same on retries"})
    kind = fields.String(required=True)
    webhook_id = fields.String(required=True)
    url = fields.String(required=True)
    attempt = fields.Integer(required=True)
    at = fields.String(required=True)
    status = fields.Integer(allow_none=True, required=True, metadata={"description": "The receiver's HTTP status"})
    error = fields.String(allow_none=True, required=True)
    ok = fields.Boolean(required=True)
    next_attempt_in = fields.Float(
        allow_none=True, required=True, metadata={"description": "Seconds to the retry; null: no retry"}
    )


class DeliveryLogSchema(Schema):
    deliveries = fields.List(fields.Nested(DeliverySchema), required=True, metadata={"description": "Newest first"})


class RemovedSchema(Schema):
    game_id = fields.String(required=True)
    removed = fields.String(required=True)


@blp.route("/<game_id>/vacation")
class Vacation(MethodView):
    @blp.arguments(VacationSchema, example={"days": 2})
    @blp.response(
        200,
        VacationTakenSchema,
        example={
            "game_id": EXAMPLE_GAME_ID, "version": 31, "seat": 0, "days": 2, "from": "2026-11-21T10:15:00.000000Z",
            "until": "2026-11-23T10:15:00.000000Z", "days_left": 3,
        },
    )
    @blp.doc(operationId="takeVacation")
    def post(self, body: dict[str, Any], game_id: str) -> dict[str, Any]:
        """Pause your seat's clock for some days (seat token), from the game's `vacation_days`.

        The pause starts now, or when your last vacation ends; every deadline
        that falls in it moves back by its length.
        """
        seat = seat_holder(game_id)
        version, taken, left = services().play_by_post.take_vacation(game_id, seat, body["days"])
        return {
            "game_id": game_id, "version": version, "seat": seat, "days": taken["days"], "start": taken["from"],
            "until": taken["until"], "days_left": left,
        }


@blp.route("/<game_id>/webhooks")
class WebhookCollection(MethodView):
    @blp.arguments(NewWebhookSchema, example={"url": EXAMPLE_URL, "kinds": ["your_turn", "reminder"]})
    @blp.response(201, RegisteredSchema, example={**EXAMPLE_WEBHOOK, "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"})
    @blp.alt_response(422, description="Not an http(s) URL, or one that points at a private address")
    @blp.doc(operationId="registerWebhook")
    def post(self, body: dict[str, Any], game_id: str) -> tuple[dict[str, Any], int]:
        """Register a URL to tell your seat of its turn, reminders, the end and rewind proposals (seat token).

        The answer holds the signing secret, once: verify each delivery with
        it (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
        `webhook-signature`).
        """
        seat = seat_holder(game_id)
        return services().notifications.register(game_id, seat, body["url"], body.get("kinds")), 201

    @blp.response(200, WebhookListSchema, example={"webhooks": [EXAMPLE_WEBHOOK]})
    @blp.doc(operationId="listWebhooks")
    def get(self, game_id: str) -> dict[str, Any]:
        """Your seat's webhooks (seat token); secrets are never shown again."""
        seat = seat_holder(game_id)
        return {"webhooks": services().notifications.of_seat(game_id, seat)}


@blp.route("/<game_id>/webhooks/<webhook_id>")
class WebhookResource(MethodView):
    @blp.response(200, RemovedSchema, example={"game_id": EXAMPLE_GAME_ID, "removed": "wh_3f2c9a7e5b1d4e6f"})
    @blp.doc(operationId="removeWebhook")
    def delete(self, game_id: str, webhook_id: str) -> dict[str, Any]:
        """Remove one of your seat's webhooks (seat token); retries still pending for it stop."""
        seat = seat_holder(game_id)
        services().notifications.remove(game_id, seat, webhook_id)
        return {"game_id": game_id, "removed": webhook_id}


@blp.route("/<game_id>/webhooks/deliveries")
class Deliveries(MethodView):
    @blp.response(
        200,
        DeliveryLogSchema,
        example={
            "deliveries": [
                {
                    "message_id": f"msg_turn-{EXAMPLE_GAME_ID}-s0-v12-to0", "kind": "your_turn",
                    "webhook_id": "wh_3f2c9a7e5b1d4e6f", "url": EXAMPLE_URL, "attempt": 2,
                    "at": "2026-11-21T10:15:05.000000Z", "status": 200, "error": None, "ok": True,
                    "next_attempt_in": None,
                }
            ]
        },
    )
    @blp.doc(operationId="listDeliveries")
    def get(self, game_id: str) -> dict[str, Any]:
        """Every attempt to deliver to your seat's webhooks, newest first (seat token; the latest 200)."""
        seat = seat_holder(game_id)
        return {"deliveries": services().notifications.log(game_id, seat)}
