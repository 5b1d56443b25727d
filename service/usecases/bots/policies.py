"""Bot policies: pick one of a seat's legal actions from that seat's view alone.

A bot is handed the game module, the seat's view (``module.view(state,
seat)``), its legal actions and a ``Rng``; it never sees the state. To look
ahead it builds states of its own from the view with the game's AI
(``Game.ai``: ``determinize`` samples hidden cards, tiles and enemies
consistently with what it sees), plays on those, and scores what its seat
would see with the AI's ``evaluate``. A game without an AI is played at
random by every level. Three levels:

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
from typing import Any, Protocol

from domain.game import SYSTEM, Command, Game, GameAI
from domain.rng import Rng

LEVELS = ("random", "greedy", "planner")
#: The planner's default time per decision (a game's ``bot_budget_ms`` option overrides it).
PLANNER_BUDGET_MS = 50


class Bot(Protocol):
    level: str
    #: Whether ``choose`` looks at the view: building one is most of a random
    #: bot's decision, and a bot that never reads it is handed an empty one.
    needs_view: bool

    def choose(
        self, module: Game, view: dict[str, Any], actions: list[Command], seat: int, rng: Rng
    ) -> Command: ...


def sub(rng: Rng, label: str) -> Rng:
    """An independent source for one part of a decision."""
    return Rng(rng.seed, f"{rng.label}/{label}")


class UnknownBot(ValueError):
    pass


def decide(bot: Bot, module: Game, state: Any, actions: list[Command], seat: int, rng: Rng) -> Command:
    """``bot``'s command for ``seat`` among ``actions``, given the seat's view only when the bot reads it.

    One legal action is every bot's choice (each level takes the only one it
    has), so no view is built for it.
    """
    if len(actions) == 1:
        return actions[0]
    return bot.choose(module, module.view(state, seat) if bot.needs_view else {}, actions, seat, rng)


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
    needs_view = False

    def choose(self, module: Game, view: dict[str, Any], actions: list[Command], seat: int, rng: Rng) -> Command:
        return rng.choice(actions)


def _apply(module: Game, state: Any, seat: int | str, command: Command, rng: Rng) -> Any:
    return module.decide_and_fold(state, seat, command, rng)[1]


def _free_choice(ai: GameAI, module: Game, state: Any, seat: int) -> bool:
    """The seat chooses freely now (its turn, no decision pending), as its view shows it."""
    return ai.free_choice(module.view(state, seat), seat)


def settle(ai: GameAI, module: Game, state: Any, seat: int, command: Command, rng: Rng, limit: int = 12) -> Any:
    """``command``, then ``seat``'s follow-up decisions at their defaults, until it chooses freely again."""
    state = _apply(module, state, seat, command, sub(rng, "0"))
    for step in range(limit):
        if module.is_over(state) or module.system_command(state) is not None:
            return state
        if seat not in module.waiting_for(state) or _free_choice(ai, module, state, seat):
            return state
        follow = ai.timeout_command(state, seat)
        if follow is None:
            return state
        state = _apply(module, state, seat, follow, sub(rng, str(step + 1)))
    return state


class _Searching:
    """A bot that looks ahead in sampled worlds; with one choice, or no way to sample, it does not."""

    needs_view = True

    def choose(self, module: Game, view: dict[str, Any], actions: list[Command], seat: int, rng: Rng) -> Command:
        ai = module.ai
        if ai is None:
            return rng.choice(actions)
        if ai.free_choice(view, seat):  # a decision's choices are all the bot's to weigh
            actions = [a for a in actions if a.get("type") not in ai.never_taken] or actions
        if len(actions) == 1:
            return actions[0]
        return self.search(ai, module, view, actions, seat, rng)

    def search(
        self, ai: GameAI, module: Game, view: dict[str, Any], actions: list[Command], seat: int, rng: Rng
    ) -> Command:
        raise NotImplementedError


class GreedyBot(_Searching):
    level = "greedy"
    samples = 2

    def search(
        self, ai: GameAI, module: Game, view: dict[str, Any], actions: list[Command], seat: int, rng: Rng
    ) -> Command:
        scores = self.scores(ai, module, view, actions, seat, rng)
        baseline = ai.evaluate(view, seat) if ai.free_choice(view, seat) else None
        return _best(ai, actions, scores, rng, baseline)

    def scores(
        self, ai: GameAI, module: Game, view: dict[str, Any], actions: list[Command], seat: int, rng: Rng
    ) -> list[float]:
        """Each action's mean score one step ahead."""
        worlds = [ai.determinize(view, seat, sub(rng, f"world{w}")) for w in range(self.samples)]
        scores = []
        for i, action in enumerate(actions):
            total = 0.0
            for w, world in enumerate(worlds):
                try:
                    after = settle(ai, module, world, seat, action, sub(rng, f"a{i}w{w}"))
                except Exception:  # noqa: BLE001 - a sampled world the action cannot be played in
                    total += -math.inf
                    continue
                total += ai.evaluate(module.view(after, seat), seat)
            scores.append(total / len(worlds))
        return scores


def _best(ai: GameAI, actions: list[Command], scores: list[float], rng: Rng, baseline: float | None = None) -> Command:
    """The best-scoring action, ties at random.

    When nothing beats ``baseline`` (the position as it is) a bot does not
    shuffle free steps (putting a trade together and taking it apart) for
    ever: it wanders on (the AI's ``wander`` commands: moving on rather than
    standing still), or else ends its turn.
    """
    best = max(scores)
    if best == -math.inf:
        return rng.choice(actions)
    tied = [a for a, s in zip(actions, scores, strict=True) if s >= best - 1e-9]
    if baseline is not None and best <= baseline + 1e-9:
        wander = [a for a in tied if a.get("type") in ai.wander]
        if wander and rng.below(4):
            return rng.choice(wander)
        ending = [a for a in tied if a.get("type") == ai.end_turn]
        if ending:
            return ending[0]
    keep_going = [a for a in tied if a.get("type") != ai.end_turn]
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

    def search(
        self, ai: GameAI, module: Game, view: dict[str, Any], actions: list[Command], seat: int, rng: Rng
    ) -> Command:
        started = self.clock()
        baseline = ai.evaluate(view, seat) if ai.free_choice(view, seat) else None
        # One step of greedy first: what scores badly at once is not searched.
        first = GreedyBot().scores(ai, module, view, actions, seat, sub(rng, "greedy"))
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
            world = ai.determinize(view, seat, sub(rng, f"world{dealt}"))
            for i, action in enumerate(actions):
                try:
                    end = self.playout(ai, module, world, seat, action, sub(rng, f"r{dealt}a{i}"))
                    value = ai.evaluate(module.view(end, seat), seat)
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
        means = [t / v for t, v in zip(totals, visits, strict=True)]
        return _best(ai, actions, means, rng, baseline)

    def playout(self, ai: GameAI, module: Game, state: Any, seat: int, first: Command, rng: Rng) -> Any:
        """``first``, then on to the end of ``seat``'s turn and the round end that may follow.

        The seat's own later choices are greedy's, one step ahead in the very
        world being played (a rollout of the greedy policy: the search then
        keeps whichever first move greedy would continue best from); other
        seats' decisions are random; the round end is run.
        """
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
            if who != seat and _free_choice(ai, module, state, who):
                return state  # another seat's turn: the horizon
            if who == seat:
                command = self.rollout_choice(ai, module, state, seat, actions, step_rng)
            else:
                command = step_rng.choice(actions)
            state = _apply(module, state, who, command, step_rng)
        return state

    def rollout_choice(
        self, ai: GameAI, module: Game, state: Any, seat: int, actions: list[Command], rng: Rng
    ) -> Command:
        """Greedy's choice in a world the playout already holds (no sampling needed)."""
        free = _free_choice(ai, module, state, seat)
        if free:
            actions = [a for a in actions if a.get("type") not in ai.never_taken] or actions
        if len(actions) == 1:
            return actions[0]
        values = []
        for i, action in enumerate(actions):
            try:
                after = settle(ai, module, state, seat, action, sub(rng, f"g{i}"))
                values.append(ai.evaluate(module.view(after, seat), seat))
            except Exception:  # noqa: BLE001
                values.append(-math.inf)
        baseline = ai.evaluate(module.view(state, seat), seat) if free else None
        return _best(ai, actions, values, rng, baseline)
