"""A tiny game for testing the plumbing (store, snapshots, workers) on its own.

Seats take turns adding 1-3 to a shared total. Whenever the total crosses a
multiple of ten a "tick" is due, which only the system may run, like
Fallout's round end. Each tick also rolls a die so randomness flows through
events as it does in a real game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from domain.game import SYSTEM, Event, RuleViolation
from domain.rng import Rng


@dataclass(frozen=True)
class CounterState:
    players: int = 0
    total: int = 0
    turn: int = 0
    ticks: int = 0
    rolls: tuple[int, ...] = ()
    over: bool = False


class Counter:
    name = "counter"
    state_format = "1"

    def initial_state(self) -> CounterState:
        return CounterState()

    def setup(self, options, rng: Rng):
        return [Event("CounterSetUp", {"players": options["players"], "first": rng.below(options["players"])})]

    def tick_due(self, state: CounterState) -> bool:
        return state.total // 10 > state.ticks

    def decide(self, state, seat, command, rng: Rng):
        kind = command.get("type")
        if kind == "tick":
            if seat != SYSTEM or not self.tick_due(state):
                raise RuleViolation("tick_not_due", "no tick is due")
            return [Event("Ticked", {"roll": rng.below(6) + 1})]
        if kind != "add":
            raise RuleViolation("unknown_command", f"unknown command {kind!r}", status=422)
        if state.over:
            raise RuleViolation("game_over", "the game is over")
        if self.tick_due(state):
            raise RuleViolation("tick_pending", "wait for the tick")
        if seat != state.turn:
            raise RuleViolation("not_your_turn", "it is not your turn")
        amount = command.get("amount")
        if amount not in (1, 2, 3):
            raise RuleViolation("bad_amount", "add 1, 2 or 3", status=422)
        events = [Event("Added", {"seat": seat, "amount": amount})]
        if state.total + amount >= 50:
            events.append(Event("GameEnded", {"total": state.total + amount}))
        return events

    def evolve(self, state: CounterState, event: Event) -> CounterState:
        data = event.data
        if event.type == "CounterSetUp":
            return replace(state, players=data["players"], turn=data["first"])
        if event.type == "Added":
            return replace(state, total=state.total + data["amount"], turn=(state.turn + 1) % state.players)
        if event.type == "Ticked":
            return replace(state, ticks=state.ticks + 1, rolls=state.rolls + (data["roll"],))
        if event.type == "GameEnded":
            return replace(state, over=True)
        return state

    def legal_actions(self, state, seat):
        if state.over or self.tick_due(state) or seat != state.turn:
            return []
        return [{"type": "add", "amount": n} for n in (1, 2, 3)]

    def view(self, state, seat):
        return self.dump_state(state)

    def redact(self, event, seat):
        return event

    def system_command(self, state):
        return {"type": "tick"} if self.tick_due(state) and not state.over else None

    def waiting_for(self, state):
        return [] if state.over or self.tick_due(state) else [state.turn]

    def is_over(self, state):
        return state.over

    def dump_state(self, state):
        return {**state.__dict__, "rolls": list(state.rolls)}

    def load_state(self, data):
        return CounterState(**{**data, "rolls": tuple(data["rolls"])})


COUNTER = Counter()
