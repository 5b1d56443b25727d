"""`make bench`: figures for the event store, printed, never asserted.

Timings on a shared machine are noisy, so every figure is printed next to a
baseline measured in the same run (a bare XADD loop on the same server); the
ratio is what to compare between runs.
"""

from __future__ import annotations

import os
import platform
import statistics
import tempfile
import threading
import time
import uuid
from datetime import date

import redis

from domain import registry
from events.envelope import NewEvent
from events.snapshots import fold
from events.store import EventStore
from service.adapters.config import events_client, has_replicas
from service.adapters.embedded_cluster import EmbeddedCluster
from service.adapters.embedded_redis import EmbeddedRedis
from service.usecases.record import RecordFolder
from tests.games.counter import COUNTER

SECONDS = float(os.environ.get("BENCH_SECONDS", "3"))


def _run(writers: int, one_call) -> tuple[float, list[float]]:
    """Run ``one_call(writer, i)`` in ``writers`` threads for SECONDS; rate and latencies."""
    latencies: list[list[float]] = [[] for _ in range(writers)]
    stop = time.perf_counter() + SECONDS
    barrier = threading.Barrier(writers)

    def loop(writer: int) -> None:
        barrier.wait()
        i = 0
        while time.perf_counter() < stop:
            started = time.perf_counter()
            one_call(writer, i)
            latencies[writer].append(time.perf_counter() - started)
            i += 1

    threads = [threading.Thread(target=loop, args=(w,)) for w in range(writers)]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - began
    flat = [x for per in latencies for x in per]
    return len(flat) / elapsed, flat


def _pct(values: list[float], p: float) -> float:
    return statistics.quantiles(values, n=100)[int(p) - 1] * 1000 if len(values) > 100 else max(values) * 1000


def _cluster_appends(event: NewEvent, standalone: dict[int, float]) -> None:
    """Appends on a real cluster of three masters with a replica each, as the service runs it.

    Every node keeps an fsynced AOF and each append waits for its replica
    (WAIT 1), where the standalone figures above keep nothing on disk: the
    ratio is the price of durability and of a second machine's copy, on one
    shared 2-core box where all six nodes and the writers compete.
    """
    with tempfile.TemporaryDirectory() as data, EmbeddedCluster(data) as cluster:
        client = events_client(cluster.url)
        store = EventStore(client, replicas=1 if has_replicas(client) else 0)
        for writers in (1, 16):
            games = [store.new_game_id() for _ in range(writers)]
            rate, lat = _run(writers, lambda w, i, games=games: store.append(games[w], i, [event]))
            print(f"append on a 3-master cluster (AOF, WAIT {store.replicas}), {writers:>2} writer(s): "
                  f"{rate:9.0f}/s  p50 {_pct(lat, 50):6.2f} ms  p99 {_pct(lat, 99):6.2f} ms | "
                  f"ratio to standalone append {rate / standalone[writers]:5.2f}")  # fmt: skip
        client.close()


def main() -> None:
    print(f"holotape bench, {date.today()} on {platform.node()} ({os.cpu_count()} cores, "
          f"Python {platform.python_version()}), {SECONDS:.0f} s per figure")  # fmt: skip
    with tempfile.TemporaryDirectory() as data, EmbeddedRedis(data, durable=False) as server:
        client = redis.Redis.from_url(server.url, max_connections=64)
        store = EventStore(client)
        event = NewEvent("Moved", {"survivor": "s1", "to": "t03.ridge", "cost": 1})
        payload = event.data

        standalone: dict[int, float] = {}
        for writers in (1, 16):
            games = [uuid.uuid4().hex for _ in range(writers)]
            rate, lat = _run(writers, lambda w, i, games=games: store.append(games[w], i, [event]))
            standalone[writers] = rate
            bare_rate, bare_lat = _run(
                writers, lambda w, i, games=games: client.xadd(f"bare:{{{games[w]}}}", {"e": str(payload)})
            )
            print(f"append, {writers:>2} writer(s): {rate:9.0f}/s  p50 {_pct(lat, 50):6.2f} ms  "
                  f"p99 {_pct(lat, 99):6.2f} ms | bare XADD {bare_rate:9.0f}/s  "
                  f"p50 {_pct(bare_lat, 50):6.2f} ms  p99 {_pct(bare_lat, 99):6.2f} ms | "
                  f"ratio {rate / bare_rate:5.2f}")  # fmt: skip

        _cluster_appends(event, standalone)

        game_id = uuid.uuid4().hex
        store.append(game_id, 0, [NewEvent("GameCreated", {
            "game": "counter", "options": {}, "seats": [], "seed_commitment": "0" * 64})])  # fmt: skip
        registry.register(COUNTER)
        store.append(game_id, 1, [NewEvent("CounterSetUp", {"players": 2, "first": 0})])
        batch = [NewEvent("Added", {"seat": 0, "amount": 1}) for _ in range(500)]
        for n in range(20):
            store.append(game_id, 2 + n * 500, batch)
        folder = RecordFolder()
        started = time.perf_counter()
        loaded = fold(store, None, folder, game_id)
        elapsed = time.perf_counter() - started
        print(f"fold (read + upcast + evolve), {loaded.version} events: {loaded.version / elapsed:9.0f} events/s")


if __name__ == "__main__":
    main()
