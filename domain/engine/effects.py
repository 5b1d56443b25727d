"""A game's effect interpreter: what each kind of effect does, and the step that runs the next one.

A card's effects are data (a list of keyword mappings in Zona, a bar of parsed
results in Fallout). Running them is one shape in every game: the effects
being run sit on a stack kept in the state (so a snapshot taken half-way
through a card survives), and each step takes the next effect of the top
list, records that it was taken (an event), and hands it to the handler of
its kind, which emits its events or pushes what it needs: a test, a choice,
another list on top. A spent list is finished (an event too) and the one
below carries on.

``Effects`` holds the handlers, each registered (``handles``) by the rule
module that defines what the effect does, so the interpreter sits below every
rule module and any of them can start an effect list without importing the
modules its effects reach. A game subclasses it with ``take``: where its
stack's top is, what taking an effect and finishing a list emit, and what a
handler is given besides the effect.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Generic, TypeVar

from mypy_extensions import mypyc_attr

R = TypeVar("R")
#: A handler: ``(resolution, *what take gives)``; each game names its own shape.
F = TypeVar("F", bound=Callable[..., None])


# A Python class in the compiled build (mypyc_build.py), as mypyc cannot compile most builtin types' subclasses.
@mypyc_attr(native_class=False)
class EffectsError(Exception):
    """An effect kind registered twice, or one nobody handles."""


# Compiled in the compiled build, where a game's own effects (the tests' too) may still subclass it in Python.
@mypyc_attr(allow_interpreted_subclasses=True)
class Effects(ABC, Generic[R]):
    def __init__(self, game: str):
        self.game = game
        #: Every kind of effect's handler, registered by the module that defines it.
        self.handlers: dict[Hashable, Callable[..., None]] = {}

    @abstractmethod
    def kind(self, effect: Any) -> Hashable:
        """The kind an effect's handler is registered under (its keyword, its parsed type)."""

    @abstractmethod
    def take(self, res: R) -> tuple[Any, tuple[Any, ...]] | None:
        """Take the next effect of the list on top of the stack, emitting that it was taken:
        the effect and what its handler is given after the resolution; None when there is
        none to run now (the list was spent and finished, or the step did something else)."""

    def handles(self, *kinds: Hashable) -> Callable[[F], F]:
        """Register the handler of the effects of ``kinds``."""

        def register(handler: F) -> F:
            for kind in kinds:
                if kind in self.handlers:
                    raise EffectsError(f"{self.game}: effect {kind!r} registered twice")
                self.handlers[kind] = handler
            return handler

        return register

    def step(self, res: R) -> None:
        """Run the next effect of the list on top of the stack (or finish the list)."""
        taken = self.take(res)
        if taken is not None:
            effect, args = taken
            self.handlers[self.kind(effect)](res, *args)

    def check(self, kinds: Iterable[Hashable]) -> None:
        """Every one of ``kinds`` (the vocabulary the pack loader accepts) has its handler."""
        missing = sorted(str(getattr(k, "__name__", k)) for k in kinds if k not in self.handlers)
        if missing:
            raise EffectsError(f"{self.game}: effects nobody handles: {missing}")
