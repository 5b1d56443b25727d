"""A state record that copies itself for the compiled build (``copied``, ``domain.engine.records.COPY``)
writes every one of its fields, each once.

Plain Python refuses those writes (the records are frozen), so only the
compiled build calls ``copied``; there the equality test (tests/compiled)
plays games whose every fold copies states through it. This test reads the
method's source, so a field added to a record and not to its copy fails here
in either build. A record ``records.built`` makes without its ``__init__``
equals the one its constructor makes.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect

import pytest

from domain.engine.records import COPY, built
from domain.fallout import state as fallout_state
from domain.zona import state as zona_state

COPYING = [
    v for module in (fallout_state, zona_state) for v in vars(module).values()
    if isinstance(v, type) and dataclasses.is_dataclass(v) and v.__module__ == module.__name__ and COPY in vars(v)
]  # fmt: skip


def _written(record: type) -> list[str]:
    source = inspect.getsource(inspect.getmodule(record))  # type: ignore[arg-type]
    (node,) = [n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == record.__name__]
    (method,) = [n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == COPY]
    return [
        line.targets[0].attr
        for line in method.body
        if isinstance(line, ast.Assign) and isinstance(line.targets[0], ast.Attribute)
        and isinstance(line.targets[0].value, ast.Name) and line.targets[0].value.id == "made"
        and isinstance(line.value, ast.Attribute) and line.value.attr == line.targets[0].attr
    ]  # fmt: skip


def test_a_record_that_copies_itself_writes_each_of_its_fields_once():
    assert {f"{r.__module__}.{r.__name__}" for r in COPYING} >= {
        "domain.fallout.state.GameState", "domain.fallout.state.SurvivorState", "domain.zona.state.State"}
    for record in COPYING:
        assert _written(record) == [f.name for f in dataclasses.fields(record)], record.__name__


def test_a_record_built_without_its_init_equals_the_one_its_constructor_makes():
    """``records.built``: ``cls(**values)`` without the data class's ``__init__``, defaults and factories alike."""
    enemy = {"id": "e7", "type": "robot", "token": "r3", "space": "harbor.crane", "active": True}
    assert built(fallout_state.EnemyState, enemy) == fallout_state.EnemyState(**enemy)
    assert built(fallout_state.EnemyState, {**enemy, "faction": "star", "drawn": True}).drawn is True
    resolving = {"seat": 0, "source": "card", "origin": "quest", "level": 1, "results": ("trash",)}
    assert built(fallout_state.Resolving, resolving) == fallout_state.Resolving(**resolving)
    assert built(zona_state.State, {"phase": "setup"}) == zona_state.State(phase="setup")
    assert built(zona_state.State, {}).stalkers is not zona_state.State().stalkers  # a factory called per record
    with pytest.raises(TypeError):
        built(fallout_state.EnemyState, {"id": "e1"})  # the constructor's own error: fields missing
    with pytest.raises(TypeError):
        built(fallout_state.EnemyState, {**enemy, "colour": "red"})  # and for a field it does not have
