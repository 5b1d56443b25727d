"""Self-play as the command line runs it: many games of bots (``bots.selfplay``), in parallel, summed up.

Bots take turns round the seats from game to game, so no level keeps the
seat that starts.

A bot "wins" a game when the rules say so (the game's ``winners``). Games
that everyone loses (a faction took over) count for nobody there; the
"leads" column also shows which bot stood best at the end, by the game AI's
``standing`` of the final position, ties shared. The game is built from a
``GameCreated`` exactly as the service builds it (``genesis.setup_events``).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from typing import Any, TextIO

from bots import selfplay as bots
from bots.selfplay import MAX_DECISIONS, GameResult
from domain import registry
from service.usecases import genesis


def play_game(
    game: str, levels: list[str], seed: str, options: dict[str, Any] | None = None, max_decisions: int = MAX_DECISIONS
) -> GameResult:
    """One game of ``game`` between bots of ``levels``, set up from a ``GameCreated`` as the service sets one up."""
    module = registry.game_module(game)
    options = dict(options or {})
    created = {
        "game": game,
        "options": {**options, **module.resolve_options(genesis.game_options(module, options))},
        "seats": [{"seat": s, "kind": "bot", "name": None, "bot": level} for s, level in enumerate(levels)],
    }
    return bots.play_game(module, levels, seed, genesis.setup_events(created, seed), options, max_decisions)


def read_results(lines: Iterable[str]) -> list[GameResult]:
    """The results a run recorded (``run(record=...)``), one JSON line each."""
    return [GameResult(**json.loads(line)) for line in lines if line.strip()]


def _one(args: tuple[str, list[str], str, dict[str, Any]]) -> GameResult:
    return play_game(*args)


def run(
    game: str, bots: list[str], games: int, players: int, options: dict[str, Any], jobs: int = 1,
    seed: str = "selfplay", progress: TextIO | None = None, record: TextIO | None = None, first: int = 0,
) -> list[GameResult]:
    """Plays the games; ``record``, a text file, gets each game's result as a JSON line as it ends, so a
    long run stopped early still has what it measured (``read_results``). Games are recorded in the
    order they are dealt, so a run stopped after ``first`` games goes on from game ``first`` (the
    same seats and seeds the whole run would have dealt it)."""
    progress = progress or sys.stderr
    tasks = []
    for g in range(first, games):
        levels = [bots[(seat + g) % len(bots)] for seat in range(players)]
        tasks.append((game, levels, f"{seed}-{g}", options))
    results: list[GameResult] = []
    started = time.monotonic()

    def report(result: GameResult) -> None:
        results.append(result)
        if record is not None:
            record.write(json.dumps(asdict(result)) + "\n")
            record.flush()
        done = first + len(results)
        width = 30
        bar = "#" * (width * done // games) + "-" * (width - width * done // games)
        elapsed = time.monotonic() - started
        eta = elapsed / len(results) * (games - done)
        print(f"\r[{bar}] {done}/{games} games  {elapsed:5.0f} s  eta {eta:5.0f} s", end="", file=progress, flush=True)

    if jobs <= 1:
        for task in tasks:
            report(_one(task))
    else:
        with ProcessPoolExecutor(jobs) as pool:
            for result in pool.map(_one, tasks):
                report(result)
    print(file=progress)
    return results


def summary(results: list[GameResult], bots: list[str]) -> str:
    seats: defaultdict[str, int] = defaultdict(int)
    wins: defaultdict[str, float] = defaultdict(float)
    leads: defaultdict[str, float] = defaultdict(float)
    for r in results:
        for level in r.levels:
            seats[level] += 1
        for s in r.winners:
            wins[r.levels[s]] += 1
        for s in r.leaders:
            leads[r.levels[s]] += 1 / len(r.leaders)
    lines = ["bot      seats  wins  win rate  leads  lead rate  decisions/s"]
    for level in dict.fromkeys(bots):
        spent = sum(r.bot_seconds.get(level, 0.0) for r in results)
        made = sum(r.bot_decisions.get(level, 0) for r in results)
        rate = made / spent if spent else float("inf")
        lines.append(
            f"{level:<8} {seats[level]:>5} {wins[level]:>5.0f} {wins[level] / seats[level]:>8.1%} "
            f"{leads[level]:>6.1f} {leads[level] / seats[level]:>9.1%} {rate:>12,.0f}"
        )
    lengths = [r.decisions for r in results]
    rounds = [r.rounds for r in results if r.rounds is not None]
    ended = sum(1 for r in results if r.finished)
    won = sum(1 for r in results if r.winners)
    lines.append(
        f"games: {len(results)} ({ended} ended by the rules, {won} with a winner, "
        f"{len(results) - won} lost by everyone or unfinished)"
    )
    lines.append(
        f"length: decisions mean {statistics.mean(lengths):.0f}, median {statistics.median(lengths):.0f}, "
        f"min {min(lengths)}, max {max(lengths)}"
        + (f"; rounds mean {statistics.mean(rounds):.1f}" if rounds else "")
    )
    lines += _endings(results)
    lines += balance(results)
    spent = sum(sum(r.bot_seconds.values()) for r in results)
    made = sum(sum(r.bot_decisions.values()) for r in results)
    lines.append(f"decisions/s (all bots): {made / spent if spent else 0:,.0f} over {made:,} bot decisions")
    return "\n".join(lines)


def balance(results: list[GameResult]) -> list[str]:
    """The balance table's rows (docs/content-pack.md): how the games ended, in the game's words, and
    each role's win rate in the games it was played in (a role twice in one game counts twice)."""
    endings: defaultdict[str, int] = defaultdict(int)
    played: defaultdict[str, int] = defaultdict(int)
    won: defaultdict[str, int] = defaultdict(int)
    for r in results:
        endings[r.ending or "unfinished"] += 1
        for seat, role in enumerate(r.roles):
            if role is not None:
                played[role] += 1
                won[role] += seat in r.winners
    lines = ["endings: " + ", ".join(f"{e} {n} ({n / len(results):.1%})" for e, n in sorted(endings.items()))]
    if played:
        lines.append("role                   played   won  win rate")
        for role in sorted(played, key=lambda k: (-won[k] / played[k], k)):
            lines.append(f"{role:<22} {played[role]:>6} {won[role]:>5} {won[role] / played[role]:>9.1%}")
        rates = [won[k] / played[k] for k in played]
        spread = f"{max(rates) / min(rates):.2f}" if min(rates) else "inf"
        lines.append(f"roles: {len(played)} played; highest win rate / lowest: {spread}")
    return lines


def _endings(results: list[GameResult]) -> list[str]:
    """A won game against a game everyone lost (a game's shared loss), and how long each took."""
    won = [r.rounds for r in results if r.winners and r.rounds is not None]
    lost = [r.rounds for r in results if r.finished and not r.winners and r.rounds is not None]
    if not won and not lost:
        return []

    def rounds(found: list[int]) -> str:
        return f"rounds mean {statistics.mean(found):.1f}, {min(found)}-{max(found)}" if found else "-"

    return [f"won: {len(won)} ({rounds(won)}); lost by everyone: {len(lost)} ({rounds(lost)})"]
