"""Playing over HTTP against a real server and a real worker: state, actions, If-Match, idempotency."""

from __future__ import annotations

import threading

from service.adapters.idempotency import IdempotentRequests, request_key
from service.usecases.ports import fingerprint
from tests.conftest import wait_until
from tests.service.tables import act, new_table, play_on_turn, state


def test_create_hands_out_one_distinct_token_per_seat(client):
    body = client.post("/games", json={"game": "counter", "seats": 3}).get_json()
    tokens = [s["token"] for s in body["seats"]]
    assert [s["seat"] for s in body["seats"]] == [0, 1, 2]
    assert len(set(tokens + [body["creator_token"]])) == 4
    assert all(len(t) >= 22 for t in tokens)  # at least 128 bits, url-safe base64
    assert body["status"] == "running"


def test_bad_create_requests_are_problems_that_change_nothing(client, redis_client):
    before = redis_client.dbsize()
    for body in ({"game": "chess", "seats": 2}, {"seats": 0}, {"seats": "two"}, {},
                 {"game": "counter", "seats": 1, "players": ["a", "b"]}):  # fmt: skip
        response = client.post("/games", json=body)
        assert response.status_code == 422, body
        assert response.content_type == "application/problem+json"
    assert redis_client.dbsize() == before


def test_a_seat_plays_the_listed_actions_and_the_state_follows(client, games):
    table = new_table(client)
    first = client.get(table.url("/state"))
    assert first.headers["ETag"] == '"3"'
    turn = first.get_json()["waiting_for"][0]
    listed = client.get(table.url("/actions"), headers=table.seats[turn])
    assert listed.headers["ETag"] == '"3"'
    actions = listed.get_json()["actions"]
    # Each a complete body, with its words as "text" (no part of the command: posted back, it is left out).
    commands = [{k: v for k, v in action.items() if k != "text"} for action in actions]
    assert {"type": "add", "amount": 2} in commands and {"type": "redraw"} in commands
    assert all(action["text"] for action in actions)
    acted = act(client, table, turn, actions[1], version=3)
    assert acted.status_code == 200 and acted.headers["ETag"] == '"5"'
    assert [e["type"] for e in acted.get_json()["events"]] == ["CommandAccepted", "Added"]
    after = state(client, table, turn)
    assert after["version"] == 5 and after["view"]["total"] == 2
    record = games.load(table.game_id).state
    assert after["view"] == record.module.view(record.state, turn)


def test_a_spectator_sees_no_actions_and_cannot_act(client):
    table = new_table(client)
    assert client.get(table.url("/actions")).get_json()["actions"] == []
    assert client.get(table.url("/actions"), headers=table.creator).get_json()["actions"] == []
    response = client.post(table.url("/actions"), json={"type": "redraw"}, headers={**table.creator, "If-Match": '"3"'})
    assert response.status_code == 403 and response.get_json()["code"] == "not_a_seat_token"


def test_acting_needs_the_token_of_a_seat_of_this_game(client):
    table = new_table(client)
    other = new_table(client, seed="other")
    no_token = client.post(table.url("/actions"), json={"type": "redraw"}, headers={"If-Match": '"3"'})
    assert no_token.status_code == 401 and no_token.get_json()["code"] == "token_required"
    assert no_token.headers["WWW-Authenticate"].startswith("Bearer")
    wrong_game = client.post(table.url("/actions"), json={"type": "redraw"}, headers={**other.seats[0], "If-Match": '"3"'})
    assert wrong_game.status_code == 403 and wrong_game.get_json()["code"] == "token_not_for_this_game"
    assert state(client, table)["version"] == 3


def test_an_illegal_command_is_a_problem_naming_its_code_and_changes_nothing(client):
    table = new_table(client)
    turn = state(client, table)["waiting_for"][0]
    wrong = act(client, table, 1 - turn, {"type": "add", "amount": 1})
    assert wrong.status_code == 409 and wrong.get_json()["code"] == "not_your_turn"
    unknown = act(client, table, turn, {"type": "fly"})
    assert unknown.status_code == 422 and unknown.get_json()["code"] == "unknown_command"
    ballast = act(client, table, turn, {"type": "add", "amount": 1, "note": "x" * 5000})
    assert ballast.status_code == 422 and ballast.get_json()["code"] == "command_too_large"
    assert state(client, table)["version"] == 3


def test_posting_needs_if_match_and_a_stale_one_is_412_with_the_version_now(client):
    table = new_table(client, seats=1)
    missing = client.post(table.url("/actions"), json={"type": "redraw"}, headers=table.seats[0])
    assert missing.status_code == 428 and missing.get_json()["code"] == "if_match_required"
    bad = client.post(table.url("/actions"), json={"type": "redraw"}, headers={**table.seats[0], "If-Match": "x"})
    assert bad.status_code == 400 and bad.get_json()["code"] == "bad_if_match"
    assert act(client, table, 0, {"type": "add", "amount": 1}, version=3).status_code == 200
    stale = act(client, table, 0, {"type": "add", "amount": 1}, version=3)
    assert stale.status_code == 412 and stale.get_json()["current_version"] == 5
    assert stale.headers["ETag"] == '"5"'
    assert state(client, table)["version"] == 5


def test_two_seats_racing_for_one_version_one_wins_the_other_gets_412(app, client):
    table = new_table(client)
    answers = []
    start = threading.Barrier(2)

    def post(seat):
        own = app.test_client()
        start.wait()
        answers.append(act(own, table, seat, {"type": "redraw"}, version=3).status_code)

    threads = [threading.Thread(target=post, args=(s,)) for s in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [200, 412]
    assert state(client, table)["version"] == 5


def test_a_retry_with_the_same_idempotency_key_gets_the_same_answer_and_acts_once(client):
    table = new_table(client, seats=1)
    first = act(client, table, 0, {"type": "add", "amount": 2}, version=3, **{"Idempotency-Key": "k-1"})
    again = act(client, table, 0, {"type": "add", "amount": 2}, version=3, **{"Idempotency-Key": "k-1"})
    assert first.status_code == again.status_code == 200
    assert again.get_json() == first.get_json() and again.headers["Idempotent-Replayed"] == "true"
    assert state(client, table)["view"]["total"] == 2
    other_body = act(client, table, 0, {"type": "add", "amount": 3}, version=5, **{"Idempotency-Key": "k-1"})
    assert other_body.status_code == 422 and other_body.get_json()["code"] == "idempotency_key_reused"
    assert state(client, table)["version"] == 5


def test_an_error_releases_the_key_so_a_corrected_retry_may_use_it(client):
    table = new_table(client, seats=1)
    stale = act(client, table, 0, {"type": "redraw"}, version=1, **{"Idempotency-Key": "k-2"})
    assert stale.status_code == 412
    fresh = act(client, table, 0, {"type": "redraw"}, version=3, **{"Idempotency-Key": "k-2"})
    assert fresh.status_code == 200


def test_the_same_key_still_in_flight_is_409(client, redis_client):
    table = new_table(client, seats=1)
    # What a first request holding the key does while it runs.
    key = request_key(table.game_id, "seat0", "k-3")
    IdempotentRequests(redis_client).begin(key, fingerprint("POST", table.url("/actions"), {"type": "redraw"}))
    response = act(client, table, 0, {"type": "redraw"}, **{"Idempotency-Key": "k-3"})
    assert response.status_code == 409 and response.get_json()["code"] == "idempotency_key_in_flight"
    assert state(client, table)["version"] == 3


def test_time_travel_shows_the_view_after_an_earlier_version(client):
    table = new_table(client, seats=1)
    play_on_turn(client, table, 2)
    play_on_turn(client, table, 3)
    back = client.get(table.url("/state?at=5"), headers=table.seats[0])
    assert back.status_code == 200 and back.headers["ETag"] == '"5"'
    assert back.get_json()["view"]["total"] == 2 and back.get_json()["version"] == 5
    future = client.get(table.url("/state?at=99"))
    assert future.status_code == 422 and future.get_json()["code"] == "no_such_version"


def test_an_unknown_game_is_a_404_problem(client):
    for path in ("/state", "/actions", "/events", "/export", "/audit", "/stream", ""):
        response = client.get(f"/games/nope{path}")
        assert response.status_code == 404 and response.get_json()["code"] == "game_not_found", path


def test_the_worker_carries_out_the_system_step_after_a_seat_acts(client, worker):
    table = new_table(client, seats=1)
    for _ in range(4):
        play_on_turn(client, table, 3)
    wait_until(lambda: state(client, table)["view"]["ticks"] == 1, message="tick")
    assert state(client, table)["waiting_for"] == [0]
