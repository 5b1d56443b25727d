"""A deterministic random source built on SHA-256, with no hidden state.

Why not the ``random`` module: outcomes must be re-derivable by anyone who
knows the game's seed and where in the log a decision was taken (provably
fair dice), on any Python version, forever. ``random``'s algorithms are an
implementation detail of CPython; SHA-256 in counter mode is a published
function a client in any language can recompute.

Each draw is ``sha256(seed || 0x00 || label || 0x00 || counter)`` read as a
256-bit big-endian integer; ``below(n)`` rejects values past the largest
multiple of ``n`` so every outcome is exactly equally likely.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, TypeVar

from mypy_extensions import mypyc_attr

T = TypeVar("T")

_SPAN = 1 << 256
#: The rejection limit of each bound ``below`` has met (the largest multiple of it within 256 bits).
_LIMITS: dict[int, int] = {}


# Compiled in the compiled build (mypyc_build.py), where the tests still script dice with a Python subclass.
@mypyc_attr(allow_interpreted_subclasses=True)
class Rng:
    def __init__(self, seed: bytes | str, label: str = ""):
        self.seed = seed.encode() if isinstance(seed, str) else bytes(seed)
        self.label = label
        self.counter = 0
        # What every draw hashes before its counter: built once, not per draw (a bot's decision draws
        # hundreds of times).
        self._prefix = self.seed + b"\x00" + label.encode() + b"\x00"
        #: The prefix hashed, made on the second draw (many sources draw once or never): each later draw
        #: copies it and hashes its counter only, a third quicker than hashing the prefix again.
        self._hashed: Any = None

    @classmethod
    def for_position(cls, seed: bytes | str, version: int) -> Rng:
        """The source for the decision taken on top of stream ``version``."""
        return cls(seed, f"v{version}")

    def _next(self) -> int:
        counter = self.counter
        self.counter = counter + 1
        hashed = self._hashed
        if hashed is None:
            if counter == 0:  # the first draw: most sources draw once, and hashing the prefix apart would cost more
                return int.from_bytes(hashlib.sha256(self._prefix + b"0").digest(), "big")
            hashed = self._hashed = hashlib.sha256(self._prefix)
        draw = hashed.copy()
        draw.update(b"%d" % counter)  # the counter in decimal, as str(counter) spells it
        return int.from_bytes(draw.digest(), "big")

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _LIMITS.get(n)
        if limit is None:
            limit = _SPAN - (_SPAN % n)
            if len(_LIMITS) < 4096:
                _LIMITS[n] = limit
        while True:
            value = self._next()
            if value < limit:
                return value % n

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list in a uniformly random order (Fisher–Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


class FirstDrawn(Rng):
    """``Rng(seed, label)`` whose first ``below`` is fixed: the ``first``-th of its ``n`` outcomes.

    A bot enumerates a command's first chance (the face a rerolled die shows) by playing it once per
    outcome, each as likely as the rest (``below`` is uniform), rather than sampling it: ``span`` is that
    first draw's ``n``, None while nothing was drawn. Every later draw is the plain stream's.
    """

    def __init__(self, seed: bytes | str, label: str, first: int):
        super().__init__(seed, label)
        self.first = first
        self.span: int | None = None

    def below(self, n: int) -> int:
        if self.span is None:
            if n <= 0:
                raise ValueError("below() needs a positive bound")
            self.span = n
            return self.first % n
        return super().below(n)
