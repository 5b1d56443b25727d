"""Invitations over HTTP: the creator makes a link for an open seat; a player follows it and takes the seat.

The link is ``/lobby#invite=<code>`` (the code in the fragment never reaches
a server's logs); clients take it at ``POST /invitations/{code}``.
"""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from service.api.callers import bearer, creator, services
from service.api.lobby import MAX_SEATS, NAME
from service.api.players import creating_a_player, player_body
from service.api.problems import Problem
from service.api.schemas import EXAMPLE_GAME_ID
from service.usecases.clock import iso
from service.usecases.players import is_player_token
from service.usecases.ports import Invitation

blp = Blueprint("invitations", __name__, description="Invitation links to a seat")

HOUR, DAY = 3600, 86400
EXAMPLE_CODE = "Vq4pB1x9Tn0cL7mR2sKd8w"
EXAMPLE_INVITATION = {"invitation_id": "a1b2c3d4e5f6", "game_id": EXAMPLE_GAME_ID, "seat": 1,
                      "expires_at": "2026-11-28T10:15:00.000000Z"}  # fmt: skip


class InviteSchema(Schema):
    seat = fields.Integer(
        validate=validate.Range(0, MAX_SEATS - 1), metadata={"description": "Which open seat (default: the first)"}
    )
    expires_in = fields.Integer(
        load_default=7 * DAY,
        validate=validate.Range(HOUR, 30 * DAY),
        metadata={"description": "Seconds the link works for: an hour to 30 days (default a week)", "example": 604800},
    )


class InvitationSchema(Schema):
    invitation_id = fields.String(required=True, metadata={"description": "Names it to revoke it"})
    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    expires_at = fields.String(required=True)


class CreatedInvitationSchema(InvitationSchema):
    code = fields.String(required=True, metadata={"description": "The invitation's secret (128 bits), shown once"})
    url = fields.String(required=True, metadata={"description": "The link to hand out: the lobby takes it"})


class InvitationListSchema(Schema):
    invitations = fields.List(fields.Nested(InvitationSchema), required=True)


class PeekSchema(Schema):
    expires_at = fields.String(required=True, metadata={"description": "Nothing about the game until it is taken"})


class TakeSchema(Schema):
    name = fields.String(
        validate=NAME,
        metadata={"description": "Without a player token: create a player of this name on the way", "example": "Bob"},
    )


class NewPlayerSchema(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    email = fields.String(allow_none=True)
    email_confirmed = fields.Boolean(required=True)
    created_at = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": "The new player's token, shown once"})


class TakenSchema(Schema):
    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    version = fields.Integer(required=True)
    token = fields.String(required=True, metadata={"description": "The seat's own token, shown once"})
    player = fields.Nested(NewPlayerSchema, allow_none=True, metadata={"description": "The player created on the way"})


def _body(invitation: Invitation) -> dict[str, Any]:
    return {"invitation_id": invitation.invitation_id, "game_id": invitation.game_id, "seat": invitation.seat,
            "expires_at": iso(invitation.expires)}  # fmt: skip


@blp.route("/games/<game_id>/invitations")
class GameInvitations(MethodView):
    @blp.arguments(InviteSchema, example={"seat": 1})
    @blp.response(201, CreatedInvitationSchema,
                  example={**EXAMPLE_INVITATION, "code": EXAMPLE_CODE, "url": f"/lobby#invite={EXAMPLE_CODE}"})
    @blp.doc(operationId="createInvitation")
    def post(self, body: dict[str, Any], game_id: str) -> tuple[dict[str, Any], int]:
        """Make an invitation link for an open seat (creator token): one use, expiring, revocable."""
        creator(game_id)
        invitation, code = services().invitations.invite(game_id, body.get("seat"), body["expires_in"])
        return {**_body(invitation), "code": code, "url": f"/lobby#invite={code}"}, 201

    @blp.response(200, InvitationListSchema, example={"invitations": [EXAMPLE_INVITATION]})
    @blp.doc(operationId="listInvitations")
    def get(self, game_id: str) -> dict[str, Any]:
        """The game's invitations still open (creator token); their codes are not shown again."""
        creator(game_id)
        return {"invitations": [_body(i) for i in services().invitations.of_game(game_id)]}


@blp.route("/games/<game_id>/invitations/<invitation_id>")
class GameInvitation(MethodView):
    @blp.response(204)
    @blp.doc(operationId="revokeInvitation")
    def delete(self, game_id: str, invitation_id: str) -> None:
        """Revoke an invitation (creator token): its link stops working at once."""
        creator(game_id)
        services().invitations.revoke(game_id, invitation_id)


@blp.route("/invitations/<code>")
class InvitationByCode(MethodView):
    @blp.response(200, PeekSchema, example={"expires_at": "2026-11-28T10:15:00.000000Z"})
    @blp.doc(operationId="peekInvitation")
    def get(self, code: str) -> dict[str, Any]:
        """Whether an invitation still works, and until when; nothing about its game."""
        return {"expires_at": iso(services().invitations.peek(code).expires)}

    @blp.arguments(TakeSchema, example={"name": "Bob"})
    @blp.response(201, TakenSchema, example={"game_id": EXAMPLE_GAME_ID, "seat": 1, "version": 4,
                                             "token": "q8Vv3mT0b1xYcR7n2LkP9sWd4FgH6jZa", "player": None})  # fmt: skip
    @blp.doc(operationId="takeInvitation")
    def post(self, body: dict[str, Any], code: str) -> tuple[dict[str, Any], int]:
        """Take the invitation's seat: with a player token, or with a `name` to create a player on the way.

        The seat is joined under the player's name and bound to the player; the
        answer also holds the seat's own token, shown once.
        """
        token = bearer()
        players = services().players
        created = None
        if token is not None and is_player_token(token):
            player = players.me(token)
        elif "name" in body:
            services().invitations.peek(code)  # a dead link creates no player
            creating_a_player()
            player, new_token = players.create(body["name"])
            created = {**player_body(player), "token": new_token}
        else:
            raise Problem(401, "token_required", "send a player token, or a `name` to create a player on the way",
                          headers={"WWW-Authenticate": 'Bearer realm="holotape"'})
        invitation, seat_token, version = services().invitations.take(code, player)
        return {"game_id": invitation.game_id, "seat": invitation.seat, "version": version,
                "token": seat_token, "player": created}, 201  # fmt: skip

