"""The game endpoints, driven over HTTP against a real server and a real worker."""

from __future__ import annotations

import pytest

from service.api import create_app
from service.application import Games
from tests.conftest import wait_until


@pytest.fixture
def client(games: Games):
    return create_app(games=games).test_client()


def _create(client, seats=2, seed="http"):
    response = client.post("/games", json={"game": "counter", "seats": seats, "seed": seed})
    assert response.status_code == 201
    body = response.get_json()
    return body["game_id"], {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in body["seats"]}


def test_create_hands_out_one_distinct_token_per_seat(client):
    response = client.post("/games", json={"game": "counter", "seats": 3})
    body = response.get_json()
    tokens = [s["token"] for s in body["seats"]]
    assert [s["seat"] for s in body["seats"]] == [0, 1, 2]
    assert len(set(tokens + [body["creator_token"]])) == 4
    assert all(len(t) >= 22 for t in tokens)  # at least 128 bits, url-safe base64


def test_bad_create_requests_are_problems_that_change_nothing(client, redis_client):
    before = redis_client.dbsize()
    for body in ({"game": "chess", "seats": 2}, {"seats": 0}, {"seats": "two"}, {}):
        response = client.post("/games", json=body)
        assert response.status_code == 422
        assert response.content_type == "application/problem+json"
        assert response.get_json()["code"] == "invalid_request"
    assert redis_client.dbsize() == before


def test_a_seat_plays_the_listed_actions_and_the_state_follows(client, games):
    game_id, seats = _create(client)
    state = client.get(f"/games/{game_id}/state")
    assert state.headers["ETag"] == '"2"'
    turn = state.get_json()["waiting_for"][0]
    actions = client.get(f"/games/{game_id}/actions", headers=seats[turn]).get_json()["actions"]
    assert {"type": "add", "amount": 2} in actions
    acted = client.post(f"/games/{game_id}/actions", json=actions[1], headers=seats[turn])
    assert acted.status_code == 200
    assert acted.get_json()["events"][0]["type"] == "Added"
    after = client.get(f"/games/{game_id}/state", headers=seats[turn]).get_json()
    assert after["version"] == 3 and after["view"]["total"] == 2
    assert after["view"] == games.load(game_id).state.module.view(games.load(game_id).state.state, turn)


def test_acting_needs_the_token_of_a_seat_of_this_game(client):
    game_id, seats = _create(client)
    other_game, other_seats = _create(client, seed="other")
    no_token = client.post(f"/games/{game_id}/actions", json={"type": "add", "amount": 1})
    assert no_token.status_code == 401 and no_token.get_json()["code"] == "token_required"
    wrong_game = client.post(f"/games/{game_id}/actions", json={"type": "add", "amount": 1}, headers=other_seats[0])
    assert wrong_game.status_code == 403 and wrong_game.get_json()["code"] == "token_not_for_this_game"
    assert client.get(f"/games/{game_id}/state").get_json()["version"] == 2


def test_an_illegal_command_is_a_problem_naming_its_code_and_changes_nothing(client):
    game_id, seats = _create(client)
    turn = client.get(f"/games/{game_id}/state").get_json()["waiting_for"][0]
    wrong = client.post(f"/games/{game_id}/actions", json={"type": "add", "amount": 1}, headers=seats[1 - turn])
    assert wrong.status_code == 409 and wrong.get_json()["code"] == "not_your_turn"
    unknown = client.post(f"/games/{game_id}/actions", json={"type": "fly"}, headers=seats[turn])
    assert unknown.status_code == 422 and unknown.get_json()["code"] == "unknown_command"
    assert client.get(f"/games/{game_id}/state").get_json()["version"] == 2


def test_if_match_refuses_a_stale_version_with_412(client):
    game_id, seats = _create(client, seats=1)
    ok = client.post(f"/games/{game_id}/actions", json={"type": "add", "amount": 1},
                     headers={**seats[0], "If-Match": '"2"'})  # fmt: skip
    assert ok.status_code == 200
    stale = client.post(f"/games/{game_id}/actions", json={"type": "add", "amount": 1},
                        headers={**seats[0], "If-Match": '"2"'})  # fmt: skip
    assert stale.status_code == 412
    assert stale.get_json()["current_version"] == 3


def test_an_unknown_game_is_a_404_problem(client):
    response = client.get("/games/nope/state")
    assert response.status_code == 404 and response.get_json()["code"] == "game_not_found"


def test_the_event_log_pages(client):
    game_id, seats = _create(client, seats=1)
    for _ in range(3):
        client.post(f"/games/{game_id}/actions", json={"type": "add", "amount": 1}, headers=seats[0])
    first = client.get(f"/games/{game_id}/events?limit=2").get_json()
    assert [e["version"] for e in first["events"]] == [1, 2] and first["next_after"] == 2
    rest = client.get(f"/games/{game_id}/events?after=2").get_json()
    assert [e["version"] for e in rest["events"]] == [3, 4, 5] and rest["next_after"] is None
    assert rest["events"][0]["prev_hash"] == first["events"][-1]["hash"]


def test_the_worker_carries_out_the_system_step_after_a_seat_acts(client, worker, games):
    game_id, seats = _create(client, seats=1)
    for _ in range(4):
        client.post(f"/games/{game_id}/actions", json={"type": "add", "amount": 3}, headers=seats[0])
    wait_until(lambda: client.get(f"/games/{game_id}/state").get_json()["view"]["ticks"] == 1, message="tick")
    state = client.get(f"/games/{game_id}/state").get_json()
    assert state["waiting_for"] == [0]
