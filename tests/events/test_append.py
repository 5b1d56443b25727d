"""The event store's guarantees, against a real Redis-compatible server."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from redis.crc import key_slot

from events.envelope import GENESIS, NewEvent
from events.log import ConcurrencyError, IdempotencyConflict
from events.store import EventStore, stream_key


def test_versions_are_contiguous_from_one_and_chained(store: EventStore):
    g = store.new_game_id()
    store.append(g, 0, [NewEvent("A", {"n": 1}), NewEvent("B", {"n": 2})])
    store.append(g, 2, [NewEvent("C", {"n": 3})])
    events = store.read(g)
    assert [e.version for e in events] == [1, 2, 3]
    assert events[0].prev_hash == GENESIS
    assert [e.prev_hash for e in events[1:]] == [e.hash for e in events[:-1]]
    assert store.head(g) == (3, events[-1].hash)


def test_an_append_and_a_load_go_on_after_the_server_forgets_its_scripts(store: EventStore, raw):
    """The store runs its scripts by their digest (EVALSHA); a server restarted, failed over or flushed has
    not seen them, and the store then hands it the script and goes on, the write unchanged."""
    g = store.new_game_id()
    store.append(g, 0, [NewEvent("A", {"n": 1})])
    for round_ in range(2):
        raw.script_flush()  # on a cluster, every primary's
        store.append(g, 1 + round_, [NewEvent("B", {"n": 2 + round_})])
        raw.script_flush()
        snapshot, after = store.newest_snapshot_and_after(g, None)
        assert snapshot is None and [e.data["n"] for e in after] == list(range(1, 3 + round_))
    assert store.verify(g).ok and store.version(g) == 3


def test_the_versions_of_many_games_come_in_one_read_wherever_their_keys_live(store: EventStore):
    """On a cluster the games' heads sit in different slots, and so on different nodes: one pipeline still
    answers for all of them, in the order asked, with 0 for a game that has no events."""
    games = [store.new_game_id() for _ in range(12)]
    for n, g in enumerate(games):
        store.append(g, 0, [NewEvent("E", {"i": i}) for i in range(n % 5 + 1)])
    assert len({key_slot(stream_key(g).encode()) for g in games}) > 1
    unknown = store.new_game_id()
    assert store.versions([*games, unknown]) == [n % 5 + 1 for n in range(12)] + [0]
    assert store.versions([]) == []


def test_reads_a_version_range(store: EventStore):
    g = store.new_game_id()
    store.append(g, 0, [NewEvent("E", {"i": i}) for i in range(10)])
    assert [e.data["i"] for e in store.read(g, 4, 6)] == [3, 4, 5]


def test_a_stale_append_is_refused_with_the_current_version_and_writes_nothing(store: EventStore):
    g = store.new_game_id()
    store.append(g, 0, [NewEvent("A")])
    store.append(g, 1, [NewEvent("B")])
    with pytest.raises(ConcurrencyError) as refused:
        store.append(g, 1, [NewEvent("C"), NewEvent("D")])
    assert refused.value.current == 2
    assert [e.type for e in store.read(g)] == ["A", "B"]
    assert len(store.feed()) == 2


def test_thirty_two_writers_race_for_a_thousand_rounds_and_exactly_one_wins_each(
    store: EventStore, raw
):
    """32 threads append at the same expected version, 1,000 times over (300 on the
    cluster, where each round also waits for a replica: the script deciding is the same)."""
    race = store.new_game_id()
    writers, rounds = 32, 300 if store.partitions.cluster else 1000
    barrier = threading.Barrier(writers)
    wins = [[0] * writers for _ in range(rounds)]
    losses = [0] * rounds

    def writer(index: int) -> None:
        for round_ in range(rounds):
            barrier.wait()
            try:
                store.append(race, round_, [NewEvent("Won", {"writer": index, "round": round_})])
                wins[round_][index] = 1
            except ConcurrencyError as lost:
                assert lost.current == round_ + 1
                losses[round_] += 1

    with ThreadPoolExecutor(writers) as pool:
        for future in [pool.submit(writer, i) for i in range(writers)]:
            future.result()

    assert all(sum(round_) == 1 for round_ in wins)
    assert all(lost == writers - 1 for lost in losses)
    events = store.read(race)
    assert [e.version for e in events] == list(range(1, rounds + 1))
    assert [e.data["round"] for e in events] == list(range(rounds))
    assert raw.xlen(stream_key(race)) == rounds
    assert store.verify(race).ok


def test_a_retried_append_with_the_same_idempotency_key_appends_once(store: EventStore):
    """A client retrying after a dropped connection gets the first result again."""
    g = store.new_game_id()
    events = [NewEvent("Moved", {"to": "a"}), NewEvent("Moved", {"to": "b"})]
    first = store.append(g, 0, events, idempotency_key="retry-1")
    again = store.append(g, 0, events, idempotency_key="retry-1")
    assert not first.duplicate and again.duplicate
    assert (again.first_version, again.last_version, again.event_ids, again.last_hash) == (
        first.first_version,
        first.last_version,
        first.event_ids,
        first.last_hash,
    )
    assert store.version(g) == 2
    assert len(store.read(g)) == 2
    assert store.recall(g, "retry-1").event_ids == first.event_ids


def test_the_same_idempotency_key_with_other_events_is_refused(store: EventStore):
    g = store.new_game_id()
    store.append(g, 0, [NewEvent("A", {"x": 1})], idempotency_key="k")
    with pytest.raises(IdempotencyConflict):
        store.append(g, 1, [NewEvent("A", {"x": 2})], idempotency_key="k")
    assert store.version(g) == 1


def test_idempotency_records_expire_no_sooner_than_a_day(store: EventStore, raw):
    g = store.new_game_id()
    store.append(g, 0, [NewEvent("A")], idempotency_key="k")
    assert raw.ttl(f"game:{{{g}}}:idem:k") >= 24 * 3600


def test_concurrent_retries_with_one_key_append_once(store: EventStore):
    """Many copies of one idempotent request arriving together: one append."""
    g = store.new_game_id()
    with ThreadPoolExecutor(16) as pool:
        results = list(
            pool.map(lambda _: store.append(g, 0, [NewEvent("A")], idempotency_key="same"), range(16))
        )
    assert len({r.event_ids for r in results}) == 1
    assert sum(not r.duplicate for r in results) == 1
    assert store.version(g) == 1


def test_every_key_of_a_game_and_its_feed_partition_share_one_hash_slot(store: EventStore, raw):
    """One Lua script writes them all, which a cluster allows only within one slot."""
    tagged = store.new_game_id()
    store.append(tagged, 0, [NewEvent("A")], idempotency_key="k")
    keys = [stream_key(tagged), f"game:{{{tagged}}}:head", f"game:{{{tagged}}}:idem:k"]
    assert all(raw.exists(key) for key in keys)
    feed = store.partitions.keys[store.partitions.partition_of(tagged)]
    assert raw.xlen(feed) == 1
    # A standalone server has one feed for all games (and no slots to mind).
    placed = [*keys, feed] if store.partitions.cluster else keys
    assert len({key_slot(key.encode()) for key in placed}) == 1
