"""Fallout as a ``GameModule``: ``domain.fallout.game.FALLOUT``.

``decide`` validates a command against the state, lets the rule modules emit
its events through a ``Resolution`` and carries the resolution on until a
seat must decide. It raises ``RuleViolation`` before emitting anything when
the command is not legal now, so a refused command changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.fallout import (
    activation,
    agendas,
    camp,
    encounter,
    enemies,
    explore,
    fight,
    items,
    killed,
    loyalty,
    movement,
    perks,
    quest,
    rounds,
    setup as setup_rules,
    shop,
    trade,
    turns,
    vats,
    xp,
)
from domain.fallout.advance import advance
from domain.fallout.decisions import matching_choice
from domain.fallout.evolve import evolve
from domain.fallout.legal import legal_actions
from domain.fallout.resolution import Resolution
from domain.fallout.snapshot import dump_state, load_state
from domain.fallout.state import Decision, GameState
from domain.fallout.view import redact, view
from domain.game import SYSTEM, Command, Event, RuleViolation, Seat
from domain.rng import Rng

Action = Callable[[Resolution, int, dict[str, Any]], None]
Answer = Callable[[Resolution, dict[str, Any], Decision], None]

#: The commands of a turn: its actions, and what may come between them.
ACTIONS: dict[str, Action] = {
    "move": movement.move_command,
    "step": movement.step_command,
    "explore": explore.explore_command,
    "fight": fight.fight_command,
    "camp": camp.camp_command,
    "encounter": encounter.encounter_command,
    "quest": quest.quest_command,
    "use": items.use_command,
    "use_perk": perks.use_command,
    "equip": items.equip_command,
    "declare_loyalty": loyalty.declare_command,
    "withdraw_loyalty": loyalty.withdraw_command,
    "end_turn": turns.end_turn_command,
    **{kind: trade.command for kind in trade.COMMANDS},
}

#: Pending decisions by kind, and who resolves the answer.
ANSWERS: dict[str, Answer] = {
    "choose_survivor": setup_rules.answer_choice,
    "reroll": vats.answer,
    "order_attacks": fight.answer_order,
    "replacement_space": enemies.answer_replacement,
    "respawn": killed.answer_respawn,
    "place_enemy": explore.answer_placement,
    "enemy_move": activation.answer_move,
    "choose_special": xp.answer_special,
    "choose_perk": xp.answer_perk,
    "encounter_option": encounter.answer,
    "equip_gained": items.answer_gained,
    "discard_card": items.answer_discard,
    "discard_agenda": agendas.answer_discard,
    "shop": shop.answer,
    "answer_trade": trade.answer,
}

ANSWER_COMMANDS = frozenset(
    {
        "choose_survivor", "reroll", "keep_dice", "give_up_well_rested", "order_attacks", "choose_space",
        "respawn", "place_enemy", "choose_special", "choose_perk", "choose_option", "stow", "discard",
        "discard_agenda", "equip", "buy", "sell", "recruit", "done_shopping", "accept_trade", "decline_trade",
    }
)
# "equip" is both a turn's own command (from the inventory at the start of a
# turn) and an answer (equipping a card just gained): a pending decision
# takes it as an answer.
SYSTEM_COMMANDS = frozenset({"round_end"})


class FalloutGame:
    name = "fallout"

    def initial_state(self) -> GameState:
        return GameState()

    def setup(self, options: dict[str, Any], rng: Rng) -> list[Event]:
        return setup_rules.setup(options, rng)

    def decide(self, state: GameState, seat: Seat | str, command: Command, rng: Rng) -> list[Event]:
        kind = command.get("type") if isinstance(command, dict) else None
        if not isinstance(kind, str) or kind not in ACTIONS and kind not in ANSWER_COMMANDS and kind not in SYSTEM_COMMANDS:
            raise RuleViolation("unknown_command", f"Unknown command {kind!r}.", status=422)
        if state.phase == "new":
            raise RuleViolation("no_game", "The game has not been set up.", rule="Complete Setup")
        if state.over:
            raise RuleViolation("game_over", "The game is over.")
        res = Resolution(state, rng)
        if seat == SYSTEM:
            if kind != "round_end":
                raise RuleViolation("not_a_system_command", f"{kind!r} is a seat's command.", status=422)
            if not rounds.ready(state):
                raise RuleViolation("round_end_not_due", "The round end is not due now.", rule="Rounds")
            advance(res, SYSTEM)
            return res.events
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
            raise RuleViolation("unknown_seat", f"There is no seat {seat!r}.", status=422)
        if kind in SYSTEM_COMMANDS:
            raise RuleViolation("not_a_seat_command", "Only the system runs the round end.", rule="Rounds")
        decision = state.pending
        if decision is not None:
            if decision.seat != seat:
                raise RuleViolation(
                    "not_your_decision",
                    f"The game waits for seat {decision.seat} ({decision.kind}).",
                    rule=_rule(decision),
                )
            choice = matching_choice(decision, command)
            if choice is None:
                raise RuleViolation(
                    "not_a_choice", f"That is not one of the choices for {decision.kind}.", rule=_rule(decision)
                )
            res.emit("DecisionMade", seat=seat, kind=decision.kind, command=dict(choice))
            ANSWERS[decision.kind](res, dict(choice), decision)
            advance(res, seat)
            return res.events
        if kind in ANSWER_COMMANDS and kind not in ACTIONS:
            raise RuleViolation("no_decision_pending", "No decision is waiting for an answer.")
        if state.round_end_due or state.round_end is not None:
            raise RuleViolation("round_end_in_progress", "The round is ending; wait for it.", rule="Rounds")
        if state.turn is None or state.turn.seat != seat:
            raise RuleViolation("not_your_turn", "It is not your turn.", rule="Turns")
        if state.trade is not None and kind not in trade.BUILDING:
            raise RuleViolation(
                "trade_in_progress", "Propose or cancel the trade you are putting together first.", rule=trade.RULE
            )
        if state.turn.camping and kind not in trade.COMMANDS:
            # Trading belongs to the camp action: anything else closes it.
            res.emit("TradingClosed", seat=seat)
        ACTIONS[kind](res, seat, command)
        advance(res, seat)
        return res.events

    def evolve(self, state: GameState, event: Event) -> GameState:
        return evolve(state, event)

    def legal_actions(self, state: GameState, seat: Seat) -> list[Command]:
        return legal_actions(state, seat)

    def view(self, state: GameState, seat: Seat | None) -> dict[str, Any]:
        return view(state, seat)

    def redact(self, event: Event, seat: Seat | None) -> Event:
        return redact(event, seat)

    def system_command(self, state: GameState) -> Command | None:
        return {"type": "round_end"} if rounds.ready(state) else None

    def waiting_for(self, state: GameState) -> list[Seat]:
        if state.over or state.phase == "new":
            return []
        if state.pending is not None:
            return [state.pending.seat]
        if state.round_end_due or state.round_end is not None or state.turn is None:
            return []
        return [state.turn.seat]

    def is_over(self, state: GameState) -> bool:
        return state.over

    def dump_state(self, state: GameState) -> dict[str, Any]:
        return dump_state(state)

    def load_state(self, data: dict[str, Any]) -> GameState:
        return load_state(data)


_RULES = {
    "choose_survivor": "Complete Setup",
    "reroll": "V.A.T.S. Dice",
    "order_attacks": "Activating Enemies",
    "replacement_space": "Enemies",
    "respawn": "Killed",
    "place_enemy": "Explore Action",
    "enemy_move": "Activating Enemies",
    "choose_special": "Leveling Up",
    "choose_perk": "Leveling Up",
    "encounter_option": "Encounter Action",
    "equip_gained": "Equipping",
    "discard_card": "Inventory",
    "discard_agenda": "Agenda Cards",
    "shop": "Shopping",
    "answer_trade": "Camp Action",
}


def _rule(decision: Decision) -> str | None:
    return _RULES.get(decision.kind)


FALLOUT = FalloutGame()
