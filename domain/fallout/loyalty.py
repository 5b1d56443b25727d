"""Loyalty (Factions, Loyalty).

At the start of their turn a survivor may reveal a ★ or ♠ agenda card from
their hand to declare loyalty to that faction (revealing another hides the
first again), or hide it to withdraw. While loyal: that faction's tokens do
not prohibit the survivor's actions, they neither move toward nor fight the
survivor when they activate (nor when they are aggressive), and the survivor
cannot fight them. The revealed card still counts toward the four-card limit
and influence; if it leaves the hand, the loyalty ends.

"Enemies of that faction" are read as its faction tokens: the supply's enemies
whose level is the faction's letter belong to no one.
"""

from __future__ import annotations

from typing import Any

from domain.engine.shapes import integer, string
from domain.fallout.content import catalog
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import EnemyState, GameState
from domain.game import RuleViolation

RULE = "Loyalty"


def faction_of(state: GameState, seat: int) -> str | None:
    revealed = state.survivor(seat).loyalty
    return None if revealed is None else catalog(state.pack).agendas[revealed].faction


def ignores(state: GameState, seat: int, enemy: EnemyState) -> bool:
    """The enemy is a token of the faction this survivor is loyal to."""
    return enemy.faction is not None and enemy.faction == faction_of(state, seat)


def blocked(state: GameState, seat: int) -> bool:
    """A face-up enemy in the survivor's space prohibits encounter, quest and camp actions."""
    space = state.survivor(seat).space
    return any(e.active and e.space == space and not ignores(state, seat, e) for e in state.enemies)


def choices(state: GameState, seat: int) -> list[dict[str, Any]]:
    turn = state.turn
    if turn is None or turn.seat != seat or not turn.at_start:
        return []
    s = state.survivor(seat)
    agendas = catalog(state.pack).agendas
    out = [
        {"type": "declare_loyalty", "agenda": a}
        for a in s.agendas
        if agendas[a].faction is not None and a != s.loyalty
    ]
    if s.loyalty is not None:
        out.append({"type": "withdraw_loyalty"})
    return out


@RULES.command("declare_loyalty", {"agenda": string()})
def declare_command(res: Resolution, seat: int, command: dict[str, Any]) -> None:
    if command not in choices(res.state, seat) or command.get("type") != "declare_loyalty":
        raise RuleViolation(
            "cannot_declare_loyalty",
            "Reveal a ★ or ♠ agenda card from your hand at the start of your turn.",
            rule=RULE,
        )
    agenda = command["agenda"]
    res.emit("LoyaltyDeclared", seat=seat, agenda=agenda, faction=catalog(res.state.pack).agendas[agenda].faction)


@RULES.command("withdraw_loyalty", {})
def withdraw_command(res: Resolution, seat: int, command: dict[str, Any]) -> None:
    if {"type": "withdraw_loyalty"} not in choices(res.state, seat):
        raise RuleViolation(
            "cannot_withdraw_loyalty", "Hide your revealed agenda card at the start of your turn.", rule=RULE
        )
    res.emit("LoyaltyWithdrawn", seat=seat, agenda=res.state.survivor(seat).loyalty)


@RULES.fold("LoyaltyDeclared", {"agenda": string(), "faction": string(), "seat": integer()})
def _declared(state: GameState, data: dict) -> GameState:
    return state.with_survivor(data["seat"], loyalty=data["agenda"])


@RULES.fold("LoyaltyWithdrawn", {"agenda": string(), "seat": integer()})
def _withdrawn(state: GameState, data: dict) -> GameState:
    return state.with_survivor(data["seat"], loyalty=None)


def drop_if_gone(state: GameState, seat: int) -> GameState:
    """The revealed card left the hand: the loyalty ends with it."""
    s = state.survivor(seat)
    if s.loyalty is not None and s.loyalty not in s.agendas:
        return state.with_survivor(seat, loyalty=None)
    return state
