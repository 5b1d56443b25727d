"""Whole games of Fallout to their end, over HTTP, with a real worker.

A solo game that ends in a victory and a 3-player game that ends with a
faction taking over the wasteland. Each seat plays through the API only, over
the client generated from the API document (tests/service/client.py): every
request built and every answer parsed by its models, and checked against the
document; the worker runs every round end. The seats' policy is one of our bots, fed the
seat's own view and an Rng derived from the seed and the step, so the same
seed plays the same game in-process and over HTTP: the test finds a seed
with the wanted ending in-process (on the same real Redis; pinned per rules
version in tests/e2e/seeds.py), then plays that seed over HTTP.
"""

from __future__ import annotations

import json

import pytest

from bots import make_bot
from domain.rng import Rng
from service import wiring
from service.usecases.automation import Automation
from service.usecases.games import Games
from tests.conftest import wait_until
from tests.e2e.seeds import seed_for
from tests.service.client import Typed

ROUND_CAP = 120


def _seats(n: int) -> list[dict]:
    return [{"seat": i, "kind": "human", "name": f"p{i}", "bot": None} for i in range(n)]


def _choose(level: str, seed: str, step: int, module, view: dict, actions: list[dict], seat: int) -> dict:
    return make_bot(level).choose(module, view, actions, seat, Rng(seed, f"policy/{step}"))


def _ending(events) -> dict | None:
    ended = [e for e in events if e.type == "GameEnded"]
    return ended[-1].data if ended else None


def play_in_process(games: Games, seed: str, players: int, level: str, max_steps: int | None = None) -> dict | None:
    """The game's ending, or None if it has none within ROUND_CAP rounds (or ``max_steps`` commands)."""
    game_id = games.create("fallout", {}, _seats(players), seed=seed).game_id
    step = 0
    while True:
        Automation(games).run_system(game_id)
        record = games.load(game_id).state
        module, state = record.module, record.state
        if module.is_over(state) or state.round > ROUND_CAP:
            break
        if max_steps is not None and step >= max_steps:
            return None
        seat = module.waiting_for(state)[0]
        # The view as a client reads it: the API serves keys sorted, and a greedy
        # bot's tie-breaks follow the order it meets them in.
        view = json.loads(json.dumps(module.view(state, seat), sort_keys=True))
        command = _choose(level, seed, step, module, view, module.legal_actions(state, seat), seat)
        games.act(game_id, seat, command)
        step += 1
    return _ending(games.store.read(game_id))


def find_seed(redis_client, players: int, level: str, wanted, tries: int, max_steps: int | None = None) -> str:
    """The first seed whose game ends as ``wanted`` (within ``max_steps`` commands: the game over HTTP then
    costs a few requests a step, so a bound keeps it short)."""
    games = wiring.build(redis_client).games
    endings = []
    for n in range(tries):
        seed = f"end-{players}-{n}"
        ending = play_in_process(games, seed, players, level, max_steps)
        endings.append(ending and ending["reason"])
        if ending and wanted(ending):
            return seed
    pytest.fail(f"no seed in {tries} ends as wanted; endings seen: {endings}")


def play_over_http(typed: Typed, games: Games, seed: str, players: int, level: str) -> tuple[str, list[dict]]:
    """Plays the game over the generated client: every request built, every answer parsed by its models."""
    created = typed.call("createGame", None, body=typed.model("CreateFalloutGame")(game="fallout", seats=players, seed=seed))
    game_id = created.game_id
    seats = {s.seat: typed.caller(s.token) for s in created.seats}
    module = games.load(game_id).state.module
    step = 0
    while True:
        state = typed.call("getState", None, game_id)
        if state.over:
            break
        assert state.view.round_ <= ROUND_CAP
        if not state.waiting_for:
            version = state.version
            wait_until(
                lambda version=version: (s := typed.call("getState", None, game_id)).waiting_for
                or s.over or s.version > version,
                timeout=30,
                message="the worker to run the round end",
            )
            continue
        seat = state.waiting_for[0]
        listed = typed.call("listActions", seats[seat], game_id)
        # The commands as served, less their words ("text"): a bot chooses among the game's commands.
        actions = [{k: v for k, v in a.items() if k != "text"} for a in typed.raw["actions"]]
        view: dict = {}
        if level != "random":  # a random bot reads no view: the seat's view is fetched for the bots that do
            typed.call("getState", seats[seat], game_id)
            view = typed.raw["view"]  # as served, keys in order: a greedy bot's tie-breaks follow it
        command = _choose(level, seed, step, module, view, actions, seat)
        posted = typed.call(
            "postAction", seats[seat], game_id, body=listed.actions[actions.index(command)], if_match=f'"{listed.version}"'
        )
        assert isinstance(posted, typed.model("FalloutActed")), posted
        step += 1
    return game_id, read_log(typed, seats[0], game_id)


def read_log(typed: Typed, caller, game_id: str) -> list[dict]:
    """The whole log as ``caller`` reads it, page by page, each event parsed (and given back) by its model."""
    events: list[dict] = []
    after = 0
    while after is not None:
        page = typed.call("getEvents", caller, game_id, after=after, limit=1000)
        events += [event.to_dict() for event in page.events]
        after = page.next_after
    return events


@pytest.mark.slow
def test_a_solo_game_over_http_ends_in_a_victory(redis_client, typed: Typed, games: Games, worker):
    """Influence and Solo Play: one survivor reaches 11 influence and wins alone."""
    # A solo victory is the rarer ending since agenda cycles are a card shorter (Agenda Cards): look further.
    seed = seed_for("fallout", "1 greedy seat, a victory",
                    lambda: find_seed(redis_client, 1, "greedy", lambda e: e["result"] == "won", tries=30))  # fmt: skip
    game_id, events = play_over_http(typed, games, seed, 1, "greedy")
    ended = [e for e in events if e["type"] == "GameEnded"]
    assert len(ended) == 1 and ended[0]["data"]["result"] == "won"
    assert ended[0]["data"]["winners"] == [0]
    assert games.store.verify(game_id).ok
    # Every round end was run by the worker, never by a seat.
    assert all(e["actor"] == "system" for e in events if e["type"] == "AgendaRevealed")


@pytest.mark.slow
def test_a_three_player_game_over_http_ends_with_a_faction_taking_over(redis_client, typed: Typed, games: Games, worker):
    """Faction Power Track: a faction reaching the final space ends the game."""
    seed = seed_for("fallout", "3 random seats, a faction's takeover within 800 steps", lambda: find_seed(
        redis_client, 3, "random", lambda e: "faction took over" in e["reason"] and e["result"] == "lost", tries=30,
        max_steps=800,
    ))  # fmt: skip
    game_id, events = play_over_http(typed, games, seed, 3, "random")
    ended = [e for e in events if e["type"] == "GameEnded"]
    assert len(ended) == 1 and "faction took over" in ended[0]["data"]["reason"]
    assert games.store.verify(game_id).ok
    assert all(e["actor"] == "system" for e in events if e["type"] == "AgendaRevealed")


#: The box's scenarios besides the default one (Scenario): each plays one whole game over HTTP.
NEW_SCENARIOS = ("sulphur_flats", "thornwood_hollow", "vesper_heights")


@pytest.mark.slow
@pytest.mark.parametrize("scenario", NEW_SCENARIOS)
def test_a_game_of_each_new_scenario_plays_to_its_end_over_http_and_audits_fair(
    scenario: str, typed: Typed, games: Games, worker
):
    """Scenario, Winning the Game: a solo game of the scenario, its seat handed to a bot at creation, is played
    by the real worker to its end (a victory or a takeover); its log then audits fair (docs/audit.md)."""
    options = typed.model("FalloutOptions")(scenario=scenario)
    bot = typed.model("BotSeat")(seat=0, level="random")
    body = typed.model("CreateFalloutGame")(
        game="fallout", seats=1, seed=f"to-the-end-{scenario}", options=options, bots=[bot]
    )
    game_id = typed.call("createGame", None, body=body).game_id
    state = wait_until(
        lambda: (s := typed.call("getState", None, game_id)).over and s,
        timeout=240, interval=0.5, message=f"the worker to play {scenario} to its end",
    )
    assert state.view.scenario == scenario
    ended = [e for e in games.store.read(game_id) if e.type == "GameEnded"]
    assert len(ended) == 1 and ended[0].data["result"] in ("won", "lost")
    audit = typed.call("getAudit", None, game_id)
    assert audit.verdict == "fair" and audit.chain_ok, audit
    # The whole log, as a spectator reads it once the game is over, every event typed.
    assert len(read_log(typed, None, game_id)) == games.store.version(game_id)
