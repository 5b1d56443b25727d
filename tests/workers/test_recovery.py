"""A worker killed with SIGKILL in the middle of a bot's turn and of a round end.

The worker pauses after each step of a job (``HOLOTAPE_STEP_PAUSE_SECONDS``),
so the test can see a job half done — a bot's command appended while the game
still waits on that bot; the round end appended and not yet handed on to the
seat or the bot that comes next — and kill the worker right then. Nothing moves while no worker runs; once a new one runs,
the sweeper finds the stalled game and the game carries on. At the end every
job's effect happened exactly once: versions contiguous, each round begun
once, each agenda card revealed once per round, and the audit re-derives
every batch from the seed (a decision taken twice would not be what the
rules decide).
"""

from __future__ import annotations

import signal
import time
from collections import Counter

from rq.registry import StartedJobRegistry

from service import wiring
from service.adapters.config import QUEUE_NAME
from service.usecases import due
from service.usecases.audit import audit
from service.usecases.games import Games
from tests.conftest import wait_until
from tests.workers.conftest import assert_contiguous

#: The README's bound, with the test's settings: stall 2 s + sweep 1 s, plus starting a worker.
RECOVERY_BOUND = 15.0
FAST_SWEEP = {"HOLOTAPE_STALL_SECONDS": "2", "HOLOTAPE_SWEEP_SECONDS": "1"}


def _now(games: Games, game_id: str):
    """The game's record and the last command batch it holds, read at the same version."""
    loaded = games.load(game_id)
    events = games.store.read(game_id, max(1, loaded.version - 60), loaded.version)
    headers = [e for e in events if e.type == "CommandAccepted"]
    return loaded.state, headers[-1] if headers else None


def _mid_bot_turn(games: Games, game_id: str) -> bool:
    record, last = _now(games, game_id)
    playing = due.autoplayed(record)
    return bool(last and last.actor.startswith("bot:") and playing and playing[0] == last.data["seat"]
                and record.module.system_command(record.state) is None)


def _mid_round_end(games: Games, game_id: str) -> bool:
    """The round-end job has appended its step and not yet handed on to whatever comes next."""
    record, last = _now(games, game_id)
    return bool(last and last.data["seat"] == "system" and not record.over)


def _kill_and_recover(games: Games, game_id: str, worker_env, running, started_job_prefix: str, redis_client):
    running.stop(signal.SIGKILL)
    registry = StartedJobRegistry(QUEUE_NAME, connection=redis_client)
    in_flight = registry.get_job_ids()
    assert any(j.startswith(started_job_prefix) for j in in_flight), ("the job was not in flight", in_flight)
    stopped_at = games.store.version(game_id)
    # A fixed wait on purpose: what is tested is that a second passes with no worker and nothing moves
    # (there is no event to wait for when the point is that none comes).
    time.sleep(1.0)
    assert games.store.version(game_id) == stopped_at  # nothing moves while no worker runs
    restarted = time.monotonic()
    again = worker_env(HOLOTAPE_STEP_PAUSE_SECONDS="0.2", **FAST_SWEEP)
    wait_until(lambda: games.store.version(game_id) > stopped_at, RECOVERY_BOUND, message="the game to move on")
    return again, time.monotonic() - restarted


def test_a_killed_worker_leaves_every_effect_exactly_once(redis_client, worker_env):
    games = wiring.build(redis_client).games
    running = worker_env(HOLOTAPE_STEP_PAUSE_SECONDS="0.2", **FAST_SWEEP)
    seats = [{"seat": i, "kind": "bot", "name": None, "bot": "random"} for i in range(2)]
    game_id = games.create("fallout", {"survivors": ["tamsin_reed", "wren_okafor"]}, seats, seed="crash").game_id

    wait_until(lambda: _mid_bot_turn(games, game_id), 30, interval=0.02, message="a bot half way through its turn")
    running, first = _kill_and_recover(games, game_id, worker_env, running, "bots-", redis_client)

    wait_until(lambda: _mid_round_end(games, game_id), 60, interval=0.02, message="a round end half done")
    running, second = _kill_and_recover(games, game_id, worker_env, running, "system-", redis_client)

    # The rest at full speed.
    running.stop()
    worker_env(HOLOTAPE_STEP_PAUSE_SECONDS="0", **FAST_SWEEP)
    wait_until(lambda: games.load(game_id).state.over, 90, interval=0.5, message="the game to end")

    assert_contiguous(games.store, game_id)
    events = games.store.read(game_id, 1)
    rounds = [e.data["round"] for e in events if e.type == "RoundStarted"]
    assert rounds == list(range(1, len(rounds) + 1))
    revealed = Counter(e.version for e in events if e.type == "AgendaRevealed")
    assert len(revealed) == len([e for e in events if e.type == "AgendaRevealed"])
    assert audit(games.store, game_id).verdict == "fair"
    print(f"recovered in {first:.1f} s and {second:.1f} s")
