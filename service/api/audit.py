"""GET /games/{id}/audit: the verdict on a game's log (``service.usecases.audit``)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from domain import registry
from service.api.callers import caller, services
from service.api.schemas import EXAMPLE_GAME_ID, EXAMPLE_HASH, SEED_SOURCE

#: The rules of the first game this server ships, for the example.
EXAMPLE_RULES = registry.game_module(registry.builtin_names()[0]).rules

blp = Blueprint("audit", __name__, url_prefix="/games", description="Check a game's log and its fairness")


class VerdictSchema(Schema):
    game_id = fields.String(required=True)
    verdict = fields.String(
        required=True,
        metadata={
            "description": "fair (every batch decided again from the seed and equal), partial (chain and seed hold, "
            "but batches recorded under rules this release does not have are decided otherwise by its rules, or "
            "could not all be folded: `decisions` says what was and was not decided again), pending (the seed is "
            "revealed at the end), chain_broken or unfair (docs/audit.md, docs/versioning.md)",
            "enum": ["fair", "partial", "pending", "chain_broken", "unfair"],
        },
    )
    version = fields.Integer(required=True)
    head_hash = fields.String(required=True, metadata={"description": "The hash of the last event"})
    chain_ok = fields.Boolean(required=True)
    chain_broken_at = fields.Integer(allow_none=True, required=True)
    fork_origin_ok = fields.Boolean(
        allow_none=True,
        required=True,
        metadata={"description": "A fork's first state is its origin's at that version (null: not a fork)"},
    )
    seed_source = fields.String(required=True, **SEED_SOURCE)
    seed_mix = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "How the seed comes from the server's secret: `contributions` (mixed with each "
            "seat's contribution given before the start), `secret` (the secret is the seed: a chosen seed, a "
            "fork), null (a game from before seats contributed)"},
    )
    contributed_seats = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "The seats whose contribution is in the seed; check that yours is"},
    )
    seed_revealed = fields.Boolean(required=True, metadata={"description": "The server's secret is revealed"})
    seed_matches_commitment = fields.Boolean(
        allow_none=True, required=True, metadata={"description": "sha256 of the secret is `seed_commitment`"}
    )
    effective_seed = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "Once the secret is revealed: the seed derived from it and the contributions"},
    )
    decisions_checked = fields.Integer(
        required=True, metadata={"description": "Batches of rules events re-derived from the seed"}
    )
    first_mismatch = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "The first batch recorded under this release's rules that they decide otherwise"},
    )
    reason = fields.String(allow_none=True, required=True)
    rules = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The rules the game was created under (`<game>/<version>`); null: before rules "
                  "versions"},
    )
    rules_here = fields.String(required=True, metadata={"description": "The rules this release plays the game under"})
    upgrades = fields.List(
        fields.Dict(),
        required=True,
        metadata={"description": "Each `RulesUpgraded` of the log: `version`, `from`, `to`, `diverged_at` (null: the "
                  "new rules decided every recorded batch alike)"},
    )
    decisions_other_rules = fields.Integer(
        required=True, metadata={"description": "Batches recorded under rules other than this release's"}
    )
    decisions_reproduced = fields.Integer(
        required=True, metadata={"description": "Of those, how many this release's rules decide alike all the same"}
    )
    refolded = fields.Boolean(
        required=True, metadata={"description": "Every event folded again by this release (false before the end)"}
    )
    decisions = fields.String(
        required=True,
        metadata={"description": "What was and was not decided again, in words, e.g. `40 recorded under <game>/1, "
                  "not re-decided by <game>/2 (12 of them reproduced anyway); 80 batches recorded under <game>/2, "
                  "decided again by <game>/2`"},
    )


@blp.route("/<game_id>/audit")
class GameAudit(MethodView):
    @blp.response(
        200,
        VerdictSchema,
        example={
            "game_id": EXAMPLE_GAME_ID,
            "verdict": "fair",
            "version": 212,
            "head_hash": EXAMPLE_HASH,
            "chain_ok": True,
            "chain_broken_at": None,
            "fork_origin_ok": None,
            "seed_source": "server",
            "seed_mix": "contributions",
            "contributed_seats": [0, 1],
            "seed_revealed": True,
            "seed_matches_commitment": True,
            "effective_seed": "4a1f0c2e9b7d5a3c8e6f4d2b0a9c7e5f3d1b9a7c5e3f1d9b7a5c3e1f0d8b6a42",
            "decisions_checked": 71,
            "first_mismatch": None,
            "reason": None,
            "rules": EXAMPLE_RULES,
            "rules_here": EXAMPLE_RULES,
            "upgrades": [],
            "decisions_other_rules": 0,
            "decisions_reproduced": 0,
            "refolded": True,
            "decisions": f"71 batches recorded under {EXAMPLE_RULES}, decided again by {EXAMPLE_RULES}",
        },
    )
    @blp.doc(operationId="getAudit")
    def get(self, game_id: str) -> dict[str, Any]:
        """Check the hash chain and, once the seed is revealed, re-derive every outcome from it.

        The algorithm is in docs/audit.md; a client can run it on GET /games/{id}/export.
        """
        caller(game_id)
        return services().queries.audit(game_id).as_dict()
