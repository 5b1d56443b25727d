"""Deciding a command: one dispatch for every game built on a ``Rulebook``, and its lapsed-turn default.

``RulebookGame`` is a ``Game`` whose ``decide`` reads the game's table
(``domain.engine.rulebook``) in one order, the same for every game:

1. a command type the table does not know is malformed; a game not set up
   or over refuses everything;
2. the system's command goes to ``system`` (a game with no automatic work
   refuses it);
3. a seat that is not at the table is malformed, a command only the system
   sends is refused;
4. while a decision is pending, only its seat may answer, with one of its
   listed choices: ``DecisionMade`` is emitted and the answer's handler runs;
5. otherwise a command that only answers decisions is refused, the game's
   own turn checks run (``turn``: whose turn it is, what blocks the command
   now), and the command's handler runs;

and after an answer or a turn's command the game carries the resolution on
until a seat must act or decide (``carry_on``). Every refusal is raised
before anything is emitted, so a refused command changes nothing.

A deadline that lapses (play by post) sends ``timeout_command``: the first
legal action of the kinds the game lists in ``timeout_defaults``, in that
order of preference, else its first legal action (``lapsed_choice`` may say
otherwise for a decision of its own).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, ClassVar, Generic, TypeVar

from mypy_extensions import mypyc_attr

from domain.engine.decisions import Decision, matching_choice
from domain.engine.resolution import Resolution
from domain.engine.rulebook import Rulebook
from domain.game import SYSTEM, Command, Event, Game, RuleViolation, Seat, malformed
from domain.rng import Rng

S = TypeVar("S")
R = TypeVar("R", bound=Resolution[Any])


# Compiled in the compiled build (mypyc_build.py), where every game, built in or a deployment's own, subclasses it
# in Python; its settings are class variables, which each game sets again.
@mypyc_attr(allow_interpreted_subclasses=True)
class RulebookGame(Game, Generic[S, R]):
    #: The game's one table of commands, answers and folds (``Any``: a class variable cannot name ``S`` and ``R``).
    rulebook: ClassVar[Rulebook[Any, Any]]
    #: What a lapsed deadline answers, by command type in order of preference (``timeout_command``).
    timeout_defaults: ClassVar[tuple[str, ...]] = ()
    #: The refusals' words where games say them their own way.
    unknown_command: ClassVar[str] = "Unknown command {kind!r}."
    #: The rule a command sent before the setup names.
    setup_rule: ClassVar[str | None] = None
    #: A seat sending a command only the system sends: the words and the rule.
    system_only: ClassVar[str] = "Only the system sends that."
    system_rule: ClassVar[str | None] = None

    # -- what each game says of its state ----------------------------------------

    @abstractmethod
    def resolution(self, state: S, rng: Rng) -> R:
        """A resolution opened on ``state``, folding through the game's table."""

    @abstractmethod
    def started(self, state: S) -> bool:
        """Whether the game has been set up."""

    @abstractmethod
    def over(self, state: S) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def players(self, state: S) -> int:
        """How many seats play."""

    @abstractmethod
    def pending(self, state: S) -> Decision | None:
        """The decision the game waits for, if any."""

    @abstractmethod
    def turn(self, res: R, seat: int, kind: str, command: Command) -> None:
        """Refuse (``RuleViolation``) a turn's command ``seat`` may not send now; may emit what the
        command ends on its way (a trade closed by another action)."""

    @abstractmethod
    def carry_on(self, res: R, actor: Seat | str) -> None:
        """Carry the resolution on after ``actor``'s command until a seat must act or decide."""

    def system(self, res: R, kind: str) -> None:
        """The system's command (a game with automatic work says what it does and when it is due)."""
        raise malformed("not_a_system_command", f"{kind!r} is a seat's command.")

    # -- the dispatch ------------------------------------------------------------

    def resolve(self, state: S, seat: Seat | str, command: Command, rng: Rng, recorded: bool = True) -> R:
        """The resolution of ``command`` from ``seat`` (its events, unless not ``recorded``, and the state they
        fold to)."""
        rules = self.rulebook
        kind = command.get("type") if isinstance(command, dict) else None
        if not isinstance(kind, str) or kind not in rules.commands:
            raise malformed("unknown_command", self.unknown_command.format(kind=kind))
        if not self.started(state):
            raise RuleViolation("no_game", "The game has not been set up.", rule=self.setup_rule)
        if self.over(state):
            raise RuleViolation("game_over", "The game is over.")
        res = self.resolution(state, rng)
        res.recorded = recorded
        if seat == SYSTEM:
            self.system(res, kind)
            return res
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players(state):
            raise malformed("unknown_seat", f"There is no seat {seat!r}.")
        if kind in rules.system_commands:
            raise RuleViolation("not_a_seat_command", self.system_only, rule=self.system_rule)
        decision = self.pending(state)
        if decision is not None:
            answer = rules.answers[decision.kind]
            if decision.seat != seat:
                raise RuleViolation(
                    "not_your_decision", f"The game waits for seat {decision.seat} ({decision.kind}).", rule=answer.rule
                )
            choice = matching_choice(decision.choices, command)
            if choice is None:
                raise RuleViolation(
                    "not_a_choice", f"That is not one of the choices for {decision.kind}.", rule=answer.rule
                )
            res.emitted("DecisionMade", {"seat": seat, "kind": decision.kind, "command": dict(choice)})
            answer.handler(res, dict(choice), decision)
            self.carry_on(res, seat)
            return res
        if rules.answers_only(kind):
            raise RuleViolation("no_decision_pending", "No decision is waiting for an answer.")
        self.turn(res, seat, kind, command)
        rules.actions[kind](res, seat, dict(command))
        self.carry_on(res, seat)
        return res

    def decide(self, state: S, seat: Seat | str, command: Command, rng: Rng) -> list[Event]:
        return self.resolve(state, seat, command, rng).events

    def decide_and_fold(self, state: S, seat: Seat | str, command: Command, rng: Rng) -> tuple[list[Event], S]:
        # The resolution folded every event as it emitted it.
        res = self.resolve(state, seat, command, rng)
        return res.events, res.state

    def after(self, state: S, seat: Seat | str, command: Command, rng: Rng) -> S:
        return self.resolve(state, seat, command, rng, recorded=False).state

    def evolve(self, state: S, event: Event) -> S:
        return self.rulebook.evolve(state, event)

    # -- a lapsed deadline -------------------------------------------------------

    def timeout_command(self, state: S, seat: Seat) -> Command | None:
        actions = self.legal_actions(state, seat)
        if not actions:
            return None
        return self.lapsed_choice(state, seat, actions)

    def lapsed_choice(self, state: S, seat: Seat, actions: list[Command]) -> Command:
        """Which of ``actions`` (never empty) a lapsed deadline sends."""
        for kind in self.timeout_defaults:
            for action in actions:
                if action["type"] == kind:
                    return action
        return actions[0]
