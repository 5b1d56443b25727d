"""Using perks (Perk Cards).

A perk is used during its holder's own turn, but not while a non-move action
is being performed: in this engine, between actions (any command of the
turn's own, never while a decision, a fight, an encounter or a quest is
under way). Its results resolve, and the card goes back to the perk deck.
Gaining perks is part of leveling up (``xp``).
"""

from __future__ import annotations

from typing import Any

from domain.engine.shapes import integer, string
from domain.fallout import conditions, results
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import GameState, replace
from domain.game import RuleViolation

RULE = "Perk Cards"


def usable(state: GameState, seat: int) -> list[str]:
    turn = state.turn
    s = state.survivor(seat)
    if turn is None or turn.seat != seat or not s.on_map or state.trade is not None:
        return list()
    return list(s.perks)


@RULES.command("use_perk", {"perk": string()})
def use_command(res: Resolution, seat: int, command: dict[str, Any]) -> None:
    perk = command.get("perk")
    if perk not in usable(res.state, seat):
        raise RuleViolation("cannot_use_perk", "Use one of your perks during your turn, between actions.", rule=RULE)
    res.emit("PerkUsed", seat=seat, perk=perk)
    level = conditions.level_at(res.state, res.state.survivor(seat).space)
    results.push(res, seat, perk, "perk", level, res.catalog.perks[perk].effects)


@RULES.fold("PerkUsed", {"perk": string(), "seat": integer()})
def _used(state: GameState, data: dict) -> GameState:
    seat, perk = data["seat"], data["perk"]
    state = state.with_survivor(seat, perks=tuple(p for p in state.survivor(seat).perks if p != perk))
    return replace(state, perk_deck=state.perk_deck + (perk,))
