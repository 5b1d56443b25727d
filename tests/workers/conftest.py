"""Fixtures for tests against a real rq worker: helpers to read a game's log."""

from __future__ import annotations

import pytest

from events.store import EventStore
from tests.conftest import WorkerProcess


def batches(store: EventStore, game_id: str) -> list[tuple[str, dict, str]]:
    """Each command batch of the log: (actor, command, seat) from its CommandAccepted."""
    return [
        (e.actor, e.data["command"], e.data["seat"])
        for e in store.read(game_id, 1)
        if e.type == "CommandAccepted"
    ]


def assert_contiguous(store: EventStore, game_id: str) -> None:
    """Versions 1, 2, 3 … and each event chained to the one before (the game may still be running)."""
    events = store.read(game_id, 1)
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    assert all(b.prev_hash == a.hash for a, b in zip(events, events[1:], strict=False))


@pytest.fixture
def worker_env(redis_url, redis_client, tmp_path, monkeypatch):
    """Start real workers with extra environment (``start(**env)``); all stopped at the end."""
    started: list[WorkerProcess] = []

    def start(**env: str) -> WorkerProcess:
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        logs = tmp_path / f"worker{len(started) + 1}"
        logs.mkdir()
        process = WorkerProcess(redis_url, logs).start()
        started.append(process)
        return process

    yield start
    for process in started:
        process.stop()
