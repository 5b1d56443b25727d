"""A card's face as a view shows it: what a player reads on hover, focus or tap.

Each game's view carries ``faces``, the face of every card, stalker or
survivor id the seat sees now and no other (a face is read off the view
itself, so it shows nothing the view hides). The rules text is written from
the card's effects, the data the engine plays, never copied from the card's
own words.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields


class FaceSchema(Schema):
    name = fields.String(required=True, metadata={"description": "The card's name", "example": "Kelp Poultice"})
    kind = fields.String(
        required=True, metadata={"description": "What sort of card it is (the game's word)", "example": "aid"}
    )
    cost = fields.Integer(
        required=True, allow_none=True,
        metadata={"description": "What it costs to buy (the game's money), or null", "example": None},
    )  # fmt: skip
    text = fields.String(
        required=True,
        metadata={"description": "Its rules in words, written from the effects the game plays",
                  "example": "Aid. Use from your inventory, then discard it: recover 4 HP. Sells for 0 Caps."},
    )  # fmt: skip


def face(name: str, kind: str, cost: int | None, text: str) -> dict[str, Any]:
    return {"name": name, "kind": kind, "cost": cost, "text": text}


def faces_field() -> fields.Dict:
    """The view's ``faces``: a face by each id the view shows that has one."""
    return fields.Dict(
        keys=fields.String(),
        values=fields.Nested(FaceSchema),
        metadata={
            "description": "The face of each card, stalker or survivor this view shows, by the id as the view shows "
            "it: exactly the ids shown, so it tells nothing the view hides. For hover, focus or tap.",
            "example": {"kelp_poultice": face("Kelp Poultice", "aid", None, "Aid. Use from your inventory, then "
                                              "discard it: recover 4 HP.")},
        },
    )  # fmt: skip
