"""The plays the compiled build must repeat byte for byte: whole games of random bots and greedy decisions.

``digests()`` plays every scenario with whatever build this process imported
and returns, per scenario, the SHA-256 of each event's canonical JSON in
order; ``python -m tests.compiled.plays`` prints them as JSON, with the
modules it ran compiled. ``python -m tests.compiled.pure`` does the same
with every module of ``domain/`` and ``bots/`` imported from its source, the
reference, even where the compiled build (``make compiled``) sits beside it.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

from bots.policies import decide, make_bot
from domain import registry
from domain.game import SYSTEM, Event, Game
from domain.rng import Rng
from events.envelope import canonical_json
from service.usecases import genesis
from tests.compiled.pure import compiled_modules

#: Seeds of the whole random games (two and four seats) and of the greedy openings.
SEEDS = ("same-a", "same-b", "same-c")
#: Decisions a greedy scenario plays from the start: its bots' choices, their sampled worlds and scores.
GREEDY_DECISIONS = 24


def scenarios() -> list[tuple[str, str, list[str], str, int]]:
    """(name, game, bot levels, seed, decisions at most) of every scenario, both games."""
    found = []
    for game in registry.builtin_names():
        for seed in SEEDS:
            found.append((f"{game}/random-2/{seed}", game, ["random"] * 2, seed, 20000))
        found.append((f"{game}/random-4/{SEEDS[0]}", game, ["random"] * 4, SEEDS[0], 20000))
        found.append((f"{game}/greedy-2/{SEEDS[0]}", game, ["greedy"] * 2, SEEDS[0], GREEDY_DECISIONS))
        found.append((f"{game}/greedy-random/{SEEDS[1]}", game, ["greedy", "random"], SEEDS[1], GREEDY_DECISIONS))
    return found


def set_up(
    game: str, levels: list[str], seed: str, options: dict[str, Any] | None = None
) -> tuple[Game, list[Event], Any]:
    """The game, its setup events and the state they fold to, for bots of ``levels`` and the table's ``options``
    (its defaults if none), as the service sets it up."""
    module = registry.game_module(game)
    asked = options or {}
    created = {
        "game": game,
        "options": {**asked, **module.resolve_options(genesis.game_options(module, asked))},
        "seats": [{"seat": s, "kind": "bot", "name": None, "bot": level} for s, level in enumerate(levels)],
    }
    events = list(genesis.setup_events(created, seed))
    state = module.initial_state()
    for event in events:
        state = module.evolve(state, event)
    return module, events, state


def play(game: str, levels: list[str], seed: str, limit: int) -> list[str]:
    """The digest of each event a game of bots of ``levels`` records, setup first, as the service plays it."""
    module, events, state = set_up(game, levels, seed)
    bots = [make_bot(level, {}, module.ai) for level in levels]
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
            actions = module.legal_actions(state, seat)
            command = decide(bots[seat], module, state, actions, seat, Rng(seed, f"bot-s{seat}-v{version}"))
        emitted, state = module.decide_and_fold(state, seat, command, Rng.for_position(seed, version))
        events.extend(emitted)
    return [hashlib.sha256(canonical_json({"type": e.type, "data": e.data}).encode()).hexdigest() for e in events]


def digests() -> dict[str, list[str]]:
    return {name: play(game, levels, seed, limit) for name, game, levels, seed, limit in scenarios()}


def main() -> None:
    json.dump({"compiled": compiled_modules(), "digests": digests()}, sys.stdout)


if __name__ == "__main__":
    main()
