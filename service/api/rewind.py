"""Rewind and fork over HTTP: propose, accept, decline (``service.usecases.proposals``)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from events.log import ConcurrencyError
from service.api.callers import seat_holder, services
from service.api.games import IF_MATCH, ProposalSchema, etag, expected_version
from service.api.problems import Problem
from service.api.schemas import EXAMPLE_GAME_ID, MAX_VERSION
from service.usecases.proposals import FORK, REWIND, Outcome

blp = Blueprint("rewind", __name__, url_prefix="/games", description="Rewind or fork a game by agreement")


class ProposeSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf([REWIND, FORK]), metadata={"example": "rewind"})
    to_version = fields.Integer(
        required=True,
        validate=validate.Range(1, MAX_VERSION),
        metadata={"description": "The version to return to (rewind) or to fork at"},
    )


class OutcomeSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    outcome = fields.String(required=True, metadata={"description": "pending, declined, rewound or forked"})
    proposal = fields.Nested(ProposalSchema, allow_none=True, required=True)
    fork_game_id = fields.String(allow_none=True, required=True, metadata={"description": "The new game of a fork"})


EXAMPLE_PENDING = {
    "game_id": EXAMPLE_GAME_ID,
    "version": 15,
    "outcome": "pending",
    "proposal": {"id": 15, "kind": "rewind", "to_version": 9, "by": 0, "accepted": [0]},
    "fork_game_id": None,
}
EXAMPLE_REWOUND = {
    "game_id": EXAMPLE_GAME_ID,
    "version": 17,
    "outcome": "rewound",
    "proposal": None,
    "fork_game_id": None,
}


def _body(game_id: str, outcome: Outcome) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "version": outcome.version,
        "outcome": outcome.outcome,
        "proposal": outcome.proposal,
        "fork_game_id": outcome.fork_game_id,
    }


@blp.route("/<game_id>/proposals")
class ProposalCollection(MethodView):
    @blp.arguments(ProposeSchema, example={"kind": "rewind", "to_version": 9})
    @blp.response(201, OutcomeSchema, example=EXAMPLE_PENDING)
    @blp.doc(
        operationId="propose",
        responses={
            201: {
                "links": {
                    "AcceptProposal": {
                        "operationId": "acceptProposal",
                        "parameters": {"game_id": "$request.path.game_id", "proposal_id": "$response.body#/proposal/id"},
                    },
                    "DeclineProposal": {
                        "operationId": "declineProposal",
                        "parameters": {"game_id": "$request.path.game_id", "proposal_id": "$response.body#/proposal/id"},
                    },
                }
            }
        },
    )
    def post(self, body: dict[str, Any], game_id: str) -> tuple[dict[str, Any], int]:
        """Propose to rewind the game to a version, or to fork it there (seat token).

        Every other player must accept; with none (or for a finished game's
        fork) it happens at once.
        """
        seat = seat_holder(game_id)
        outcome = services().proposals.propose(game_id, seat, body["kind"], body["to_version"])
        return _body(game_id, outcome), 201


@blp.route("/<game_id>/proposals/<int:proposal_id>/accept")
class AcceptProposal(MethodView):
    @blp.response(200, OutcomeSchema, example=EXAMPLE_REWOUND)
    @blp.doc(operationId="acceptProposal")
    def post(self, game_id: str, proposal_id: int) -> dict[str, Any]:
        """Accept the open proposal (seat token); the last acceptance carries it out."""
        seat = seat_holder(game_id)
        return _body(game_id, services().proposals.answer(game_id, seat, proposal_id, accept=True))


@blp.route("/<game_id>/proposals/<int:proposal_id>/decline")
class DeclineProposal(MethodView):
    @blp.response(200, OutcomeSchema, example={**EXAMPLE_REWOUND, "outcome": "declined"})
    @blp.doc(operationId="declineProposal")
    def post(self, game_id: str, proposal_id: int) -> dict[str, Any]:
        """Decline the open proposal, or withdraw your own (seat token)."""
        seat = seat_holder(game_id)
        return _body(game_id, services().proposals.answer(game_id, seat, proposal_id, accept=False))


class UndoneSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "The game's version after the undo"})
    to_version = fields.Integer(required=True, metadata={"description": "The version the game went back to"})


@blp.route("/<game_id>/undo")
class UndoLastMove(MethodView):
    @blp.response(200, UndoneSchema, headers={"ETag": {"description": "The game's version", "schema": {"type": "string"}}},
                  example={"game_id": EXAMPLE_GAME_ID, "version": 14, "to_version": 11})  # fmt: skip
    @blp.alt_response(409, description="`nothing_to_undo`, `undo_after_reveal` or `undo_after_chance`")
    @blp.alt_response(412, description="If-Match names a version the game has moved past (see current_version)")
    @blp.alt_response(428, description="No If-Match")
    @blp.doc(parameters=[IF_MATCH], operationId="undoLastMove")
    def post(self, game_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
        """Take back your own last move, within your turn, needing nobody's agreement (seat token).

        Allowed while the move revealed nothing hidden and drew no chance (no
        die, no card): `GET /actions` offers it as `undo` when it is. Appends
        `MoveUndone`; the game is as it was before the move.
        """
        seat = seat_holder(game_id)
        expected = expected_version()
        try:
            version, to_version = services().undo.undo(game_id, seat, expected)
        except ConcurrencyError as moved:
            raise Problem(412, "stale_version", f"the game is at version {moved.current}, not {expected}",
                          headers=etag(moved.current), current_version=moved.current) from moved  # fmt: skip
        return {"game_id": game_id, "version": version, "to_version": to_version}, 200, etag(version)
