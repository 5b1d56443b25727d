"""A real API process for tests that speak HTTP as a third party would.

``server`` starts ``gunicorn service.wsgi:app`` in its own process on the
harness's Redis, next to the harness's real rq worker, and hands out a
``Server`` to send requests to with the standard library only.
"""

from __future__ import annotations

import functools
import http.client
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from tests.conftest import stop_group

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def connections_held(master: int, port: int) -> dict[int, int]:
    """The established connections on ``port`` that each of gunicorn's workers (the children of ``master``)
    holds, by the worker's pid."""
    held = {}
    for worker in psutil.Process(master).children():
        try:
            connections = worker.net_connections("tcp")
        except psutil.NoSuchProcess:
            continue
        held[worker.pid] = sum(1 for c in connections if c.status == "ESTABLISHED" and c.laddr.port == port)
    return held


def until(predicate, timeout: float = 20.0, what: str = ""):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@functools.cache
def _conformance():
    from tests.service.client import document
    from tests.service.conformance import Conformance

    return Conformance(document())


def conforms(method: str, path: str, response: http.client.HTTPResponse, content: bytes) -> None:
    """Check an answer of the real server against the API document (tests/service/conformance.py), as the
    answers in-process are: every test that speaks HTTP to gunicorn checks what it is answered."""
    import requests
    from schemathesis.core.transport import Response

    conformance = _conformance()
    url = f"http://127.0.0.1{path}"
    operation = conformance.schema.find_operation_by_path(method, path.split("?")[0])
    if operation is None:
        return  # no operation of the document: a path or method the tests send on purpose
    headers: dict[str, list[str]] = {}
    for name, value in response.getheaders():
        headers.setdefault(name.lower(), []).append(value)
    answer = Response(response.status, headers, content, requests.Request(method, url).prepare(), 0.0, False)
    conformance.check_operation(operation, answer)


class Server:
    def __init__(self, port: int, process: subprocess.Popen | None = None):
        self.port = port
        #: gunicorn's master, for a test that signals it (the fixture stops it in any case).
        self.process = process

    def request(self, method: str, path: str, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
        try:
            payload = json.dumps(body) if body is not None else None
            sent = {"Content-Type": "application/json"} if payload else {}
            connection.request(method, path, body=payload, headers={**sent, **(headers or {})})
            response = connection.getresponse()
            content = response.read()
            conforms(method, path, response, content)
            raw = content.decode()
            kind = response.getheader("Content-Type", "")
            parsed = json.loads(raw) if kind.split(";")[0] in ("application/json", "application/problem+json") else raw
            return response.status, dict(response.getheaders()), parsed
        finally:
            connection.close()


@pytest.fixture
def server_env() -> dict[str, str]:
    """Settings of the server beside the defaults below; a test module overrides this fixture."""
    return {}


@pytest.fixture
def server(redis_url: str, redis_client, worker, tmp_path: Path, server_env: dict[str, str]) -> Iterator[Server]:
    port = _free_port()
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "HOLOTAPE_GAMES": "tests.games.counter:COUNTER",
        "HOLOTAPE_RATE_LIMIT": "100000/60",
        "HOLOTAPE_RATE_LIMIT_ADDRESS": "100000/60",
        "HOLOTAPE_RATE_LIMIT_REFUSED": "100000/60",
        "HOLOTAPE_STREAM_IDLE_SECONDS": "1.5",
        "HOLOTAPE_STREAM_MAX_SECONDS": "60",
        "HOLOTAPE_STREAM_KEEPALIVE_SECONDS": "0.5",
        **server_env,
    }
    log = open(tmp_path / "gunicorn.log", "wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--config", "python:service.gunicorn_conf", "--bind", f"127.0.0.1:{port}",
         "service.wsgi:app"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    server = Server(port, process)

    def healthy():
        try:
            return server.request("GET", "/healthz")[0] == 200
        except OSError:
            return False

    try:
        until(healthy, 30, "gunicorn to answer")
        yield server
    finally:
        stop_group(process)
        log.close()


