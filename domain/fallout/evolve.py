"""Folding events into the state.

Each rule module registers the folds of the events it emits in
``domain.fallout.rulebook.RULES``; importing them all here completes that
table, so whoever folds through this module folds with every rule. A fold
reads the event's data and never draws or decides: whatever was random or
chosen is already in the event. An event type this version does not know
leaves the state as it is, so an old engine never fails on a newer stream.
"""

from __future__ import annotations

from domain.fallout import (  # noqa: F401 - each registers its commands, answers and folds in RULES
    activation,
    agendas,
    camp,
    decisions,
    encounter,
    enemies,
    explore,
    fight,
    items,
    killed,
    library,
    loyalty,
    modifiers,
    movement,
    perks,
    quest,
    results,
    rounds,
    setup,
    shop,
    tallies,
    tasks,
    trade,
    traits,
    turns,
    vats,
    xp,
)
from domain.fallout.rulebook import RULES
from domain.fallout.state import GameState
from domain.game import Event


def evolve(state: GameState, event: Event) -> GameState:
    return RULES.evolve(state, event)
