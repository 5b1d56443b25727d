"""``python -m tests.bench.digest [GAME]``: a digest of seeded bot games, to prove a speed change changed nothing.

Plays seeded games of random bots to their end and greedy bots' openings,
as the service plays them (``genesis.setup_events``, the worker's bot and
decision seeds), and hashes at every decision what a change must keep: the
seat's legal actions, its view, the part of the view the bots score
(``GameAI.scoring_view``), a greedy bot's scores of its actions and the
worlds it deals, the command chosen and the events recorded; then the
final state's snapshot and a spectator's view. It prints one line per
scenario (its SHA-256 and its counts) and, with ``--steps FILE``, writes
every step's hash so two runs can be compared to the first step that
differs (``diff``). Run it before a change and after, on either build.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from typing import Any

from bots.lookahead import sub
from bots.policies import GreedyBot, decide, make_bot
from domain.game import SYSTEM, Game
from domain.rng import Rng
from events.envelope import canonical_json
from tests.compiled.plays import set_up

#: (levels by seat, seeds, decisions at most) of each kind of scenario.
SCENARIOS: list[tuple[list[str], list[str], int]] = [
    (["random"] * 2, [f"digest-r2-{n}" for n in range(8)], 20000),
    (["random"] * 3, [f"digest-r3-{n}" for n in range(2)], 20000),
    (["random"] * 4, [f"digest-r4-{n}" for n in range(2)], 20000),
    (["greedy"] * 2, [f"digest-g2-{n}" for n in range(2)], 250),
    (["greedy", "random"], ["digest-gr-0"], 250),
]


def _hash(value: Any) -> str:
    return hashlib.sha256(canonical_json(value).encode()).hexdigest()


def _greedy_probe(module: Game, view: dict[str, Any], actions: list[dict[str, Any]], seat: int, rng: Rng) -> Any:
    """What a greedy bot weighs: the worlds it deals (their snapshots) and its scores of the actions."""
    ai = module.ai
    if ai is None or len(actions) < 2:
        return None
    if ai.free_choice(view, seat):
        actions = [a for a in actions if a.get("type") not in ai.never_taken] or actions
    worlds: list[Any] = []
    for n in range(GreedyBot().samples):  # an instance's: a compiled class keeps no class attribute
        try:
            worlds.append(module.dump_state(ai.determinize(view, seat, sub(rng, f"world{n}"))))
        except Exception as error:  # noqa: BLE001 - a world that cannot be dealt is part of what is kept
            worlds.append(f"no world: {type(error).__name__}")
    scores = GreedyBot().scores(ai, module, view, actions, seat, rng)
    return {"worlds": worlds, "scores": [repr(s) for s in scores]}


def play(game: str, levels: list[str], seed: str, limit: int) -> tuple[list[str], dict[str, int]]:
    module, setup, state = set_up(game, levels, seed)
    steps = [_hash([{"type": e.type, "data": e.data} for e in setup])]
    bots = [make_bot(level, {}, module.ai) for level in levels]
    counts = {"decisions": 0, "events": len(setup), "probes": 0}
    for version in range(1, limit + 1):
        if module.is_over(state):
            break
        command = module.system_command(state)
        seat: int | str = SYSTEM
        record: dict[str, Any] = {}
        if command is None:
            waiting = module.waiting_for(state)
            if not waiting:
                break
            seat = waiting[0]
            actions = module.legal_actions(state, seat)
            view = module.view(state, seat)
            rng = Rng(seed, f"bot-s{seat}-v{version}")
            record = {"actions": actions, "view": view}
            if module.ai is not None:
                record["scored"] = module.ai.scoring_view(state, seat)
            if levels[seat] == "greedy":
                record["greedy"] = _greedy_probe(module, view, actions, seat, rng)
                counts["probes"] += record["greedy"] is not None
            command = decide(bots[seat], module, state, actions, seat, rng)
        emitted, state = module.decide_and_fold(state, seat, command, Rng.for_position(seed, version))
        record.update(seat=seat, command=command, events=[{"type": e.type, "data": e.data} for e in emitted])
        steps.append(_hash(record))
        counts["decisions"] += 1
        counts["events"] += len(emitted)
    steps.append(_hash({"state": module.dump_state(state), "spectator": module.view(state, None)}))
    return steps, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", nargs="?", default="fallout")
    parser.add_argument("--steps", help="write every step's hash here, one a line")
    args = parser.parse_args()
    lines = []
    everything = hashlib.sha256()
    for levels, seeds, limit in SCENARIOS:
        for seed in seeds:
            name = f"{args.game}/{'-'.join(levels)}/{seed}"
            steps, counts = play(args.game, levels, seed, limit)
            digest = hashlib.sha256("".join(steps).encode()).hexdigest()
            everything.update(digest.encode())
            print(f"{name}: {digest[:16]} {json.dumps(counts)}", flush=True)
            lines += [f"{name} {n} {h}" for n, h in enumerate(steps)]
    print(f"all: {everything.hexdigest()}")
    if args.steps:
        with open(args.steps, "w") as out:
            out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
