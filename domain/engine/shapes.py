"""Short constructors for the marshmallow fields of event and command data.

An event's schema says what its data really holds: every field is required
unless the event leaves it out (``optional``), and ``None`` is refused unless
the event carries it (``nullable``). A list whose items a reader may not see
(a deck's order, another seat's hand) is ``hidden``: redacted for a seat, its
items read ``None``, and the redacted event keeps the declared shape. Data is JSON as the store keeps it, so
lists stay lists and free-form parts (a decision's choices, a card's results)
are dicts or any JSON value.
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields


def _flags(optional: bool, nullable: bool) -> dict[str, Any]:
    return {"required": not optional, "allow_none": nullable}


def string(*, optional: bool = False, nullable: bool = False) -> fields.Field:
    return fields.String(**_flags(optional, nullable))


def integer(*, optional: bool = False, nullable: bool = False) -> fields.Field:
    return fields.Integer(strict=True, **_flags(optional, nullable))


class _StrictBoolean(fields.Boolean):
    """A JSON boolean only (marshmallow's Boolean also takes 1, "yes" and "on")."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def boolean(*, optional: bool = False, nullable: bool = False) -> fields.Field:
    return _StrictBoolean(**_flags(optional, nullable))


def strings(*, optional: bool = False, nullable: bool = False, hidden: bool = False) -> fields.Field:
    return fields.List(fields.String(allow_none=hidden), **_flags(optional, nullable))


def integers(*, optional: bool = False, nullable: bool = False) -> fields.Field:
    return fields.List(fields.Integer(strict=True), **_flags(optional, nullable))


def record(*, optional: bool = False, nullable: bool = False) -> fields.Field:
    """A free-form JSON object (a command, a decision's context)."""
    return fields.Dict(keys=fields.String(), **_flags(optional, nullable))


def records(*, optional: bool = False, nullable: bool = False, hidden: bool = False) -> fields.Field:
    return fields.List(fields.Dict(keys=fields.String(), allow_none=hidden), **_flags(optional, nullable))


def rows(*, optional: bool = False, nullable: bool = False, hidden: bool = False) -> fields.Field:
    """A list of short lists (pairs such as ``[letter, token]``)."""
    return fields.List(fields.List(fields.Raw(allow_none=hidden)), **_flags(optional, nullable))


def anything(*, optional: bool = False, nullable: bool = False) -> fields.Field:
    """Any JSON value (a card's result: a keyword or an object)."""
    return fields.Raw(**_flags(optional, nullable))


def mixed(*, optional: bool = False, nullable: bool = False) -> fields.Field:
    """A list of any JSON values."""
    return fields.List(fields.Raw(), **_flags(optional, nullable))
