"""The test harness: real parts only.

A real Redis-compatible server on a free loopback port (or the one named by
REDIS_URL; the tests flush its database, so point it at a scratch one) and,
for the tests that ask for it, a real rq worker in its own process.

Under pytest-xdist (``make test``, ``make test-fast``) every worker process
has a session of its own, so each starts its own embedded server; with
REDIS_URL set, worker ``gwN`` takes the database N after the one named, so no
two workers flush each other's data. Tests that share something costly to
start (the session's Redis Cluster, the browser module's stack) carry an
``xdist_group`` mark, so ``--dist loadgroup`` runs each group on one worker.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from domain import registry
from events.store import EventStore
from service import wiring
from service.adapters.embedded_cluster import EmbeddedCluster
from service.adapters.embedded_redis import EmbeddedRedis
from service.usecases.games import Games
from service.usecases.services import Services
from tests.compiled.pure import stale_builds
from tests.games.counter import COUNTER
from tests.shared_games import SharedGames, session_folder

ROOT = Path(__file__).resolve().parent.parent
TEST_GAMES = "tests.games.counter:COUNTER"

registry.register(COUNTER)

#: The client generated from the API document, and its fixtures (``generated``, ``typed``…), for any test.
pytest_plugins = ["tests.service.client"]


def xdist_worker() -> int | None:
    """This process's number among pytest-xdist's workers (``gw3``: 3), None when xdist is not running it."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(name[2:]) if name.startswith("gw") else None


def worker_database(url: str, worker: int | None) -> str:
    """``url`` moved ``worker`` databases on from the one it names (db 0 when it names none)."""
    if not worker:
        return url
    found = re.match(r"^(rediss?://[^/?#]*)(?:/(\d*))?(.*)$", url)
    if not found:
        raise ValueError(f"REDIS_URL {url!r}: give a redis:// address to run the tests in parallel")
    base, db, rest = found.groups()
    return f"{base}/{int(db or 0) + worker}{rest}"


def pytest_sessionstart(session: pytest.Session) -> None:
    """A compiled build older than its sources would be tested in their place: refuse to start."""
    stale = stale_builds()
    if stale:
        listed = ", ".join(stale[:5]) + (f" and {len(stale) - 5} more" if len(stale) > 5 else "")
        pytest.exit(f"compiled modules older than their sources: {listed}; run `make compiled` to rebuild them "
                    "or `make pure` to remove them", returncode=4)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under xdist, the slow tests first (those of no ``xdist_group``, which go first anyway): the
    workers take the longest work while there is plenty left to balance it, not at the end, when one
    worker would play a last long test while the other waits. Tests marked ``after_the_rest`` go last
    in any run: they wait for what ``make test`` builds in the background (tests/compiled/tree.py), and
    taken early one held a worker idle for minutes while the build it waited for had only the idle CPU
    (277 s of a clean-clone run). A run in one process keeps its order otherwise."""
    last = [item for item in items if item.get_closest_marker("after_the_rest")]
    rest = [item for item in items if not item.get_closest_marker("after_the_rest")]
    if xdist_worker() is not None:
        rest.sort(key=lambda item: not item.get_closest_marker("slow") or bool(item.get_closest_marker("xdist_group")))
    items[:] = rest + last


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if os.environ.get("REDIS_URL"):
        yield worker_database(os.environ["REDIS_URL"], xdist_worker())
        return
    with EmbeddedRedis(tmp_path_factory.mktemp("redis"), durable=False) as server:
        yield server.url


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedCluster]:
    """A real Redis Cluster of three masters with a replica each, started once when a test asks."""
    with EmbeddedCluster(tmp_path_factory.mktemp("cluster")) as cluster:
        yield cluster


@pytest.fixture(scope="session")
def shared_games(tmp_path_factory: pytest.TempPathFactory) -> SharedGames:
    """Whole games of random play, each played once per session by whichever test or worker asks first."""
    return SharedGames(session_folder(tmp_path_factory))


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url, max_connections=128)
    client.flushdb()
    yield client
    client.close()


@pytest.fixture
def store(redis_client: redis.Redis) -> EventStore:
    return wiring.event_store(redis_client)


@pytest.fixture
def services(redis_client: redis.Redis) -> Services:
    """Every use case on the harness's Redis, follow-ups as real rq jobs."""
    return wiring.build(redis_client)


@pytest.fixture
def games(services: Services) -> Games:
    return services.games


class WorkerProcess:
    """A real ``python -m workers.main`` process that can be killed and restarted."""

    def __init__(self, url: str, log_dir: Path):
        self.url = url
        self.log_dir = log_dir
        self.process: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> WorkerProcess:
        self.starts += 1
        env = {**os.environ, "REDIS_URL": self.url, "HOLOTAPE_GAMES": TEST_GAMES}
        # Append: a second WorkerProcess in the same folder must not erase the
        # first one's log, which is what a failing recovery test needs to show.
        log = open(self.log_dir / f"worker-{self.starts}.log", "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "workers.main"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        return self

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process and self.process.poll() is None:
            stop_group(self.process, sig)
        self.process = None

    def log(self) -> str:
        return "\n".join(p.read_text(errors="replace") for p in sorted(self.log_dir.glob("worker-*.log")))


@pytest.fixture
def worker(redis_url: str, redis_client: redis.Redis, tmp_path: Path) -> Iterator[WorkerProcess]:
    process = WorkerProcess(redis_url, tmp_path).start()
    yield process
    process.stop()


def stop_group(process: subprocess.Popen, sig: int = signal.SIGTERM, timeout: float = 15) -> None:
    """Signal a process started in a session of its own and everything it started, as a terminal would;
    whatever has not stopped after ``timeout`` seconds is killed. A group already gone (a test stopped it) is left."""
    try:
        os.killpg(process.pid, sig)
    except ProcessLookupError:
        process.wait()
        return
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def wait_until(predicate, timeout: float = 20.0, interval: float = 0.05, message: str = ""):
    """Poll ``predicate`` until it returns something truthy; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {message or predicate}")
