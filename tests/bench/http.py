"""`make bench`, the HTTP part: actions per second and latency through gunicorn.

Printed, never asserted. Every figure stands next to a bare Flask endpoint
doing one XADD, served by gunicorn as shipped (``service.gunicorn_conf``) for
both, against the same Redis in the same run; the ratio is what to compare
between runs. The Redis round trips of one action are counted in-process on
the client side (one per packet sent: a pipeline or a script is one), with
the app as shipped, its rate limits on.

For 1, 16 and 64 concurrent clients (threads, each with its own keep-alive
connection, on which it also creates its game; the p99 figures say how the
connections were spread over the workers, which their latency follows):

- **own game**: each client plays a game of its own, posting a command with
  the version its last answer gave it (the counter game's ``redraw``, which
  any seat may send at any time);
- **one game**: every client posts to one shared game; a client that loses
  the race gets 412 with the version now, and tries again with it. Actions
  are the successful posts; the latency is that of every post.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psutil
import redis
from flask import Flask

from domain import registry
from service import wiring
from service.adapters.embedded_redis import EmbeddedRedis, free_port
from service.api import create_app
from service.api.settings import api_settings, rate_limits
from tests.bench.report import Report, pct, run, run_threads
from tests.games.counter import COUNTER
from tests.round_trips import CountingConnection, counted_client
from tests.service.gunicorn import connections_held

registry.register(COUNTER)

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = (1, 16, 64)
#: As shipped: the settings ``holotape run`` and the deployment start from.
GUNICORN = ["-c", "python:service.gunicorn_conf"]

# The baseline: as little as a Flask endpoint can do and still write to Redis.
# Its client is the app's extension "redis", so that a process can point it at a Redis of its own
# (tests.bench.instructions counts it in-process).
bare_app = Flask("bare")
bare_app.extensions["redis"] = redis.Redis.from_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))


@bare_app.post("/xadd/<key>")
def bare_xadd(key: str):
    bare_app.extensions["redis"].xadd(f"bare:{{{key}}}", {"e": '{"type": "Moved"}'})
    return {"ok": True}


class Gunicorn:
    def __init__(self, app: str, env: dict[str, str]):
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{self.port}", *GUNICORN, app],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        # Ready when every worker answers: the master listens before its
        # workers have loaded the app, and a request then waits for one.
        deadline = time.monotonic() + 60
        answered = 0
        while time.monotonic() < deadline and answered < 20:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
                connection.request("GET", "/healthz")
                connection.getresponse().read()
                connection.close()
                answered += 1
            except OSError:
                time.sleep(0.1)
        if answered < 20:
            raise RuntimeError(f"gunicorn {app} did not start")
        time.sleep(1)  # the second worker, which the first may have beaten to every request

    def cpu(self) -> float:
        """CPU seconds (user and system) its workers have spent so far: the load on the machine moves it little."""
        total = 0.0
        for worker in psutil.Process(self.process.pid).children():
            try:
                times = worker.cpu_times()
            except psutil.NoSuchProcess:
                continue
            total += times.user + times.system
        return total

    def held(self) -> str:
        """The keep-alive connections each worker holds, as "8/8": the split its clients' latency follows."""
        return "/".join(str(n) for n in sorted(connections_held(self.process.pid, self.port).values()))

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=15)


class Connection:
    def __init__(self, port: int):
        self.http = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def post(self, path: str, body: dict, headers: dict[str, str]) -> tuple[int, dict, dict]:
        self.http.request("POST", path, json.dumps(body), {"Content-Type": "application/json", **headers})
        response = self.http.getresponse()
        raw = response.read()
        return response.status, dict(response.getheaders()), json.loads(raw) if raw else {}


@dataclass
class Run:
    #: Successful requests per second, every request per second, each request's latency (s).
    rate: float
    attempts: float
    latencies: list[float]
    #: The server's workers' CPU seconds per successful request.
    cpu: float
    #: The clients' connections each worker held (``Gunicorn.held``).
    held: str


def _run(clients: int, server: Gunicorn, setup: Callable[[int], Callable[[], bool]]) -> Run:
    """Run each client's step for SECONDS against ``server``."""
    steps = [setup(c) for c in range(clients)]
    # Each client's first request before the clock starts, for the API and the bare endpoint alike: it opens
    # the client's connection and has the worker that serves it read its game, a cost of a game's first
    # action in a process rather than of every action. In the window, those first requests were most of the
    # 1% slowest at 64 clients (0.4-1 s each, all 64 connecting at once).
    for step in steps:
        step()
    held = server.held()
    successes = [0] * clients

    def one_call(client: int, _: int) -> None:
        successes[client] += steps[client]()

    cpu = server.cpu()
    attempts, latencies = run_threads(clients, one_call)
    cpu = server.cpu() - cpu
    rate = attempts * sum(successes) / max(len(latencies), 1)
    return Run(rate, attempts, latencies, cpu / max(sum(successes), 1), held)


def _create(connection: Connection, seats: int) -> tuple[str, list[dict[str, str]], int]:
    status, headers, body = connection.post("/games", {"game": "counter", "seats": seats}, {})
    assert status == 201, body
    tokens = [{"Authorization": f"Bearer {s['token']}"} for s in body["seats"]]
    return body["game_id"], tokens, body["version"]


def own_game(port: int) -> Callable[[int], Callable[[], bool]]:
    def setup(_: int) -> Callable[[], bool]:
        connection = Connection(port)
        game_id, tokens, version = _create(connection, 1)
        at = [version]

        def step() -> bool:
            status, headers, _ = connection.post(
                f"/games/{game_id}/actions", {"type": "redraw"}, {**tokens[0], "If-Match": f'"{at[0]}"'}
            )
            at[0] = int(headers["ETag"].strip('"'))
            return status == 200

        return step

    return setup


def one_game(port: int) -> Callable[[int], Callable[[], bool]]:
    game_id, tokens, version = _create(Connection(port), 4)

    def setup(c: int) -> Callable[[], bool]:
        connection, at, token = Connection(port), [version], tokens[c % len(tokens)]

        def step() -> bool:
            status, headers, _ = connection.post(
                f"/games/{game_id}/actions", {"type": "redraw"}, {**token, "If-Match": f'"{at[0]}"'}
            )
            at[0] = int(headers["ETag"].strip('"'))  # 200 and 412 both name the version now
            return status == 200

        return step

    return setup


def bare(port: int) -> Callable[[int], Callable[[], bool]]:
    def setup(c: int) -> Callable[[], bool]:
        connection, key = Connection(port), uuid.uuid4().hex
        return lambda: connection.post(f"/xadd/{key}", {}, {})[0] == 200

    return setup


def round_trips(url: str, actions: int = 20) -> tuple[float, float]:
    """Redis round trips (and commands sent) per action, the app as shipped, over ``actions`` actions."""
    client = counted_client(url)
    settings = api_settings({})
    app = create_app(wiring.build(client, rate_limits=rate_limits(settings)), settings).test_client()
    created = app.post("/games", json={"game": "counter", "seats": 1}).get_json()
    assert "seats" in created, created
    token = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    version = created["version"]
    path = f"/games/{created['game_id']}/actions"
    warm = app.post(path, json={"type": "redraw"}, headers={**token, "If-Match": f'"{version}"'})  # scripts loaded
    version = int(warm.headers["ETag"].strip('"'))
    packets, commands = CountingConnection.packets, CountingConnection.commands
    for _ in range(actions):
        answer = app.post(path, json={"type": "redraw"}, headers={**token, "If-Match": f'"{version}"'})
        assert answer.status_code == 200, answer.get_json()
        version = int(answer.headers["ETag"].strip('"'))
    client.close()
    return (CountingConnection.packets - packets) / actions, (CountingConnection.commands - commands) / actions


def main(report: Report) -> None:
    with tempfile.TemporaryDirectory() as data, EmbeddedRedis(data, durable=False) as server:
        env = {
            **os.environ,
            "REDIS_URL": server.url,
            "HOLOTAPE_GAMES": "tests.games.counter:COUNTER",
            "HOLOTAPE_RATE_LIMIT": "0",
            "HOLOTAPE_RATE_LIMIT_ADDRESS": "0",
            "HOLOTAPE_RATE_LIMIT_REFUSED": "0",
        }
        trips, commands = round_trips(server.url)
        report.add(
            "Redis round trips of one action", trips, "trips", baseline=1, baseline_label="bare endpoint",
            commands=commands,
        )  # fmt: skip
        api = Gunicorn("service.wsgi:app", env)
        baseline = Gunicorn("tests.bench.http:bare_app", env)
        try:
            for clients in CLIENTS:
                base = _run(clients, baseline, bare(baseline.port))
                own = _run(clients, api, own_game(api.port))
                report.add(
                    f"action over HTTP, own game, {clients} clients", own.rate, "/s", baseline=base.rate,
                    baseline_label="bare Flask + XADD", target="ratio >= 0.5",
                    p50_ms=pct(own.latencies, 50), p99_ms=pct(own.latencies, 99),
                    bare_p99_ms=pct(base.latencies, 99),
                )  # fmt: skip
                report.add(
                    f"action p99, {clients} clients", pct(own.latencies, 99), "ms", baseline=pct(base.latencies, 99),
                    baseline_label="bare p99", target="ratio <= 2", connections_per_worker=own.held,
                    bare_connections_per_worker=base.held,
                )  # fmt: skip
                # What the ratio at saturation follows, and what the machine's other work disturbs least.
                report.add(
                    f"workers' CPU per action, {clients} clients", own.cpu * 1000, "ms", baseline=base.cpu * 1000,
                    baseline_label="bare",
                )  # fmt: skip
                shared = _run(clients, api, one_game(api.port))
                report.add(
                    f"action over HTTP, one game, {clients} clients", shared.rate, "/s", baseline=base.rate,
                    baseline_label="bare Flask + XADD", posts_per_s=shared.attempts,
                    p99_ms=pct(shared.latencies, 99),
                )  # fmt: skip
        finally:
            api.stop()
            baseline.stop()


if __name__ == "__main__":
    run([main])
