"""A tiny game for testing the plumbing (store, snapshots, workers, the API) on its own.

Seats take turns adding 1-3 to a shared total. Whenever the total crosses a
multiple of ten a "tick" is due, which only the system may run, like
Fallout's round end. Each tick also rolls a die so randomness flows through
events as it does in a real game.

It hides information the way Fallout does, so redaction can be tested without
the Fallout engine: each seat holds a secret word that only it may see (like
an agenda card) and may redraw at any time, even out of turn (so two seats
can race for the same version), and a face-down deck whose order nobody may
see. Secrets and cards are words that cannot turn up by chance in a hash, a
uuid or a timestamp, so a test can search a response for them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from domain.game import SYSTEM, Event, RuleViolation
from domain.rng import Rng

_COLOURS = ("amber", "cobalt", "ochre", "violet", "saffron", "teal", "crimson", "ivory")
_ANIMALS = ("lynx", "heron", "otter", "badger", "falcon", "marmot", "newt", "ibis")
CARDS = ("rad-roach", "mirelurk", "deathclaw", "bloatfly", "brahmin", "vertibird", "protectron", "yao-guai")


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


def _secret(rng: Rng, seat: int) -> str:
    # The seat number keeps two seats' secrets apart even when the words match.
    return f"{rng.choice(_COLOURS)}-{rng.choice(_ANIMALS)}-of-seat-{seat}"


class Counter:
    name = "counter"
    state_format = "2"

    def initial_state(self) -> CounterState:
        return CounterState()

    def setup(self, options, rng: Rng):
        players = options["players"]
        return [
            Event(
                "CounterSetUp",
                {
                    "players": players,
                    "first": rng.below(players),
                    "secrets": [_secret(rng, seat) for seat in range(players)],
                    "deck": rng.shuffled(CARDS),
                },
            )
        ]

    def tick_due(self, state: CounterState) -> bool:
        return state.total // 10 > state.ticks

    def decide(self, state, seat, command, rng: Rng):
        kind = command.get("type")
        if kind == "tick":
            if seat != SYSTEM or not self.tick_due(state):
                raise RuleViolation("tick_not_due", "no tick is due")
            return [Event("Ticked", {"roll": rng.below(6) + 1})]
        if kind not in ("add", "redraw"):
            raise RuleViolation("unknown_command", f"unknown command {kind!r}", status=422)
        if state.over:
            raise RuleViolation("game_over", "the game is over")
        if kind == "redraw":
            if not isinstance(seat, int) or not 0 <= seat < state.players:
                raise RuleViolation("not_a_seat", "only a seat holds a secret")
            return [Event("SecretDrawn", {"seat": seat, "secret": _secret(rng, seat)})]
        if self.tick_due(state):
            raise RuleViolation("tick_pending", "wait for the tick")
        if seat != state.turn:
            raise RuleViolation("not_your_turn", "it is not your turn")
        amount = command.get("amount")
        if type(amount) is not int or amount not in (1, 2, 3):
            raise RuleViolation("bad_amount", "add 1, 2 or 3", status=422)
        events = [Event("Added", {"seat": seat, "amount": amount})]
        if state.total + amount >= 50:
            events.append(Event("GameEnded", {"total": state.total + amount}))
        return events

    def evolve(self, state: CounterState, event: Event) -> CounterState:
        data = event.data
        if event.type == "CounterSetUp":
            return replace(
                state,
                players=data["players"],
                turn=data["first"],
                secrets=tuple(data.get("secrets") or [None] * data["players"]),
                deck=tuple(data.get("deck") or ()),
            )
        if event.type == "Added":
            return replace(state, total=state.total + data["amount"], turn=(state.turn + 1) % state.players)
        if event.type == "Ticked":
            return replace(state, ticks=state.ticks + 1, rolls=state.rolls + (data["roll"],))
        if event.type == "SecretDrawn":
            secrets = list(state.secrets)
            secrets[data["seat"]] = data["secret"]
            return replace(state, secrets=tuple(secrets))
        if event.type == "GameEnded":
            return replace(state, over=True)
        return state

    def legal_actions(self, state, seat):
        if state.over:
            return []
        adds = [] if self.tick_due(state) or seat != state.turn else [{"type": "add", "amount": n} for n in (1, 2, 3)]
        return [*adds, {"type": "redraw"}]

    def view(self, state, seat):
        return {
            "players": state.players,
            "total": state.total,
            "turn": state.turn,
            "ticks": state.ticks,
            "rolls": list(state.rolls),
            "over": state.over,
            "secret": state.secrets[seat] if isinstance(seat, int) and seat < len(state.secrets) else None,
            "deck_size": len(state.deck),
        }

    def redact(self, event, seat):
        data = event.data
        if event.type == "CounterSetUp" and "secrets" in data:
            secrets = [s if i == seat else None for i, s in enumerate(data["secrets"])]
            return Event(event.type, {**data, "secrets": secrets, "deck": None})
        if event.type == "SecretDrawn" and data["seat"] != seat:
            return Event(event.type, {**data, "secret": None})
        return event

    def system_command(self, state):
        return {"type": "tick"} if self.tick_due(state) and not state.over else None

    def waiting_for(self, state):
        return [] if state.over or self.tick_due(state) else [state.turn]

    def is_over(self, state):
        return state.over

    def dump_state(self, state):
        return {**state.__dict__, "rolls": list(state.rolls), "secrets": list(state.secrets), "deck": list(state.deck)}

    def load_state(self, data):
        return CounterState(
            **{**data, "rolls": tuple(data["rolls"]), "secrets": tuple(data["secrets"]), "deck": tuple(data["deck"])}
        )


COUNTER = Counter()
