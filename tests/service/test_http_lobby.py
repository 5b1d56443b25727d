"""The lobby over HTTP: open seats, joining, leaving, bots, starting, listing, tokens."""

from __future__ import annotations

from service.wiring import game_rows
from tests.service.tables import act, bearer, new_table, state


def _lobby(client, seats=2, players=("Alice",), **body):
    return new_table(client, seats=seats, players=list(players), **body)


def test_a_game_with_open_seats_waits_for_players_and_the_creator_starts_it(client):
    table = _lobby(client)
    assert set(table.seats) == {0}
    before = state(client, table, 0)
    assert before["status"] == "lobby" and before["waiting_for"] == []
    assert [s["kind"] for s in before["seats"]] == ["human", "open"]
    refused = act(client, table, 0, {"type": "redraw"})
    assert refused.status_code == 409 and refused.get_json()["code"] == "not_started"
    too_early = client.post(table.url("/start"), headers=table.creator)
    assert too_early.status_code == 409 and too_early.get_json()["code"] == "seats_open"

    joined = client.post(table.url("/seats"), json={"name": "Bob"})
    assert joined.status_code == 201
    bob = joined.get_json()
    assert bob["seat"] == 1 and len(bob["token"]) >= 22
    table.seats[1] = bearer(bob["token"])
    assert client.post(table.url("/start"), headers=table.seats[0]).status_code == 403
    started = client.post(table.url("/start"), headers=table.creator)
    assert started.status_code == 200
    now = state(client, table, 1)
    assert now["status"] == "running" and now["seats"][1]["name"] == "Bob" and now["waiting_for"]
    events = [e["type"] for e in client.get(table.url("/events")).get_json()["events"]]
    # The setup is dealt at the start, once every seat could contribute to the seed (docs/audit.md).
    assert events == ["GameCreated", "SeatJoined", "GameStarted", "CounterSetUp"]


def test_a_taken_seat_cannot_be_joined_and_a_full_game_has_no_open_seat(client):
    table = _lobby(client)
    assert client.post(table.url("/seats"), json={"name": "Eve", "seat": 0}).get_json()["code"] == "seat_taken"
    client.post(table.url("/seats"), json={"name": "Bob"})
    full = client.post(table.url("/seats"), json={"name": "Eve"})
    assert full.status_code == 409 and full.get_json()["code"] == "no_open_seat"
    missing = client.post(table.url("/seats"), json={"name": "Eve", "seat": 3})
    assert missing.status_code == 404 and missing.get_json()["code"] == "no_such_seat"
    assert client.post(table.url("/seats"), json={"name": ""}).status_code == 422


def test_leaving_opens_the_seat_and_revokes_its_token(client):
    table = _lobby(client)
    bob = client.post(table.url("/seats"), json={"name": "Bob"}).get_json()
    bob_headers = bearer(bob["token"])
    assert client.delete(table.url("/seats/0"), headers=bob_headers).get_json()["code"] == "not_your_seat"
    left = client.delete(table.url("/seats/1"), headers=bob_headers)
    assert left.status_code == 200
    assert state(client, table)["seats"][1]["kind"] == "open"
    assert client.get(table.url("/state"), headers=bob_headers).status_code == 403
    carol = client.post(table.url("/seats"), json={"name": "Carol"}).get_json()
    assert carol["seat"] == 1 and client.get(table.url("/state"), headers=bearer(carol["token"])).status_code == 200


def test_the_creator_removes_a_player_before_the_start_only(client):
    table = _lobby(client, seats=3, players=("Alice", "Bob"))
    removed = client.delete(table.url("/seats/1"), headers=table.creator)
    assert removed.status_code == 200
    assert client.get(table.url("/state"), headers=table.seats[1]).status_code == 403
    events = client.get(table.url("/events?after=1")).get_json()["events"]
    assert events[-1]["type"] == "SeatLeft" and events[-1]["data"] == {"seat": 1, "removed": True}
    client.put(table.url("/seats/1/bot"), json={"bot": "random"}, headers=table.creator)
    client.put(table.url("/seats/2/bot"), json={}, headers=table.creator)
    assert client.post(table.url("/start"), headers=table.creator).status_code == 200
    late = client.delete(table.url("/seats/0"), headers=table.creator)
    assert late.status_code == 409 and late.get_json()["code"] == "already_started"


def test_a_seat_handed_to_a_bot_is_recorded_as_a_bot(client):
    table = _lobby(client)
    assert client.put(table.url("/seats/1/bot"), json={"bot": "planner"}, headers=table.seats[0]).status_code == 403
    handed = client.put(table.url("/seats/1/bot"), json={"bot": "planner"}, headers=table.creator)
    assert handed.status_code == 200
    seats = client.get(table.url()).get_json()["seats"]
    assert seats[1] == {"seat": 1, "kind": "bot", "name": None, "bot": "planner"}
    assert client.post(table.url("/start"), headers=table.creator).status_code == 200
    after = client.put(table.url("/seats/0/bot"), json={"bot": "planner"}, headers=table.creator)
    assert after.status_code == 409 and after.get_json()["code"] == "seat_taken"


def test_a_bot_level_must_be_one_the_server_has(client):
    table = _lobby(client)
    refused = client.put(table.url("/seats/1/bot"), json={"bot": "grandmaster"}, headers=table.creator)
    assert refused.status_code == 422 and refused.get_json()["code"] == "invalid_request"
    default = client.put(table.url("/seats/1/bot"), json={}, headers=table.creator)
    assert default.status_code == 200
    assert client.get(table.url()).get_json()["seats"][1]["bot"] == "greedy"


def test_bots_take_seats_at_creation(client):
    body = {"game": "counter", "seats": 3, "players": ["Ann"], "bots": [{"seat": 2, "level": "random"}]}
    created = client.post("/games", json=body).get_json()
    seats = client.get(f"/games/{created['game_id']}").get_json()["seats"]
    assert [s["kind"] for s in seats] == ["human", "open", "bot"] and seats[2]["bot"] == "random"
    clash = client.post("/games", json={**body, "bots": [{"seat": 0, "level": "random"}]})
    assert clash.status_code == 422 and clash.get_json()["code"] == "bad_bot_seats"
    twice = client.post("/games", json={**body, "bots": [{"seat": 2}, {"seat": 2}]})
    assert twice.status_code == 422 and twice.get_json()["code"] == "bad_bot_seats"


def test_a_rotated_token_replaces_the_old_one(client):
    table = new_table(client)
    rotated = client.post(table.url("/token"), headers=table.seats[0])
    assert rotated.status_code == 200 and rotated.get_json()["seat"] == 0
    assert client.get(table.url("/state"), headers=table.seats[0]).status_code == 403
    fresh = bearer(rotated.get_json()["token"])
    assert client.get(table.url("/state"), headers=fresh).get_json()["seat"] == 0
    assert client.post(table.url("/token")).status_code == 401


def test_tokens_are_kept_only_as_hashes(client, redis_client):
    body = client.post("/games", json={"game": "counter", "seats": 2}).get_json()
    stored = b" ".join(redis_client.hgetall(f"game:{{{body['game_id']}}}:secrets").values())
    for token in [body["creator_token"], *(s["token"] for s in body["seats"])]:
        assert token.encode() not in stored


def test_the_listing_filters_and_pages_without_repeating_a_game(client, games, redis_client):
    ids = {}
    for n in range(5):
        ids[n] = _lobby(client, seed=f"l{n}").game_id
    full = new_table(client, seed="full").game_id
    listed = client.get("/games?status=lobby&open_seats=1&limit=2").get_json()
    assert len(listed["games"]) == 2 and listed["next_cursor"]
    seen = [g["game_id"] for g in listed["games"]]
    while listed["next_cursor"]:
        listed = client.get(f"/games?status=lobby&open_seats=1&limit=2&cursor={listed['next_cursor']}").get_json()
        seen += [g["game_id"] for g in listed["games"]]
    assert sorted(seen) == sorted(ids.values()) and len(seen) == len(set(seen))
    assert full not in seen
    running = client.get("/games?status=running&game=counter").get_json()["games"]
    assert [g["game_id"] for g in running] == [full]
    assert running[0]["open_seats"] == 0 and running[0]["seats"][0]["kind"] == "human"
    assert client.get("/games?game=fallout").get_json()["games"] == []
    assert client.get("/games?cursor=nonsense").status_code == 400
    # The listing is the game index projection: it caught up by itself.
    assert game_rows(redis_client, games.store).row(full)["status"] == "running"



def test_each_game_lists_its_own_options_and_the_lobby_filters_by_them(client, games, redis_client):
    """No option name is the service's: Fallout lists its scenario, Zona its board side and draft (Game.listed_options)."""
    for body in (
        {"game": "fallout", "seats": 1, "options": {"scenario": "sulphur_flats"}},
        {"game": "fallout", "seats": 1, "options": {"scenario": "vesper_heights"}},
        {"game": "zona", "seats": 2, "options": {"side": "large", "draft": "free"}},
        {"game": "zona", "seats": 2, "options": {"draft": "draft"}},
    ):
        assert client.post("/games", json={**body, "start": False}).status_code == 201
    game_rows(redis_client, games.store).catch_up()
    listed = client.get("/games?limit=10").get_json()["games"]
    assert {tuple(sorted(g["listed"].items())) for g in listed} == {
        (("scenario", "sulphur_flats"),), (("scenario", "vesper_heights"),),
        (("draft", "free"), ("side", "large")), (("draft", "draft"), ("side", None)),
    }  # fmt: skip
    vesper = client.get("/games?option=scenario:vesper_heights").get_json()["games"]
    assert [g["listed"] for g in vesper] == [{"scenario": "vesper_heights"}]
    printed = client.get("/games?game=zona&option=side:null&option=draft:draft").get_json()["games"]
    assert [g["listed"] for g in printed] == [{"side": None, "draft": "draft"}]
    refused = client.get("/games?game=fallout&option=side:large")
    assert refused.status_code == 422 and "no listed option side" in str(refused.get_json())
