"""Conditions (docs/fallout-effects.md): whether one survivor meets one, on the live game.

Encounter options, quest requirements, companions' recruit and keep
conditions and agenda cards' influence all ask the same questions about a
survivor; this module answers them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from domain.fallout import effects as fx
from domain.fallout.board import board_of
from domain.fallout.content import catalog
from domain.fallout.state import GameState

#: The pack's conditions, each parsed once (see ``fx.Memo``).
_parsed: Final = fx.Memo(fx.parse_condition)


def measure(state: GameState, seat: int, name: str) -> int:
    """HP, rads and remaining HP from the HP track; the tallies of the game so far (one of ``fx.MEASURES``)."""
    s = state.survivor(seat)
    return s.remaining_hp if name == "remaining_hp" else int(getattr(s, name))


def holds(state: GameState, seat: int, condition: fx.Condition | dict | None, quest: str | None = None) -> bool:
    """``quest``: the quest card being resolved, for ``marker: true``."""
    if condition is None:
        return True
    if isinstance(condition, dict):
        condition = _parsed(condition)
    # One lookup by the condition's type rather than a chain of ``isinstance`` down to it: influence and every
    # quest objective ask after each step, most often of the chain's last kinds (a space, a marker).
    check = _HOLDS.get(type(condition))
    if check is None:
        raise TypeError(f"unknown condition {condition!r}")
    return check(state, seat, condition, quest)


def _all_of(state: GameState, seat: int, c: fx.AllOf, quest: str | None) -> bool:
    return all(holds(state, seat, inner, quest) for inner in c.conditions)


def _any_of(state: GameState, seat: int, c: fx.AnyOf, quest: str | None) -> bool:
    return any(holds(state, seat, inner, quest) for inner in c.conditions)


def _not(state: GameState, seat: int, c: fx.Not, quest: str | None) -> bool:
    return not holds(state, seat, c.condition, quest)


def _has_trait(state: GameState, seat: int, c: fx.HasTrait, quest: str | None) -> bool:
    return state.survivor(seat).has_trait(c.trait)


def _has_special(state: GameState, seat: int, c: fx.HasSpecial, quest: str | None) -> bool:
    return c.letter in state.survivor(seat).letters


def _has_caps(state: GameState, seat: int, c: fx.HasCaps, quest: str | None) -> bool:
    return state.survivor(seat).caps >= c.at_least


def _has_item(state: GameState, seat: int, c: fx.HasItem, quest: str | None) -> bool:
    s = state.survivor(seat)
    return c.card in s.equipped or c.card in s.inventory


def _has_kind(state: GameState, seat: int, c: fx.HasKind, quest: str | None) -> bool:
    s = state.survivor(seat)
    cards = catalog(state.pack).cards
    pool = s.equipped if c.equipped else s.equipped + s.inventory
    return any(cards[x].kind == c.kind for x in pool if x in cards)


def _measured(state: GameState, seat: int, c: fx.Measured, quest: str | None) -> bool:
    value = measure(state, seat, c.measure)
    return (c.at_least is None or value >= c.at_least) and (c.at_most is None or value <= c.at_most)


def _loyal(state: GameState, seat: int, c: fx.Loyal, quest: str | None) -> bool:
    return loyal_to(state, seat) == c.faction


def _ahead(state: GameState, seat: int, c: fx.Ahead, quest: str | None) -> bool:
    return lead(state, c.faction) >= c.by


# The rest are about where the survivor stands: none holds for a survivor off the map.


def _in_space(state: GameState, seat: int, c: fx.InSpace, quest: str | None) -> bool:
    space = state.survivor(seat).space
    return space is not None and space == c.space


def _at_encounter(state: GameState, seat: int, c: fx.AtEncounter, quest: str | None) -> bool:
    space = state.survivor(seat).space
    if space is None:
        return False
    icon = board_of(state).spaces[space].encounter
    return icon is not None and icon.kind == c.kind


def _on_terrain(state: GameState, seat: int, c: fx.OnTerrain, quest: str | None) -> bool:
    space = state.survivor(seat).space
    return space is not None and c.terrain in board_of(state).spaces[space].terrain


def _with_survivor(state: GameState, seat: int, c: fx.WithSurvivor, quest: str | None) -> bool:
    space = state.survivor(seat).space
    if space is None:
        return False
    if state.players == 1:
        # Solo Play: a settlement space stands in for another survivor.
        icon = board_of(state).spaces[space].encounter
        return icon is not None and icon.kind == "settlement"
    return bool(partners(state, seat))


def _at_marker(state: GameState, seat: int, c: fx.AtMarker, quest: str | None) -> bool:
    space = state.survivor(seat).space
    if space is None:
        return False
    if c.scenario:
        owner: str | None = state.scenario
    elif c.number is None:
        owner = quest
    else:
        owner = catalog(state.pack).library.get(c.number)
    return owner is not None and (owner, space) in state.markers


_HOLDS: Final[dict[type, Callable[[GameState, int, Any, str | None], bool]]] = {
    fx.AllOf: _all_of, fx.AnyOf: _any_of, fx.Not: _not, fx.HasTrait: _has_trait, fx.HasSpecial: _has_special,
    fx.HasCaps: _has_caps, fx.HasItem: _has_item, fx.HasKind: _has_kind, fx.Measured: _measured, fx.Loyal: _loyal,
    fx.Ahead: _ahead, fx.InSpace: _in_space, fx.AtEncounter: _at_encounter, fx.OnTerrain: _on_terrain,
    fx.WithSurvivor: _with_survivor, fx.AtMarker: _at_marker,
}


def game_holds(state: GameState, condition: fx.Condition | dict | None) -> bool:
    """A condition about the game alone (a scenario's round-end rule): where the factions stand."""
    if condition is None:
        return True
    if isinstance(condition, dict):
        condition = _parsed(condition)
    c = condition
    if isinstance(c, fx.AllOf):
        return all(game_holds(state, inner) for inner in c.conditions)
    if isinstance(c, fx.AnyOf):
        return any(game_holds(state, inner) for inner in c.conditions)
    if isinstance(c, fx.Not):
        return not game_holds(state, c.condition)
    if isinstance(c, fx.Ahead):
        return lead(state, c.faction) >= c.by
    raise TypeError(f"not a condition about the game: {c!r}")


def partners(state: GameState, seat: int) -> list[int]:
    """Other survivors in the same space, in turn order from the first player."""
    here = state.survivor(seat).space
    return [o for o in state.turn_order() if o != seat and state.survivor(o).on_map and state.survivor(o).space == here]


def loyal_to(state: GameState, seat: int) -> str | None:
    """The faction a survivor has declared loyalty to (its revealed agenda card's)."""
    revealed = state.survivor(seat).loyalty
    if revealed is None:
        return None
    return catalog(state.pack).agendas[revealed].faction


def lead(state: GameState, faction: str) -> int:
    """Spaces ``faction``'s power token is ahead of the other's (negative: behind).

    Positions past the final space are kept, so the excess counts (Faction
    Power Track).
    """
    factions = catalog(state.pack).pack.scenarios[state.scenario].factions
    keys = [f.key for f in factions]
    if faction not in keys or len(state.power) != len(keys):
        return 0
    mine = state.power[keys.index(faction)]
    other = state.power[1 - keys.index(faction)]
    return mine - other


def level_at(state: GameState, space: str | None) -> int:
    """The encounter level read for L: the icon's level in ``space``, 1 without one."""
    if space is None:
        return 1
    icon = board_of(state).spaces[space].encounter
    return icon.level if icon is not None and icon.level is not None else 1
