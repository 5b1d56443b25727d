"""Fallout as a ``domain.game.Game``: ``domain.fallout.game.FALLOUT``.

``decide`` validates a command against the state, lets the rule module that
registered it in ``RULES`` emit its events through a ``Resolution`` and
carries the resolution on until a seat must decide. It raises
``RuleViolation`` before emitting anything when the command is not legal
now, so a refused command changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.engine.decisions import matching_choice
from domain.fallout import prompts, rounds, trade, words
from domain.fallout import setup as setup_rules
from domain.fallout.advance import advance
from domain.fallout.ai import FALLOUT_AI
from domain.fallout.content import SHELF
from domain.fallout.determinize import timeout_command as lapsed_turn
from domain.fallout.examples import Examples, play_example
from domain.fallout.legal import legal_actions
from domain.fallout.options import OptionsSchema, resolve_options
from domain.fallout.refusals import REFUSALS
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.snapshot import dump_state, load_state
from domain.fallout.state import GameState
from domain.fallout.view import redact, view
from domain.fallout.view_schema import ViewSchema
from domain.game import SYSTEM, Command, Event, Game, GameAI, Outcome, RuleViolation, Seat, SeatRange, malformed
from domain.rng import Rng

#: The one instance the registry hosts (below the class; the examples play it).
FALLOUT: FalloutGame


class FalloutGame(Game):
    name = "fallout"
    title = "Fallout: The Board Game — explore the wasteland, quest, and sway the factions, for one to four survivors."
    seats = SeatRange(1, 4)
    #: ``domain.fallout.snapshot`` dumps ``GameState`` field by field: a change to its
    #: fields (or to a record it holds) is a new format.
    state_format = "1"
    # 1: the first release that records its rules version; every earlier game is unversioned.
    # 2: a result drawing from an agenda deck a depletion left empty rebuilds it (no second depletion) and
    #    deals from it; the map has double-sided tiles, laid face up by the scenario sheets (issue 23).
    rules_version = 2
    shelf = SHELF
    listed_options = ("scenario",)
    options_schema = OptionsSchema
    view_schema = ViewSchema
    command_schemas = RULES.commands
    event_schemas = RULES.event_schemas()
    refusals = REFUSALS
    examples = Examples(lambda: play_example(FALLOUT))
    ai: GameAI | None = FALLOUT_AI

    def resolve_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return resolve_options(super().resolve_options(options))

    def initial_state(self) -> GameState:
        return GameState()

    def setup(self, options: dict[str, Any], rng: Rng) -> list[Event]:
        return setup_rules.setup(options, rng)

    def decide(self, state: GameState, seat: Seat | str, command: Command, rng: Rng) -> list[Event]:
        return self._resolve(state, seat, command, rng).events

    def decide_and_fold(
        self, state: GameState, seat: Seat | str, command: Command, rng: Rng
    ) -> tuple[list[Event], GameState]:
        # The resolution folded every event as it emitted it.
        res = self._resolve(state, seat, command, rng)
        return res.events, res.state

    def _resolve(self, state: GameState, seat: Seat | str, command: Command, rng: Rng) -> Resolution:
        kind = command.get("type") if isinstance(command, dict) else None
        if not isinstance(kind, str) or kind not in RULES.commands:
            raise malformed("unknown_command", f"Unknown command {kind!r}.")
        if state.phase == "new":
            raise RuleViolation("no_game", "The game has not been set up.", rule="Complete Setup")
        if state.over:
            raise RuleViolation("game_over", "The game is over.")
        res = Resolution(state, rng)
        if seat == SYSTEM:
            if kind not in RULES.system_commands:
                raise malformed("not_a_system_command", f"{kind!r} is a seat's command.")
            if not rounds.ready(state):
                raise RuleViolation("round_end_not_due", "The round end is not due now.", rule=rounds.RULE)
            advance(res, SYSTEM)
            return res
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
            raise malformed("unknown_seat", f"There is no seat {seat!r}.")
        if kind in RULES.system_commands:
            raise RuleViolation("not_a_seat_command", "Only the system runs the round end.", rule=rounds.RULE)
        decision = state.pending
        if decision is not None:
            rule = RULES.answers[decision.kind].rule
            if decision.seat != seat:
                raise RuleViolation(
                    "not_your_decision", f"The game waits for seat {decision.seat} ({decision.kind}).", rule=rule
                )
            choice = matching_choice(decision.choices, command)
            if choice is None:
                raise RuleViolation("not_a_choice", f"That is not one of the choices for {decision.kind}.", rule=rule)
            res.emit("DecisionMade", seat=seat, kind=decision.kind, command=dict(choice))
            RULES.answers[decision.kind].handler(res, dict(choice), decision)
            advance(res, seat)
            return res
        if RULES.answers_only(kind):
            raise RuleViolation("no_decision_pending", "No decision is waiting for an answer.")
        if state.round_end_due or state.round_end is not None:
            raise RuleViolation("round_end_in_progress", "The round is ending; wait for it.", rule=rounds.RULE)
        if state.turn is None or state.turn.seat != seat:
            raise RuleViolation("not_your_turn", "It is not your turn.", rule="Turns")
        if state.trade is not None and kind not in trade.BUILDING:
            raise RuleViolation(
                "trade_in_progress", "Propose or cancel the trade you are putting together first.", rule=trade.RULE
            )
        if state.turn.camping and kind not in trade.COMMANDS:
            # Trading belongs to the camp action: anything else closes it.
            res.emit("TradingClosed", seat=seat)
        RULES.actions[kind](res, seat, command)
        advance(res, seat)
        return res

    def evolve(self, state: GameState, event: Event) -> GameState:
        return RULES.evolve(state, event)

    def legal_actions(self, state: GameState, seat: Seat) -> list[Command]:
        return legal_actions(state, seat)

    def timeout_command(self, state: GameState, seat: Seat) -> Command | None:
        return lapsed_turn(state, seat)

    def view(self, state: GameState, seat: Seat | None) -> dict[str, Any]:
        return view(state, seat)

    def redact(self, event: Event, seat: Seat | None) -> Event:
        return redact(event, seat)

    def describe_event(self, event: Event, seat: Seat | None, state: GameState) -> str:
        return words.event(event, seat, state)

    def describe_command(self, state: GameState, seat: Seat, command: Command) -> str:
        return prompts.command_text(state, seat, command)

    def describe_decision(self, state: GameState, seat: Seat | None) -> str | None:
        return prompts.decision(state, seat)

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

    def outcome(self, state: GameState) -> Outcome:
        """Over once won or lost; ``progress``: the round, the phase and the result ("won", "lost" or None)."""
        return Outcome(
            over=state.over,
            winners=tuple(state.winners),
            progress={"round": state.round, "phase": state.phase, "result": state.result},
            round=state.round,
        )

    def dump_state(self, state: GameState) -> dict[str, Any]:
        return dump_state(state)

    def load_state(self, data: dict[str, Any]) -> GameState:
        return load_state(data)


FALLOUT = FalloutGame()
