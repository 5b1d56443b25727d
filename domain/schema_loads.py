"""A schema's load and validate, quick for data already in the form the load gives back.

Every command an action takes and every event it appends goes through a
marshmallow schema (DESIGN.md: every emitted event validates against its
declared schema). ``Schema.load`` walks each field through a dozen calls
(the error store, ``deserialize``, ``_validate_missing``, ``And`` over the
validators, ...), about a tenth of an action's instructions for three small
loads, while what the service loads is nearly always data our own code
built, already in the form the load returns.

``loader(schema)`` is ``schema.load`` with a check compiled once in front
of it, for the kinds of field our schemas use: a ``str`` for a String, an
``int`` that is not a bool for an Integer, a bool for a Boolean, a list of
such for a List, a dict for a Dict or a Nested schema, anything for a Raw.
When every value already is what its field's load returns and every
validator passes, the check builds what the load builds (a new dict in the
schema's field order, a new list, a new dict for each Dict, the value
itself for a Raw) and returns it. Anything else goes to ``schema.load``
itself: a value the load would convert (``"5"`` for an Integer, a tuple for
a List), a None, a missing field, an unknown one, a failed validator, a
field or schema this module does not know (hooks, ``data_key``, a Float,
...). So the result, the error and its message are always marshmallow's;
the check only skips the walk when the walk would change nothing
(``tests/domain/test_schema_loads.py`` holds the two to the same answer on every
event of the golden logs and on generated data).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from marshmallow import EXCLUDE, RAISE, Schema, ValidationError, fields
from marshmallow.decorators import POST_LOAD, PRE_LOAD, VALIDATES, VALIDATES_SCHEMA
from marshmallow.utils import missing

Check = Callable[[Any], Any]


class _Refused(Exception):
    """The check does not vouch for the data: ``schema.load`` decides."""


def loader(schema: Schema) -> Callable[[Any], Any]:
    """``schema.load``, answered by the compiled check when it vouches for the data (compiled at each call:
    keep what it gives, as ``events.schemas`` does per event type)."""
    check = _schema_check(schema, None)
    load = schema.load
    if check is None:
        return load

    def quick_load(data: Any) -> Any:
        try:
            return check(data)
        except _Refused:
            return load(data)

    return quick_load


@functools.cache  # per schema instance: the commands' are made once (``domain.game.strict_schema``)
def validator(schema: Schema) -> Callable[[Any], dict[str, Any]]:
    """``schema.validate`` (the errors, none when valid), answered by the compiled check when it vouches."""
    check = _schema_check(schema, None)
    validate = schema.validate
    if check is None:
        return validate

    def quick_validate(data: Any) -> dict[str, Any]:
        try:
            check(data)
        except _Refused:
            return validate(data)
        return {}

    return quick_validate


def _schema_check(schema: Schema, unknown: str | None) -> Check | None:
    """A check of a dict against ``schema`` (``unknown`` as a Nested field overrides it), or None when the
    schema does something the check does not copy: hooks, renamed or dotted fields, many, partial."""
    unknown = schema.unknown if unknown is None else unknown
    if (
        schema.many
        or schema.partial
        or schema.dict_class is not dict
        or unknown not in (RAISE, EXCLUDE)
        or any(schema._hooks.get(hook) for hook in (PRE_LOAD, POST_LOAD, VALIDATES, VALIDATES_SCHEMA))
    ):
        return None
    entries: list[tuple[str, Check | None, fields.Field, bool]] = []
    for name, field in schema.load_fields.items():
        if field.data_key is not None or field.attribute is not None or "." in name:
            return None
        # A missing field the load would fill (a default) or refuse (required) is the load's to answer.
        entries.append((name, _field_check(field), field, field.required or field.load_default is not missing))
    names = frozenset(name for name, _, _, _ in entries)
    refuse_unknown = unknown == RAISE

    def check_schema(data: Any) -> dict[str, Any]:
        if type(data) is not dict or (refuse_unknown and not data.keys() <= names):
            raise _Refused
        loaded = {}
        for name, check, field, needed in entries:
            if name not in data:
                if needed:
                    raise _Refused
            elif check is not None:
                loaded[name] = check(data[name])
            elif (value := _deserialized(field, data[name], name, data)) is not missing:  # as the load leaves it out
                loaded[name] = value
        return loaded

    return check_schema


def _field_check(field: fields.Field) -> Check | None:
    """A check of one value against ``field``, its validators included, or None for a field whose own
    ``deserialize`` is to be called (a kind not copied here)."""
    core = _core(field)
    if core is None or field.pre_load or field.post_load:
        return None
    validators = tuple(field.validators)
    if not validators and not field.allow_none:
        return core
    allow_none = field.allow_none

    def check_validated(value: Any) -> Any:
        if value is None:  # the load's answer to a null comes before its validators
            if allow_none:
                return None
            raise _Refused
        loaded = core(value)
        for validate in validators:
            try:
                passed = validate(loaded)
            except Exception as refused:  # a validator's error, whatever its kind, is the load's to raise
                raise _Refused from refused
            if passed is False:
                raise _Refused
        return loaded

    return check_validated


def _deserialized(field: fields.Field, value: Any, name: str | None = None, data: Any = None) -> Any:
    """What the field's own ``deserialize`` makes of ``value``, called as the load calls it (for a field
    of a kind not copied here: a custom field, a Float, ...); its error is the load's to raise."""
    try:
        return field.deserialize(value, name, data)
    except ValidationError as refused:
        raise _Refused from refused


def _core(field: fields.Field) -> Check | None:
    """What the field's own ``_deserialize`` does to a value already in its form (None never reaches it),
    or None if not copied here. Exact classes only: a subclass (Email, Url, a custom field) may
    deserialize differently."""
    kind = type(field)
    if kind is fields.String:
        return _string
    if kind is fields.Integer:
        return _integer
    if kind is fields.Boolean:
        plain = field.truthy is fields.Boolean.truthy and field.falsy is fields.Boolean.falsy  # type: ignore[attr-defined]
        return _boolean if plain or not field.truthy else None  # type: ignore[attr-defined]
    if kind is fields.Raw or kind is fields.Field:
        return _anything
    if kind is fields.List:
        return _list_check(field)  # type: ignore[arg-type]
    if kind is fields.Dict:
        return _dict_check(field)  # type: ignore[arg-type]
    if kind is fields.Nested:
        return _nested_check(field)  # type: ignore[arg-type]
    return None


def _exactly(kind: type) -> Check:
    """A check that takes a value of exactly ``kind`` (an Integer's load refuses a bool, an int subclass)."""

    def check_kind(value: Any) -> Any:
        if type(value) is not kind:
            raise _Refused
        return value

    return check_kind


_string, _integer, _boolean = _exactly(str), _exactly(int), _exactly(bool)


def _anything(value: Any) -> Any:
    if value is None:  # refused where the field allows no null (check_validated answers where it does)
        raise _Refused
    return value


def _list_check(field: fields.List) -> Check:
    inner = _field_check(field.inner) or functools.partial(_deserialized, field.inner)

    def check_list(value: Any) -> list[Any]:
        if type(value) is not list:
            raise _Refused
        return [inner(each) for each in value]

    return check_list


def _dict_check(field: fields.Dict) -> Check:
    key_of = _inner_check(field.key_field)
    value_of = _inner_check(field.value_field)

    def check_dict(value: Any) -> dict[Any, Any]:
        if type(value) is not dict:
            raise _Refused
        return {key_of(k): value_of(v) for k, v in value.items()}

    return check_dict


def _inner_check(field: fields.Field | None) -> Check:
    """A Dict's check of its keys or its values: the value as it is where the Dict names no field."""
    if field is None:
        return _same
    return _field_check(field) or functools.partial(_deserialized, field)


def _same(value: Any) -> Any:
    return value


def _nested_check(field: fields.Nested) -> Check | None:
    schema = field.schema
    if field.many or not isinstance(schema, Schema):
        return None
    return _schema_check(schema, field.unknown)
