"""``domain.schema_loads``: the quick load and validate answer exactly as marshmallow's do.

On every event and command of the golden logs, and on those events changed
by hypothesis (a value swapped for another kind, a field dropped, one
added): the same data back, with the same types and the same key order, or
the same error. And the quick path is the one taken for data in its loaded
form, or the speed it exists for would be gone without a test noticing.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError, fields

from domain import registry
from domain.game import strict_schema
from domain.schema_loads import _Refused, _schema_check, validator
from domain.schema_loads import loader as compile_loader
from events.schemas import SchemaRegistry
from service.usecases.record import declare_events
from tests.golden.goldens import golden

#: Golden logs that between them hold an event of every type, in its current version, that the fifty hold
#: (the quick path is held to marshmallow on each of their events; reading all fifty took 10 s).
LOGS = [
    "fallout-4p-vesper-heights", "fallout-2p-fork", "fallout-2p-fork-child", "fallout-2p-rewind", "fallout-2p-victory",
    "fallout-3p-takeover", "fallout-solo-eliminated", "fallout-solo-vesper-heights", "fallout1-3p-takeover",
    "legacy-197f728-fallout-2p-running", "legacy-197f728-fallout-3p-bot",
    "zona-4p-loss", "zona-3p", "zona-2p-rewind", "zona-solo-win", "legacy-82876c8-zona-3p-running",
]  # fmt: skip


@functools.cache
def _event_schemas(game: str | None) -> dict[str, tuple[int, Schema]]:
    """Each event type's current version and schema: the service's (``game`` None) or a game's."""
    schemas = declare_events(SchemaRegistry()) if game is None else SchemaRegistry()
    if game is not None:
        for declared in registry.game_module(game).event_schemas:
            schemas.declare(declared)
    return {name: (schemas.current_version(name), schemas._types[name].schema) for name in schemas.names()}


def _schema_of(game: str, event_type: str, version: int) -> Schema | None:
    """The schema an event of ``game`` is checked against, if it was written in its type's current version."""
    for owner in (game, None):
        known = _event_schemas(owner).get(event_type)
        if known is not None:
            return known[1] if known[0] == version else None
    return None


#: Each schema's quick load, compiled once (as ``events.schemas`` keeps it per event type).
loader = functools.cache(compile_loader)


def same(a: Any, b: Any) -> bool:
    """Equal, and of the same types and key order all the way down (``==`` takes 1 for True, and any order)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def answer(call: Any, data: Any) -> tuple[str, Any]:
    try:
        return "loaded", call(data)
    except ValidationError as err:
        return "refused", err.messages
    except Exception as err:  # noqa: BLE001 - what marshmallow raises past its own errors, the quick load must too
        return type(err).__name__, str(err)


def vouches(schema: Schema, data: Any) -> bool:
    check = _schema_check(schema, None)
    try:
        return check is not None and (check(data) is not None)
    except _Refused:
        return False


@pytest.mark.parametrize("name", LOGS)
def test_every_golden_event_loads_as_marshmallow_loads_it(name: str):
    """Every event of the log, quick and marshmallow: the same answer; the quick path taken wherever the load
    changes nothing."""
    log = golden(name)
    checked = 0
    for envelope in log.envelopes:
        schema = _schema_of(log.meta["game"], envelope.type, envelope.schema_version)
        if schema is None:
            continue
        kind, loaded = answer(loader(schema), envelope.data)
        expected_kind, expected = answer(schema.load, envelope.data)
        assert kind == expected_kind and same(loaded, expected), (envelope.version, envelope.type)
        # Data the load gives back unchanged is what the quick path is for (an old log's hidden
        # command, a null the schema refuses, is the load's to refuse).
        if expected_kind == "loaded" and same(expected, envelope.data):
            assert vouches(schema, envelope.data), (envelope.version, envelope.type)
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("name", LOGS)
def test_every_golden_command_validates_as_marshmallow_validates_it(name: str):
    """Each accepted command against its game's strict command schema: the same errors (none)."""
    log = golden(name)
    module = registry.game_module(log.meta["game"])
    # (An old log's hidden commands, stored as null, have no command to check.)
    commands = [e.data["command"] for e in log.envelopes if e.type == "CommandAccepted" and e.data["command"]]
    assert commands
    for command in commands:
        schema = strict_schema(module.command_schemas[command["type"]])
        assert validator(schema)(dict(command)) == schema.validate(dict(command)) == {}
        assert module.check_command(command) == command


@functools.cache
def _samples() -> list[tuple[Schema, dict[str, Any]]]:
    """One event of each type the logs hold, with its schema."""
    seen: dict[tuple[str, str], tuple[Schema, dict[str, Any]]] = {}
    for name in LOGS:
        log = golden(name)
        for envelope in log.envelopes:
            key = (log.meta["game"], envelope.type)
            schema = _schema_of(log.meta["game"], envelope.type, envelope.schema_version)
            if key not in seen and schema is not None:
                seen[key] = (schema, envelope.data)
    return list(seen.values())


VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=True), st.sampled_from(["", "5", "true", "x"]),
    st.lists(st.integers(0, 2), max_size=2), st.tuples(st.text(max_size=2)), st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)  # fmt: skip


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in ``value`` a value sits, the whole included."""
    found = [path]
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        found.extend(_paths(inner, (*path, key)))
    return found


def _changed(data: Any, path: tuple[Any, ...], change: str, value: Any) -> Any:
    """A deep copy of ``data`` with the value at ``path`` replaced by ``value``, deleted, or given an unknown key."""
    if not path:
        return value if change == "replace" else data
    copy = {k: v for k, v in data.items()} if isinstance(data, dict) else list(data)
    head, *rest = path
    if rest:
        copy[head] = _changed(copy[head], tuple(rest), change, value)
    elif change == "delete" and isinstance(copy, dict):
        del copy[head]
    elif change == "add" and isinstance(copy, dict):
        copy[f"unknown_{head}"] = value
    else:
        copy[head] = value
    return copy


@settings(max_examples=300, deadline=None)
@given(st.data(), st.sampled_from(["replace", "delete", "add"]), VALUES)
def test_changed_events_get_marshmallow_answer(data, change, value):
    """An event changed in one place: marshmallow's answer, whether it converts, refuses or takes it."""
    schema, original = data.draw(st.sampled_from(_samples()))
    path = data.draw(st.sampled_from(_paths(original)))
    changed = _changed(original, path, change, value)
    kind, loaded = answer(loader(schema), changed)
    expected_kind, expected = answer(schema.load, changed)
    assert kind == expected_kind and same(loaded, expected)
    assert validator(schema)(changed) == schema.validate(changed)


class _Hooked(Schema):
    number = fields.Integer()
    name = fields.String(load_default="nobody")
    words = fields.List(fields.String(allow_none=True), validate=lambda words: len(words) < 3)
    each = fields.Dict(keys=fields.String(), values=fields.Float())


@pytest.mark.parametrize(
    ("data", "quick"),
    [
        ({"number": 1, "words": ["a", None], "each": {"a": 1.5}}, False),  # a default to fill in
        ({"number": 1, "name": "n", "words": ["a", None], "each": {"a": 1.5}}, True),
        ({"number": "1", "name": "n"}, False),  # a number the load converts
        ({"number": True, "name": "n"}, False),  # a bool the load refuses
        ({"number": 1, "name": "n", "words": ["a", "b", "c"]}, False),  # a validator's no
        ({"number": 1, "name": "n", "each": {"a": 1}}, True),  # a Float: its own deserialize, 1 becomes 1.0
        ({"number": 1, "name": "n", "other": 2}, False),  # unknown
    ],
)
def test_the_quick_path_vouches_only_for_data_in_its_loaded_form(data, quick):
    """What the check takes and leaves to marshmallow, and the answer the same either way."""
    schema = _Hooked()
    assert vouches(schema, data) is quick
    kind, loaded = answer(loader(schema), data)
    expected_kind, expected = answer(schema.load, data)
    assert kind == expected_kind and same(loaded, expected)
