"""Carrying a resolution on until a seat must decide: the loop, and the stack of frames it works through.

After a command, a game does whatever follows by itself (finish the test,
the fight, the card being read; move the turn or the phase on) until a seat
must act or answer a decision, or the game is over. What is half done is
kept in the state, never in Python's stack, so a game stopped at a decision
survives a snapshot, and the next command carries it on from there.

``settle`` is that loop: ``step`` does one piece of work and says whether it
did anything, and the loop stops at a pending decision, the end, or a step
that finds nothing to do. A step that keeps doing work without ever reaching
a decision is a bug, never a rule: the loop gives up after ``max_steps``.

``Frames`` is the stack of work that games keep as *frames* (a dict each,
with its ``kind``: a test, an encounter, a card being read...): the step of
each kind is registered by the rule module that defines it (``@FRAMES.step``,
as effects and commands are), so the loop that runs the top frame imports
none of them. A game whose pending work is a few typed fields instead (a
fight, a roll, a results bar) runs ``settle`` with its own ordered step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from mypy_extensions import mypyc_attr

R = TypeVar("R")

Frame = dict[str, Any]
#: A frame's step: ``(resolution, the frame on top)``; emits events, pushes, updates or pops frames.
Step = Callable[[R, Frame], None]


# A Python class in the compiled build (mypyc compiles no subclass of RuntimeError), so the module's loop,
# which every command of Fallout runs, can be compiled.
@mypyc_attr(native_class=False)
class FramesError(RuntimeError):
    """A frame kind registered twice, or a resolution that never settles."""


def settle(res: R, waits: Callable[[R], bool], step: Callable[[R], bool], max_steps: int) -> None:
    """Run ``step`` until ``waits`` (a decision is pending, the game is over) or a step does nothing."""
    for _ in range(max_steps):
        if waits(res) or not step(res):
            return
    raise FramesError("the resolution did not settle")


class Frames(Generic[R]):
    def __init__(self, game: str, max_steps: int = 100_000):
        self.game = game
        self.max_steps = max_steps
        #: Every frame kind's step, registered by the module that defines it.
        self.steps: dict[str, Step[R]] = {}

    def step(self, kind: str) -> Callable[[Step[R]], Step[R]]:
        """Register the step of the frames of ``kind``."""

        def register(step: Step[R]) -> Step[R]:
            if kind in self.steps:
                raise FramesError(f"{self.game}: frame {kind!r} registered twice")
            self.steps[kind] = step
            return step

        return register

    def run(
        self, res: R, waits: Callable[[R], bool], frames: Callable[[R], list[Frame]], otherwise: Callable[[R], bool]
    ) -> None:
        """Carry ``res`` on: the top frame's step while there are ``frames``, else ``otherwise`` (what moves
        on with nothing half done: a turn, a phase), until ``waits`` or ``otherwise`` has nothing to do."""

        def one(res: R) -> bool:
            stack = frames(res)
            if stack:
                top = stack[-1]
                self.steps[top["kind"]](res, top)
                return True
            return otherwise(res)

        settle(res, waits, one, self.max_steps)
