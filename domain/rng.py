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
import struct
from collections.abc import Sequence
from typing import Any, Final, TypeVar

from mypy_extensions import mypyc_attr

T = TypeVar("T")

_SPAN: Final = 1 << 256
#: The functions every draw calls, held: named at each call, the compiled build looks each up on its module or type.
_SHA256: Final = hashlib.sha256
_FROM_BYTES: Final = int.from_bytes
#: The longest prefix whose counter (up to seven digits) still ends in SHA-256's first block (55 bytes and its padding).
_ONE_BLOCK: Final = 48
#: The rejection limit of each bound ``below`` has met (the largest multiple of it within 256 bits).
_LIMITS: Final[dict[int, int]] = {}


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
        #: A prefix that leaves its counter in SHA-256's first 64-byte block is hashed whole at every draw: one
        #: compression either way, and one call where copying the hashed prefix takes three.
        self._short = len(self._prefix) <= _ONE_BLOCK
        #: A longer prefix hashed, made on the second draw (many sources draw once or never): each later draw
        #: copies it and hashes its counter only, a third quicker than hashing the prefix again.
        self._hashed: Any = None

    @classmethod
    def for_position(cls, seed: bytes | str, version: int) -> Rng:
        """The source for the decision taken on top of stream ``version``."""
        return cls(seed, f"v{version}")

    def _next(self) -> int:
        return _FROM_BYTES(self._digest(), "big")

    def _digest(self) -> bytes:
        """The next counter's digest."""
        counter = self.counter
        self.counter = counter + 1
        if self._short:
            return _SHA256(self._prefix + b"%d" % counter).digest()  # the counter in decimal, as str(counter) spells it
        hashed = self._hashed
        if hashed is None:
            if counter == 0:  # the first draw: most sources draw once, and hashing the prefix apart would cost more
                return _SHA256(self._prefix + b"0").digest()
            hashed = self._hashed = _SHA256(self._prefix)
        draw = hashed.copy()
        draw.update(b"%d" % counter)  # the counter in decimal, as str(counter) spells it
        return draw.digest()

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


#: A digest read as eight 32-bit words (``Imagined``). Both Final: the compiled build reads them as constants,
#: not from the module's namespace on every draw (over a quarter of a draw's cost).
_WORDS: Final = struct.Struct(">8I")
_WORD: Final = 1 << 32


class Imagined(Rng):
    """The chances a bot imagines in its look-ahead: the worlds it samples, the dice of the commands it tries.

    As uniform and as reproducible as ``Rng``, and from the same SHA-256 digests, but each digest is cut
    into eight 32-bit draws where ``Rng`` spends a whole one on each: a greedy decision draws thousands,
    and the hashing was a fifth of its time. Never a game's own source (the cut is ours, no published
    function a client recomputes): nothing a bot imagines is ever checked, and the command it sends is
    decided on the game's ``Rng``. A bound over 32 bits draws as ``Rng`` does.
    """

    def __init__(self, seed: bytes | str, label: str = ""):
        super().__init__(seed, label)
        self._words: tuple[int, ...] = ()
        self._at = 8

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n > _WORD:
            return super().below(n)
        limit = _WORD - _WORD % n
        while True:
            at = self._at
            if at == 8:
                self._words = _WORDS.unpack(self._digest())
                at = 0
            self._at = at + 1
            value = self._words[at]
            if value < limit:
                return value % n


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
