"""Fallout as a ``domain.game.Game``: ``domain.fallout.game.FALLOUT``.

``decide`` is the engine kit's dispatch (``domain.engine.dispatch``): it
validates a command against the state, lets the rule module that registered
it in ``RULES`` emit its events through a ``Resolution`` and carries the
resolution on until a seat must decide; this module says what Fallout's
state answers and which turn checks it adds. It raises
``RuleViolation`` before emitting anything when the command is not legal
now, so a refused command changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.engine.decisions import Decision
from domain.engine.dispatch import RulebookGame
from domain.engine.examples import Examples
from domain.fallout import prompts, rounds, trade, words
from domain.fallout import setup as setup_rules
from domain.fallout.advance import advance
from domain.fallout.ai import FALLOUT_AI
from domain.fallout.content import SHELF
from domain.fallout.examples import play_example
from domain.fallout.legal import legal_actions
from domain.fallout.options import OptionsSchema, resolve_options
from domain.fallout.refusals import REFUSALS
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.snapshot import dump_state, load_state
from domain.fallout.state import GameState
from domain.fallout.view import redact, view
from domain.fallout.view_schema import ViewSchema
from domain.game import SYSTEM, Command, Event, GameAI, Outcome, RuleViolation, Seat, SeatRange, malformed
from domain.rng import Rng

#: What a lapsed play-by-post deadline sends when the game's option says ``pass`` (``timeout_command``, the
#: engine's): ``end_turn`` during the seat's turn (the remaining actions are skipped), and for a pending
#: decision its default: keep the dice, stop shopping, decline a trade, cancel one being put together, stow
#: a card just gained; any other decision takes its first listed choice.
TIMEOUT_DEFAULTS = ("end_turn", "keep_dice", "roll_dice", "done_shopping", "decline_trade", "trade_cancel", "stow")

#: The one instance the registry hosts (below the class; the examples play it).
FALLOUT: FalloutGame


class FalloutGame(RulebookGame[GameState, Resolution]):
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
    rulebook = RULES
    command_schemas = RULES.commands
    timeout_defaults = TIMEOUT_DEFAULTS
    unknown_command = "Unknown command {kind!r}."
    setup_rule = "Complete Setup"
    system_only = "Only the system runs the round end."
    system_rule = rounds.RULE
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

    # -- the engine's dispatch (``domain.engine.dispatch``): Fallout's state and turn checks ------

    def resolution(self, state: GameState, rng: Rng) -> Resolution:
        return Resolution(state, rng)

    def started(self, state: GameState) -> bool:
        return state.phase != "new"

    def over(self, state: GameState) -> bool:
        return state.over

    def players(self, state: GameState) -> int:
        return state.players

    def pending(self, state: GameState) -> Decision | None:
        return state.pending

    def system(self, res: Resolution, kind: str) -> None:
        if kind not in RULES.system_commands:
            raise malformed("not_a_system_command", f"{kind!r} is a seat's command.")
        if not rounds.ready(res.state):
            raise RuleViolation("round_end_not_due", "The round end is not due now.", rule=rounds.RULE)
        advance(res, SYSTEM)

    def turn(self, res: Resolution, seat: int, kind: str, command: Command) -> None:
        state = res.state
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

    def carry_on(self, res: Resolution, actor: Seat | str) -> None:
        advance(res, actor)

    def legal_actions(self, state: GameState, seat: Seat) -> list[Command]:
        return legal_actions(state, seat)

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

    def is_over(self, state: GameState) -> bool:
        # What ``outcome(state).over`` says, without building the outcome: asked before every decision.
        return state.over

    def outcome(self, state: GameState) -> Outcome:
        """Over once won or lost; ``progress``: the round, the phase and the result ("won", "lost" or None)."""
        return Outcome(
            over=state.over,
            winners=tuple(state.winners),
            progress={"round": state.round, "phase": state.phase, "result": state.result},
            round=state.round,
            ending=_ending(state),
            roles=tuple(s.survivor for s in state.survivors),
        )

    def dump_state(self, state: GameState) -> dict[str, Any]:
        return dump_state(state)

    def load_state(self, data: dict[str, Any]) -> GameState:
        return load_state(data)


def _ending(state: GameState) -> str | None:
    """"victory" (one declared, even as a faction took over), "takeover" (a faction won the wasteland),
    "eliminated" (every survivor died), None while the game runs."""
    if not state.over:
        return None
    if state.result == "won":
        return "victory"
    return "eliminated" if all(s.eliminated for s in state.survivors) else "takeover"


FALLOUT = FalloutGame()
