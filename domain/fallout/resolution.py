"""Fallout's ``Resolution``: the engine's emit-and-fold (``domain.engine.resolution``),
with the lookups every rule step needs: the pack's catalog, the board and the scenario.
"""

from __future__ import annotations

from domain.engine import resolution as engine

# A module import: evolve imports every rule module, and setup builds a Resolution.
from domain.fallout import evolve as folding
from domain.fallout.board import Board, board_of
from domain.fallout.content import Catalog, catalog
from domain.fallout.model import Scenario
from domain.fallout.state import GameState
from domain.rng import Rng


class Resolution(engine.Resolution[GameState]):
    def __init__(self, state: GameState, rng: Rng):
        super().__init__(state, rng, folding.evolve)

    @property
    def catalog(self) -> Catalog:
        return catalog(self.state.pack)

    @property
    def board(self) -> Board:
        return board_of(self.state)

    @property
    def scenario(self) -> Scenario:
        return self.catalog.pack.scenarios[self.state.scenario]
