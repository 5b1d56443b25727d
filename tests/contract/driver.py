"""Seeded games of random legal play, recorded for the contract checks.

The driver knows the contract only: it sends the system command whenever one
is due, and otherwise a random legal action of a seat, mostly one the game
waits on and now and then any seat that has legal actions (so out-of-turn
commands are played too). Every choice comes from a ``domain.rng.Rng``, so a
failing play is replayed exactly from its seed.

Each play is recorded once per test session and every check reads the same
record, which keeps a slow game's share of the suite to a few short games.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from domain.game import SYSTEM, Event, Game, RuleViolation, Seat
from domain.rng import Rng

#: Plays per game and decisions per play: enough to reach the counter's end
#: many times over, and a few hundred decisions into a real game.
PLAYS = 4
DECISIONS = 250


@dataclass(frozen=True)
class Step:
    """One accepted decision: the state it was taken on and what it led to."""

    before: Any
    seat: Seat | str
    command: dict[str, Any]
    #: The label of the ``Rng`` the decision drew from (``Rng(seed, label)``).
    label: str
    events: list[Event]
    after: Any


@dataclass
class Play:
    game: Game
    options: dict[str, Any]
    players: int
    seed: str
    setup: list[Event]
    start: Any
    steps: list[Step] = field(default_factory=list)
    #: A served legal action that ``decide`` refused, which stops the play.
    refused_legal: tuple[Seat | str, dict[str, Any], RuleViolation] | None = None
    #: Set when the game ran but neither waited on anyone nor had a system command due.
    stuck: bool = False

    @property
    def name(self) -> str:
        return f"{self.game.name}/{self.players}p/{self.seed}"

    @property
    def seat_range(self) -> list[Seat]:
        return list(range(self.players))

    def states(self) -> Iterator[Any]:
        """Every state the play went through, from the one setup left."""
        yield self.start
        for step in self.steps:
            yield step.after

    def sampled(self, most: int) -> list[Any]:
        """At most ``most`` of the play's states, spread over it, its last one included."""
        states = list(self.states())
        stride = max(1, len(states) // most)
        picked = states[::stride][:most]
        return picked if picked[-1] is states[-1] else [*picked[:-1], states[-1]]

    def decisions(self) -> Iterator[tuple[Seat | str, list[Event], Any, Any]]:
        """(who, events, state before, state after) for the setup and every decision."""
        yield SYSTEM, self.setup, self.game.initial_state(), self.start
        for step in self.steps:
            yield step.seat, step.events, step.before, step.after

    def commands_of(self, seat: Seat | None) -> list[dict[str, Any]]:
        return [step.command for step in self.steps if step.seat == seat]


def option_sets(game: Game) -> list[dict[str, Any]]:
    """The options the plays use: the game's example options and, if they resolve, the defaults."""
    sets = [game.resolve_options(game.examples.get("options", {}))]
    try:
        defaults = game.resolve_options({})
    except RuleViolation:
        return sets  # some option has no default: the example is the only game to play
    return sets if defaults in sets else [defaults, *sets]


def play(game: Game, options: dict[str, Any], players: int, seed: str, decisions: int = DECISIONS) -> Play:
    state = game.initial_state()
    setup = game.setup({**options, "players": players}, Rng.for_position(seed, 0))
    for event in setup:
        state = game.evolve(state, event)
    record = Play(game, options, players, seed, setup, state)
    pick = Rng(seed, "pick")
    for version in range(1, decisions + 1):
        if game.is_over(state):
            break
        command = game.system_command(state)
        seat: Seat | str = SYSTEM
        if command is None:
            seat_or_none = _pick_seat(game, state, players, pick)
            if seat_or_none is None:
                record.stuck = True
                break
            seat = seat_or_none
            command = pick.choice(game.legal_actions(state, seat))
        label = f"v{version}"
        try:
            events, after = game.decide_and_fold(state, seat, command, Rng(seed, label))
        except RuleViolation as refused:
            record.refused_legal = (seat, command, refused)
            break
        record.steps.append(Step(state, seat, command, label, events, after))
        state = after
    return record


def _pick_seat(game: Game, state: Any, players: int, pick: Rng) -> Seat | None:
    waited = game.waiting_for(state)
    if waited and pick.below(4):
        return pick.choice(waited)
    able = [seat for seat in range(players) if game.legal_actions(state, seat)]
    return pick.choice(able) if able else None


def plays_of(game: Game, count: int = PLAYS, decisions: int = DECISIONS) -> list[Play]:
    """``count`` plays spread over the option sets and the fewest and most seats."""
    options = option_sets(game)
    counts = sorted({game.seats.min, game.seats.max})
    return [
        play(game, options[n % len(options)], counts[(n // len(options)) % len(counts)], f"contract-{n}", decisions)
        for n in range(count)
    ]


#: Why an unknown command type is sent: every game refuses it as MALFORMED.
UNKNOWN_TYPE = "unknown type"
#: States per play that refusals are sent on.
PROBED_STATES = 25


@dataclass(frozen=True)
class Probe:
    """A command sent where nobody was offered it, and what ``decide`` made of it."""

    play: str
    seat: Seat | str
    command: dict[str, Any]
    why: str
    #: The refusal; None: ``decide`` accepted the command.
    refused: RuleViolation | None
    #: ``decide`` changed the state it was given.
    changed: bool

    def __str__(self) -> str:
        return f"{self.play}: {self.seat!r} sent {self.command} ({self.why})"


def _probe_commands(game: Game, play: Play) -> list[dict[str, Any]]:
    """Commands some seat could send at some point of the play: the pool refusals are drawn from."""
    pool: dict[str, dict[str, Any]] = {}
    for step in play.steps:
        pool.setdefault(json.dumps(step.command, sort_keys=True), step.command)
    for action in game.examples.get("actions", []):
        pool.setdefault(json.dumps(action, sort_keys=True), action)
    return list(pool.values())


def _probe(game: Game, play: Play, state: Any, seat: Seat | str, command: dict[str, Any], why: str) -> Probe:
    before = game.dump_state(state)
    try:
        game.decide(state, seat, command, Rng("refused"))
    except RuleViolation as refused:
        return Probe(play.name, seat, command, why, refused, game.dump_state(state) != before)
    return Probe(play.name, seat, command, why, None, game.dump_state(state) != before)


def probes_of(game: Game, plays: list[Play]) -> list[Probe]:
    """Commands nobody was offered, sent on states spread over each play, and their fate.

    On each state: an unknown type (``UNKNOWN_TYPE``), and for the system and
    each seat a few commands the play sent elsewhere that it is not offered
    now (the system: anything but the system command due).
    """
    probes = []
    for play in plays:
        pool = _probe_commands(game, play)
        for n, state in enumerate(play.sampled(PROBED_STATES)):
            probes.append(_probe(game, play, state, 0, {"type": "no_such_command"}, UNKNOWN_TYPE))
            due = game.system_command(state)
            for seat in [SYSTEM, *play.seat_range]:
                offered = [due] if seat == SYSTEM else game.legal_actions(state, seat)
                unoffered, most = [c for c in pool if c not in offered], 4 if n % 2 else 2
                for command in unoffered[:: max(1, len(unoffered) // most)][:most]:
                    probes.append(_probe(game, play, state, seat, command, f"not offered to {seat}"))
    return probes


def leaves(value: Any) -> set[str]:
    """Every string value inside ``value`` (not the keys: those name fields, they hide nothing)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def seen(view: Any) -> set[str]:
    """The strings a view shows (``leaves``), less the kinds of its card faces (``faces``): a face's kind
    ("agenda", "item") is a word of the game, like a command's type, told alongside ids the view shows
    anyway; the face's id, name and text are kept, being as secret as the card."""
    faces = view.get("faces") if isinstance(view, dict) else None
    kinds = {f.get("kind") for f in faces.values() if isinstance(f, dict)} if isinstance(faces, dict) else set()
    return leaves(view) - kinds


def json_ready(value: Any) -> bool:
    """``value`` comes back from JSON exactly as it went in (no tuples, sets or objects)."""
    try:
        return bool(json.loads(json.dumps(value)) == value)
    except (TypeError, ValueError):
        return False
