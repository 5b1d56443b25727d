"""The global feed: every game's events once, each partition in commit order, tailed from a checkpoint."""

from __future__ import annotations

import threading

from events.envelope import NewEvent
from events.log import ConcurrencyError
from events.store import EventStore


def test_a_reader_tailing_from_checkpoints_sees_every_event_once_in_commit_order(store: EventStore):
    games, per_game = 8, 60
    done = threading.Event()
    seen: list[tuple[str, int]] = []

    def write(game: str) -> None:
        version = 0
        while version < per_game:
            try:
                store.append(game, version, [NewEvent("E", {"v": version + 1})])
                version += 1
            except ConcurrencyError as moved:
                version = moved.current

    def tail() -> None:
        checkpoint = "0-0"
        while True:
            entries = store.feed(after=checkpoint, count=7, block_ms=50)
            for entry in entries:
                seen.append((entry.envelope.game_id, entry.envelope.version))
                checkpoint = entry.position
            if not entries and done.is_set():
                return

    reader = threading.Thread(target=tail)
    reader.start()
    ids = [store.new_game_id() for _ in range(games)]
    writers = [threading.Thread(target=write, args=(game_id,)) for game_id in ids]
    for w in writers:
        w.start()
    for w in writers:
        w.join()
    done.set()
    reader.join(timeout=30)

    assert len(seen) == len(set(seen)) == games * per_game
    for game_id in ids:
        assert [v for g, v in seen if g == game_id] == list(range(1, per_game + 1))
    commit_order = [(e.envelope.game_id, e.envelope.version) for e in store.feed(count=10_000)]
    # Each partition's events in the order they were committed; with one
    # partition (a standalone server) that is the whole feed's order.
    partition = store.partitions.partition_of
    for p in range(store.partitions.count):
        assert [s for s in seen if partition(s[0]) == p] == [c for c in commit_order if partition(c[0]) == p]
    if store.partitions.count == 1:
        assert seen == commit_order


def test_a_checkpoint_resumes_exactly_after_the_last_event_read(store: EventStore):
    a = store.new_game_id()
    b = store.new_game_id()
    store.append(a, 0, [NewEvent("E", {"i": i}) for i in range(5)])
    first = store.feed(count=3)
    store.append(b, 0, [NewEvent("E", {"i": 9})])
    rest = store.feed(after=first[-1].position)
    assert [(e.envelope.game_id, e.envelope.version) for e in first + rest] == [
        (a, 1), (a, 2), (a, 3), (a, 4), (a, 5), (b, 1),
    ]  # fmt: skip


def test_one_feed_entry_holds_an_appends_events_and_every_position_resumes_after_its_event(store: EventStore, raw):
    """Issue 13, footprint: the feed keeps one reference per append, read back as one entry per event."""
    g = store.new_game_id()
    store.append(g, 0, [NewEvent("E", {"i": i}) for i in range(4)])
    store.append(g, 4, [NewEvent("E", {"i": 4})])
    assert raw.xlen(store.partitions.keys[store.partitions.partition_of(g)]) == 2
    entries = store.feed()
    assert [e.envelope.version for e in entries] == [1, 2, 3, 4, 5]
    assert [e.envelope.data["i"] for e in entries] == [0, 1, 2, 3, 4]
    for n, entry in enumerate(entries):
        assert [e.envelope.version for e in store.feed(after=entry.position)] == list(range(n + 2, 6))
        assert [e.envelope.version for e in store.feed(after=entry.position, count=1)] == list(range(n + 2, 6))[:1]
