"""The lobby's game index stays current without a reader paying for a burst (issue 24, "Costs that stay flat").

A listing request applies at most ``READ_CATCH_UP`` feed entries itself;
the workers keep the index current (``workers.main.keep_index_every``); one
game's entry is read exact from its own stream, however far the index is
behind.
"""

from __future__ import annotations

from service.api import create_app
from service.usecases.index import GameIndex
from service.wiring import game_rows
from tests.conftest import wait_until
from tests.service.conftest import TEST_CONFIG

HUMANS = [{"seat": s, "kind": "human", "name": f"p{s}", "bot": None} for s in range(2)]


def _backlog(rows, store) -> int:
    return len(store.feed(after=rows.checkpoint(), count=100_000))


def _burst(games, count: int) -> list[str]:
    return [games.create("counter", {}, HUMANS, seed=f"burst-{n}").game_id for n in range(count)]


def test_a_listing_applies_a_bounded_backlog_and_keep_applies_the_rest(services):
    store = services.games.store
    rows = game_rows(services.games.store.redis, store)
    ids = _burst(services.games, 60)
    backlog = _backlog(rows, store)
    assert backlog >= 60
    index = GameIndex(rows, read_catch_up=25)
    index.page(limit=5)
    assert backlog - _backlog(rows, store) == 25  # the request paid for 25 entries, no more
    assert index.keep() == backlog - 25
    assert _backlog(rows, store) == 0
    listed = [g["game_id"] for g in index.page(limit=100)["games"]]
    assert set(ids) <= set(listed)


def test_one_games_entry_is_exact_while_the_index_is_behind(services):
    store = services.games.store
    rows = game_rows(services.games.store.redis, store)
    newest = _burst(services.games, 3)[-1]
    assert rows.row(newest) is None  # nothing has applied the feed yet
    client = create_app(services, TEST_CONFIG).test_client()
    answer = client.get(f"/games/{newest}")
    assert answer.status_code == 200
    assert answer.json["version"] == store.version(newest)
    assert answer.json["status"] == "running"
    assert rows.row(newest) is None  # reading one entry wrote nothing


def test_a_worker_keeps_the_index_current_with_nobody_listing(services, worker):
    store = services.games.store
    rows = game_rows(services.games.store.redis, store)
    _burst(services.games, 40)
    wait_until(lambda: _backlog(rows, store) == 0, timeout=20, message="the worker to apply the feed to the index")
