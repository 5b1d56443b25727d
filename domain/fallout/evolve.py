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
    movement,
    perks,
    quest,
    results,
    rounds,
    setup,
    shop,
    tasks,
    trade,
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
    setup, turns, movement, camp, explore, vats, fight, enemies, killed, xp, traits, activation, rounds, decisions,
    results, library, tasks, encounter, quest, items, shop, agendas, loyalty, perks, trade,
):
    FOLDS.update(_module.FOLDS)

#: Folds that watch another module's event (a test reporting to an attempt, a
#: kill completing a triggered quest objective); they run after its own fold.
WATCHES: dict[str, list[Fold]] = {}
for _module in (tasks, quest):
    for _type, _fold in _module.WATCHES.items():
        WATCHES.setdefault(_type, []).append(_fold)


def evolve(state: GameState, event: Event) -> GameState:
    fold = FOLDS.get(event.type)
    if fold is not None:
        state = fold(state, event.data)
    for watch in WATCHES.get(event.type, ()):
        state = watch(state, event.data)
    return state
