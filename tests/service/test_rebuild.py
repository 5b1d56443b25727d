"""Projections and snapshots are caches: drop them all, rebuild, get the same."""

from __future__ import annotations

from events.snapshots import fold
from service import wiring
from service.cli import main
from service.rebuild import rebuild
from service.usecases.automation import Automation
from service.wiring import game_rows


def test_rebuild_from_the_events_gives_the_same_index_and_states(redis_client, monkeypatch, redis_url):
    games = wiring.build(redis_client, snapshot_every=5).games
    ids = []
    for n in range(3):
        game_id = games.create("counter", {}, [{"seat": 0, "kind": "human", "name": None, "bot": None}], seed=f"r{n}").game_id
        for _ in range(8 + n):
            Automation(games).run_system(game_id)
            games.act(game_id, 0, {"type": "add", "amount": 2})
        ids.append(game_id)
    index = game_rows(redis_client, games.store, games)
    index.catch_up()
    before_rows = index.rows()
    before_states = {g: games.load(g).state for g in ids}
    assert set(before_rows) == set(ids)
    # Whose turn is in each running row, from the game itself, and comes back the same.
    waiting = [list(r.module.waiting_for(r.state)) for r in (before_states[g] for g in ids)]
    assert [before_rows[g]["waiting_for"] for g in ids] == waiting and [0] in waiting

    report = rebuild(redis_client)
    assert report.games == 3 and report.snapshots == 3
    assert index.rows() == before_rows
    for game_id in ids:
        assert games.load(game_id).state == before_states[game_id]
        assert fold(games.store, None, games.folder, game_id).state == before_states[game_id]

    # And the command line does the same.
    monkeypatch.setenv("REDIS_URL", redis_url)
    assert main(["rebuild"]) == 0
    assert index.rows() == before_rows


def test_the_index_catches_up_incrementally_without_repeating(redis_client):
    games = wiring.build(redis_client).games
    seat = [{"seat": 0, "kind": "human", "name": None, "bot": None}]
    first = games.create("counter", {}, seat, seed="a").game_id
    index = game_rows(redis_client, games.store)
    assert index.catch_up() == 3  # GameCreated, CounterSetUp, GameStarted
    games.act(first, 0, {"type": "add", "amount": 1})
    assert index.catch_up() == 2  # CommandAccepted, Added
    assert index.catch_up() == 0
    assert index.row(first)["version"] == 5
