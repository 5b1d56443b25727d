"""A Holotape server of any commit, for the golden-log recorders, and the HTTP client that drives it.

``Server`` starts an embedded Valkey of its own (this tree's
``EmbeddedRedis``: old commits may not ship one) and then that tree's
``holotape run`` (``python -m service.cli run``) with ``REDIS_URL`` pointing
at it, ``PYTHONPATH`` and the working directory set to the tree, so the API
and the worker run that commit's code on this venv's packages. Rate limits
are turned off: the recorder is one client making thousands of requests.

``Api`` is a third-party client: plain HTTP with ``requests``, nothing of the
service imported. It waits out 429 and 503 as the API asks (``Retry-After``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import requests

from service.adapters.embedded_redis import EmbeddedRedis, free_port

#: The settings a recording server runs with: no rate limits, the default seed policy.
SERVER_ENV = {
    "HOLOTAPE_RATE_LIMIT": "0",
    "HOLOTAPE_RATE_LIMIT_ADDRESS": "0",
    "HOLOTAPE_RATE_LIMIT_REFUSED": "0",
    "HOLOTAPE_CHOSEN_SEEDS": "any",
}
#: Variables of ours that would point the server elsewhere than at its own Redis.
DROPPED_ENV = ("REDIS_URL", "HOLOTAPE_EVENTS_URL", "HOLOTAPE_QUEUE_URL")


def git_commit(tree: Path) -> str:
    return subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=tree, check=True, capture_output=True, text=True
    ).stdout.strip()


def git_dirty(tree: Path) -> bool:
    """Whether the tree's tracked code differs from its commit (what recorded a log is then not quite the commit)."""
    out = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no", "--", "domain", "events", "service", "workers"],
        cwd=tree, check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    return bool(out.strip())


def _descendants(pid: int) -> list[int]:
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as children:
                for child in children.read().split():
                    found.append(int(child))
                    found += _descendants(int(child))
    return found


class Server:
    """Valkey plus one commit's API and worker, on free loopback ports, under ``workdir``."""

    def __init__(self, tree: Path, workdir: Path, *, redis_dir: Path | None = None):
        self.tree = tree.resolve()
        self.workdir = workdir
        self.redis_dir = redis_dir or workdir / "redis"
        self.redis: EmbeddedRedis | None = None
        self.process: subprocess.Popen | None = None
        self.port = 0
        self.log_path = workdir / "server.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def redis_url(self) -> str:
        assert self.redis is not None
        return self.redis.url

    def start(self, timeout: float = 90.0) -> Server:
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.redis = EmbeddedRedis(self.redis_dir, durable=False).start()
        self.port = free_port()
        env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
        env.update(SERVER_ENV, REDIS_URL=self.redis.url, PYTHONPATH=str(self.tree))
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "service.cli", "run", "--host", "127.0.0.1", "--port", str(self.port),
                 "--data", str(self.workdir / "data")],
                cwd=self.tree, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.stop()
                raise RuntimeError(f"the server exited at start; see {self.log_path}")
            with contextlib.suppress(requests.RequestException):
                if requests.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return self
            time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"the server did not answer within {timeout}s; see {self.log_path}")

    def stop(self) -> None:
        """``holotape run`` stops its API, then its worker, on SIGTERM; whatever is left is killed."""
        if self.process is not None:
            family = _descendants(self.process.pid)
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)
                try:
                    self.process.wait(timeout=40)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
            for pid in family:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            self.process = None
        if self.redis is not None:
            self.redis.stop()
            self.redis = None

    def save_rdb(self) -> Path:
        """Have Valkey write its RDB now; returns the file."""
        assert self.redis is not None
        import redis

        client = redis.Redis.from_url(self.redis.url)
        client.save()
        path = Path(client.config_get("dir")["dir"]) / client.config_get("dbfilename")["dbfilename"]
        client.close()
        return path

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class ApiError(RuntimeError):
    def __init__(self, method: str, path: str, status: int, body: str):
        super().__init__(f"{method} {path}: {status} {body[:500]}")
        self.status = status
        self.body = body


class Api:
    """The REST API as a client sees it."""

    def __init__(self, url: str):
        self.url = url.rstrip("/")
        self.session = requests.Session()
        self.requests = 0

    def call(self, method: str, path: str, *, token: str | None = None, body: Any = None,
             headers: dict[str, str] | None = None, ok: tuple[int, ...] = (200, 201)) -> requests.Response:  # fmt: skip
        sent = dict(headers or {})
        if token:
            sent["Authorization"] = f"Bearer {token}"
        for attempt in range(60):
            self.requests += 1
            try:
                answer = self.session.request(method, self.url + path, json=body, headers=sent, timeout=60)
            except requests.ConnectionError:
                if attempt >= 5:
                    raise
                time.sleep(1)
                continue
            if answer.status_code in (429, 503):
                time.sleep(min(float(answer.headers.get("Retry-After") or 1), 10))
                continue
            if answer.status_code not in ok:
                raise ApiError(method, path, answer.status_code, answer.text)
            return answer
        raise ApiError(method, path, 429, "still refused after waiting")

    def get(self, path: str, token: str | None = None, **kw: Any) -> Any:
        return self.call("GET", path, token=token, **kw).json()

    def post(self, path: str, body: Any, token: str | None = None, **kw: Any) -> Any:
        return self.call("POST", path, token=token, body=body, **kw).json()

    def document(self) -> dict[str, Any]:
        return self.get("/openapi.json")
