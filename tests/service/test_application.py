"""The application layer and the rq worker, with the counter game, on real parts."""

from __future__ import annotations

import pytest
from rq import Queue
from rq.job import Job

from domain.game import RuleViolation
from events.log import ConcurrencyError
from events.snapshots import fold
from service import wiring
from service.adapters.followups import RqFollowUps, system_job_id
from service.usecases.automation import Automation
from service.usecases.games import Games
from tests.conftest import wait_until


def _seats(n: int) -> list[dict]:
    return [{"seat": i, "kind": "human", "name": f"p{i}", "bot": None} for i in range(n)]


def _play_until_tick_due(games: Games, game_id: str) -> int:
    while True:
        record = games.load(game_id).state
        if record.module.system_command(record.state):
            return games.store.version(game_id)
        games.act(game_id, record.state.turn, {"type": "add", "amount": 3})


def test_create_appends_game_created_and_the_setup_events_and_hands_out_seat_tokens(games: Games):
    created = games.create("counter", {}, _seats(2), seed="s1")
    events = games.store.read(created.game_id)
    assert [e.type for e in events] == ["GameCreated", "GameStarted", "CounterSetUp"]  # dealt at the start
    assert "seed" not in events[0].data["options"]
    assert games.seat_for_token(created.game_id, created.seat_tokens[1]) == 1
    assert games.seat_for_token(created.game_id, "not-a-token") is None
    assert games.seat_for_token(created.game_id, created.creator_token) is None


def test_act_decides_and_appends_at_the_loaded_version(games: Games):
    created = games.create("counter", {}, _seats(2), seed="s")
    first = games.load(created.game_id).state.state.turn
    acted = games.act(created.game_id, first, {"type": "add", "amount": 2}, expected_version=3)
    assert acted.version == 5  # CommandAccepted, then Added
    assert [e.type for e in games.store.read(created.game_id, 4)] == ["CommandAccepted", "Added"]
    assert games.load(created.game_id).state.state.total == 2


def test_a_rule_violation_appends_nothing(games: Games):
    created = games.create("counter", {}, _seats(2), seed="s")
    other = 1 - games.load(created.game_id).state.state.turn
    with pytest.raises(RuleViolation) as refused:
        games.act(created.game_id, other, {"type": "add", "amount": 1})
    assert refused.value.code == "not_your_turn"
    assert games.store.version(created.game_id) == 3


def test_a_stale_expected_version_is_refused(games: Games):
    created = games.create("counter", {}, _seats(1), seed="s")
    games.act(created.game_id, 0, {"type": "add", "amount": 1})
    with pytest.raises(ConcurrencyError) as stale:
        games.act(created.game_id, 0, {"type": "add", "amount": 1}, expected_version=3)
    assert stale.value.current == 5


def test_a_retried_command_with_an_idempotency_key_acts_once(games: Games):
    created = games.create("counter", {}, _seats(1), seed="s")
    first = games.act(created.game_id, 0, {"type": "add", "amount": 1}, idempotency_key="k1")
    again = games.act(created.game_id, 0, {"type": "add", "amount": 1}, idempotency_key="k1")
    assert again.duplicate and again.version == first.version == 5
    assert games.load(created.game_id).state.state.total == 1


def test_the_same_key_from_two_seats_is_two_commands(games: Games):
    created = games.create("counter", {}, _seats(2), seed="s")
    games.act(created.game_id, 0, {"type": "redraw"}, idempotency_key="k")
    other = games.act(created.game_id, 1, {"type": "redraw"}, idempotency_key="k")
    assert not other.duplicate and other.events[0].data["seat"] == 1


def test_a_game_with_open_seats_waits_in_the_lobby(games: Games):
    created = games.create("counter", {}, [*_seats(1), {"seat": 1, "kind": "open", "name": None, "bot": None}], seed="s")
    assert set(created.seat_tokens) == {0}
    record = games.load(created.game_id).state
    assert record.status == "lobby" and not record.started
    with pytest.raises(RuleViolation) as refused:
        games.act(created.game_id, 0, {"type": "redraw"})
    assert refused.value.code == "not_started"


def test_the_same_seed_gives_the_same_game(games: Games):
    a = games.create("counter", {}, _seats(3), seed="same")
    b = games.create("counter", {}, _seats(3), seed="same")
    assert [e.data for e in games.store.read(a.game_id)[1:]] == [e.data for e in games.store.read(b.game_id)[1:]]


def test_loading_saves_a_snapshot_after_many_events_and_loads_through_it(redis_client):
    games = wiring.build(redis_client, snapshot_every=10).games
    game_id = games.create("counter", {}, _seats(1), seed="s").game_id
    for _ in range(12):
        Automation(games).run_system(game_id)
        games.act(game_id, 0, {"type": "add", "amount": 1})
    loaded = games.load(game_id)
    assert loaded.from_snapshot >= 10
    assert loaded.state == fold(games.store, None, games.folder, game_id).state


def test_the_worker_runs_the_due_system_step_exactly_once(games: Games, worker, redis_client):
    created = games.create("counter", {}, _seats(2), seed="w")
    game_id = created.game_id
    due_at = _play_until_tick_due(games, game_id)
    job_id = system_job_id(game_id, due_at)
    assert Job.exists(job_id, connection=redis_client)
    wait_until(lambda: games.load(game_id).state.state.ticks == 1, message="the tick")
    wait_until(lambda: not Job.exists(job_id, connection=redis_client), message="job done (and deleted)")
    # Enqueueing the same step again, and running it again, change nothing.
    RqFollowUps(redis_client).system_due(game_id, due_at)
    again = Queue("holotape", connection=redis_client).enqueue("workers.jobs.run_system", game_id)
    wait_until(lambda: not Job.exists(job_id, connection=redis_client), message="the step run again")
    wait_until(lambda: again.get_status(refresh=True) == "finished", message="the plain job run")
    record = games.load(game_id).state
    assert record.state.ticks == 1
    assert [e.type for e in games.store.read(game_id)].count("Ticked") == 1
    assert games.store.verify(game_id).ok


def test_a_process_sees_what_another_appended_after_it_cached_a_game(redis_client):
    here, there = wiring.build(redis_client).games, wiring.build(redis_client).games
    game_id = here.create("counter", {}, _seats(1), seed="c").game_id
    assert here.load(game_id).state.state.total == 0  # now cached here
    there.act(game_id, 0, {"type": "add", "amount": 2})
    loaded = here.load(game_id)
    assert loaded.version == 5 and loaded.state.state.total == 2
    assert loaded.state == fold(here.store, None, here.folder, game_id).state
