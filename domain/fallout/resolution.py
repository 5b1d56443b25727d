"""The events one command resolves into.

``decide`` never changes the state it was given. It opens a ``Resolution`` on
it, and every rule step emits its events through ``emit``, which folds each
event at once with the same ``evolve`` a replay uses. So a later step sees the
earlier steps' effects, and the state a command leaves behind is by
construction the state its events fold to.
"""

from __future__ import annotations

from typing import Any

from domain.fallout.board import Board, board_of
from domain.fallout.content import Catalog, catalog
from domain.fallout.evolve import evolve
from domain.fallout.model import Scenario
from domain.fallout.state import GameState
from domain.game import Event
from domain.rng import Rng


class Resolution:
    def __init__(self, state: GameState, rng: Rng):
        self.state = state
        self.rng = rng
        self.events: list[Event] = []

    def emit(self, type_: str, **data: Any) -> GameState:
        event = Event(type_, data)
        self.state = evolve(self.state, event)
        self.events.append(event)
        return self.state

    def request(self, seat: int, kind: str, choices: list[dict[str, Any]], **context: Any) -> None:
        """Stop and wait for ``seat`` to pick one of ``choices`` (Decisions are explicit)."""
        self.emit("DecisionRequested", seat=seat, kind=kind, choices=choices, context=context)

    @property
    def catalog(self) -> Catalog:
        return catalog(self.state.pack)

    @property
    def board(self) -> Board:
        return board_of(self.state)

    @property
    def scenario(self) -> Scenario:
        return self.catalog.pack.scenarios[self.state.scenario]
