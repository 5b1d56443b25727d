"""The contract every game module in ``domain/`` offers.

The service, the workers and the bots only ever talk to a game through this
surface, so they never know whether they run Fallout or Zona: a new game is a
folder in ``domain/`` whose module object subclasses ``Game``, plus one line
in ``domain.registry``. Everything here is pure: no I/O, no clock, no global
random source. Randomness arrives as an ``Rng`` argument to ``setup`` and
``decide`` and leaves as data inside the events, so ``evolve`` can replay a
stream without ever drawing.

What a game declares (class attributes) is data the service publishes: its
seat range, its options, view and command schemas (marshmallow, so the OpenAPI
document shows them), its event schemas with their upcasters, and the format
of its snapshots. What it does is the abstract methods. Its AI is optional.

``tests/contract/`` runs one suite against every hosted game; a game is done
when it passes. ``docs/writing-a-game.md`` walks through a small one.
"""

from __future__ import annotations

import enum
import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from marshmallow import RAISE, Schema, ValidationError

from domain.engine.shelf import Shelf
from domain.rng import Rng
from domain.schema_loads import validator

#: The actor name for commands nobody at the table sends: the round end,
#: a deadline, a worker carrying on after a decision.
SYSTEM: Final = "system"
#: Each command or options schema made once, refusing unknown fields (``Game.check_command``,
#: ``Game.resolve_options``): a schema's making costs more than loading with it.
_STRICT: dict[type[Schema], Schema] = {}


def strict_schema(schema: type[Schema]) -> Schema:
    """The one instance of ``schema`` that refuses unknown fields (a schema keeps nothing between loads)."""
    strict = _STRICT.get(schema)
    if strict is None:
        strict = _STRICT[schema] = schema(unknown=RAISE)
    return strict

Seat = int
Command = dict[str, Any]
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Event:
    """A fact the domain decided. The store wraps it in an envelope."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)


class Refusal(enum.Enum):
    """Why a command is refused. The service maps each kind to an HTTP status."""

    #: Legal in general but not now: not your turn, no movement left.
    NOT_NOW = "not_now"
    #: Not a command of this game at all: unknown type or fields, a space that does not exist.
    MALFORMED = "malformed"


class RuleViolation(Exception):
    """A command the rules do not allow.

    ``code`` is stable and machine-readable (it becomes the problem+json
    ``code``); ``rule`` names the rule book topic that forbids it, so a
    client can show the player why; ``kind`` says whether the command could
    ever be right (``Refusal``).
    """

    def __init__(self, code: str, message: str, rule: str | None = None, kind: Refusal = Refusal.NOT_NOW):
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.kind = kind


def malformed(code: str, message: str, rule: str | None = None) -> RuleViolation:
    return RuleViolation(code, message, rule=rule, kind=Refusal.MALFORMED)


@dataclass(frozen=True)
class SeatRange:
    """How many seats a game of this kind has, at least and at most."""

    min: int
    max: int

    def __contains__(self, count: object) -> bool:
        return isinstance(count, int) and self.min <= count <= self.max


@dataclass(frozen=True)
class Outcome:
    """Where a game stands, as the index, self-play and notifications read it."""

    over: bool
    #: The seats that won (empty while the game runs, and when everyone lost).
    winners: tuple[Seat, ...] = ()
    #: How far the game has got, JSON-ready, in the game's own terms: e.g. ``{"phase": "action"}``.
    progress: Mapping[str, Any] = field(default_factory=dict)
    #: The round the game is in, for a game played in rounds (the planner's
    #: whole-round playouts stop at the next one, self-play counts them); None otherwise.
    round: int | None = None
    #: How the game ended, once over, in the game's own word ("won", "news", "takeover" ...): self-play's
    #: balance table counts each (docs/content-pack.md); None while it runs.
    ending: str | None = None
    #: What each seat plays as (a stalker, a survivor), by seat, once chosen (None before): the
    #: balance table's win rate of each.
    roles: tuple[str | None, ...] = ()


@dataclass(frozen=True)
class EventSchema:
    """The current shape of one event type, and how older shapes upcast to it.

    ``upcasters[n]`` turns the data of version ``n`` into version ``n + 1``.
    Stored events are never rewritten; readers upcast them (``events.schemas``).
    """

    name: str
    version: int
    schema: type[Schema]
    upcasters: Mapping[int, Upcaster] = field(default_factory=dict)


class GameAI(ABC):
    """What the bots need to play a game well, besides the contract's core.

    A game's AI subclasses this. A game without one (``Game.ai is None``) is
    played at random by every bot level. Every knob a bot reads is declared
    here with its default, so a game sets only what it needs.
    """

    #: Command types a searching bot never sends of its own accord (outside a
    #: pending decision): moves that score nothing and could go round for ever.
    never_taken: frozenset[str] = frozenset()
    #: Command types a bot takes when nothing it can do scores better than
    #: standing still: moving on rather than ending its turn at once.
    wander: frozenset[str] = frozenset()
    #: The command type that ends a seat's turn, if the game has one.
    end_turn: str | None = None
    #: The planner's time per decision (ms) when a table's settings name none;
    #: None: the service's default. For a game whose planner needs more worlds
    #: to tell its moves apart.
    planner_budget_ms: float | None = None
    #: The planner plays each candidate on to the next round (``Outcome.round``),
    #: whichever seat it holds, every candidate in a world meeting one random
    #: stream, and greedy's pick stands unless the playouts beat it clearly.
    #: False: playouts end with the seat's own turn.
    whole_round_playouts: bool = False
    #: Greedy answers the seat's follow-up decisions in each action's later worlds as it answered them in the
    #: first (each answer weighed there), where that answer is legal, rather than weighing them again. False:
    #: every world weighs its own.
    follow_ups_shared: bool = False

    def chance_decision(self, view: dict[str, Any], seat: Seat) -> bool:
        """True when the decision ``seat`` owes in ``view`` is settled by a chance the game draws at once
        (a die to reroll or keep): the planner then weighs each answer by its result right after, its
        first chance draw taken in every one of its outcomes, rather than by longer playouts, whose later
        dice would drown that chance. False (the default): no such decision."""
        return False

    @abstractmethod
    def determinize(self, view: dict[str, Any], seat: Seat, rng: Rng) -> Any:
        """A complete state consistent with what ``seat`` sees in ``view``.

        Everything the seat cannot see is sampled with ``rng``; everything it
        can see is kept, so ``view(determinize(v, seat, rng), seat) == v`` and
        the seat's legal actions are the same. Bots search such states only.
        """

    def dealer(self, view: dict[str, Any], seat: Seat) -> Callable[[Rng], Any]:
        """``determinize(view, seat, rng)`` for each ``rng`` it is called with, for a game that works out once
        what the view alone fixes (a search deals two worlds or more from one view). The default calls
        ``determinize`` each time."""
        return functools.partial(self.determinize, view, seat)

    @abstractmethod
    def evaluate(self, view: dict[str, Any], seat: Seat) -> float:
        """How good ``view`` looks for ``seat``; higher is better, a win above all."""

    @abstractmethod
    def standing(self, view: dict[str, Any], seat: Seat) -> float:
        """How well ``seat`` stands in ``view`` with the game's end set aside
        (self-play's "leads": who stood best when everyone lost)."""

    @abstractmethod
    def free_choice(self, view: dict[str, Any], seat: Seat) -> bool:
        """True when ``seat`` chooses freely in ``view`` (its own turn), not
        answering a pending decision."""

    def free_choice_at(self, state: Any, seat: Seat) -> bool | None:
        """``free_choice`` of ``seat``'s view of ``state``, read from the state, for a game whose view a search
        would build only to ask it (a position whose score was looked up by its ``scoring_key``); None (the
        default): the view is built and asked."""
        return None

    def candidates(self, view: dict[str, Any], seat: Seat, actions: list[Command], ahead: bool) -> list[Command]:
        """The choices of ``actions`` (``seat``'s legal actions in ``view``) a searching bot weighs, in their order:
        a game may leave out those its reading of the rules shows cannot do better than one it keeps (a roll
        that passes already need not be rerolled). Empty: none is worth weighing, the bot answers as a lapsed
        deadline would. ``ahead``: asked in a look-ahead, of a follow-up to a command the bot imagines, rather
        than of the bot's own decision (a game may leave more to the default there). The default: all of
        them."""
        return actions

    def candidates_at(self, state: Any, seat: Seat, actions: list[Command], ahead: bool) -> list[Command]:
        """``candidates`` of ``seat``'s view of ``state``, read from the state, where building a view would cost
        more than the weighing it saves (a look-ahead asks at every follow-up). A game that overrides one
        overrides both."""
        return actions

    def scoring_view(self, state: Any, seat: Seat) -> dict[str, Any] | None:
        """The parts of ``view(state, seat)`` that ``evaluate`` and ``free_choice``
        read, for a game whose whole view costs a search too much; None (the
        default): bots score the whole view."""
        return None

    def scoring_key(self, state: Any, seat: Seat) -> Hashable | None:
        """What ``evaluate`` reads of ``seat``'s view of ``state``, as a key: two states with equal keys score
        alike, so a searching bot scores such a position once (the positions a search tries mostly differ in
        what no score reads: a die rolled in a test, a step of the rules' bookkeeping). It may name parts of
        the state by identity, for the bot keeps the state while it keeps the key. None (the default): every
        position is scored afresh."""
        return None

    def search_view(self, state: Any, seat: Seat) -> dict[str, Any] | None:
        """``view(state, seat)`` less what no bot reads (``determinize``, ``evaluate`` and
        ``free_choice`` read the same in both), for a game whose view carries parts only people read
        (names, card faces) at a cost a bot's every decision would pay; None (the default): bots are
        handed the whole view."""
        return None


class Game(ABC):
    """A hosted game. Subclass it once per game; the registry holds one instance."""

    #: The game's name in the API and the log (``"fallout"``).
    name: ClassVar[str]
    #: A sentence for the lobby and the API document.
    title: ClassVar[str]
    seats: ClassVar[SeatRange]
    #: Names the shape of ``dump_state``; a snapshot of another format is not trusted.
    state_format: ClassVar[str]
    #: The version of this game's rules: bumped whenever ``setup``, ``decide`` or
    #: ``evolve`` could produce different events (or states) for the same
    #: commands. Every game records it at creation (``GameCreated.rules``), so a
    #: log says which rules it was played under (docs/versioning.md); the golden
    #: logs in tests/golden fail a rules change that forgets to bump it.
    rules_version: ClassVar[int]
    #: The options a creator may pass (``unknown = RAISE``); defaults are resolved by ``resolve_options``.
    options_schema: ClassVar[type[Schema]]
    #: The shape of ``view(state, seat)``, published in the API document.
    view_schema: ClassVar[type[Schema]]
    #: One schema per command type (``unknown = RAISE``, a ``type`` field included).
    command_schemas: ClassVar[Mapping[str, type[Schema]]]
    #: Every event type ``setup`` and ``decide`` emit.
    event_schemas: ClassVar[Sequence[EventSchema]]
    #: Command types a seat may send while the game is not waiting on it (a
    #: secret redrawn at any time); every other command waits for the seat's turn.
    out_of_turn: ClassVar[frozenset[str]] = frozenset()
    #: The options the lobby shows in each game's row (``listed``) and lets a
    #: client filter games by (``GET /games?option=<name>:<value>``): the few
    #: that tell one table of this game from another.
    listed_options: ClassVar[tuple[str, ...]] = ()
    #: Real examples for the API document: ``{"options": ..., "view": ..., "actions": [...]}``, optionally
    #: ``"texts"`` (each action's ``describe_command``, in the same order), and
    #: optionally ``"games"``: more create bodies by name (``{"solo": {"seats": 1, "options": {...}}}``).
    examples: ClassVar[Mapping[str, Any]] = {}
    #: Every code the game's own rules refuse with (``RuleViolation.code``), by kind, each with a
    #: short meaning for the API document, which lists them under the kind's status (409, 422).
    #: The contract suite reads the game's source and its refusals in play, and fails a code
    #: raised but not declared here (or under another kind), and one declared that nothing raises.
    refusals: ClassVar[Mapping[Refusal, Mapping[str, str]]] = {}
    #: The bots' part; None: bots play at random.
    ai: GameAI | None = None
    #: The game's content packs and their frozen copies (``domain.engine.shelf``);
    #: None: a game without packs. ``resolve_options`` pins a new game's pack to its address.
    shelf: ClassVar[Shelf | None] = None

    @property
    def rules(self) -> str:
        """The rules version as a log records it: ``"fallout/2"``."""
        return f"{self.name}/{self.rules_version}"

    # -- what the service checks before deciding -------------------------------

    def resolve_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` checked against ``options_schema``, with every default filled in.

        The result is what ``GameCreated`` records and ``setup`` receives (plus
        ``players``), so a game's summary shows the scenario it really got. A
        game with content packs pins the pack to its content address here
        (``domain.engine.shelf``), so the game plays those files for good.
        Raises a MALFORMED ``RuleViolation`` naming every bad field.
        """
        try:
            loaded: dict[str, Any] = strict_schema(self.options_schema).load(dict(options))
        except ValidationError as err:
            raise malformed("bad_options", f"options: {err.messages}") from err
        return loaded

    def check_command(self, command: Mapping[str, Any]) -> Command:
        """``command`` if its type is one of this game's and it has only that type's fields.

        A command is stored for good in the log (``CommandAccepted``), so one
        with fields its schema does not know is refused rather than kept.
        """
        kind = command.get("type")
        schema = self.command_schemas.get(kind) if isinstance(kind, str) else None
        if schema is None:
            raise malformed("unknown_command", f"{self.name} has no command {kind!r}")
        errors = validator(strict_schema(schema))(dict(command))
        if errors:
            raise malformed("bad_command", f"{kind}: {errors}")
        return dict(command)

    # -- the rules ---------------------------------------------------------------

    @abstractmethod
    def initial_state(self) -> Any:
        """The state before the first event (what ``setup``'s events fold onto)."""

    @abstractmethod
    def setup(self, options: dict[str, Any], rng: Rng) -> list[Event]:
        """Events that create a game from resolved options plus ``players``."""

    @abstractmethod
    def decide(self, state: Any, seat: Seat | str, command: Command, rng: Rng) -> list[Event]:
        """Events for a command by ``seat`` (or ``SYSTEM``); raises RuleViolation, emitting nothing."""

    @abstractmethod
    def evolve(self, state: Any, event: Event) -> Any:
        """The state after ``event``. Never draws, never fails on a stored event,
        never mutates ``state``."""

    def decide_and_fold(self, state: Any, seat: Seat | str, command: Command, rng: Rng) -> tuple[list[Event], Any]:
        """``decide``, and the state its events fold to.

        A game whose ``decide`` folds as it emits (every game built on
        ``domain.engine.Resolution``) overrides this to hand back the state it
        already has, so the service never folds a decision twice.
        """
        events = self.decide(state, seat, command, rng)
        for event in events:
            state = self.evolve(state, event)
        return events, state

    def after(self, state: Any, seat: Seat | str, command: Command, rng: Rng) -> Any:
        """The state ``command`` leads to (``decide_and_fold``'s), its events folded but not handed back: what a
        bot's look-ahead plays, thousands of commands a decision, none of whose events is kept."""
        return self.decide_and_fold(state, seat, command, rng)[1]

    @abstractmethod
    def legal_actions(self, state: Any, seat: Seat) -> list[Command]:
        """Every command ``seat`` may send now, each complete as ``decide`` takes it."""

    @abstractmethod
    def view(self, state: Any, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator). JSON-ready."""

    @abstractmethod
    def redact(self, event: Event, seat: Seat | None) -> Event:
        """``event`` as ``seat`` may see it, hiding what ``view`` hides."""

    # -- words ---------------------------------------------------------------------

    @abstractmethod
    def describe_event(self, event: Event, seat: Seat | None, state: Any) -> str:
        """``event`` in one plain English sentence, as ``seat`` (None: a spectator) may read it.

        ``event`` is already redacted for ``seat`` (the service describes what
        ``redact`` hands that seat, never the stored event), so a hidden field
        is ``None`` here and the words cannot tell it. ``state`` is the game
        right before ``event`` (the log folded up to the event before it), for
        names that never hide (who plays which survivor, what a place is
        called, the enemy a fight kills); a name the event itself brings into
        play comes from its data. So the sentence is a function of the log up
        to the event and of the seat, the same in every channel and every year
        (DESIGN.md, invariant 8). Read nothing from ``state`` that ``view``
        hides from ``seat``. Where the subject is ``seat`` itself, the sentence
        addresses its reader: "You end the turn", "Your turn begins"
        (``domain.engine.addressing``). Never empty; never raises on an event the game emits.
        """

    @abstractmethod
    def describe_command(self, state: Any, seat: Seat, command: Command) -> str:
        """A command ``seat`` may send now (one of ``legal_actions``) in words, as a button says it:
        ``"Reroll die 2"``, ``"Search the Mirror anomaly"``, ``"Answer the crier: bribe him (3 caps)"``.

        The API serves it as each action's ``text``. It is read by ``seat`` only,
        so it may name what ``seat`` sees (its own cards); never an internal id,
        never a bare option number, never snake_case. Starts with a capital,
        no full stop. Never empty; never raises on a command ``legal_actions`` offers.
        """

    @abstractmethod
    def describe_decision(self, state: Any, seat: Seat | None) -> str | None:
        """What the game waits for now, in plain English, as ``seat`` may read it
        (``"Tamsin must choose: fight the Mirelurk or flee."``; ``"You must choose: …"``
        to the seat it waits on); ``None`` when it waits on nobody (automatic work
        is due, or the game is over)."""

    @abstractmethod
    def system_command(self, state: Any) -> Command | None:
        """The command a worker should send as ``SYSTEM`` now (the round end),
        or ``None`` when the game waits for a seat or is over."""

    @abstractmethod
    def waiting_for(self, state: Any) -> list[Seat]:
        """The seats whose decision the game waits on now (empty while automatic work is due)."""

    @abstractmethod
    def outcome(self, state: Any) -> Outcome:
        """Over or not, who won, how far it got."""

    def is_over(self, state: Any) -> bool:
        """True once the game has ended; then nothing is hidden any more."""
        return self.outcome(state).over

    @abstractmethod
    def dump_state(self, state: Any) -> dict[str, Any]:
        """A JSON-ready copy of ``state`` in ``state_format`` (for snapshots and forks)."""

    @abstractmethod
    def load_state(self, data: dict[str, Any]) -> Any:
        """The inverse of ``dump_state``."""

    # -- play by post --------------------------------------------------------------

    @abstractmethod
    def timeout_command(self, state: Any, seat: Seat) -> Command | None:
        """What a lapsed play-by-post deadline sends for ``seat`` under ``pass``
        (docs/play-by-post.md): skip the rest of its turn, or a pending
        decision's documented default; None when the game does not wait on ``seat``.
        Bots answer with it too where searching would not tell the options apart."""
