"""Beyond one machine: events on a real Redis Cluster, API processes and workers side by side.

The event store runs on a cluster of three masters with a replica each
(``HOLOTAPE_EVENTS_URL``); tokens, queues and the rest stay on the harness's
standalone server, as docs/deploy.md lays out. Everything is a real process:
gunicorn, ``python -m workers.main``, the cluster's nodes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis.cluster import RedisCluster

from events.envelope import Envelope
from events.feed import slot_of_game
from events.store import EventStore
from service.adapters.config import events_client
from service.adapters.embedded_cluster import EmbeddedCluster
from service.adapters.embedded_redis import free_port
from tests.conftest import ROOT, TEST_GAMES, WorkerProcess, stop_group, wait_until
from tests.service.gunicorn import Server


class Api:
    """One gunicorn process of the API."""

    def __init__(self, env: dict[str, str], log: Path):
        self.server = Server(free_port())
        self.log = open(log, "wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{self.server.port}",
             "--workers", "1", "--threads", "8", "service.wsgi:app"],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip

        def healthy() -> bool:
            try:
                return self.server.request("GET", "/healthz")[0] == 200
            except OSError:
                return False

        wait_until(healthy, 30, message="gunicorn to answer")

    def stop(self) -> None:
        stop_group(self.process)
        self.log.close()


@pytest.fixture
def on_cluster(redis_url: str, redis_client, monkeypatch, tmp_path: Path):
    """Start API processes and workers whose event store is ``cluster``; all stopped at the end."""
    started: list[Api | WorkerProcess] = []

    def start(cluster: EmbeddedCluster, apis: int, workers: int) -> list[Api]:
        monkeypatch.setenv("HOLOTAPE_EVENTS_URL", cluster.url)
        env = {
            **os.environ, "REDIS_URL": redis_url, "HOLOTAPE_GAMES": TEST_GAMES, "HOLOTAPE_RATE_LIMIT": "0",
        }  # fmt: skip
        made = [Api(env, tmp_path / f"api{n}.log") for n in range(apis)]
        started.extend(made)
        for n in range(workers):
            (tmp_path / f"worker{n}").mkdir()
            started.append(WorkerProcess(redis_url, tmp_path / f"worker{n}").start())
        return made

    yield start
    for part in started:
        part.stop()


def _create(api: Api, seats: list[dict], **body) -> dict:
    status, _, created = api.server.request("POST", "/games", {"game": "counter", "seats": len(seats), **body})
    assert status == 201, created
    return created


def _state(api: Api, game_id: str, headers: dict | None = None) -> dict:
    return api.server.request("GET", f"/games/{game_id}/state", headers=headers)[2]


@pytest.mark.xdist_group("cluster")  # the session's cluster, on the worker that runs the store's tests on it
def test_two_api_processes_and_two_workers_play_a_bot_game_and_a_human_game_to_the_end(
    redis_cluster: EmbeddedCluster, on_cluster
):
    first, second = on_cluster(redis_cluster, apis=2, workers=2)
    # Bots play one game through the workers alone.
    bots = _create(first, [{}, {}], bots=[{"seat": 0, "level": "random"}, {"seat": 1, "level": "random"}])
    # Two people play another, each through a different API process.
    humans = _create(second, [{}, {}])
    tokens = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in humans["seats"]}
    apis = {0: first, 1: second}
    while True:
        now = wait_until(
            lambda: (s := _state(first, humans["game_id"]))["waiting_for"] and s or (s["over"] and s),
            30, message="a seat's turn (the workers run the ticks)",
        )  # fmt: skip
        if now["over"]:
            break
        seat = now["waiting_for"][0]
        status, _, answer = apis[seat].server.request(
            "POST", f"/games/{humans['game_id']}/actions", {"type": "add", "amount": 3},
            {**tokens[seat], "If-Match": f'"{now["version"]}"'},
        )  # fmt: skip
        assert status in (200, 412), answer  # 412: the other process saw a tick land first
    wait_until(lambda: _state(second, bots["game_id"])["over"], 60, message="the bots' game to end")
    for game in (bots, humans):
        audit = first.server.request("GET", f"/games/{game['game_id']}/audit")[2]
        assert audit["verdict"] == "fair" and audit["chain_ok"], audit


@pytest.fixture
def own_cluster(tmp_path: Path) -> Iterator[EmbeddedCluster]:
    """A cluster for this test alone: it kills one of its masters."""
    with EmbeddedCluster(tmp_path / "cluster") as cluster:
        yield cluster


def test_a_master_killed_mid_play_loses_no_acknowledged_event(own_cluster: EmbeddedCluster, on_cluster, capsys):
    """SIGKILL the master holding a game while players post; its replica takes over.

    Every action answered 200 is in the log afterwards; during the failover
    clients get 503 problem+json (never a 500); play resumes once the slot has
    a master again and, the killed node restarted, a replica to wait for.
    """
    (api,) = on_cluster(own_cluster, apis=1, workers=1)
    created = _create(api, [{}, {}])
    game_id = created["game_id"]
    tokens = [{"Authorization": f"Bearer {s['token']}"} for s in created["seats"]]
    acknowledged: dict[int, str] = {}  # version -> event id, from 200 answers
    statuses: list[int] = []
    stop = threading.Event()

    def post_redraws(seat: int) -> None:
        version = _state(api, game_id)["version"]
        while not stop.is_set():
            try:
                status, headers, answer = api.server.request(
                    "POST", f"/games/{game_id}/actions", {"type": "redraw"},
                    {**tokens[seat], "If-Match": f'"{version}"'},
                )  # fmt: skip
            except OSError:
                status, headers, answer = 0, {}, None
            statuses.append(status)
            if status == 200:
                for event in answer["events"]:
                    acknowledged[event["version"]] = event["event_id"]
                version = answer["version"]
            elif status == 412:
                version = answer["current_version"]
            else:
                assert status == 503 and headers.get("Retry-After"), (status, answer)
                time.sleep(0.1)

    players = [threading.Thread(target=post_redraws, args=(seat,)) for seat in (0, 1)]
    for player in players:
        player.start()
    wait_until(lambda: len(acknowledged) >= 40, 30, message="play to get going")
    master = own_cluster.master_of_slot(slot_of_game(game_id))
    master.process.send_signal(signal.SIGKILL)  # type: ignore[union-attr]
    master.process.wait()  # type: ignore[union-attr]
    master.process = None
    killed_at = len(statuses)
    wait_until(lambda: 503 in statuses[killed_at:], 30, message="clients to see the failover")
    master.start()  # back, as a replica of the promoted one
    before = len(acknowledged)
    wait_until(lambda: len(acknowledged) >= before + 40, 60, message="play to resume")
    stop.set()
    for player in players:
        player.join(timeout=30)

    stored = {e.version: e.event_id for e in _read(own_cluster, game_id)}
    lost = {v: e for v, e in acknowledged.items() if stored.get(v) != e}
    with capsys.disabled():  # the figure the issue asks for, in every run's output
        print(f"\nfailover: {len(acknowledged)} acknowledged events, {len(lost)} lost, "
              f"{statuses.count(503)} answers 503 while the shard had no master")  # fmt: skip
    assert lost == {}
    assert 500 not in statuses and 0 not in statuses
    assert api.server.request("GET", f"/games/{game_id}/audit")[2]["chain_ok"]


def _read(cluster: EmbeddedCluster, game_id: str) -> list[Envelope]:
    client: RedisCluster = events_client(cluster.url)  # type: ignore[assignment]
    try:
        return EventStore(client).read(game_id)
    finally:
        client.close()
