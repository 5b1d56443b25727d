"""The state as a JSON-ready dict and back (for snapshots).

The codec follows the state's own type hints, so a new field needs no code
here: data classes become objects, tuples become lists and come back as
tuples, and free-form dicts (decision choices, a test's ``then``) are kept as
the JSON they already are.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any, Union

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
    return typing.get_type_hints(cls)


def load(tp: Any, data: Any) -> Any:
    if tp is Any:
        return dump(data)
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        if data is None:
            return None
        inner = [a for a in typing.get_args(tp) if a is not type(None)]
        return load(inner[0], data)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        return tp(**{k: load(hints[k], v) for k, v in data.items() if k in hints})
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(load(args[0], x) for x in data)
        return tuple(load(a, x) for a, x in zip(args, data, strict=True))
    if origin is dict:
        _, value_type = typing.get_args(tp)
        return {k: load(value_type, v) for k, v in data.items()}
    if origin is list:
        (item,) = typing.get_args(tp)
        return [load(item, x) for x in data]
    return data


def dump_state(state: GameState) -> dict[str, Any]:
    return dump(state)


def load_state(data: dict[str, Any]) -> GameState:
    return load(GameState, data)
