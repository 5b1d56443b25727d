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
  seat's own follow-up decisions, each the choice whose result scores best
  at once, ties to the lapsed-deadline default — until the game waits on
  someone else or on the seat's next free choice) in a few sampled worlds;
  the best average score wins, ties at random (ending the turn only when
  nothing else ties). A game's AI may say which choices are worth weighing
  (``candidates``: the rest cannot do better, or none stands out and the
  lapsed default is taken), and that an action's later worlds answer its
  follow-ups as its first world did (``follow_ups_shared``).
- ``planner``: flat Monte Carlo over determinized worlds, a rollout of the
  greedy policy. Greedy's one-step scores (every choice of every follow-up
  weighed, whatever the AI prunes) shortlist the candidates (those
  within 1 point of the best, at most five). Within the per-decision time
  budget the planner deals a world, plays each candidate in it, then plays on
  to the end of the seat's turn and through the round end that may follow —
  the seat's own choices greedy's (its follow-ups there at their lapsed
  defaults, for speed), other seats' decisions random — and scores the
  seat's view there. Every candidate gets the same worlds (common random
  numbers); the best mean wins. A game's AI may ask for whole-round
  playouts (``whole_round_playouts``; Zona does): on through the other
  seats' turns, each ended at once, and the round end to the first free
  choice of the next round; every candidate in a world then meets the same
  random stream, and greedy's own favourite stands unless a candidate's
  playouts beat it by a clear margin (3 points). A decision settled by a chance
  drawn at once (the AI's ``chance_decision``: Zona's rolled test, reroll or
  keep) is weighed otherwise: each answer is played in every outcome of its
  first chance draw (``domain.rng.FirstDrawn``) and settled with greedy's
  follow-ups, its expected result scored there. A time budget makes its choice
  depend on the machine's speed (it counts the thread's CPU time,
  ``time.thread_time``, so never on what else the machine runs); with
  ``rollouts`` set instead it is reproducible.

A world the AI cannot deal (``determinize`` fails on a view it did not
foresee) is left out; with no world at all a bot plays as a game without an
AI: at random. A bot never fails its seat.

Everything is deterministic given the ``Rng``: the service derives it from
the game and the version decided on, so a replayed job picks the same move.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any, Protocol

from bots.lookahead import (
    Answer,
    Shared,
    Weighed,
    chooses_freely,
    follow,
    lapsed,
    play,
    score,
    settle,
    sub,
    weigh_every,
    worth_weighing,
)
from domain.game import SYSTEM, Command, Game, GameAI
from domain.rng import FirstDrawn, Rng

LEVELS = ("random", "greedy", "planner")
#: The planner's default time per decision, of its thread's CPU (a game's AI may ask for more with ``planner_budget_ms``; the
#: ``bot_budget_ms`` setting of a game overrides both).
PLANNER_BUDGET_MS = 50


class Bot(Protocol):
    level: str
    #: Whether ``choose`` looks at the view: building one is most of a random
    #: bot's decision, and a bot that never reads it is handed an empty one.
    needs_view: bool
    #: Whether its own decision weighs only the choices the game's AI says are worth it (``worth_weighing``):
    #: greedy's does; the planner weighs every choice its own way (a chance decision by its odds).
    prunes: bool

    def choose(
        self, module: Game, view: dict[str, Any], actions: list[Command], seat: int, rng: Rng
    ) -> Command: ...


class UnknownBot(ValueError):
    pass


def decide(bot: Bot, module: Game, state: Any, actions: list[Command], seat: int, rng: Rng) -> Command:
    """``bot``'s command for ``seat`` among ``actions``, given the seat's view only when the bot reads it.

    One legal action is every bot's choice (each level takes the only one it
    has), so no view is built for it; a bot that ``prunes`` weighs the choices
    its game's AI says are worth it (``worth_weighing``: read from the state
    as the seat's view shows them); a searching bot is handed the view the AI
    says it reads (``search_view``) where it offers one.
    """
    if len(actions) == 1:
        return actions[0]
    if not bot.needs_view:
        return bot.choose(module, {}, actions, seat, rng)
    ai = module.ai
    if ai is None:
        return bot.choose(module, module.view(state, seat), actions, seat, rng)
    if bot.prunes:
        actions = worth_weighing(ai, module, state, seat, actions, False)
        if len(actions) == 1:
            return actions[0]
    shown = ai.search_view(state, seat)
    return bot.choose(module, module.view(state, seat) if shown is None else shown, actions, seat, rng)


def make_bot(level: str, options: dict[str, Any] | None = None, ai: GameAI | None = None) -> Bot:
    """A bot of ``level`` for a game with these ``options`` (``bot_budget_ms``, ``bot_rollouts``) and ``ai``
    (whose ``planner_budget_ms``, where it has one, is the planner's time when the options set none)."""
    options = options or {}
    if level == "random":
        return RandomBot()
    if level == "greedy":
        return GreedyBot()
    if level == "planner":
        chosen = ai.planner_budget_ms if ai is not None and ai.planner_budget_ms is not None else PLANNER_BUDGET_MS
        budget = options.get("bot_budget_ms", chosen)
        return PlannerBot(
            budget_ms=float(budget),
            rollouts=options.get("bot_rollouts"),
        )
    raise UnknownBot(level)


class RandomBot:
    level = "random"
    needs_view = False
    prunes = False

    def choose(self, module: Game, view: dict[str, Any], actions: list[Command], seat: int, rng: Rng) -> Command:
        return rng.choice(actions)


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
    prunes = True
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
        """Each action's mean score one step ahead (all ``-inf`` when no world could be dealt)."""
        return self.scores_in(ai, module, self.worlds(ai, view, seat, rng), actions, seat, rng)

    def answer(self, ai: GameAI, first: Weighed, world: int) -> Answer | None:
        """How an action's follow-ups are answered in its ``world``-th world: every choice weighed (a greedy
        that does not prune), the AI's choices weighed (None: ``follow_up``), or, with the AI's
        ``follow_ups_shared``, weighed in the first world (``first``) and given again in the others."""
        if not self.prunes:
            return weigh_every
        if not ai.follow_ups_shared:
            return None
        return first if world == 0 else Shared(first.answers)

    def worlds(self, ai: GameAI, view: dict[str, Any], seat: int, rng: Rng) -> list[Any]:
        """The worlds ``scores`` looks ahead in (those the AI could deal)."""
        deal = _dealer(ai, view, seat)
        return [w for w in (deal(sub(rng, f"world{n}")) for n in range(self.samples)) if w is not None]

    def scores_in(
        self, ai: GameAI, module: Game, worlds: list[Any], actions: list[Command], seat: int, rng: Rng
    ) -> list[float]:
        if not worlds:
            return [-math.inf] * len(actions)
        scores = []
        for i, action in enumerate(actions):
            total = 0.0
            first = Weighed()
            for w, world in enumerate(worlds):
                answer = self.answer(ai, first, w)
                try:
                    after = settle(ai, module, world, seat, action, sub(rng, f"a{i}w{w}"), answer=answer)
                except Exception:  # noqa: BLE001 - a sampled world the action cannot be played in
                    total += -math.inf
                    continue
                total += score(ai, module, after, seat)
            scores.append(total / len(worlds))
        return scores


def _whole_round(ai: GameAI) -> bool:
    """The AI's ``whole_round_playouts``: the planner's playouts run to the next round, every candidate in
    a world meets one random stream, and greedy's pick stands unless the playouts beat it clearly. Off by
    default: a game whose planner was measured with playouts to the end of its own turn keeps them."""
    return ai.whole_round_playouts


def _dealer(ai: GameAI, view: dict[str, Any], seat: int) -> Callable[[Rng], Any | None]:
    """The AI's dealer of worlds sampled from ``view`` (``GameAI.dealer``): each call one world, or None when the
    AI cannot deal one (the bot then does without it)."""
    try:
        deal = ai.dealer(view, seat)
    except Exception:  # noqa: BLE001 - a bug in sampling must cost a bot its foresight, never its seat
        return _no_world

    def dealt(rng: Rng) -> Any | None:
        try:
            return deal(rng)
        except Exception:  # noqa: BLE001 - as above
            return None

    return dealt


def _no_world(rng: Rng) -> Any | None:
    return None


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


class _WeighingEvery(GreedyBot):
    """Greedy's one step as the planner shortlists with it: every choice of every follow-up weighed, in every
    world (the planner weighs its own decisions so too: ``prunes``)."""

    prunes = False


class PlannerBot(_Searching):
    level = "planner"
    prunes = False

    def __init__(self, budget_ms: float = PLANNER_BUDGET_MS, rollouts: int | None = None,
                 clock: Callable[[], float] = time.thread_time, max_steps: int = 60):
        # The budget is the deciding thread's CPU time, not the wall's: on a loaded machine (a busy worker, a
        # shared CI box) a decision then comes later but searches as much as on a quiet one, so a bot plays
        # as well whatever else runs, and its strength measured anywhere is the same bot's.
        self.budget = budget_ms / 1000.0
        self.rollouts = rollouts
        self.clock = clock
        self.max_steps = max_steps

    #: Candidates the search looks at: those greedy scores within ``SHORTLIST_GAP`` of its best, at most this many.
    SHORTLIST = 5
    SHORTLIST_GAP = 1.0
    #: How much better than greedy's favourite a candidate's playouts must score to be chosen instead: a
    #: few worlds' playouts through a round of dice are noisy, and noise alone must not overrule greedy.
    OVERRULE = 3.0

    def search(
        self, ai: GameAI, module: Game, view: dict[str, Any], actions: list[Command], seat: int, rng: Rng
    ) -> Command:
        if ai.chance_decision(view, seat):
            return self.weigh_chances(ai, module, view, actions, seat, rng)
        started = self.clock()
        baseline = ai.evaluate(view, seat) if ai.free_choice(view, seat) else None
        # One step of greedy first: what scores badly at once is not searched.
        greedy, greedy_rng = _WeighingEvery(), sub(rng, "greedy")
        reused = greedy.worlds(ai, view, seat, greedy_rng)
        first = greedy.scores_in(ai, module, reused, actions, seat, greedy_rng)
        top = max(first)
        if top == -math.inf:  # not one world to look ahead in
            return rng.choice(actions)
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
        whole_round = _whole_round(ai)
        # With whole-round playouts (dear: a decision plays out few worlds in its budget) the shortlist's
        # worlds are played out first, then fresh ones are dealt.
        reused = reused if whole_round else []
        deal = _dealer(ai, view, seat)
        while True:
            # One round: every candidate in the same world.
            world = reused[dealt] if dealt < len(reused) else deal(sub(rng, f"world{dealt}"))
            dealt += 1
            if world is None:
                if self._enough(dealt, started):
                    break
                continue
            for i, action in enumerate(actions):
                try:
                    # The same stream for every candidate (common random numbers): a difference in the
                    # scores is the move's, less the dice's.
                    stream = sub(rng, f"r{dealt}") if whole_round else sub(rng, f"r{dealt}a{i}")
                    end = self.playout(ai, module, world, seat, action, stream)
                    value = score(ai, module, end, seat)
                except Exception:  # noqa: BLE001 - not playable in this world
                    value = -1e6
                totals[i] += value
                visits[i] += 1
            if self._enough(dealt, started):
                break
        if not any(visits):  # no world could be dealt: greedy's scores, or chance when it had none either
            return _best(ai, actions, [first[i] for i in near], rng, baseline)
        means = [t / v for t, v in zip(totals, visits, strict=True)]
        shortlisted = [first[i] for i in near]
        favourite = shortlisted.index(max(shortlisted))
        if whole_round and max(means) <= means[favourite] + self.OVERRULE:
            # The playouts show no clear gain over greedy's own pick: greedy's choice stands.
            return _best(ai, actions, shortlisted, rng, baseline)
        return _best(ai, actions, means, rng, baseline)

    #: A first chance draw with at most this many outcomes is played in each of them; a wider one is sampled.
    OUTCOMES = 12

    def weigh_chances(
        self, ai: GameAI, module: Game, view: dict[str, Any], actions: list[Command], seat: int, rng: Rng
    ) -> Command:
        """A decision settled by a chance drawn at once (the AI's ``chance_decision``: a die to reroll or keep).

        Each answer is played in each outcome of its first chance draw (each as likely: ``FirstDrawn``),
        then the seat's follow-ups as greedy answers them, and the seat's view there scored: the expected
        result of the answer, not one roll of it, and not a round's later dice either. Every answer meets
        the same worlds and streams (common random numbers); within the budget more worlds are dealt.
        The best mean wins, a tie going to what a lapsed deadline would answer (keep the roll).
        """
        started = self.clock()
        totals = [0.0] * len(actions)
        counts = [0] * len(actions)
        default: Command | None = None
        dealt = 0
        deal = _dealer(ai, view, seat)
        while True:
            world = deal(sub(rng, f"world{dealt}"))
            dealt += 1
            if world is not None:
                default = module.timeout_command(world, seat)
                stream = sub(rng, f"c{dealt}")
                for i, action in enumerate(actions):
                    try:
                        totals[i] += self.expected(ai, module, world, seat, action, stream)
                        counts[i] += 1
                    except Exception:  # noqa: BLE001 - not playable in this world: never chosen
                        continue
            if self._enough(dealt, started):
                break
        if not any(counts):
            return rng.choice(actions)
        means = [t / c if c else -math.inf for t, c in zip(totals, counts, strict=True)]
        best = max(means)
        tied = [a for a, m in zip(actions, means, strict=True) if m >= best - 1e-9]
        return default if default in tied else rng.choice(tied)

    def expected(self, ai: GameAI, module: Game, state: Any, seat: int, command: Command, rng: Rng) -> float:
        """The mean score of ``command`` settled (greedy's follow-ups), over every outcome of its first chance
        draw when it has at most ``OUTCOMES`` (one sampled outcome otherwise, or when it draws nothing)."""
        probe = sub(rng, "k").below(1 << 30)
        outcome = FirstDrawn(rng.seed, f"{rng.label}/0", probe)
        first = play(module, state, seat, command, outcome)
        span = outcome.span
        if span is None or span > self.OUTCOMES:
            return score(ai, module, follow(ai, module, first, seat, rng, answer=weigh_every), seat)
        total = 0.0
        for k in range(span):
            after = first if k == probe % span else play(
                module, state, seat, command, FirstDrawn(rng.seed, f"{rng.label}/0", k))
            total += score(ai, module, follow(ai, module, after, seat, rng, answer=weigh_every), seat)
        return total / span

    def _enough(self, dealt: int, started: float) -> bool:
        if self.rollouts is not None:
            return dealt >= self.rollouts
        return self.clock() - started >= self.budget

    def playout(self, ai: GameAI, module: Game, state: Any, seat: int, first: Command, rng: Rng) -> Any:
        """``first``, then on to another seat's turn, or (whole-round playouts) to the next round.

        The seat's own later choices are greedy's, one step ahead in the very
        world being played (a rollout of the greedy policy: the search then
        keeps whichever first move greedy would continue best from); other
        seats answer decisions at random; a round end the game runs as
        automatic work is run. With the AI's ``whole_round_playouts`` other
        seats end their turns at once (the game's ``end_turn``; at random
        where it has none) and the playout goes on to the next round's first
        free choice, so what the round's end brings (Zona's event phase) is
        scored whichever seat the bot sits in. A game that counts no rounds
        (``Outcome.round``) stops at another seat's turn.
        """
        # A game whose AI asks for whole-round playouts plays on to the next round; otherwise the playout
        # stops at another seat's turn (a game counting no rounds always does).
        round_at = module.outcome(state).round if _whole_round(ai) else None
        state = play(module, state, seat, first, sub(rng, "0"))
        for step in range(1, self.max_steps):
            if module.is_over(state):
                return state
            step_rng = sub(rng, str(step))
            system = module.system_command(state)
            if system is not None:
                state = play(module, state, SYSTEM, system, step_rng)
                continue
            waiting = module.waiting_for(state)
            if not waiting:
                return state
            who = waiting[0]
            actions = module.legal_actions(state, who)
            if not actions:
                return state
            free = chooses_freely(ai, module, state, who)
            if free and self._horizon(module, state, round_at, who == seat):
                return state
            if who == seat:
                command = self.rollout_choice(ai, module, state, seat, actions, step_rng)
            elif free:
                ending = [a for a in actions if a.get("type") == ai.end_turn]
                command = ending[0] if ending else step_rng.choice(actions)
            else:
                command = step_rng.choice(actions)
            state = play(module, state, who, command, step_rng)
        return state

    @staticmethod
    def _horizon(module: Game, state: Any, round_at: Any, own: bool) -> bool:
        """A free choice here ends the playout: the round has moved on (or, counting no rounds, it is another's)."""
        if round_at is None:
            return not own
        now = module.outcome(state).round
        return now is not None and now != round_at

    def rollout_choice(
        self, ai: GameAI, module: Game, state: Any, seat: int, actions: list[Command], rng: Rng
    ) -> Command:
        """Greedy's choice in a world the playout already holds (no sampling needed)."""
        free = chooses_freely(ai, module, state, seat)
        if free:
            actions = [a for a in actions if a.get("type") not in ai.never_taken] or actions
        if len(actions) == 1:
            return actions[0]
        values = []
        for i, action in enumerate(actions):
            try:
                after = settle(ai, module, state, seat, action, sub(rng, f"g{i}"), answer=lapsed)
                values.append(score(ai, module, after, seat))
            except Exception:  # noqa: BLE001 - not playable in this playout: never chosen
                values.append(-math.inf)
        baseline = score(ai, module, state, seat) if free else None
        return _best(ai, actions, values, rng, baseline)
