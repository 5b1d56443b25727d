"""The building blocks the pack's schemas share: the pack's constants, id and level fields,
and the plain forms of the effects vocabulary (checked later, once the whole pack is known).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from marshmallow import ValidationError, fields, validate

PACK_FORMAT = 1


# The six traits of the Rules Reference ("Traits"); cards and quests name them.
TRAITS = ("idolized", "vilified", "synth", "super_mutant", "well_rested", "addicted")
FACE_DOWN_BACKS = ("dangerous", "deadly")
FACTION_LETTERS = ("X", "Y")
TOKENS_PER_LETTER = 5
DICE = 3
FACES = 6

ID_PATTERN = r"^[a-z0-9][a-z0-9_]*$"
SPACE_ID_PATTERN = r"^[a-z0-9][a-z0-9_]*\.[a-z0-9][a-z0-9_]*$"


def id_field(**kwargs: Any) -> fields.String:
    return fields.String(
        required=True,
        validate=validate.Regexp(ID_PATTERN, error="must be lower-case letters, digits and _ (got {input!r})"),
        **kwargs,
    )


def one_of(choices: Iterable[str]) -> validate.OneOf:
    return validate.OneOf(tuple(choices), error="unknown value {input!r} (expected one of: {choices})")


class LevelField(fields.Field):
    """An enemy level: a number, or a faction letter read off the power track."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int | str:
        if isinstance(value, bool):
            raise ValidationError("must be a number 1-4 or a faction letter (X, Y)")
        if isinstance(value, int):
            if not 1 <= value <= 4:
                raise ValidationError(f"a numeric level must be 1-4 (got {value})")
            return value
        if isinstance(value, str) and len(value) == 1 and value.isupper():
            return value
        raise ValidationError(f"must be a number 1-4 or a faction letter (X, Y) (got {value!r})")


def effects_field(**kwargs: Any) -> fields.List:
    """A list in the effects vocabulary (docs/fallout-effects.md): mappings, or bare words
    such as ``trash`` and ``"★+"``. Its meaning is checked in the second pass, by
    ``effects.check``, once the whole pack is known."""
    return fields.List(fields.Raw(), load_default=list, **kwargs)


def condition_field(**kwargs: Any) -> fields.Dict:
    return fields.Dict(keys=fields.String(), load_default=None, allow_none=True, **kwargs)


def library_number(**kwargs: Any) -> fields.Integer:
    """A card-library number (the number in the upper-left corner)."""
    return fields.Integer(strict=True, validate=validate.Range(min=1), **kwargs)
