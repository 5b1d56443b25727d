"""`make soak`: many games played over HTTP at once, with many streams open, for a bounded time.

A real stack (an embedded Redis, gunicorn with ``service.gunicorn_conf``, an
rq worker) and clients that play as third-party clients do: each game's
client reads whose decision it is, lists that seat's actions and posts one
of them with ``If-Match``; a game that ends is replaced by a new one. Beside
them, event streams stay open on the games, each drained as it comes and
reopened (with ``Last-Event-ID``) when the server ends it. Printed at the
end: requests, errors (any 5xx, and any answer a well-behaved client should
never get), p50/p99 latency, stream reconnects and Redis memory per game.

``python -m tests.soak [--games 200] [--streams 500] [--seconds 600] [--game fallout]``;
``make test`` runs a short one (tests/service/test_soak.py).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis

from service.adapters.embedded_redis import EmbeddedRedis, free_port

ROOT = Path(__file__).resolve().parent.parent
#: Answers a well-behaved client can meet: the worker moved the game first (412), or
#: the bot's or system's turn came meanwhile (409 from the rules). Anything else is an error.
EXPECTED = {200, 201, 409, 412}


@dataclass
class Report:
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    games_played: int = 0
    actions: int = 0
    stream_reconnects: int = 0
    games_started: int = 0
    memory_per_game: float = 0.0  # bytes of Redis memory per game started

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else 0.0


class Client:
    """One keep-alive connection, timing every request into ``report``."""

    def __init__(self, port: int, report: Report, lock: threading.Lock):
        self.port, self.report, self.lock = port, report, lock
        self.http = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method: str, path: str, body: dict | None = None, headers: dict | None = None):
        began = time.monotonic()
        try:
            sent = {"Content-Type": "application/json"} if body is not None else {}
            self.http.request(method, path, json.dumps(body) if body is not None else None, {**sent, **(headers or {})})
            response = self.http.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException) as failed:
            self.http.close()
            with self.lock:
                self.report.error(f"{method} {type(failed).__name__}")
            return None, {}
        with self.lock:
            self.report.latencies.append(time.monotonic() - began)
            if response.status not in EXPECTED:
                self.report.error(f"{method} {path.split('/')[1]}… {response.status}")
        kind = response.getheader("Content-Type", "")
        return response.status, json.loads(raw) if raw and "json" in kind else {}


def play(port: int, game: str, seats: int, until: float, report: Report, lock: threading.Lock, games: list) -> None:
    """Play games of ``game`` over HTTP until ``until``, one after the other."""
    client = Client(port, report, lock)
    rng = random.Random()
    while time.monotonic() < until:
        status, created = client.call("POST", "/games", {"game": game, "seats": seats})
        if status != 201:
            time.sleep(0.5)
            continue
        game_id = created["game_id"]
        tokens = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in created["seats"]}
        with lock:
            games.append(game_id)
        while time.monotonic() < until:
            status, state = client.call("GET", f"/games/{game_id}/state")
            if status != 200 or state.get("over"):
                with lock:
                    report.games_played += status == 200
                break
            if not state["waiting_for"]:
                time.sleep(0.05)  # the worker's turn (a round end)
                continue
            seat = state["waiting_for"][0]
            status, listed = client.call("GET", f"/games/{game_id}/actions", headers=tokens[seat])
            if status != 200 or not listed["actions"]:
                continue
            command = rng.choice(listed["actions"])
            headers = {**tokens[seat], "If-Match": f'"{listed["version"]}"'}
            status, _ = client.call("POST", f"/games/{game_id}/actions", command, headers)
            with lock:
                report.actions += status == 200


def follow(port: int, count: int, until: float, report: Report, lock: threading.Lock, games: list) -> None:
    """Keep ``count`` streams open on the games being played, each drained as it comes."""
    selector = selectors.DefaultSelector()

    def open_one() -> None:
        with lock:
            game_id = random.choice(games) if games else None
        if game_id is None:
            return
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(f"GET /games/{game_id}/stream HTTP/1.1\r\nHost: soak\r\n\r\n".encode())
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)

    while time.monotonic() < until:
        while len(selector.get_map()) < count and time.monotonic() < until:
            before = len(selector.get_map())
            open_one()
            if len(selector.get_map()) == before:
                time.sleep(0.1)
                break
        for key, _ in selector.select(timeout=0.2):
            try:
                chunk = key.fileobj.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:  # the server ended it (idle, or its longest): reopen, as EventSource does
                selector.unregister(key.fileobj)
                key.fileobj.close()
                with lock:
                    report.stream_reconnects += 1
    for key in list(selector.get_map().values()):
        key.fileobj.close()
    selector.close()


def soak(games: int, streams: int, seconds: float, game: str = "fallout", seats: int = 2) -> Report:
    """Run the whole stack and the clients for ``seconds``; the report of what they met."""
    report, lock, playing = Report(), threading.Lock(), []
    with tempfile.TemporaryDirectory() as data, EmbeddedRedis(Path(data), durable=False) as server:
        client = redis.Redis.from_url(server.url)
        port = free_port()
        env = {
            **os.environ, "REDIS_URL": server.url, "HOLOTAPE_GAMES": "tests.games.counter:COUNTER",
            "HOLOTAPE_RATE_LIMIT": "0", "HOLOTAPE_RATE_LIMIT_ADDRESS": "0", "HOLOTAPE_RATE_LIMIT_REFUSED": "0",
            "HOLOTAPE_STREAM_MAX_PER_CALLER": str(streams + 10), "HOLOTAPE_STREAM_IDLE_SECONDS": "30",
        }  # fmt: skip
        parts = [
            subprocess.Popen([sys.executable, "-m", "gunicorn", "--config", "python:service.gunicorn_conf",
                              "--bind", f"127.0.0.1:{port}", "service.wsgi:app"],
                             cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True),
            subprocess.Popen([sys.executable, "-m", "workers.main"], cwd=ROOT, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True),
        ]  # fmt: skip
        try:
            _wait_for(port)
            baseline = int(client.info("memory")["used_memory"])  # the server's own, before any game
            until = time.monotonic() + seconds
            threads = [
                threading.Thread(target=play, args=(port, game, seats, until, report, lock, playing), daemon=True)
                for _ in range(games)
            ]
            threads.append(threading.Thread(target=follow, args=(port, streams, until, report, lock, playing)))
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=seconds + 60)
            used = int(client.info("memory")["used_memory"]) - baseline
            report.memory_per_game = used / max(len(playing), 1)
            report.games_started = len(playing)
        finally:
            for part in parts:
                os.killpg(part.pid, signal.SIGTERM)
            for part in parts:
                part.wait(timeout=20)
            client.close()
    return report


def _wait_for(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the API did not start")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.soak", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--game", default="fallout")
    args = parser.parse_args(argv)
    report = soak(args.games, args.streams, args.seconds, args.game)
    print(f"{args.games} concurrent games of {args.game}, {args.streams} streams, {args.seconds:.0f} s")
    print(f"requests {len(report.latencies)}, actions {report.actions}, games started "
          f"{report.games_started}, finished {report.games_played}")
    print(f"latency p50 {report.percentile(0.5) * 1000:.1f} ms, p99 {report.percentile(0.99) * 1000:.1f} ms")
    print(f"stream reconnects {report.stream_reconnects}")
    print(f"Redis memory per game started {report.memory_per_game / 1024:.0f} KiB")
    print(f"errors {sum(report.errors.values())}: {report.errors or 'none'}")
    return 1 if report.errors else 0


if __name__ == "__main__":
    sys.exit(main())
