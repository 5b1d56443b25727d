"""Snapshots are caches: loading through one equals folding every event."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.envelope import NewEvent
from events.snapshot_store import SnapshotStore
from events.snapshots import fold
from events.store import EventStore
from service.usecases.record import RecordFolder
from service.wiring import event_store
from tests.round_trips import CountingConnection, counted_client

created = NewEvent(
    "GameCreated",
    {"game": "counter", "options": {}, "seats": [], "seed_commitment": "0" * 64},
)
counter_events = st.one_of(
    st.builds(lambda p, f: NewEvent("CounterSetUp", {"players": p, "first": f % p}),
              st.integers(1, 4), st.integers(0, 3)),
    st.builds(lambda s, a: NewEvent("Added", {"seat": s, "amount": a}), st.integers(0, 3), st.integers(1, 3)),
    st.builds(lambda r: NewEvent("Ticked", {"roll": r}), st.integers(1, 6)),
    st.just(NewEvent("GameEnded", {"total": 50})),
)  # fmt: skip
# Every sequence starts with a set-up so the turn order is defined.
sequences = st.tuples(
    st.builds(lambda p: NewEvent("CounterSetUp", {"players": p, "first": 0}), st.integers(1, 4)),
    st.lists(counter_events, max_size=40),
).map(lambda t: [created, t[0], *t[1]])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(events=sequences)
def test_folding_a_snapshot_at_k_plus_the_rest_equals_folding_everything(store: EventStore, raw, events):
    snapshots, folder = SnapshotStore(raw), RecordFolder()
    game_id = store.new_game_id()
    store.append(game_id, 0, events)
    everything = fold(store, None, folder, game_id)
    assert everything.version == len(events)
    for k in range(1, len(events) + 1):
        at_k = fold(store, None, folder, game_id, at=k)
        snapshots.save(game_id, k, folder.format, folder.dump(at_k.state), at_k.head_hash)
        through = fold(store, snapshots, folder, game_id)
        assert through.from_snapshot == k
        assert through.state == everything.state
        assert through.version == everything.version
        # The chain's tip comes with the snapshot, so an append needs no second read.
        assert through.head_hash == everything.head_hash == store.head(game_id)[1]
        # A snapshot above the wanted version is never used for an earlier one.
        earlier = fold(store, snapshots, folder, game_id, at=k - 1) if k > 1 else None
        if earlier is not None:
            assert earlier.state == fold(store, None, folder, game_id, at=k - 1).state


def test_a_snapshot_of_another_format_is_ignored(store: EventStore, raw):
    g = store.new_game_id()
    snapshots, folder = SnapshotStore(raw), RecordFolder()
    store.append(g, 0, [created, NewEvent("CounterSetUp", {"players": 2, "first": 0})])
    snapshots.save(g, 2, "record/0", {"nonsense": True}, "0" * 64)
    loaded = fold(store, snapshots, folder, g)
    assert loaded.from_snapshot == 0 and loaded.state.state.players == 2


def test_only_the_newest_snapshots_are_kept_and_an_older_version_still_loads(store: EventStore, raw):
    """Issue 13, footprint: snapshots are bounded per game; a load below them folds from the start."""
    g = store.new_game_id()
    snapshots, folder = SnapshotStore(raw, keep=3, sparse=0), RecordFolder()
    store.append(g, 0, [created, NewEvent("CounterSetUp", {"players": 2, "first": 0})])
    store.append(g, 2, [NewEvent("Added", {"seat": v % 2, "amount": 1}) for v in range(10)])
    for k in range(2, 13):
        at_k = fold(store, None, folder, g, at=k)
        snapshots.save(g, k, folder.format, folder.dump(at_k.state), at_k.head_hash)
    assert [int(score) for _, score in raw.zrange(f"game:{{{g}}}:snapshots", 0, -1, withscores=True)] == [10, 11, 12]
    old = fold(store, snapshots, folder, g, at=6)
    assert old.from_snapshot == 0 and old.state == fold(store, None, folder, g, at=6).state
    assert fold(store, snapshots, folder, g).from_snapshot == 12


def test_further_back_one_snapshot_per_stretch_is_kept_so_an_old_version_folds_little(store: EventStore, raw):
    """A page of the log far back words its events from the game at its start: that load folds at most a stretch."""
    g = store.new_game_id()
    snapshots, folder = SnapshotStore(raw, keep=3, sparse=4), RecordFolder()
    store.append(g, 0, [created, NewEvent("CounterSetUp", {"players": 2, "first": 0})])
    store.append(g, 2, [NewEvent("Added", {"seat": v % 2, "amount": 1}) for v in range(10)])
    for k in range(2, 13):
        at_k = fold(store, None, folder, g, at=k)
        snapshots.save(g, k, folder.format, folder.dump(at_k.state), at_k.head_hash)
    kept = [int(score) for _, score in raw.zrange(f"game:{{{g}}}:snapshots", 0, -1, withscores=True)]
    assert kept == [2, 4, 8, 10, 11, 12]  # the oldest of 0-3, 4-7 and 8-11, then the newest three
    old = fold(store, snapshots, folder, g, at=7)
    assert old.from_snapshot == 4 and old.state == fold(store, None, folder, g, at=7).state


def test_when_the_newest_snapshot_is_of_another_format_an_older_one_of_this_format_is_used(store: EventStore, raw):
    """A release that changed the state's shape leaves newer snapshots it cannot read above older ones it can."""
    g = store.new_game_id()
    snapshots, folder = SnapshotStore(raw), RecordFolder()
    store.append(g, 0, [created, NewEvent("CounterSetUp", {"players": 2, "first": 0})])
    store.append(g, 2, [NewEvent("Added", {"seat": v % 2, "amount": 1}) for v in range(6)])
    at_4 = fold(store, None, folder, g, at=4)
    snapshots.save(g, 4, folder.format, folder.dump(at_4.state), at_4.head_hash)
    snapshots.save(g, 6, "record/0", {"nonsense": True}, "0" * 64)
    loaded = fold(store, snapshots, folder, g)
    assert loaded.from_snapshot == 4 and loaded.state == fold(store, None, folder, g).state
    assert loaded.head_hash == store.head(g)[1]


def test_a_fold_through_the_newest_snapshot_reads_it_and_the_events_after_it_in_one_round_trip(redis_url):
    """A process loading a game it has not seen (an action on another API process) pays one read, not two."""
    counted = counted_client(redis_url)
    store, snapshots, folder = event_store(counted), SnapshotStore(counted), RecordFolder()
    g = store.new_game_id()
    store.append(g, 0, [created, NewEvent("CounterSetUp", {"players": 2, "first": 0})])
    store.append(g, 2, [NewEvent("Added", {"seat": v % 2, "amount": 1}) for v in range(6)])
    fold(store, snapshots, folder, g)  # the script loaded
    for snapshot_at in (None, 5):
        if snapshot_at is not None:
            at = fold(store, None, folder, g, at=snapshot_at)
            snapshots.save(g, snapshot_at, folder.format, folder.dump(at.state), at.head_hash)
        before = CountingConnection.packets
        loaded = fold(store, snapshots, folder, g)
        assert CountingConnection.packets - before == 1
        assert loaded.from_snapshot == (snapshot_at or 0) and loaded.state == fold(store, None, folder, g).state
    counted.close()
