"""Bot policies: pick one of a seat's legal actions from that seat's view alone.

A bot is handed the game module, the seat's view (``module.view(state,
seat)``), its legal actions and a ``Rng``; it never sees the state. To look
ahead it builds states of its own from the view with the game's optional
``determinize`` (hidden cards, tiles and enemies sampled consistently with
what it sees), plays on those, and scores what its seat would see with
``service.bots.evaluate``. Three levels:

- ``random``: a uniformly random legal action.
- ``greedy``: each action is played one step ahead (the action, then the
  seat's own follow-up decisions at their defaults — keep the dice, place the
  enemy — until the game waits on someone else or on the seat's next free
  choice) in a few sampled worlds; the best average score wins, ties at
  random (ending the turn only when nothing else ties).
- ``planner``: flat Monte Carlo over determinized worlds, a rollout of the
  greedy policy. Greedy's one-step scores shortlist the candidates (those
  within 1 point of the best, at most five). Within the per-decision time
  budget the planner deals a world, plays each candidate in it, then plays on
  to the end of the seat's turn and through the round end that may follow —
  the seat's own choices greedy's, other seats' decisions random — and
  scores the seat's view there. Every candidate gets the same worlds (common
  random numbers); the best mean wins. A time budget makes its choice depend
  on the machine's speed; with ``rollouts`` set instead it is reproducible.

Everything is deterministic given the ``Rng``: the service derives it from
the game and the version decided on, so a replayed job picks the same move.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from domain.game import SYSTEM, Command, GameModule
from domain.rng import Rng
from service.bots.contract import optional, timeout_command
from service.bots.evaluate import evaluation, never_taken

LEVELS = ("random", "greedy", "planner")
#: The planner's default time per decision (a game's ``bot_budget_ms`` option overrides it).
PLANNER_BUDGET_MS = 50


class Bot(Protocol):
    level: str

    def choose(
        self, module: GameModule, view: dict[str, Any], actions: list[Command], seat: int, rng: Rng
    ) -> Command: ...


def sub(rng: Rng, label: str) -> Rng:
    """An independent source for one part of a decision."""
    return Rng(rng.seed, f"{rng.label}/{label}")


class UnknownBot(ValueError):
    pass


def make_bot(level: str, options: dict[str, Any] | None = None) -> Bot:
    options = options or {}
    if level == "random":
        return RandomBot()
    if level == "greedy":
        return GreedyBot()
    if level == "planner":
        return PlannerBot(
            budget_ms=float(options.get("bot_budget_ms", PLANNER_BUDGET_MS)),
            rollouts=options.get("bot_rollouts"),
        )
    raise UnknownBot(level)


class RandomBot:
    level = "random"

    def choose(self, module, view, actions, seat, rng):
        return rng.choice(actions)


def _apply(module: GameModule, state: Any, seat: int | str, command: Command, rng: Rng) -> Any:
    for event in module.decide(state, seat, command, rng):
        state = module.evolve(state, event)
    return state


def _free_choice(module: GameModule, state: Any, seat: int) -> bool:
    """The seat chooses freely now (its turn, no decision pending), as the module shows it."""
    view_pending = getattr(state, "pending", None)
    return view_pending is None


def _free_view(view: dict[str, Any]) -> bool:
    return view.get("pending") is None


def settle(module: GameModule, state: Any, seat: int, command: Command, rng: Rng, limit: int = 12) -> Any:
    """``command``, then ``seat``'s follow-up decisions at their defaults, until it chooses freely again."""
    state = _apply(module, state, seat, command, sub(rng, "0"))
    for step in range(limit):
        if module.is_over(state) or module.system_command(state) is not None:
            return state
        if seat not in module.waiting_for(state) or _free_choice(module, state, seat):
            return state
        follow = timeout_command(module, state, seat)
        if follow is None:
            return state
        state = _apply(module, state, seat, follow, sub(rng, str(step + 1)))
    return state


class _Searching:
    """A bot that looks ahead in sampled worlds; with one choice, or no way to sample, it does not."""

    def choose(self, module, view, actions, seat, rng):
        if _free_view(view):  # a decision's choices are all the bot's to weigh
            actions = [a for a in actions if a.get("type") not in never_taken(module.name)] or actions
        if len(actions) == 1:
            return actions[0]
        determinize = optional(module, "determinize")
        if determinize is None:
            return rng.choice(actions)
        return self.search(module, view, actions, seat, rng, determinize, evaluation(module.name))

    def search(self, module, view, actions, seat, rng, determinize, score) -> Command:
        raise NotImplementedError


class GreedyBot(_Searching):
    level = "greedy"
    samples = 2

    def search(self, module, view, actions, seat, rng, determinize, score):
        scores = self.scores(module, view, actions, seat, rng, determinize, score)
        baseline = score(view, seat) if _free_view(view) else None
        return _best(actions, scores, rng, baseline)

    def scores(self, module, view, actions, seat, rng, determinize, score) -> list[float]:
        """Each action's mean score one step ahead."""
        worlds = [determinize(view, seat, sub(rng, f"world{w}")) for w in range(self.samples)]
        scores = []
        for i, action in enumerate(actions):
            total = 0.0
            for w, world in enumerate(worlds):
                try:
                    after = settle(module, world, seat, action, sub(rng, f"a{i}w{w}"))
                except Exception:  # noqa: BLE001 - a sampled world the action cannot be played in
                    total += -math.inf
                    continue
                total += score(module.view(after, seat), seat)
            scores.append(total / len(worlds))
        return scores


#: Actions that move a turn on without scoring at once: a bot that sees no
#: better move wanders with these rather than ending its turn at once.
_WANDER = ("move", "step", "explore")


def _best(actions: list[Command], scores: list[float], rng: Rng, baseline: float | None = None) -> Command:
    """The best-scoring action, ties at random.

    When nothing beats ``baseline`` (the position as it is) a bot does not
    shuffle free steps (putting a trade together and taking it apart) for
    ever: it wanders on (a move, a step, an exploration), or else ends its turn.
    """
    best = max(scores)
    if best == -math.inf:
        return rng.choice(actions)
    tied = [a for a, s in zip(actions, scores) if s >= best - 1e-9]
    if baseline is not None and best <= baseline + 1e-9:
        wander = [a for a in tied if a.get("type") in _WANDER]
        if wander and rng.below(4):
            return rng.choice(wander)
        ending = [a for a in tied if a.get("type") == "end_turn"]
        if ending:
            return ending[0]
    keep_going = [a for a in tied if a.get("type") != "end_turn"]
    return rng.choice(keep_going or tied)


class PlannerBot(_Searching):
    level = "planner"

    def __init__(self, budget_ms: float = PLANNER_BUDGET_MS, rollouts: int | None = None,
                 clock: Callable[[], float] = time.monotonic, max_steps: int = 60):
        self.budget = budget_ms / 1000.0
        self.rollouts = rollouts
        self.clock = clock
        self.max_steps = max_steps

    #: Candidates the search looks at: those greedy scores within ``SHORTLIST_GAP`` of its best, at most this many.
    SHORTLIST = 5
    SHORTLIST_GAP = 1.0

    def search(self, module, view, actions, seat, rng, determinize, score):
        started = self.clock()
        baseline = score(view, seat) if _free_view(view) else None
        # One step of greedy first: what scores badly at once is not searched.
        first = GreedyBot().scores(module, view, actions, seat, sub(rng, "greedy"), determinize, score)
        top = max(first)
        near = [i for i, value in enumerate(first) if value >= top - self.SHORTLIST_GAP]
        if len(near) > self.SHORTLIST:
            best = max(near, key=lambda i: first[i])
            others = [i for i in near if i != best]
            near = [best, *sorted(rng.shuffled(others)[: self.SHORTLIST - 1])]
        if len(near) == 1:
            return actions[near[0]]
        actions = [actions[i] for i in near]
        totals = [0.0] * len(actions)
        visits = [0] * len(actions)
        dealt = 0
        while True:
            # One round: every candidate in the same freshly dealt world.
            world = determinize(view, seat, sub(rng, f"world{dealt}"))
            for i, action in enumerate(actions):
                try:
                    end = self.playout(module, world, seat, action, sub(rng, f"r{dealt}a{i}"))
                    value = score(module.view(end, seat), seat)
                except Exception:  # noqa: BLE001 - not playable in this world
                    value = -1e6
                totals[i] += value
                visits[i] += 1
            dealt += 1
            if self.rollouts is not None:
                if dealt >= self.rollouts:
                    break
            elif self.clock() - started >= self.budget:
                break
        means = [t / v for t, v in zip(totals, visits)]
        return _best(actions, means, rng, baseline)

    def playout(self, module: GameModule, state: Any, seat: int, first: Command, rng: Rng) -> Any:
        """``first``, then on to the end of ``seat``'s turn and the round end that may follow.

        The seat's own later choices are greedy's, one step ahead in the very
        world being played (a rollout of the greedy policy: the search then
        keeps whichever first move greedy would continue best from); other
        seats' decisions are random; the round end is run.
        """
        score = evaluation(module.name)
        state = _apply(module, state, seat, first, sub(rng, "0"))
        for step in range(1, self.max_steps):
            if module.is_over(state):
                return state
            step_rng = sub(rng, str(step))
            system = module.system_command(state)
            if system is not None:
                state = _apply(module, state, SYSTEM, system, step_rng)
                continue
            waiting = module.waiting_for(state)
            if not waiting:
                return state
            who = waiting[0]
            actions = module.legal_actions(state, who)
            if not actions:
                return state
            if who != seat and _free_choice(module, state, who):
                return state  # another seat's turn: the horizon
            if who == seat:
                command = self.rollout_choice(module, state, seat, actions, step_rng, score)
            else:
                command = step_rng.choice(actions)
            state = _apply(module, state, who, command, step_rng)
        return state

    def rollout_choice(self, module, state, seat, actions, rng, score) -> Command:
        """Greedy's choice in a world the playout already holds (no sampling needed)."""
        free = _free_choice(module, state, seat)
        if free:
            actions = [a for a in actions if a.get("type") not in never_taken(module.name)] or actions
        if len(actions) == 1:
            return actions[0]
        values = []
        for i, action in enumerate(actions):
            try:
                values.append(score(module.view(settle(module, state, seat, action, sub(rng, f"g{i}")), seat), seat))
            except Exception:  # noqa: BLE001
                values.append(-math.inf)
        baseline = score(module.view(state, seat), seat) if free else None
        return _best(actions, values, rng, baseline)
