"""Amounts: a number, or the encounter level with + or - (Results)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from domain.fallout.effects.reading import EffectError

_LEVEL = re.compile(r"^\s*L\s*(?:([+-])\s*(\d+))?\s*$")


@dataclass(frozen=True)
class Amount:
    """``base``, plus the encounter level when ``level`` is set ("L+1")."""

    base: int = 0
    level: bool = False

    def of(self, level: int) -> int:
        """The number this amount stands for at an encounter of ``level``; never below 0."""
        return max(0, (level if self.level else 0) + self.base)

    def __str__(self) -> str:
        if not self.level:
            return str(self.base)
        return "L" if not self.base else f"L{self.base:+d}"


def parse_amount(raw: Any) -> Amount:
    if isinstance(raw, bool):
        raise EffectError(f"expected a number or L, L+n, L-n; got {raw!r}")
    if isinstance(raw, int):
        if raw < 0:
            raise EffectError(f"an amount is never negative; got {raw}")
        return Amount(raw)
    if isinstance(raw, str):
        if raw.strip().isdigit():
            return Amount(int(raw))
        m = _LEVEL.match(raw)
        if m:
            sign, n = m.groups()
            base = 0 if n is None else int(n) * (1 if sign == "+" else -1)
            return Amount(base, True)
    raise EffectError(f"expected a number or L, L+n, L-n; got {raw!r}")
