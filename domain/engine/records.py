"""Frozen state records, replaced fast.

A game folds tens of thousands of events, each replacing a few fields of a
state with some fifty. ``dataclasses.replace`` runs ``__init__`` every time;
copying the instance dict is several times faster and, for plain frozen
records (no ``__post_init__``, no init-only fields), means the same.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")


def replace(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace`` for plain frozen records, without running ``__init__``."""
    fields: dict[str, Any] = vars(obj)
    unknown = [k for k in changes if k not in fields]
    if unknown or not dataclasses.is_dataclass(obj):
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]  # the standard error for a wrong name
    new = object.__new__(type(obj))
    state: dict[str, Any] = vars(new)
    state.update(fields)
    state.update(changes)
    return new
