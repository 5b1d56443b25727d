"""A player's notifications over HTTP: the address and its confirmation, the channels, one-click unsubscribe.

docs/players.md, "Notifications". No answer here (or anywhere) tells whether
an address is some player's: addresses are not unique, and confirming or
unsubscribing takes a code that only the mail carried.
"""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from service.api.callers import services
from service.api.players import EXAMPLE_PLAYER, PlayerSchema, me, player_body
from service.usecases.notifications import KINDS
from service.usecases.player_notices import public_settings, settings_of

blp = Blueprint("mail", __name__, url_prefix="/players", description="A player's notifications: email and webhook")

EXAMPLE_SETTINGS = {"email": list(KINDS), "webhook": None, "digest": False}


class EmailSchema(Schema):
    email = fields.Email(
        required=True, allow_none=True, validate=validate.Length(3, 254),
        metadata={"description": "The new address (null: none); a confirmation mail goes to it", "example": "ada@example.org"},
    )  # fmt: skip


class ConfirmSchema(Schema):
    code = fields.String(required=True, validate=validate.Length(3, 200),
                         metadata={"description": "The code the confirmation mail carried"})  # fmt: skip


class PlayerWebhookSchema(Schema):
    url = fields.Url(required=True, schemes={"http", "https"}, validate=validate.Length(max=2000))
    kinds = fields.List(fields.String(validate=validate.OneOf(KINDS)), validate=validate.Length(max=len(KINDS)))


class SettingsSchema(Schema):
    email = fields.List(
        fields.String(validate=validate.OneOf(KINDS)), validate=validate.Length(max=len(KINDS)),
        metadata={"description": "The kinds mailed (to a confirmed address): your_turn, reminder, rewind_proposed, "
                  "game_over; [] for none"},
    )  # fmt: skip
    webhook = fields.Nested(PlayerWebhookSchema, allow_none=True,
                            metadata={"description": "The player's webhook (Standard Webhooks, docs/webhooks.md)"})
    digest = fields.Boolean(metadata={"description": "One mail per period gathering the notices, not one each"})


class SettingsShownSchema(SettingsSchema):
    webhook_secret = fields.String(metadata={"description": "A new webhook's signing secret, shown once"})


class UnsubscribedSchema(Schema):
    unsubscribed = fields.Boolean(required=True)


@blp.route("/me/email")
class MyEmail(MethodView):
    @blp.arguments(EmailSchema, example={"email": "ada@example.org"})
    @blp.response(200, PlayerSchema, example={**EXAMPLE_PLAYER, "email": "ada@example.org"})
    @blp.doc(operationId="setPlayerEmail")
    def put(self, body: dict[str, Any]) -> dict[str, Any]:
        """Set (or remove) the player's address; no mail but the confirmation goes to it until it is confirmed."""
        player, token = me()
        services().player_notices.set_email(player, body["email"])
        return player_body(services().players.me(token))


@blp.route("/confirm")
class Confirm(MethodView):
    @blp.arguments(ConfirmSchema, example={"code": "5f3a9c1e7b2d4f60.Hk2pV9xQ0wL4nR7s"})
    @blp.response(200, PlayerSchema, example={**EXAMPLE_PLAYER, "email": "ada@example.org", "email_confirmed": True})
    @blp.doc(operationId="confirmEmail")
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Confirm an address with the code mailed to it (no token: the code is the proof)."""
        return player_body(services().player_notices.confirm(body["code"]))


@blp.route("/me/notifications")
class MyNotifications(MethodView):
    @blp.response(200, SettingsSchema, example=EXAMPLE_SETTINGS)
    @blp.doc(operationId="getNotifications")
    def get(self) -> dict[str, Any]:
        """The player's channels: the kinds mailed, the webhook (without its secret), the digest."""
        return public_settings(settings_of(me()[0]))

    @blp.arguments(SettingsSchema, example={"email": ["your_turn", "game_over"], "digest": False})
    @blp.response(200, SettingsShownSchema, example=EXAMPLE_SETTINGS)
    @blp.doc(operationId="setNotifications")
    def put(self, body: dict[str, Any]) -> dict[str, Any]:
        """Change the channels (what is left out stays as it was); a new webhook's secret is shown once."""
        return services().player_notices.update_settings(me()[0], body)


@blp.route("/unsubscribe/<token>")
class Unsubscribe(MethodView):
    @blp.response(200, UnsubscribedSchema, example={"unsubscribed": True})
    @blp.doc(operationId="unsubscribe")
    def post(self, token: str) -> dict[str, Any]:
        """One-click unsubscribe (RFC 8058): the link every mail carries; no more mail of any kind."""
        services().player_notices.unsubscribe(token)
        return {"unsubscribed": True}
