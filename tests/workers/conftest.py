"""Fixtures for tests against a real rq worker: helpers to read a game's log."""

from __future__ import annotations

from events.store import EventStore


def batches(store: EventStore, game_id: str) -> list[tuple[str, dict, str]]:
    """Each command batch of the log: (actor, command, seat) from its CommandAccepted."""
    return [
        (e.actor, e.data["command"], e.data["seat"])
        for e in store.read(game_id, 1)
        if e.type == "CommandAccepted"
    ]


def assert_contiguous(store: EventStore, game_id: str) -> None:
    versions = [e.version for e in store.read(game_id, 1)]
    assert versions == list(range(1, len(versions) + 1))
    assert store.verify(game_id).ok
