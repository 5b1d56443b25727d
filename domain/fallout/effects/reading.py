"""Reading the plain forms cards are written in: the error every reader raises, and the
small readers the vocabulary's parts share.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
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


class Memo:
    """Parsed forms of a pack's plain effects, kept by the identity of the plain form.

    A pack's components are frozen and live as long as the pack, so the engine
    parses each of their effects once instead of on every look (influence is
    counted after every step). The plain form is kept with its parsed one, so
    its id is never reused while the entry lives; a form built on the fly
    (a test's literal) only costs a slot until the memo is cleared.
    """

    LIMIT = 8192

    def __init__(self, parse: Callable[[Any], Any]):
        self.parse = parse
        self.found: dict[int, tuple[Any, Any]] = {}

    def __call__(self, raw: Any) -> Any:
        hit = self.found.get(id(raw))
        if hit is not None and hit[0] is raw:
            return hit[1]
        parsed = self.parse(raw)
        if len(self.found) >= self.LIMIT:
            self.found.clear()
        self.found[id(raw)] = (raw, parsed)
        return parsed
