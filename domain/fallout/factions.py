"""Factions: the power track and faction tokens (Factions, Faction Power
Track, Faction Tokens).

★+ / ♠+ results advance a faction one space per +. Positions past the final
space are kept, so the excess counts when influence compares the factions;
enemy levels (X, Y) read the final space then. Reaching or passing the final
space ends the game (``influence.faction_took_over``). A faction token placed
on the map is the enemy the scenario says it is, face up; it is discarded
instead of becoming inactive and never replaced when killed (``fight``).
"""

from __future__ import annotations

from domain.engine.shapes import integer, integers, string
from domain.fallout import effects as fx
from domain.fallout import influence, results
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import GameState, Resolving, replace


def advance(res: Resolution, faction: str, steps: int) -> None:
    scenario = res.scenario
    keys = [f.key for f in scenario.factions]
    if faction not in keys or steps == 0:
        return
    power = list(res.state.power)
    i = keys.index(faction)
    # ★−: a faction falls back, never above the track's top space.
    moved = max(-power[i], steps)
    if moved == 0:
        return
    power[i] += moved
    res.emit("FactionsAdvanced", power=power, faction=faction, steps=moved)
    if moved > 0:
        check_end(res)


def check_end(res: Resolution) -> None:
    final = len(res.scenario.power_track) - 1
    over = [res.scenario.factions[i].key for i, p in enumerate(res.state.power) if p >= final]
    if over and not res.state.over:
        influence.faction_took_over(res, over)


def place_token(res: Resolution, faction: str, space: str) -> None:
    for f in res.scenario.factions:
        if f.key == faction and f.token_enemy is not None:
            token = f.token_enemy
            res.emit(
                "EnemyPlaced", enemy=f"e{res.state.next_enemy}", type=token.type, token=token.id, space=space,
                active=True, reason="faction_token", faction=faction,
            )
            return


@results.about_game(fx.Power)
def _power_result(res: Resolution, entry: Resolving, r: fx.Power) -> None:
    advance(res, r.faction, r.steps)


@results.about_game(fx.PlaceFactionToken)
def _token_result(res: Resolution, entry: Resolving, r: fx.PlaceFactionToken) -> None:
    place_token(res, r.faction, r.space)


@RULES.fold(
    "FactionsAdvanced",
    {
        "faction": string(optional=True),
        "power": integers(),
        "steps": integer(optional=True),
    },
)
def _advanced(state: GameState, data: dict) -> GameState:
    return replace(state, power=tuple(data["power"]))
