"""Zona's emit-and-fold: the engine's Resolution with the helpers every rule module uses.

The rules run as a stack of *frames* kept in the state (an encounter, a test,
the card being read...): a step emits events and pushes, updates or pops
frames, and when a seat must choose, the step requests a decision and the
whole resolution stops until the answer arrives. Because the stack is state,
a game stopped in the middle of an encounter survives a snapshot.
"""

from __future__ import annotations

from typing import Any

from domain.engine.resolution import Resolution
from domain.game import Event
from domain.rng import Rng
from domain.zona.board import Board, board_for
from domain.zona.model import Pack
from domain.zona.pack import pack_named
from domain.zona.rules import evolve, evolve_owned
from domain.zona.state import Frame, State


class ZonaResolution(Resolution[State]):
    def __init__(self, state: State, rng: Rng):
        super().__init__(state, rng, evolve)
        #: The state's top-level parts this resolution's folds copied: the caller's state never shares them.
        self.owned: set[str] = set()

    def emit(self, type_: str, **data: Any) -> State:
        event = Event(type_, data)
        self.state = evolve_owned(self.state, event, self.owned)
        self.events.append(event)
        return self.state

    @property
    def pack(self) -> Pack:
        return pack_named(self.state["pack"])

    @property
    def board(self) -> Board:
        return board_for(self.state["pack"], self.state["side"])

    def stalker(self, seat: int) -> dict[str, Any]:
        return self.state["stalkers"][seat]

    @property
    def frame(self) -> Frame:
        return self.state["frames"][-1]

    def push(self, kind: str, **data: Any) -> None:
        self.emit("FramePushed", frame={"kind": kind, **data})

    def update(self, depth: int = 0, **changes: Any) -> None:
        self.emit("FrameUpdated", changes=changes, depth=depth)

    def pop(self, result: Any = None, count: int = 1) -> None:
        self.emit("FramePopped", result=result, count=count)

    def move(self, event: str, thing: str, source: str, target: str, seat: int | None = None) -> None:
        self.emit(event, thing=thing, source=source, target=target, seat=seat)

    def set(self, event: str, seat: int, **fields: Any) -> None:
        self.emit(event, seat=seat, **fields)

    def ask(self, seat: int, kind: str, choices: list[dict[str, Any]], **context: Any) -> None:
        self.request(seat, kind, choices, **context)
