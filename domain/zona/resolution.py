"""Zona's table and its emit-and-fold: the engine's Rulebook and Resolution with the helpers every rule module uses.

``RULES`` is the one table of commands, decision answers, event folds and
event schemas; every rule module registers what it owns where it defines it
(the folds in ``folds.py``), and ``ZONA.command_schemas`` and ``event_schemas``
read it. The table and the resolution live together because each needs the
other: a handler takes the resolution, the resolution folds through the table.

The rules run as a stack of *frames* kept in the state (an encounter, a test,
the card being read...): a step emits events and pushes, updates or pops
frames, and when a seat must choose, the step requests a decision and the
whole resolution stops until the answer arrives. Because the stack is state,
a game stopped in the middle of an encounter survives a snapshot. ``FRAMES``
(the engine's ``Frames``) holds each kind of frame's step, registered where
it is defined, as the table holds commands and folds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from domain.engine.frames import Frames
from domain.engine.resolution import Resolution, made_event
from domain.engine.rulebook import Rulebook
from domain.game import Event
from domain.rng import Rng
from domain.zona.board import Board, board_for
from domain.zona.model import Pack
from domain.zona.pack import pack_named
from domain.zona.state import Draft, Frame, State, replace


class InPlace(Draft):
    """The ``Draft`` a resolution folds its own events through: it writes the resolution's own record.

    The record is a copy this resolution made of the caller's state and no one else holds, so each fold
    writes its fields in place instead of making a new record an event (ten events a command, and each
    new record copied some forty fields). A part is still copied on its first write (``Draft.part``: the
    caller's state shares the rest) and written in place after.
    """

    def _get(self, name: str) -> Any:
        return getattr(self.base, name)

    def _put(self, name: str, value: Any) -> None:
        _write(self.base, name, value)

    @property
    def new(self) -> State:
        return self.base


def _write(record: State, name: str, value: Any) -> None:
    """Field ``name`` of ``record`` becomes ``value``, past the frozen record's guard (no one else holds it yet).

    A function, not a method of ``InPlace``: in a function mypyc makes ``object.__setattr__`` the generic set,
    where a method of a class with a Python base (``Draft`` has ``Generic``) calls it through ``object``'s type,
    some 1,400 instructions a write."""
    object.__setattr__(record, name, value)


class ZonaResolution(Resolution[State]):
    def __init__(self, state: State, rng: Rng):
        super().__init__(state, rng, evolve)
        #: The record this resolution made on its first fold and alone holds, written in place after.
        self.draft: InPlace | None = None
        #: The pack the state names (``pack``), and its name.
        self._pack: Pack | None = None
        self._pack_name = ""

    def emitted(self, type_: str, data: dict[str, Any]) -> State:
        """Emit an event and fold it at once, into this resolution's own record (``InPlace``): the state it
        started from is never written, and the events fold on it to the same state one by one
        (``evolve``), which a replay does."""
        write = WRITERS.get(type_)
        if write is None:
            event = made_event(type_, data)
            folded = RULES.evolve(self.state, event)
            if folded is not self.state:  # a fold of its own made a new record, no one else holds
                self.state = folded
                self.draft = InPlace(folded)
        else:
            draft = self.draft
            if draft is None:
                self.state = replace(self.state)
                draft = self.draft = InPlace(self.state)
            write(draft, data)
            watches = RULES.watches.get(type_)
            if watches:
                # A watch makes a new record (sharing the parts it does not write); it becomes the one held.
                for watch in watches:
                    self.state = watch(self.state, data)
                self.draft = InPlace(self.state)
            if self.recorded:  # a look-ahead's resolution makes no event object (``Resolution.recorded``)
                self.events.append(made_event(type_, data))
            return self.state
        if self.recorded:
            self.events.append(event)
        return self.state

    @property
    def pack(self) -> Pack:
        # Rule code asks for the pack some fifteen times a command; its name is set once, by the setup.
        name, pack = self.state.pack, self._pack
        if pack is None or name != self._pack_name:
            pack = self._pack = pack_named(name)
            self._pack_name = name
        return pack

    @property
    def board(self) -> Board:
        return board_for(self.state.pack, self.state.side)

    def stalker(self, seat: int) -> dict[str, Any]:
        return self.state.stalkers[seat]

    @property
    def frame(self) -> Frame:
        return self.state.frames[-1]

    def push(self, kind: str, **data: Any) -> None:
        self.emitted("FramePushed", {"frame": {"kind": kind, **data}})

    def update(self, depth: int = 0, **changes: Any) -> None:
        self.emitted("FrameUpdated", {"changes": changes, "depth": depth})

    def pop(self, result: Any = None, count: int = 1) -> None:
        self.emitted("FramePopped", {"result": result, "count": count})

    def move(self, event: str, thing: str, source: str, target: str, seat: int | None = None) -> None:
        self.emitted(event, {"thing": thing, "source": source, "target": target, "seat": seat})

    def set(self, event: str, seat: int, **fields: Any) -> None:
        self.emitted(event, {"seat": seat, **fields})

    def ask(self, seat: int, kind: str, choices: list[dict[str, Any]], **context: Any) -> None:
        self.requested(seat, kind, choices, context)


RULES: Final[Rulebook[State, ZonaResolution]] = Rulebook("zona")
#: Every frame kind's step (``domain.engine.frames``), registered by the rule module that defines it.
FRAMES: Final[Frames[ZonaResolution]] = Frames("zona")

#: Each event's writer (through a ``Draft``), for ``ZonaResolution.emitted``; ``folds.py`` registers them.
WRITERS: Final[dict[str, Callable[[Draft, dict[str, Any]], None]]] = {}


def evolve(state: State, event: Event) -> State:
    return RULES.evolve(state, event)
