"""Fallout through the API, over the generated client: hidden information, problems that name the rule, a
stale If-Match read as a typed problem, and a round end that is safe to run twice."""

from __future__ import annotations

import json

from service import wiring
from service.usecases.automation import Automation
from tests.service.client import Typed

SEATS = [{"seat": i, "kind": "human", "name": None, "bot": None} for i in range(2)]


def _create(typed: Typed, seed="api"):
    body = typed.model("CreateFalloutGame")(game="fallout", seats=2, seed=seed)
    created = typed.call("createGame", None, body=body)
    return created.game_id, {s.seat: typed.caller(s.token) for s in created.seats}


def test_a_seat_never_sees_the_other_seats_agenda_nor_any_deck_order(typed, games):
    """Agenda Cards: the information on the cards in a player's hand is hidden."""
    game_id, seats = _create(typed)
    state = games.load(game_id).state.state
    theirs = set(state.survivors[1].agendas)
    assert theirs
    mine = typed.call("getState", seats[0], game_id)
    log = typed.call("getEvents", seats[0], game_id)
    actions = typed.call("listActions", seats[0], game_id)
    for body in (mine, log, actions):
        text = json.dumps(body.to_dict())
        assert not any(card in text for card in theirs)
    assert mine.view.survivors[1].agenda_count == len(theirs)
    # The agenda deck's order and the tiles under face-down places are nobody's business.
    spectator = json.dumps(typed.call("getEvents", None, game_id).to_dict())
    for card in state.agenda_deck:
        assert card not in spectator
    hidden_tiles = [p for p in mine.view.map_ if not p.faceup]
    assert hidden_tiles and all(p.tile is None for p in hidden_tiles)


def test_an_illegal_action_is_a_problem_naming_the_rule_and_changes_nothing(typed, games):
    """Turns: only the seat whose turn (or decision) it is may act."""
    game_id, seats = _create(typed)
    waiting = typed.call("getState", None, game_id).waiting_for[0]
    version = games.store.version(game_id)
    other = 1 - waiting
    at = f'"{version}"'
    camp = typed.model("FalloutCommandCamp")(type_="camp")
    problem = typed.call("postAction", seats[other], game_id, body=camp, if_match=at)
    assert isinstance(problem, typed.model("Problem"))
    assert (problem.status, problem.code, problem.rule) == (409, "not_your_decision", "Complete Setup")
    # A command of the other game is no command of this one.
    teleport = typed.model("ZonaCommandDash")(type_="dash", bunker="nowhere")
    unknown = typed.call("postAction", seats[waiting], game_id, body=teleport, if_match=at)
    assert (unknown.status, unknown.code) == (422, "unknown_command")
    assert games.store.version(game_id) == version


def test_a_stale_if_match_is_a_typed_problem_with_the_current_version(typed, games):
    """A client that decided on an old version reads the version now from the 412 and decides again."""
    game_id, seats = _create(typed, seed="stale")
    listed = typed.call("listActions", seats[typed.call("getState", None, game_id).waiting_for[0]], game_id)
    seat = listed.seat
    posted = typed.call("postAction", seats[seat], game_id, body=listed.actions[0], if_match=f'"{listed.version}"')
    assert isinstance(posted, typed.model("FalloutActed")) and posted.version > listed.version
    stale = typed.call("postAction", seats[seat], game_id, body=listed.actions[0], if_match=f'"{listed.version}"')
    assert isinstance(stale, typed.model("StaleVersion"))
    assert (stale.code, stale.current_version) == ("stale_version", posted.version)
    missing = typed.operation("postAction").sync_detailed(game_id, client=seats[seat], body=listed.actions[0],
                                                           if_match="")  # fmt: skip
    assert missing.status_code in (400, 428) and missing.parsed.code in ("bad_if_match", "if_match_required")


def test_an_unknown_scenario_is_refused_and_creates_nothing(typed, redis_client):
    options = typed.model("FalloutOptions")(scenario="atlantis")
    body = typed.model("CreateFalloutGame")(game="fallout", seats=2, options=options)
    problem = typed.call("createGame", None, body=body)
    assert (problem.status, problem.code) == (422, "unknown_scenario")
    # No game, no event, no feed entry (a rate-limit counter is not game state).
    assert redis_client.keys("game:*") == [] and redis_client.xlen("holotape:feed") == 0


def test_running_the_round_end_twice_appends_nothing_the_second_time(redis_client):
    """Rounds: the round end is a system step; a duplicate job finds nothing due."""
    games = wiring.build(redis_client).games
    game_id = games.create("fallout", {}, SEATS, seed="twice").game_id
    while True:
        record = games.load(game_id).state
        if record.module.system_command(record.state) is not None:
            break
        seat = record.module.waiting_for(record.state)[0]
        actions = record.module.legal_actions(record.state, seat)
        ends = [a for a in actions if a["type"] == "end_turn"]
        games.act(game_id, seat, (ends or actions)[0])
    first = Automation(games).run_system(game_id)
    assert first
    version = games.store.version(game_id)
    assert Automation(games).run_system(game_id) == []
    assert games.store.version(game_id) == version
