"""Fallout's one table of rules, and the resolution that folds with it.

``RULES`` holds every command, decision answer, event fold and event schema,
each registered by the rule module that owns it (``domain.engine.rulebook``).
``Resolution`` is the engine's emit-and-fold (``domain.engine.resolution``)
folding through that table, with the lookups every rule step needs: the
pack's catalog, the board and the scenario.

Both sit at the bottom of the rule modules, so each of them imports the table
and the resolution from below and none imports a module to fold with it.
The package (``domain/fallout/__init__.py``) imports every rule module, so
the table is complete whichever module is imported first.
"""

from __future__ import annotations

from domain.engine import resolution as engine
from domain.engine.rulebook import Rulebook
from domain.fallout.board import Board, board_of
from domain.fallout.content import Catalog, catalog
from domain.fallout.model import Scenario
from domain.fallout.state import GameState
from domain.rng import Rng


class Resolution(engine.Resolution[GameState]):
    def __init__(self, state: GameState, rng: Rng):
        super().__init__(state, rng, RULES.evolve)

    @property
    def catalog(self) -> Catalog:
        return catalog(self.state.pack)

    @property
    def board(self) -> Board:
        return board_of(self.state)

    @property
    def scenario(self) -> Scenario:
        return self.catalog.pack.scenarios[self.state.scenario]


RULES: Rulebook[GameState, Resolution] = Rulebook("fallout")
