"""The stack `make run` starts (API, worker, embedded Redis), started as `make run` starts it, for the browser
tests (tests/web/conftest.py) and the bench's page weight (tests/bench/page.py)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from service.adapters.embedded_redis import free_port
from tests.conftest import TEST_GAMES, stop_group, wait_until

ROOT = Path(__file__).resolve().parents[2]


class Stack:
    def __init__(self, base: str, redis_url: str | None = None):
        self.base = base
        #: The Redis the stack's API and worker share (the embedded one `holotape run` started), for a test that
        #: builds a game in-process, much faster than over HTTP.
        self.redis_url = redis_url

    def get(self, path: str, token: str | None = None):
        return self.call("GET", path, token=token)

    def call(self, method: str, path: str, body=None, token: str | None = None, headers=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers or {})
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)


def _healthy(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/healthz", timeout=1) as response:
            return bool(json.load(response)["redis"])
    except OSError:
        return False


@contextmanager
def running_stack(data: Path) -> Iterator[Stack]:
    """``holotape run`` (what `make run` runs) on a free port, with its own embedded Redis in ``data``."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    # The tests' tiny game too: a finished game in seconds, for the audit view.
    env["HOLOTAPE_GAMES"] = TEST_GAMES
    # A stream notices its reader has gone at its next keep-alive: soon, so the stack stops quickly.
    env["HOLOTAPE_STREAM_KEEPALIVE_SECONDS"] = "1"
    # Streams end every few seconds, so the pages resume with Last-Event-ID while the tests play.
    env["HOLOTAPE_STREAM_MAX_SECONDS"] = "4"
    log = open(data / "run.log", "wb")
    run = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "run", "--port", str(port), "--data", str(data / "redis")],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: _healthy(base) or run.poll() is not None, timeout=60, message="holotape run")
        assert run.poll() is None, (data / "run.log").read_text()[-3000:]
        said = re.search(r"redis://[0-9.:]+/\d+", (data / "run.log").read_text())
        yield Stack(base, said.group(0) if said else None)
    finally:
        # As Ctrl-C would: the API, the worker and Redis stop in order.
        stop_group(run, signal.SIGINT, timeout=30)
        log.close()


