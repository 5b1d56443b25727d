"""`make bench`, the HTTP part: actions per second and latency through gunicorn.

Printed, never asserted. Every figure stands next to a bare Flask endpoint
doing one XADD, served by the same gunicorn settings against the same Redis in
the same run; the ratio is what to compare between runs.

For 1, 16 and 64 concurrent clients (threads, each with its own keep-alive
connection):

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
import platform
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import date
from pathlib import Path

import redis
from flask import Flask

from service.adapters.embedded_redis import EmbeddedRedis, free_port
from tests.bench.store import SECONDS, _pct
from tests.bench.store import _run as run_threads

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = (1, 16, 64)
GUNICORN = ["--workers", "2", "--threads", "32", "--worker-class", "gthread", "--backlog", "256"]

# The baseline: as little as a Flask endpoint can do and still write to Redis.
bare_app = Flask("bare")
_bare_redis = redis.Redis.from_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))


@bare_app.post("/xadd/<key>")
def bare_xadd(key: str):
    _bare_redis.xadd(f"bare:{{{key}}}", {"e": '{"type": "Moved"}'})
    return {"ok": True}


class Gunicorn:
    def __init__(self, app: str, env: dict[str, str]):
        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{self.port}", *GUNICORN, app],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                http.client.HTTPConnection("127.0.0.1", self.port, timeout=1).connect()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"gunicorn {app} did not start")

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


def _run(clients: int, setup: Callable[[int], Callable[[], bool]]) -> tuple[float, float, list[float]]:
    """Run each client's step for SECONDS: (successes/s, attempts/s, latencies)."""
    steps = [setup(c) for c in range(clients)]
    successes = [0] * clients

    def one_call(client: int, _: int) -> None:
        successes[client] += steps[client]()

    attempts, latencies = run_threads(clients, one_call)
    return attempts * sum(successes) / max(len(latencies), 1), attempts, latencies


def _create(port: int, seats: int) -> tuple[str, list[dict[str, str]], int]:
    status, headers, body = Connection(port).post("/games", {"game": "counter", "seats": seats}, {})
    assert status == 201, body
    tokens = [{"Authorization": f"Bearer {s['token']}"} for s in body["seats"]]
    return body["game_id"], tokens, body["version"]


def own_game(port: int) -> Callable[[int], Callable[[], bool]]:
    def setup(_: int) -> Callable[[], bool]:
        game_id, tokens, version = _create(port, 1)
        connection, at = Connection(port), [version]

        def step() -> bool:
            status, headers, _ = connection.post(
                f"/games/{game_id}/actions", {"type": "redraw"}, {**tokens[0], "If-Match": f'"{at[0]}"'}
            )
            at[0] = int(headers["ETag"].strip('"'))
            return status == 200

        return step

    return setup


def one_game(port: int) -> Callable[[int], Callable[[], bool]]:
    game_id, tokens, version = _create(port, 4)

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


def _line(label: str, rate: float, attempts: float, lat: list[float], base: float) -> str:
    tries = f" ({attempts:7.0f} posts/s)" if abs(attempts - rate) > 0.5 else " " * 19
    return (f"{label:<22} {rate:8.0f} actions/s{tries}  p50 {_pct(lat, 50):7.2f} ms  "
            f"p99 {_pct(lat, 99):7.2f} ms | ratio to bare {rate / base:5.2f}")  # fmt: skip


def main() -> None:
    print(f"holotape HTTP bench, {date.today()} on {platform.node()} ({os.cpu_count()} cores, "
          f"Python {platform.python_version()}), gunicorn {' '.join(GUNICORN)}, {SECONDS:.0f} s per figure")  # fmt: skip
    with tempfile.TemporaryDirectory() as data, EmbeddedRedis(data, durable=False) as server:
        env = {
            **os.environ,
            "REDIS_URL": server.url,
            "HOLOTAPE_GAMES": "tests.games.counter:COUNTER",
            "HOLOTAPE_RATE_LIMIT": "0",
            "HOLOTAPE_RATE_LIMIT_ADDRESS": "0",
            "HOLOTAPE_RATE_LIMIT_REFUSED": "0",
        }
        api = Gunicorn("service.wsgi:app", env)
        baseline = Gunicorn("tests.bench.http:bare_app", env)
        try:
            for clients in CLIENTS:
                base_rate, _, base_lat = _run(clients, bare(baseline.port))
                print(f"{'bare Flask + XADD':<22} {base_rate:8.0f} requests/s{' ' * 18}p50 "
                      f"{_pct(base_lat, 50):7.2f} ms  p99 {_pct(base_lat, 99):7.2f} ms   [{clients} clients]")  # fmt: skip
                for label, scenario in (("own game", own_game), ("one game", one_game)):
                    rate, attempts, lat = _run(clients, scenario(api.port))
                    print(_line(f"{label}, {clients} clients", rate, attempts, lat, base_rate))
        finally:
            api.stop()
            baseline.stop()


if __name__ == "__main__":
    main()
