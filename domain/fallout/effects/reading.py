"""Reading the plain forms cards are written in: the error every reader raises, and the
small readers the vocabulary's parts share.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.fallout.model import (
    SPECIAL,
)


class EffectError(ValueError):
    """A plain form that is not in the vocabulary; the message says where and why."""


def letter(raw: Any) -> str:
    if raw not in SPECIAL:
        raise EffectError(f"unknown S.P.E.C.I.A.L. letter {raw!r} (expected one of {', '.join(SPECIAL)})")
    return raw


def one_of(raw: Any, values: Iterable[str], what: str) -> str:
    values = tuple(values)
    if raw not in values:
        raise EffectError(f"unknown {what} {raw!r} (expected one of: {', '.join(values)})")
    return raw


def text(raw: Any, what: str) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise EffectError(f"{what}: expected a non-empty string; got {raw!r}")
    return raw.strip()


def count(raw: Any, what: str, minimum: int = 0) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < minimum:
        raise EffectError(f"{what}: expected a whole number >= {minimum}; got {raw!r}")
    return raw
