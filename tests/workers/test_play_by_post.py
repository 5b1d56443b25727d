"""Play-by-post: deadlines as scheduled jobs, what a lapsed turn does, vacations."""

from __future__ import annotations

import time

from service.api import create_app
from service.usecases.audit import audit
from service.usecases.automation import Automation
from service.usecases.clock import clock_of
from service.usecases.games import Games
from service.usecases.play_by_post import PlayByPost
from service.usecases.services import Services
from tests.conftest import wait_until
from tests.service.conftest import TEST_CONFIG
from tests.workers.conftest import assert_contiguous, batches

HUMANS = [{"seat": i, "kind": "human", "name": f"p{i}", "bot": None} for i in range(2)]


def _timeouts(games: Games, game_id: str) -> list[dict]:
    return [e.data for e in games.store.read(game_id, 1) if e.type == "TurnTimedOut"]


def test_a_human_whose_time_runs_out_has_the_turn_played_by_a_bot(games: Games, worker):
    """Fallout, two seats: the human's deadline lapses and a bot plays that turn; the bot seat plays its own."""
    seats = [HUMANS[0], {"seat": 1, "kind": "bot", "name": None, "bot": "random"}]
    settings = {"turn_seconds": 2, "on_timeout": "bot", "timeout_bot": "random"}
    options = {"survivors": ["tamsin_reed", "wren_okafor"]}
    game_id = games.create("fallout", options, seats, seed="pbp", settings=settings).game_id
    wait_until(lambda: _timeouts(games, game_id), 30, message="the human's deadline to lapse")
    first = _timeouts(games, game_id)[0]
    assert first["seat"] == 0 and first["action"] == "bot"

    def played_after_the_timeout() -> list:
        events = games.store.read(game_id, 1)
        at = next(e.version for e in events if e.type == "TurnTimedOut")
        return [e for e in events if e.version > at and e.type == "CommandAccepted"]

    # The job that appends TurnTimedOut goes on to play the turn: wait for its first move.
    after = wait_until(played_after_the_timeout, 30, message="a move after the timeout")
    assert after and after[0].data["seat"] == 0 and after[0].actor == "bot:random"
    # The bot played seat 0 to the end of that wait only: a later wait of seat 0 has a clock of its own.
    wait_until(lambda: len(_timeouts(games, game_id)) >= 2 or games.load(game_id).state.over, 30,
               message="the human's next turn to time out too")  # fmt: skip
    sinces = [t["since"] for t in _timeouts(games, game_id)]
    assert len(sinces) == len(set(sinces))
    assert_contiguous(games.store, game_id)


def test_a_deadline_after_the_player_acted_and_a_second_firing_do_nothing(games: Games):
    game_id = games.create("counter", {}, HUMANS, seed="late", settings={"turn_seconds": 60}).game_id
    record = games.load(game_id).state
    seat = record.module.waiting_for(record.state)[0]
    since = clock_of(record, seat).since
    later = time.time() + 61
    assert PlayByPost(games, Automation(games)).deadline(game_id, seat, since, now=time.time() + 30) == []  # not yet
    games.act(game_id, seat, {"type": "add", "amount": 1})
    assert PlayByPost(games, Automation(games)).deadline(game_id, seat, since, now=later) == []  # the player acted in time
    assert _timeouts(games, game_id) == []
    # The other seat's turn lapses under "pass": one timeout, however often it fires.
    record = games.load(game_id).state
    other = record.module.waiting_for(record.state)[0]
    since = clock_of(record, other).since
    passed = PlayByPost(games, Automation(games)).deadline(game_id, other, since, now=later)
    again = PlayByPost(games, Automation(games)).deadline(game_id, other, since, now=later)
    assert len(_timeouts(games, game_id)) == 1 and again == []
    assert [a for a in batches(games.store, game_id) if a[0] == "deadline"] == [("deadline", {"type": "add", "amount": 1}, other)]
    assert passed and games.load(game_id).state.module.waiting_for(games.load(game_id).state.state) == [seat]
    # Played to its end, the log with its timeout still audits fair.
    while not games.load(game_id).state.over:
        Automation(games).run_system(game_id)
        record = games.load(game_id).state
        if not record.over and record.module.waiting_for(record.state):
            games.act(game_id, record.module.waiting_for(record.state)[0], {"type": "add", "amount": 3})
    assert audit(games.store, game_id).verdict == "fair"


def test_vacation_days_move_the_deadline(services: Services, games: Games):
    app = create_app(services, TEST_CONFIG)
    client = app.test_client()
    body = {"game": "counter", "seats": 2, "seed": "away", "turn_seconds": 3600, "vacation_days": 3}
    created = client.post("/games", json=body).get_json()
    game_id, tokens = created["game_id"], {s["seat"]: s["token"] for s in created["seats"]}
    record = games.load(game_id).state
    seat = record.module.waiting_for(record.state)[0]
    due = clock_of(record, seat).due
    auth = {"Authorization": f"Bearer {tokens[seat]}"}
    taken = client.post(f"/games/{game_id}/vacation", json={"days": 2}, headers=auth)
    assert taken.status_code == 200 and taken.get_json()["days_left"] == 1
    assert set(taken.get_json()) == {"game_id", "version", "seat", "days", "from", "until", "days_left"}
    moved = clock_of(games.load(game_id).state, seat)
    assert abs(moved.due - due - 2 * 86400) < 5
    assert PlayByPost(games, Automation(games)).deadline(game_id, seat, moved.since, now=due + 1) == []  # the old deadline: nothing
    refused = client.post(f"/games/{game_id}/vacation", json={"days": 2}, headers=auth)
    assert refused.status_code == 409 and refused.get_json()["code"] == "no_vacation_left"
    untimed = client.post("/games", json={"game": "counter", "seats": 1}).get_json()
    nope = client.post(f"/games/{untimed['game_id']}/vacation", json={"days": 1},
                       headers={"Authorization": f"Bearer {untimed['seats'][0]['token']}"})  # fmt: skip
    assert nope.status_code == 409 and nope.get_json()["code"] == "no_turn_timer"
