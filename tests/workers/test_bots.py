"""Bots play through a real rq worker: their jobs, their view, their commands in the log."""

from __future__ import annotations

import time

from service.usecases.audit import audit
from service.usecases.automation import Automation
from service.usecases.games import Games
from service.usecases.lobby import Lobby
from tests.conftest import wait_until
from tests.workers.conftest import assert_contiguous, batches


def _seats(*kinds: str) -> list[dict]:
    return [
        {"seat": i, "kind": "bot" if k != "human" else "human", "name": None, "bot": k if k != "human" else None}
        for i, k in enumerate(kinds)
    ]


def test_two_bots_play_the_counter_game_to_its_end(games: Games, worker):
    created = games.create("counter", {}, _seats("random", "greedy"), seed="bots")
    wait_until(lambda: games.load(created.game_id).state.over, 30, message="the bots to finish")
    assert_contiguous(games.store, created.game_id)
    played = batches(games.store, created.game_id)
    seats = {0: "bot:random", 1: "bot:greedy"}
    assert all(actor == seats[seat] for actor, _, seat in played if seat != "system")
    assert audit(games.store, created.game_id).verdict == "fair"


def test_a_bot_plays_a_seat_handed_to_it_after_a_player_left(games: Games, worker):
    seats = _seats("human", "human")
    created = games.create("counter", {}, seats, seed="handed")
    game_id = created.game_id
    lobby = Lobby(games)
    waiting = games.load(game_id).state.module.waiting_for(games.load(game_id).state.state)[0]
    lobby.leave(game_id, waiting)
    lobby.hand_to_bot(game_id, waiting, "random")
    wait_until(lambda: games.load(game_id).state.module.waiting_for(games.load(game_id).state.state) != [waiting]
               or games.load(game_id).state.over, 20, message="the bot to take its turn")
    assert any(actor == "bot:random" for actor, _, _ in batches(games.store, game_id))


def test_a_duplicate_or_stale_bots_job_appends_nothing(games: Games):
    created = games.create("counter", {}, _seats("random", "human"), seed="dup")
    game_id = created.game_id
    record = games.load(game_id)
    first = Automation(games).run_bots(game_id, record.version)
    after = games.store.version(game_id)
    assert Automation(games).run_bots(game_id, record.version) == []  # the same job again: stale now
    assert games.store.version(game_id) == after
    if first:  # the bot moved; the human is up: nothing for bots to do at the new version either
        assert Automation(games).run_bots(game_id, after) == []
        assert games.store.version(game_id) == after


def test_four_bots_play_fallout_to_its_end_through_the_worker(games: Games, worker):
    """Four random bots (the fastest level) play a whole game of Fallout with the worker."""
    started = time.monotonic()
    created = games.create("fallout", {}, _seats("random", "random", "random", "random"), seed="four-bots")
    game_id = created.game_id
    wait_until(lambda: games.load(game_id).state.over, 90, interval=0.5, message="four bots to finish the game")
    assert_contiguous(games.store, game_id)
    played = batches(games.store, game_id)
    assert {actor for actor, _, seat in played if seat != "system"} == {"bot:random"}
    assert any(seat == "system" for _, _, seat in played)  # round ends ran too
    assert audit(games.store, game_id).verdict == "fair"
    print(f"{len(played)} commands in {time.monotonic() - started:.1f} s")
