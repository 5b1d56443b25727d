"""`make bench`, the play part: bots, the round end through a real worker, and what a game leaves in Redis.

- for each hosted game (`BENCH_GAMES` to choose): self-play decisions per second on one core, whole loop (legal actions,
  the bot's choice, decide and fold: what a bots job costs a worker), for
  random and greedy bots, against the issue's targets;
- the round end: a real rq worker (``python -m workers.main``) turning an
  enqueued system step into appended events, timed from the enqueue to the
  first appended event's arrival (``XREAD BLOCK``), p95 against the target;
- footprint, per game: a 4-player game of random bots played to its end by the worker,
  then the Redis bytes per event of its stream and its share of the feed
  (``MEMORY USAGE``), every key of the game, and what rq keeps per finished
  job (its keys' bytes after the game less before, over the jobs run).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis
from rq import Worker

from domain import registry
from domain.game import SYSTEM
from events.snapshots import fold
from events.store import stream_key
from service import wiring
from service.adapters.embedded_redis import EmbeddedRedis
from service.usecases.games import Games
from service.usecases.selfplay import play_game
from tests.bench.report import SECONDS, Report, pct, run
from tests.games.counter import COUNTER

registry.register(COUNTER)

ROOT = Path(__file__).resolve().parents[2]
#: The games measured: every hosted game unless BENCH_GAMES names some (comma-separated).
GAMES = [g for g in os.environ.get("BENCH_GAMES", ",".join(registry.builtin_names())).split(",") if g]
ROUND_ENDS = int(os.environ.get("BENCH_ROUND_ENDS", "60"))
#: How long the footprint game may take before the bench gives up on its end.
GAME_TIMEOUT = float(os.environ.get("BENCH_GAME_TIMEOUT", "180"))
TARGETS = {"random": "value >= 30000", "greedy": "value >= 1000"}


def selfplay(report: Report, game: str) -> None:
    # A short game first, untimed: a process reads a game's content packs once, on first use (for Fallout
    # more than a second here), which is no decision's cost and took a third of a 3 s figure.
    play_game(game, ["random"] * 2, "bench-warm-up", max_decisions=50)
    for level in ("random", "greedy"):
        decisions = bot_decisions = 0
        bot_seconds = 0.0
        started = time.perf_counter()
        n = 0
        while time.perf_counter() - started < SECONDS:
            result = play_game(game, [level] * 2, f"bench-{n}", max_decisions=2000 if level == "random" else 150)
            decisions += result.decisions
            bot_decisions += sum(result.bot_decisions.values())
            bot_seconds += sum(result.bot_seconds.values())
            n += 1
        elapsed = time.perf_counter() - started
        report.add(
            f"self-play, {level} bots ({game}, one core)", decisions / elapsed, "decisions/s",
            target=TARGETS[level], games=n, bot_choice_only_per_s=bot_decisions / bot_seconds if bot_seconds else 0.0,
        )  # fmt: skip


class WorkerProcess:
    def __init__(self, url: str, log: Path):
        env = {**os.environ, "REDIS_URL": url, "HOLOTAPE_GAMES": "tests.games.counter:COUNTER"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "workers.main"], cwd=ROOT, env=env, stdout=log.open("ab"),
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _bytes(client: redis.Redis, pattern: str) -> tuple[int, int]:
    """The keys matching ``pattern`` and their bytes (``MEMORY USAGE``, every element counted)."""
    keys = list(client.scan_iter(match=pattern, count=1000))
    return len(keys), sum(int(client.memory_usage(k, samples=0) or 0) for k in keys)


def _finished_bytes(client: redis.Redis) -> int:
    """What rq keeps of finished jobs: their hashes, result streams and finished-registry entries.

    (rq's own bookkeeping, a worker's counters and the queue's keys, is not
    per job; failed jobs are kept on purpose, for FAILURE_TTL.)
    """
    kept = 0
    for key in client.scan_iter(match="rq:job:*", count=1000):
        if client.type(key) == b"hash" and client.hget(key, "status") == b"finished":
            kept += int(client.memory_usage(key, samples=0) or 0)
    kept += _bytes(client, "rq:results:*")[1] + _bytes(client, "rq:finished:*")[1]
    return kept


def _jobs_done(client: redis.Redis) -> int:
    return sum(w.successful_job_count + w.failed_job_count for w in Worker.all(connection=client))


def footprint(report: Report, client: redis.Redis, games: Games, game: str) -> None:
    seats = [{"seat": s, "kind": "bot", "name": None, "bot": "random"} for s in range(4)]
    _, rq_before = _bytes(client, "rq:*")
    jobs_before = _jobs_done(client)
    started = time.perf_counter()
    game_id = games.create(game, {}, seats, seed=f"bench-footprint-{game}").game_id
    deadline = time.monotonic() + GAME_TIMEOUT
    while not games.load(game_id).state.over and time.monotonic() < deadline:
        time.sleep(0.5)
    loaded = games.load(game_id)
    played = time.perf_counter() - started
    queue = wiring.rq_follow_ups(client, client).queue
    while (queue.count or queue.started_job_registry.count) and time.monotonic() < deadline + 10:
        time.sleep(0.2)
    events = loaded.version
    stream = int(client.memory_usage(stream_key(game_id), samples=0) or 0)
    feed_key = games.store.partitions.keys[0]
    # Each footprint game runs on a server of its own: the whole feed is its own.
    feed_share = int(client.memory_usage(feed_key, samples=0) or 0)
    keys, game_bytes = _bytes(client, f"*{{{game_id}}}*")
    report.add(
        f"Redis bytes per event (stream + feed), 4-player {game} game", (stream + feed_share) / events, "B/event",
        target="value <= 200", events=events, stream_per_event=stream / events, feed_per_event=feed_share / events,
        feed_entries=client.xlen(feed_key), over=loaded.state.over, played_s=played,
    )  # fmt: skip
    report.add(
        f"Redis bytes the {game} game holds, all its keys + feed share", game_bytes + feed_share, "B", keys=keys,
    )  # fmt: skip
    jobs = _jobs_done(client) - jobs_before
    rq_keys, rq_after = _bytes(client, "rq:*")
    report.add(
        f"rq bytes left per finished job ({game} game)", _finished_bytes(client) / max(jobs, 1), "B/job", target="value <= 0",
        jobs=jobs, rq_keys=rq_keys, rq_bytes_before=rq_before, rq_bytes_after=rq_after,
    )  # fmt: skip
    fold_game(report, games, game_id, game)


def fold_game(report: Report, games: Games, game_id: str, game: str) -> None:
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        version = fold(games.store, None, games.folder, game_id).version
        best = min(best, time.perf_counter() - started)
    report.add(f"fold of that {game} game (read + upcast + evolve)", version / best, "events/s", events=version)


def round_ends(report: Report, games: Games) -> None:
    latencies = []
    for n in range(ROUND_ENDS):
        game_id = games.create("counter", {}, [{"seat": 0, "kind": "human", "name": "p", "bot": None}], seed=f"r{n}").game_id
        while True:
            record = games.load(game_id).state
            if record.module.system_command(record.state) is not None:
                break
            before = games.act(game_id, 0, {"type": "add", "amount": 3})  # follows up: enqueues the tick when due
        enqueued = time.perf_counter()
        arrived = games.store.wait(game_id, before.version, block_ms=10_000, count=1)
        if not arrived:
            raise RuntimeError(f"the worker did not run the round end of {game_id} within 10 s")
        latencies.append(time.perf_counter() - enqueued)
        assert arrived[0].actor == SYSTEM or arrived[0].type == "CommandAccepted"
    report.add(
        "round end through a real rq worker, p95", pct(latencies, 95), "ms", target="value <= 50",
        p50_ms=pct(latencies, 50), round_ends=len(latencies),
    )  # fmt: skip


def main(report: Report) -> None:
    for game in GAMES:
        selfplay(report, game)
    for n, game in enumerate(GAMES):
        with tempfile.TemporaryDirectory() as data, EmbeddedRedis(data, durable=False) as server:
            client = redis.Redis.from_url(server.url)
            worker = WorkerProcess(server.url, Path(data) / "worker.log")
            try:
                games = wiring.build(client).games
                time.sleep(1)
                footprint(report, client, games, game)
                if n == 0:  # the round end is the service's, measured once on the counter game
                    round_ends(report, games)
            finally:
                worker.stop()
                client.close()


if __name__ == "__main__":
    run([main])
