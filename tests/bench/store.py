"""`make bench`, the store's part: appends against a bare XADD, folds and loads.

- append with 1 and 16 writers (each its own game) against a bare ``XADD``
  loop on the same server, and the p99 of 16 writers against the bare p99;
- a fold of 10,000 events (read + upcast + evolve) against a raw read of the
  same entries (``XRANGE`` and parsing the JSON: what any fold must do);
- a load of a 10,000-event game through its snapshots, as a process that has
  not seen the game loads it (``BENCH_CLUSTER=1`` adds appends on a real
  3-master cluster with replicas; it takes a minute to start).
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time

import redis

from domain import registry
from events.encoding import _loads
from events.envelope import GENESIS, NewEvent
from events.snapshots import Loaded, fold, fold_onto
from events.store import EventStore, stream_key
from service import wiring
from service.adapters.config import events_client, has_replicas
from service.adapters.embedded_cluster import EmbeddedCluster
from service.adapters.embedded_redis import EmbeddedRedis
from tests.bench.report import Report, pct, run, run_threads
from tests.games.counter import COUNTER

registry.register(COUNTER)

FOLD_EVENTS = 10_000
#: The event every append writes: a move, as a game's own event is shaped.
MOVED = NewEvent("Moved", {"survivor": "s1", "to": "t03.ridge", "cost": 1})


def appends(report: Report, client: redis.Redis) -> dict[int, float]:
    store = wiring.event_store(client)
    rates = {}
    raw = MOVED.data
    for writers in (1, 16):
        games = [store.new_game_id() for _ in range(writers)]
        tips = [GENESIS] * writers

        def append(w: int, i: int, games=games, tips=tips) -> None:
            # With the chain tip the caller holds, as the service appends (a loaded game carries it).
            tips[w] = store.append(games[w], i, [MOVED], prev_hash=tips[w]).last_hash

        rate, lat = run_threads(writers, append)
        bare_rate, bare_lat = run_threads(
            writers, lambda w, i, games=games: client.xadd(f"bare:{{{games[w]}}}", {"e": json.dumps(raw)})
        )
        rates[writers] = rate
        report.add(
            f"append, {writers} writer(s)", rate, "/s", baseline=bare_rate, baseline_label="bare XADD",
            target="ratio >= 0.5", p50_ms=pct(lat, 50), p99_ms=pct(lat, 99), bare_p99_ms=pct(bare_lat, 99),
        )  # fmt: skip
        if writers == 16:
            report.add(
                "append p99, 16 writers", pct(lat, 99), "ms", baseline=pct(bare_lat, 99),
                baseline_label="bare XADD p99", target="ratio <= 2",
            )  # fmt: skip
    return rates


def _counter_game(services, events: int) -> str:
    """A counter game of ``events`` events, written as actions write them (a command and its event)."""
    games = services.games
    game_id = games.create("counter", {}, [{"seat": 0, "kind": "human", "name": "p", "bot": None}], seed="bench").game_id
    store = games.store
    version, tip = store.head(game_id)
    pair = [
        NewEvent("CommandAccepted", {"seat": 0, "command": {"type": "add", "amount": 1}}),
        NewEvent("Added", {"seat": 0, "amount": 1}, 1),
    ]
    while version < events:
        batch = pair * min(100, (events - version) // 2) or pair[:1]
        result = store.append(game_id, version, batch, actor="seat:0", prev_hash=tip)
        version, tip = result.last_version, result.last_hash
    return game_id


def folds(report: Report, client: redis.Redis) -> None:
    services = wiring.build(client, recent_games=0)
    game_id = _counter_game(services, FOLD_EVENTS)
    games = services.games
    key = stream_key(game_id)

    def raw_read() -> int:
        # The JSON of each compact entry (events.encoding), with the parser the store uses.
        return len([_loads(fields[b"c"][40:]) for _, fields in client.xrange(key, "-", "+")])

    def full_fold() -> int:
        return fold(games.store, None, games.folder, game_id).version

    raw = _best(raw_read)
    folded = _best(full_fold)
    report.add(
        f"fold (read + upcast + evolve), {FOLD_EVENTS:,} events", FOLD_EVENTS / folded, "events/s",
        baseline=FOLD_EVENTS / raw, baseline_label="XRANGE + JSON parse", target="value >= 100000",
    )  # fmt: skip

    # A snapshot every SNAPSHOT_EVERY events, as play leaves them: the load
    # starts from the newest and folds what follows it.
    loaded = Loaded(games.folder.initial(), 0, 0, GENESIS)
    for at in range(games.snapshot_every, FOLD_EVENTS + 1, games.snapshot_every):
        loaded = fold_onto(games.folder, loaded, games.store.read(game_id, loaded.version + 1, at))
        games.snapshots.save(game_id, at, games.folder.format, games.folder.dump(loaded.state), loaded.head_hash)
    behind = games.snapshot_every // 2
    tail = _counter_game_tail(games, game_id, behind)
    seconds = _median(lambda: games.load(game_id).version)
    report.add(
        f"load a {tail:,}-event game with snapshots", seconds * 1000, "ms", target="value <= 5",
        events_after_snapshot=behind,
    )  # fmt: skip


def _counter_game_tail(games, game_id: str, events: int) -> int:
    version, tip = games.store.head(game_id)
    batch = [NewEvent("Added", {"seat": 0, "amount": 1}, 1)] * events
    return games.store.append(game_id, version, batch, prev_hash=tip).last_version


def _best(work, tries: int = 5) -> float:
    """The fastest of ``tries`` runs of ``work`` (seconds): the least disturbed by the machine's other load."""
    times = []
    for _ in range(tries):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def _median(work, tries: int = 21) -> float:
    times = []
    for _ in range(tries):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def cluster_appends(report: Report, standalone: dict[int, float]) -> None:
    """Appends on a real cluster of three masters with a replica each, as the service runs it.

    Every node keeps an fsynced AOF and each append waits for its replica
    (WAIT 1), where the standalone figures keep nothing on disk: the ratio is
    the price of durability and of a second machine's copy.
    """
    with tempfile.TemporaryDirectory() as data, EmbeddedCluster(data) as cluster:
        client = events_client(cluster.url)
        store = EventStore(client, replicas=1 if has_replicas(client) else 0)
        for writers in (1, 16):
            games = [store.new_game_id() for _ in range(writers)]
            rate, lat = run_threads(writers, lambda w, i, games=games: store.append(games[w], i, [MOVED]))
            report.add(
                f"append on a 3-master cluster, {writers} writer(s)", rate, "/s", baseline=standalone[writers],
                baseline_label="standalone append", p50_ms=pct(lat, 50), p99_ms=pct(lat, 99),
            )  # fmt: skip
        client.close()


def main(report: Report) -> None:
    with tempfile.TemporaryDirectory() as data, EmbeddedRedis(data, durable=False) as server:
        client = redis.Redis.from_url(server.url, max_connections=64)
        standalone = appends(report, client)
        folds(report, client)
        client.close()
    if os.environ.get("BENCH_CLUSTER"):
        cluster_appends(report, standalone)


if __name__ == "__main__":
    run([main])
