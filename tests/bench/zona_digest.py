"""``python -m tests.bench.zona_digest [game]``: one SHA-256 of everything seeded bot games show, to prove a speed change changed nothing else.

Speed work on a game's engine or bots must leave every decision as it was.
This plays seeded games of ``game`` (default ``zona``) as the service plays
them (``genesis.setup_events``, the bots' ``Rng`` per seat and version) and
hashes, at every decision: each seat's view and the spectators', the
deciding seat's legal actions, a sampled world's state (the AI's
``determinize``), what the AI makes of the seat's scoring view (``evaluate``,
``standing``, ``free_choice``; not the scoring view itself, whose parts are
the AI's to choose), greedy's score of every action, the bot's choice, the
events and the state they fold to. At each game's end it also folds the
log again from the start with ``evolve`` and checks it reaches the state the
decisions left (a resolution folds its own events in place; a replay must
agree). It prints one line per scenario, ``<digest> <decisions> <name>``, and
the digest of them all; run it before and after a change and compare. A
pure-build run: ``python -m tests.compiled.pure tests.bench.zona_digest``. (``tests.bench.digest`` is its
Fallout-first sibling, from the Fallout speed work; both hash the same kinds of things, this one Zona's
scenarios on both packs and the AI's reading of the scoring view; merging them is left to do.).
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from typing import Any

from bots.policies import GreedyBot, PlannerBot, RandomBot, decide
from domain.game import SYSTEM, Game
from domain.rng import Rng
from events.envelope import canonical_json
from tests.compiled.plays import set_up

#: (name, bot levels, seed, options, decisions at most): whole games of random bots at every seat count on
#: both packs, greedy bots' games cut short, and a planner's opening (rollouts fixed, so no clock decides).
SCENARIOS: list[tuple[str, list[str], str, dict[str, Any], int]] = [
    *[(f"random-{n}/{seed}", ["random"] * n, seed, {}, 20000) for n in (1, 2, 3, 4) for seed in ("d-a", "d-b")],
    *[(f"random-{n}/test-pack/{seed}", ["random"] * n, seed, {"pack": "test"}, 20000) for n in (1, 2, 4)
      for seed in ("d-c",)],
    ("greedy-2/d-a", ["greedy"] * 2, "d-a", {}, 160),
    ("greedy-1/d-b", ["greedy"], "d-b", {}, 120),
    ("greedy-4/d-c", ["greedy"] * 4, "d-c", {}, 120),
    ("greedy-random-3/test-pack/d-d", ["greedy", "random", "greedy"], "d-d", {"pack": "test"}, 160),
    ("planner-2/d-e", ["planner", "greedy"], "d-e", {"bot_rollouts": 2}, 24),
]


def _text(value: Any) -> bytes:
    return canonical_json(value).encode() if not isinstance(value, float) else repr(value).encode()


class _ScoringGreedy:
    """Greedy, hashing every action's score before it chooses (the choice alone could hide a changed
    score). It holds a ``GreedyBot`` rather than subclassing it: the compiled build's classes take no
    interpreted subclass."""

    level = "greedy"
    needs_view = True
    prunes = True

    def __init__(self, sink: Any):
        self.sink = sink
        self.bot = GreedyBot()

    def choose(self, module: Game, view: dict[str, Any], actions: list[Any], seat: int, rng: Rng) -> Any:
        ai = module.ai
        weighed = actions
        if ai is not None and ai.free_choice(view, seat):  # as the bot narrows them (bots.policies._Searching)
            weighed = [a for a in actions if a.get("type") not in ai.never_taken] or actions
        if ai is not None and len(weighed) > 1:
            # The bot's scores from the same fresh source it is handed: scoring draws from sources of its own.
            found = self.bot.scores(ai, module, view, weighed, seat, Rng(rng.seed, rng.label))
            self.sink.update(json.dumps(["scores", [s if math.isfinite(s) else str(s) for s in found]]).encode())
        return self.bot.choose(module, view, actions, seat, rng)


def play(game: str, levels: list[str], seed: str, options: dict[str, Any], limit: int) -> tuple[str, int]:
    module, log, state = set_up(game, levels, seed, options)
    digest = hashlib.sha256()
    bots: list[Any] = []
    for level in levels:
        if level == "greedy":
            bots.append(_ScoringGreedy(digest))
        elif level == "planner":
            bots.append(PlannerBot(rollouts=options.get("bot_rollouts")))
        else:
            bots.append(RandomBot())
    ai = module.ai
    seats = len(levels)
    decisions = 0
    for version in range(1, limit + 1):
        if module.is_over(state):
            break
        command = module.system_command(state)
        seat: int | str = SYSTEM
        if command is None:
            waiting = module.waiting_for(state)
            if not waiting:
                break
            seat = waiting[0]
            for who in [*range(seats), None]:
                digest.update(_text(["view", who, module.view(state, who)]))
            actions = module.legal_actions(state, seat)
            digest.update(_text(["actions", seat, actions]))
            if ai is not None and levels[seat] != "random":
                world = ai.determinize(module.view(state, seat), seat, Rng(seed, f"digest-world-v{version}"))
                digest.update(_text(["world", _fields(world)]))
                scored = ai.scoring_view(state, seat) or module.view(state, seat)
                digest.update(_text(["scoring", ai.evaluate(scored, seat), ai.standing(scored, seat),
                                     ai.free_choice(scored, seat)]))
            command = decide(bots[seat], module, state, actions, seat, Rng(seed, f"bot-s{seat}-v{version}"))
            digest.update(_text(["chose", seat, command]))
            decisions += 1
        emitted, state = module.decide_and_fold(state, seat, command, Rng.for_position(seed, version))
        for event in emitted:
            digest.update(_text(["event", event.type, event.data]))
            for who in range(seats):
                redacted = module.redact(event, who)
                digest.update(_text(["redacted", who, redacted.type, redacted.data]))
        log.extend(emitted)
        digest.update(_text(["state", _fields(state)]))
    replayed = module.initial_state()
    for event in log:
        replayed = module.evolve(replayed, event)
    if _fields(replayed) != _fields(state):
        raise SystemExit(f"{game} {levels} {seed}: the log folds to another state than the decisions left")
    digest.update(_text(["outcome", module.is_over(state), module.waiting_for(state)]))
    return digest.hexdigest(), decisions


def _fields(state: Any) -> Any:
    """A state as plain data: its fields when it is a record, else itself."""
    return {k: v for k, v in vars(state).items()} if hasattr(state, "__dict__") else state


def main() -> None:
    game = sys.argv[1] if len(sys.argv) > 1 else "zona"
    total = hashlib.sha256()
    for name, levels, seed, options, limit in SCENARIOS:
        found, decisions = play(game, levels, seed, options, limit)
        total.update(found.encode())
        print(f"{found[:16]} {decisions:>6} {name}", flush=True)
    print(f"{total.hexdigest()[:16]} all")


if __name__ == "__main__":
    main()
