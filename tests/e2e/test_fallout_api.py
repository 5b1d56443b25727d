"""Fallout through the API: hidden information, problems that name the rule,
and a round end that is safe to run twice."""

from __future__ import annotations

import json

import pytest

from service import wiring
from service.api import create_app
from service.usecases.automation import Automation
from service.usecases.services import Services

SEATS = [{"seat": i, "kind": "human", "name": None, "bot": None} for i in range(2)]


@pytest.fixture
def client(services: Services):
    return create_app(services).test_client()


def _create(client, seed="api"):
    body = client.post("/games", json={"game": "fallout", "seats": 2, "seed": seed}).get_json()
    return body["game_id"], {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in body["seats"]}


def test_a_seat_never_sees_the_other_seats_agenda_nor_any_deck_order(client, games):
    """Agenda Cards: the information on the cards in a player's hand is hidden."""
    game_id, auth = _create(client)
    state = games.load(game_id).state.state
    theirs = set(state.survivors[1].agendas)
    assert theirs
    mine = client.get(f"/games/{game_id}/state", headers=auth[0]).get_json()
    log = client.get(f"/games/{game_id}/events", headers=auth[0]).get_json()
    actions = client.get(f"/games/{game_id}/actions", headers=auth[0]).get_json()
    for body in (mine, log, actions):
        text = json.dumps(body)
        assert not any(card in text for card in theirs)
    assert mine["view"]["survivors"][1]["agenda_count"] == len(theirs)
    # The agenda deck's order and the tiles under face-down places are nobody's business.
    spectator = json.dumps(client.get(f"/games/{game_id}/events").get_json())
    for card in state.agenda_deck:
        assert card not in spectator
    hidden_tiles = [p for p in mine["view"]["map"] if not p["faceup"]]
    assert hidden_tiles and all(p["tile"] is None for p in hidden_tiles)


def test_an_illegal_action_is_a_problem_naming_the_rule_and_changes_nothing(client, games):
    """Turns: only the seat whose turn (or decision) it is may act."""
    game_id, auth = _create(client)
    waiting = client.get(f"/games/{game_id}/state").get_json()["waiting_for"][0]
    version = games.store.version(game_id)
    other = 1 - waiting
    at = {"If-Match": f'"{version}"'}
    refused = client.post(f"/games/{game_id}/actions", json={"type": "camp"}, headers={**auth[other], **at})
    assert refused.status_code == 409
    problem = refused.get_json()
    assert refused.content_type == "application/problem+json"
    assert problem["code"] == "not_your_decision"
    assert problem["rule"] == "Complete Setup"
    unknown = client.post(f"/games/{game_id}/actions", json={"type": "teleport"}, headers={**auth[waiting], **at})
    assert unknown.status_code == 422 and unknown.get_json()["code"] == "unknown_command"
    assert games.store.version(game_id) == version


def test_an_unknown_scenario_is_refused_and_creates_nothing(client, redis_client):
    response = client.post("/games", json={"game": "fallout", "seats": 2, "options": {"scenario": "atlantis"}})
    assert response.status_code == 422
    assert response.content_type == "application/problem+json"
    assert response.get_json()["code"] == "unknown_scenario"
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
