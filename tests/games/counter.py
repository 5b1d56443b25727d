"""A tiny game for testing the plumbing (store, snapshots, workers, the API) on its own.

Seats take turns adding 1-3 to a shared total; the seat that brings it to the
target (50 unless the options say otherwise) wins. Whenever the total crosses
a multiple of ten a "tick" is due, which only the system may run, like
Fallout's round end. Each tick also rolls a die so randomness flows through
events as it does in a real game.

It hides information the way Fallout does, so redaction can be tested without
the Fallout engine: each seat holds a secret word that only it may see (like
an agenda card) and may redraw at any time, even out of turn (so two seats
can race for the same version), and a face-down deck whose order nobody may
see. Secrets and cards are words that cannot turn up by chance in a hash, a
uuid or a timestamp, so a test can search a response for them.

It is also the smallest complete example of a game on the contract
(``docs/writing-a-game.md`` walks through it): its rules are registered in a
``Rulebook`` and ``decide`` emits through a ``Resolution``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from marshmallow import Schema, fields, validate

from domain.engine.records import replace
from domain.engine.resolution import Resolution
from domain.engine.rulebook import Rulebook
from domain.game import SYSTEM, Event, Game, GameAI, Outcome, Refusal, RuleViolation, SeatRange, malformed
from domain.rng import Rng

_COLOURS = ("amber", "cobalt", "ochre", "violet", "saffron", "teal", "crimson", "ivory")
_ANIMALS = ("lynx", "heron", "otter", "badger", "falcon", "marmot", "newt", "ibis")
CARDS = ("rad-roach", "mirelurk", "deathclaw", "bloatfly", "brahmin", "vertibird", "protectron", "yao-guai")
TARGET = 50


@dataclass(frozen=True)
class CounterState:
    players: int = 0
    total: int = 0
    turn: int = 0
    ticks: int = 0
    rolls: tuple[int, ...] = ()
    over: bool = False
    secrets: tuple[str | None, ...] = ()
    deck: tuple[str, ...] = ()
    target: int = TARGET
    winner: int | None = None


def _secret(rng: Rng, seat: int) -> str:
    # The seat number keeps two seats' secrets apart even when the words match.
    return f"{rng.choice(_COLOURS)}-{rng.choice(_ANIMALS)}-of-seat-{seat}"


def _tick_due(state: CounterState) -> bool:
    return state.total // 10 > state.ticks


RULES = Rulebook[CounterState, Resolution[CounterState]]("counter")

# -- commands: each checks the state, then emits; nothing is emitted before a refusal


@RULES.command("add", {"amount": fields.Integer(required=True, strict=True, validate=validate.OneOf([1, 2, 3]))})
def add(res: Resolution[CounterState], seat: int, command: dict[str, Any]) -> None:
    if _tick_due(res.state):
        raise RuleViolation("tick_pending", "wait for the tick")
    if seat != res.state.turn:
        raise RuleViolation("not_your_turn", "it is not your turn")
    amount = command.get("amount")
    if type(amount) is not int or amount not in (1, 2, 3):
        raise malformed("bad_amount", "add 1, 2 or 3")
    state = res.emit("Added", seat=seat, amount=amount)
    # Resolution folds as it emits, so the total here already counts this add.
    if state.total >= state.target:
        res.emit("GameEnded", total=state.total)


@RULES.command("redraw", {})
def redraw(res: Resolution[CounterState], seat: int, command: dict[str, Any]) -> None:
    if not 0 <= seat < res.state.players:
        raise RuleViolation("not_a_seat", "only a seat holds a secret")
    res.emit("SecretDrawn", seat=seat, secret=_secret(res.rng, seat))


# Declared the system's (so only SYSTEM may send it), and run like any other command.
RULES.system_command("tick", {})


@RULES.command("tick", {})
def tick(res: Resolution[CounterState], seat: int | str, command: dict[str, Any]) -> None:
    if not _tick_due(res.state):
        raise RuleViolation("tick_not_due", "no tick is due")
    res.emit("Ticked", roll=res.rng.below(6) + 1)


# -- events: how each changes the state, and the shape of its data


@RULES.fold(
    "CounterSetUp",
    {
        "players": fields.Integer(required=True),
        "first": fields.Integer(required=True),
        # Absent from the oldest streams; None where a seat may not see them.
        "secrets": fields.List(fields.String(allow_none=True)),
        "deck": fields.List(fields.String(), allow_none=True),
        # Only when the options chose another target, so a default game logs what it always did.
        "target": fields.Integer(),
    },
)
def _set_up(state: CounterState, data: dict[str, Any]) -> CounterState:
    return replace(
        state,
        players=data["players"],
        turn=data["first"],
        secrets=tuple(data.get("secrets") or [None] * data["players"]),
        deck=tuple(data.get("deck") or ()),
        target=data.get("target", TARGET),
    )


@RULES.fold("Added", {"seat": fields.Integer(required=True), "amount": fields.Integer(required=True)})
def _added(state: CounterState, data: dict[str, Any]) -> CounterState:
    return replace(state, total=state.total + data["amount"], turn=(state.turn + 1) % state.players)


@RULES.fold("Ticked", {"roll": fields.Integer(required=True)})
def _ticked(state: CounterState, data: dict[str, Any]) -> CounterState:
    return replace(state, ticks=state.ticks + 1, rolls=state.rolls + (data["roll"],))


@RULES.fold("SecretDrawn", {"seat": fields.Integer(required=True), "secret": fields.String(allow_none=True)})
def _secret_drawn(state: CounterState, data: dict[str, Any]) -> CounterState:
    secrets = list(state.secrets)
    secrets[data["seat"]] = data["secret"]
    return replace(state, secrets=tuple(secrets))


@RULES.fold("GameEnded", {"total": fields.Integer(required=True)})
def _ended(state: CounterState, data: dict[str, Any]) -> CounterState:
    # GameEnded follows the Added that reached the target, whose fold has passed the turn on.
    winner = (state.turn - 1) % state.players if state.players else None
    return replace(state, over=True, winner=winner)


class CounterOptions(Schema):
    target = fields.Integer(load_default=TARGET, validate=validate.Range(10, 200),
                            metadata={"description": "the total whose reaching wins"})  # fmt: skip


class CounterView(Schema):
    players = fields.Integer(required=True)
    total = fields.Integer(required=True, metadata={"description": "the shared total so far"})
    target = fields.Integer(required=True, metadata={"description": "the total whose reaching wins"})
    turn = fields.Integer(required=True, metadata={"description": "the seat that adds next"})
    ticks = fields.Integer(required=True, metadata={"description": "ticks run so far"})
    rolls = fields.List(fields.Integer(), required=True, metadata={"description": "each tick's die"})
    over = fields.Boolean(required=True)
    winner = fields.Integer(required=True, allow_none=True, metadata={"description": "set once over"})
    secret = fields.String(required=True, allow_none=True, metadata={"description": "this seat's own secret"})
    deck_size = fields.Integer(required=True, metadata={"description": "cards in the face-down deck"})


class CounterAI(GameAI):
    """Enough of a bot's knowledge to test the bot plumbing without Fallout."""

    #: Redrawing scores nothing, and a search that cannot tell would redraw for ever.
    never_taken = frozenset({"redraw"})
    wander: frozenset[str] = frozenset()
    end_turn = None

    def determinize(self, view: dict[str, Any], seat: int, rng: Rng) -> CounterState:
        # What the seat cannot see: the others' secrets and the deck's order.
        secrets = [view["secret"] if other == seat else _secret(rng, other) for other in range(view["players"])]
        return CounterState(
            players=view["players"], total=view["total"], turn=view["turn"], ticks=view["ticks"],
            rolls=tuple(view["rolls"]), over=view["over"], secrets=tuple(secrets),
            deck=tuple(rng.shuffled(CARDS)[: view["deck_size"]]), target=view["target"], winner=view["winner"],
        )  # fmt: skip

    def evaluate(self, view: dict[str, Any], seat: int) -> float:
        if view["over"]:
            return 1000.0 if view["winner"] == seat else -100.0
        return self.standing(view, seat)

    def standing(self, view: dict[str, Any], seat: int) -> float:
        # Leaving the next seat a multiple of four to go wins a two-seat game.
        left = view["target"] - view["total"]
        return 1.0 if view["turn"] != seat and left % 4 == 0 else 0.0

    def free_choice(self, view: dict[str, Any], seat: int) -> bool:
        return True  # the counter never asks a seat to decide anything but its own add



class Counter(Game):
    name = "counter"
    title = "Counter: add 1 to 3 in turn; whoever reaches the target wins"
    seats = SeatRange(1, 4)
    # 3: the target and the winner joined the state.
    state_format = "3"
    rules_version = 1
    listed_options = ("target",)
    options_schema = CounterOptions
    view_schema = CounterView
    command_schemas = RULES.commands
    event_schemas = RULES.event_schemas()
    out_of_turn = frozenset({"redraw"})
    refusals = {
        Refusal.NOT_NOW: {
            "game_over": "the game is over",
            "not_yours": "the tick is the system's, every other command a seat's",
            "tick_pending": "a tick is due: wait for it",
            "not_your_turn": "it is another seat's turn",
            "not_a_seat": "only a seat holds a secret",
            "tick_not_due": "no tick is due",
        },
        Refusal.MALFORMED: {"unknown_command": "not a command of the counter", "bad_amount": "add 1, 2 or 3"},
    }
    examples = {
        "options": {"target": 30},
        "view": {
            "players": 2,
            "total": 7,
            "target": 50,
            "turn": 0,
            "ticks": 0,
            "rolls": [],
            "over": False,
            "winner": None,
            "secret": "amber-lynx-of-seat-0",
            "deck_size": 8,
        },  # fmt: skip
        "actions": [{"type": "add", "amount": 1}, {"type": "add", "amount": 2}, {"type": "redraw"}],
        "texts": ["Add 1 to the total of 7", "Add 2 to the total of 7", "Redraw your secret"],
        "prompt": "You must add 1, 2 or 3 to the total of 7 (50 wins).",
    }
    ai = CounterAI()

    def initial_state(self) -> CounterState:
        return CounterState()

    def setup(self, options: dict[str, Any], rng: Rng) -> list[Event]:
        players = options["players"]
        data = {
            "players": players,
            "first": rng.below(players),
            "secrets": [_secret(rng, seat) for seat in range(players)],
            "deck": rng.shuffled(CARDS),
        }
        if options.get("target", TARGET) != TARGET:
            data["target"] = options["target"]
        return [Event("CounterSetUp", data)]

    def decide(self, state: CounterState, seat: int | str, command: dict[str, Any], rng: Rng) -> list[Event]:
        return self.decide_and_fold(state, seat, command, rng)[0]

    def decide_and_fold(
        self, state: CounterState, seat: int | str, command: dict[str, Any], rng: Rng
    ) -> tuple[list[Event], CounterState]:
        kind = command.get("type")
        action = RULES.actions.get(kind) if isinstance(kind, str) else None
        if action is None:
            raise malformed("unknown_command", f"unknown command {kind!r}")
        if state.over:
            raise RuleViolation("game_over", "the game is over")
        if (seat == SYSTEM) != (kind in RULES.system_commands):
            raise RuleViolation("not_yours", f"{kind!r} is not a command for {seat!r}")
        res = Resolution(state, rng, self.evolve)
        action(res, seat, command)
        return res.events, res.state

    def evolve(self, state: CounterState, event: Event) -> CounterState:
        return RULES.evolve(state, event)

    def timeout_command(self, state: CounterState, seat: int) -> dict[str, Any] | None:
        waited_on = not state.over and not _tick_due(state) and seat == state.turn
        return {"type": "add", "amount": 1} if waited_on else None

    def legal_actions(self, state: CounterState, seat: int) -> list[dict[str, Any]]:
        if state.over:
            return []
        adds = [] if _tick_due(state) or seat != state.turn else [{"type": "add", "amount": n} for n in (1, 2, 3)]
        return [*adds, {"type": "redraw"}]

    def view(self, state: CounterState, seat: int | None) -> dict[str, Any]:
        return {
            "players": state.players,
            "total": state.total,
            "target": state.target,
            "turn": state.turn,
            "ticks": state.ticks,
            "rolls": list(state.rolls),
            "over": state.over,
            "winner": state.winner,
            "secret": state.secrets[seat] if isinstance(seat, int) and seat < len(state.secrets) else None,
            "deck_size": len(state.deck),
        }

    def redact(self, event: Event, seat: int | None) -> Event:
        data = event.data
        if event.type == "CounterSetUp" and "secrets" in data:
            secrets = [s if i == seat else None for i, s in enumerate(data["secrets"])]
            return Event(event.type, {**data, "secrets": secrets, "deck": None})
        if event.type == "SecretDrawn" and data["seat"] != seat:
            return Event(event.type, {**data, "secret": None})
        return event

    def describe_event(self, event: Event, seat: int | None, state: CounterState) -> str:
        # ``event`` comes redacted for ``seat``: another seat's secret is None here.
        data = event.data
        if event.type == "CounterSetUp":
            secrets = data.get("secrets") or []
            own = secrets[seat] if seat is not None and seat < len(secrets) else None
            mine = f" Your secret is {own}." if own else ""
            return f"{data['players']} seats race to {data.get('target', TARGET)}; seat {data['first']} adds first.{mine}"
        if event.type == "Added":
            who = "You add" if data["seat"] == seat else f"Seat {data['seat']} adds"
            return f"{who} {data['amount']}."
        if event.type == "Ticked":
            return f"The tick rolls a {data['roll']}."
        if event.type == "SecretDrawn":
            drawn = f"the secret {data['secret']}" if data["secret"] else "a new secret"
            return f"Seat {data['seat']} draws {drawn}."
        if event.type == "GameEnded":
            return f"The total reaches {data['total']}: the game is over."
        raise ValueError(f"no words for {event.type}")

    def describe_command(self, state: CounterState, seat: int, command: dict[str, Any]) -> str:
        if command["type"] == "add":
            return f"Add {command['amount']} to the total of {state.total}"
        return "Redraw your secret"

    def describe_decision(self, state: CounterState, seat: int | None) -> str | None:
        if state.over or _tick_due(state):
            return None
        who = "You" if seat == state.turn else f"Seat {state.turn}"
        return f"{who} must add 1, 2 or 3 to the total of {state.total} ({state.target} wins)."

    def system_command(self, state: CounterState) -> dict[str, Any] | None:
        return {"type": "tick"} if _tick_due(state) and not state.over else None

    def waiting_for(self, state: CounterState) -> list[int]:
        return [] if state.over or _tick_due(state) else [state.turn]

    def is_over(self, state: CounterState) -> bool:
        # What outcome says, without building one: a fold asks after every batch (Fallout and Zona answer so too).
        return state.over

    def outcome(self, state: CounterState) -> Outcome:
        winners = (state.winner,) if state.over and state.winner is not None else ()
        return Outcome(state.over, winners, {"total": state.total, "ticks": state.ticks})

    def dump_state(self, state: CounterState) -> dict[str, Any]:
        return {**state.__dict__, "rolls": list(state.rolls), "secrets": list(state.secrets), "deck": list(state.deck)}

    def load_state(self, data: dict[str, Any]) -> CounterState:
        return CounterState(
            **{**data, "rolls": tuple(data["rolls"]), "secrets": tuple(data["secrets"]), "deck": tuple(data["deck"])}
        )


COUNTER = Counter()
