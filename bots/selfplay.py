"""Self-play: bots against bots, in-process, straight on the game module.

No Redis and no HTTP: a plain loop over ``decide``/``evolve`` in which every
seat is a bot given only its own view and legal actions, exactly as the
worker gives them. A bot "wins" a game when the rules say so (the game's
``winners``); ``leaders`` are who stood best at the end, by the game AI's
``standing`` of the final position, ties shared. The setup is handed in, so
the caller builds it as the service does (``service.usecases.selfplay``).
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from bots.policies import decide, make_bot
from domain.game import SYSTEM, Event, Game
from domain.rng import Rng

#: A game still running after this many decisions is stopped and counted as a draw.
MAX_DECISIONS = 20000


@dataclass
class GameResult:
    levels: list[str]  # by seat
    winners: list[int]
    leaders: list[int]
    decisions: int
    rounds: int | None
    bot_seconds: dict[str, float] = field(default_factory=dict)
    bot_decisions: dict[str, int] = field(default_factory=dict)
    finished: bool = True
    #: How it ended, in the game's word (``Outcome.ending``), and what each seat played as (``Outcome.roles``).
    ending: str | None = None
    roles: list[str | None] = field(default_factory=list)


def play_game(
    module: Game, levels: list[str], seed: str, setup: list[Event], options: dict[str, Any] | None = None,
    max_decisions: int = MAX_DECISIONS,
) -> GameResult:
    """Bots of ``levels`` (by seat) play ``module`` from the events of its ``setup`` to its end."""
    bots = [make_bot(level, options or {}, module.ai) for level in levels]
    state = module.initial_state()
    for event in setup:
        state = module.evolve(state, event)
    seconds: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    version = 1
    while not module.is_over(state) and version < max_decisions:
        command = module.system_command(state)
        if command is not None:
            seat: int | str = SYSTEM
        else:
            waiting = module.waiting_for(state)
            if not waiting:
                break
            seat = waiting[0]
            actions = module.legal_actions(state, seat)
            started = time.perf_counter()
            command = decide(bots[seat], module, state, actions, seat, Rng(seed, f"bot-s{seat}-v{version}"))
            seconds[levels[seat]] += time.perf_counter() - started
            counts[levels[seat]] += 1
        state = module.decide_and_fold(state, seat, command, Rng.for_position(seed, version))[1]
        version += 1
    outcome = module.outcome(state)
    standing = final_standing(module, state, len(levels))
    top = max(standing)
    return GameResult(
        levels=list(levels),
        winners=list(outcome.winners),
        leaders=[s for s, v in enumerate(standing) if v == top],
        decisions=version - 1,
        rounds=outcome.round,
        bot_seconds=dict(seconds),
        bot_decisions=dict(counts),
        finished=module.is_over(state),
        ending=outcome.ending,
        roles=list(outcome.roles),
    )


def final_standing(module: Game, state: Any, seats: int) -> list[float]:
    """Each seat's ``standing`` where the game stopped, as the public view shows it.

    Once a game is over each seat's scoring view (``GameAI.scoring_view``) gives the public view's
    standing (``tests/bots/test_policies.py`` holds the two equal in both games) at a fraction of its cost:
    Zona's whole view, its cards catalogued and its board described, was a twentieth of a random game. A
    game stopped short is read from the public view.
    """
    ai = module.ai
    if ai is None:
        return [0.0] * seats
    if module.is_over(state):
        shown = [view for view in (ai.scoring_view(state, s) for s in range(seats)) if view is not None]
        if len(shown) == seats:
            return [ai.standing(view, s) for s, view in enumerate(shown)]
    final = module.view(state, None)
    return [ai.standing(final, s) for s in range(seats)]
