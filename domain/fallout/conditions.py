"""Conditions (docs/fallout-effects.md): whether one survivor meets one, on the live game.

Encounter options, quest requirements, companions' recruit and keep
conditions and agenda cards' influence all ask the same questions about a
survivor; this module answers them.
"""

from __future__ import annotations

from domain.fallout import effects as fx
from domain.fallout.board import board_of
from domain.fallout.content import catalog
from domain.fallout.state import GameState

#: The pack's conditions, each parsed once (see ``fx.Memo``).
_parsed = fx.Memo(fx.parse_condition)


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
    s = state.survivor(seat)
    cards = catalog(state.pack).cards
    held = s.equipped + s.inventory
    c = condition
    if isinstance(c, fx.AllOf):
        return all(holds(state, seat, inner, quest) for inner in c.conditions)
    if isinstance(c, fx.AnyOf):
        return any(holds(state, seat, inner, quest) for inner in c.conditions)
    if isinstance(c, fx.Not):
        return not holds(state, seat, c.condition, quest)
    if isinstance(c, fx.HasTrait):
        return s.has_trait(c.trait)
    if isinstance(c, fx.HasSpecial):
        return c.letter in s.letters
    if isinstance(c, fx.HasCaps):
        return s.caps >= c.at_least
    if isinstance(c, fx.HasItem):
        return c.card in held
    if isinstance(c, fx.HasKind):
        pool = s.equipped if c.equipped else held
        return any(cards[x].kind == c.kind for x in pool if x in cards)
    if isinstance(c, fx.Measured):
        value = measure(state, seat, c.measure)
        return (c.at_least is None or value >= c.at_least) and (c.at_most is None or value <= c.at_most)
    if isinstance(c, fx.Loyal):
        return loyal_to(state, seat) == c.faction
    if isinstance(c, fx.Ahead):
        return lead(state, c.faction) >= c.by
    # The rest are about where the survivor stands.
    if s.space is None:
        return False
    space = board_of(state).spaces[s.space]
    if isinstance(c, fx.InSpace):
        return s.space == c.space
    if isinstance(c, fx.AtEncounter):
        return space.encounter is not None and space.encounter.kind == c.kind
    if isinstance(c, fx.OnTerrain):
        return c.terrain in space.terrain
    if isinstance(c, fx.WithSurvivor):
        if state.players == 1:
            # Solo Play: a settlement space stands in for another survivor.
            return space.encounter is not None and space.encounter.kind == "settlement"
        return bool(partners(state, seat))
    if isinstance(c, fx.AtMarker):
        if c.scenario:
            owner: str | None = state.scenario
        elif c.number is None:
            owner = quest
        else:
            owner = catalog(state.pack).library.get(c.number)
        return owner is not None and (owner, s.space) in state.markers
    raise TypeError(f"unknown condition {c!r}")


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
