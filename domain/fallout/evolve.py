"""Folding events into the state.

Each rule module owns the folds of the events it emits (its ``FOLDS``); this
module only gathers them. A fold reads the event's data and never draws or
decides: whatever was random or chosen is already in the event. An event type
this version does not know leaves the state as it is, so an old engine never
fails on a newer stream.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.fallout import (
    activation,
    camp,
    decisions,
    enemies,
    explore,
    fight,
    killed,
    movement,
    rounds,
    setup,
    traits,
    turns,
    vats,
    xp,
)
from domain.fallout.state import GameState
from domain.game import Event

Fold = Callable[[GameState, dict], GameState]

FOLDS: dict[str, Fold] = {}
for _module in (
    setup, turns, movement, camp, explore, vats, fight, enemies, killed, xp, traits, activation, rounds, decisions
):
    FOLDS.update(_module.FOLDS)


def evolve(state: GameState, event: Event) -> GameState:
    fold = FOLDS.get(event.type)
    return state if fold is None else fold(state, event.data)
