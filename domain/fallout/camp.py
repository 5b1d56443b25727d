"""The camp action: recover 3 HP, unexhaust all cards, become Well Rested,
and trade (``trade``) with survivors in the same or an adjacent space.

Not allowed in a space with a face-up enemy (Loyalty: the loyal faction's
tokens do not count). Unexhausting pays costs and checks companions
(``items.unexhaust_all``).
"""

from __future__ import annotations

from typing import Any

from domain.engine.shapes import integer, strings
from domain.fallout import items, loyalty, traits, turns
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import CAMP_RECOVERY, MAX_HP, WELL_RESTED, GameState, replace
from domain.game import RuleViolation

RULE = "Camp Action"


def allowed(state: GameState, seat: int) -> bool:
    return state.survivor(seat).space is not None and not loyalty.blocked(state, seat)


@RULES.command("camp", {})
def camp_command(res: Resolution, seat: int, command: dict[str, Any]) -> None:
    turns.need_action(res.state, RULE)
    if not allowed(res.state, seat):
        raise RuleViolation("enemy_in_space", "You cannot camp in a space with a face-up enemy.", rule=RULE)
    survivor = res.state.survivor(seat)
    res.emit(
        "SurvivorCamped",
        seat=seat,
        recovered=min(CAMP_RECOVERY, MAX_HP - survivor.hp),
        unexhausted=[],
    )
    items.unexhaust_all(res, seat)
    traits.gain(res, seat, WELL_RESTED)


@RULES.fold("SurvivorCamped", {"recovered": integer(), "seat": integer(), "unexhausted": strings()})
def _camped(state: GameState, data: dict) -> GameState:
    seat = data["seat"]
    survivor = state.survivor(seat)
    back = set(data["unexhausted"])  # empty: items.unexhaust_all emits CardsUnexhausted
    state = state.with_survivor(
        seat, hp=min(MAX_HP, survivor.hp + data["recovered"]),
        exhausted=tuple(c for c in survivor.exhausted if c not in back),
    )
    turn = state.turn
    return replace(state, turn=replace(turn, actions=turn.actions - 1, camping=True)) if turn else state
