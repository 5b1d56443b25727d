"""The state as a JSON-ready dict and back (for snapshots).

The codec follows the state's own type hints, so a new field needs no code
here: data classes become objects, tuples become lists and come back as
tuples, and free-form dicts (decision choices, a test's ``then``) are kept as
the JSON they already are. In the compiled build the hints are read from the
records' source, since compiled records keep only bare classes.
"""

from __future__ import annotations

import ast
import dataclasses
import sys
import types
import typing
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, Union

from domain.engine.records import built, compiled
from domain.fallout.state import GameState

_SCALARS = (str, int, float, bool, type(None))


@cache
def _field_names(cls: type) -> tuple[str, ...] | None:
    if not dataclasses.is_dataclass(cls):
        return None
    return tuple(f.name for f in dataclasses.fields(cls))


def dump(obj: Any) -> Any:
    # Views dump the whole state on every request: the common cases come first.
    kind: type = type(obj)
    if kind in _SCALARS:
        return obj
    if kind is tuple or kind is list:
        return [dump(x) for x in obj]
    if kind is dict:
        return {k: dump(v) for k, v in obj.items()}
    names = _field_names(kind)
    if names is not None:
        return {n: dump(getattr(obj, n)) for n in names}
    if isinstance(obj, (tuple, list)):
        return [dump(x) for x in obj]
    if isinstance(obj, dict):
        return {k: dump(v) for k, v in obj.items()}
    return obj


@cache
def _hints(cls: type) -> dict[str, Any]:
    # A compiled record (the compiled build, mypyc_build.py) keeps bare classes as its annotations (``tuple``,
    # not ``tuple[SurvivorState, ...]``).
    return written_hints(cls) if compiled(cls) else typing.get_type_hints(cls)


def written_hints(cls: type) -> dict[str, Any]:
    """A record's hints as its source writes them (the ``.py`` beside a compiled module), resolved in its module
    as ``typing.get_type_hints`` resolves a Python class's."""
    module = sys.modules[cls.__module__]
    source = Path(module.__file__ or "").with_name(f"{cls.__module__.rpartition('.')[2]}.py")
    (node,) = [n for n in ast.parse(source.read_text()).body if isinstance(n, ast.ClassDef) and n.name == cls.__name__]
    written = {
        line.target.id: ast.unparse(line.annotation)
        for line in node.body
        if isinstance(line, ast.AnnAssign) and isinstance(line.target, ast.Name)
    }
    return typing.get_type_hints(type(cls.__name__, (), {"__annotations__": written, "__module__": cls.__module__}))


def load(tp: Any, data: Any) -> Any:
    return _loader(tp)(data)


#: Each type's loader, worked out from the type once (a greedy bot rebuilds two states a decision from
#: what it sees, and reading the type hints again for every value was a third of that).
_LOADERS: dict[Any, Callable[[Any], Any]] = {}


def _loader(tp: Any) -> Callable[[Any], Any]:
    found = _LOADERS.get(tp)
    if found is None:
        found = _LOADERS[tp] = _make_loader(tp)
    return found


def _keep(data: Any) -> Any:
    return data


def _make_loader(tp: Any) -> Callable[[Any], Any]:
    if tp is Any:
        return dump
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        inner = _loader([a for a in typing.get_args(tp) if a is not type(None)][0])
        return lambda data: None if data is None else inner(data)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        record: type = tp
        fields = {k: _loader(hint) for k, hint in _hints(record).items()}
        return lambda data: built(record, {k: fields[k](v) for k, v in data.items() if k in fields})
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _loader(args[0])
            return lambda data: tuple(item(x) for x in data)
        each = [_loader(a) for a in args]
        return lambda data: tuple(f(x) for f, x in zip(each, data, strict=True))
    if origin is dict:
        value = _loader(typing.get_args(tp)[1])
        return lambda data: {k: value(v) for k, v in data.items()}
    if origin is list:
        (listed,) = typing.get_args(tp)
        element = _loader(listed)
        return lambda data: [element(x) for x in data]
    return _keep


def dump_state(state: GameState) -> dict[str, Any]:
    return dump(state)


def load_state(data: dict[str, Any]) -> GameState:
    return load(GameState, data)
