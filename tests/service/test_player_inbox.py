"""The inbox, GET /players/me/games: what waits for the player first, filters, pages, ETag and the long poll."""

from __future__ import annotations

import threading
import time

from tests.service.tables import bearer, finish, new_table, play_on_turn, state


def _player(client, name):
    created = client.post("/players", json={"name": name}).get_json()
    return bearer(created["token"])


def _bind(client, player, table, seat):
    token = table.seats[seat]["Authorization"].split()[1]
    assert client.post("/players/me/seats", json={"game_id": table.game_id, "token": token}, headers=player).status_code == 201


def _three_games(client, games):
    """Alice: a running game waiting for her (with a clock), one waiting for Bob, one ended; and a lobby."""
    alice, bob = _player(client, "Alice"), _player(client, "Bob")
    mine = new_table(client, seats=2, players=["Alice", "Bob"], turn_seconds=3600)
    theirs = new_table(client, seats=2, players=["Alice", "Bob"])
    ended = new_table(client, seats=2, players=["Alice", "Bob"], options={"target": 12})
    lobby = client.post("/games", json={"game": "counter", "seats": 2, "players": ["Alice"]}, headers=alice).get_json()
    finish(client, ended, games)
    waits = state(client, mine)["waiting_for"][0]
    _bind(client, alice, mine, waits)
    _bind(client, bob, mine, 1 - waits)
    other = state(client, theirs)["waiting_for"][0]
    _bind(client, alice, theirs, 1 - other)
    _bind(client, alice, ended, 0)
    return alice, bob, {"mine": mine, "theirs": theirs, "ended": ended, "lobby": lobby["game_id"]}


def test_the_inbox_lists_the_games_waiting_for_the_player_first_with_words_and_deadline(client, games):
    alice, _, tables = _three_games(client, games)
    answer = client.get("/players/me/games", headers=alice)
    assert answer.status_code == 200
    entries = answer.get_json()["games"]
    assert [e["game_id"] for e in entries][0] == tables["mine"].game_id
    assert {e["game_id"] for e in entries} == {tables["mine"].game_id, tables["theirs"].game_id,
                                                tables["ended"].game_id, tables["lobby"]}
    first = entries[0]
    assert first["waiting"] and first["seat"] in first["waiting_for"]
    assert first["prompt"] and first["deadline"] and first["last_event"]["text"]
    assert first["options"]["turn_seconds"] == 3600
    assert [e["waiting"] for e in entries] == [True, False, False, False]


def test_the_inbox_filters_waiting_running_ended_and_lobby(client, games):
    alice, bob, tables = _three_games(client, games)

    def ids(status, who=alice):
        return [e["game_id"] for e in client.get(f"/players/me/games?status={status}", headers=who).get_json()["games"]]

    assert ids("waiting") == [tables["mine"].game_id]
    assert set(ids("running")) == {tables["mine"].game_id, tables["theirs"].game_id}
    assert ids("ended") == [tables["ended"].game_id]
    assert ids("lobby") == [tables["lobby"]]
    assert ids("waiting", bob) == []
    assert client.get("/players/me/games?status=mine", headers=alice).status_code == 422


def test_the_inbox_pages_with_a_cursor_and_never_repeats_an_entry(client, games):
    alice, _, _ = _three_games(client, games)
    whole = [(e["game_id"], e["seat"]) for e in client.get("/players/me/games", headers=alice).get_json()["games"]]
    seen, cursor = [], None
    while True:
        page = client.get("/players/me/games?limit=1" + (f"&cursor={cursor}" if cursor else ""), headers=alice).get_json()
        seen += [(e["game_id"], e["seat"]) for e in page["games"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == whole and len(seen) == 4
    bad = client.get("/players/me/games?cursor=bm90LWEtY3Vyc29y", headers=alice)
    assert bad.status_code == 400 and bad.get_json()["code"] == "bad_cursor"


def test_the_inbox_etag_answers_304_until_a_game_moves(client, games):
    alice, _, tables = _three_games(client, games)
    first = client.get("/players/me/games", headers=alice)
    etag = first.headers["ETag"]
    again = client.get("/players/me/games", headers={**alice, "If-None-Match": etag})
    assert again.status_code == 304 and again.headers["ETag"] == etag
    play_on_turn(client, tables["mine"])
    moved = client.get("/players/me/games", headers={**alice, "If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["ETag"] != etag
    assert not moved.get_json()["games"][0]["waiting"]  # it is Bob's turn there now


def test_a_long_poll_of_the_inbox_answers_when_a_game_moves_and_304_at_its_timeout(client, games):
    alice, _, tables = _three_games(client, games)
    etag = client.get("/players/me/games", headers=alice).headers["ETag"]
    started = time.monotonic()
    idle = client.get("/players/me/games?wait=1", headers={**alice, "If-None-Match": etag})
    assert idle.status_code == 304 and 0.9 < time.monotonic() - started < 5
    mover = threading.Timer(0.5, play_on_turn, args=(client, tables["mine"]))
    mover.start()
    started = time.monotonic()
    woken = client.get("/players/me/games?wait=20", headers={**alice, "If-None-Match": etag})
    mover.join()
    assert woken.status_code == 200 and time.monotonic() - started < 10
    assert woken.headers["ETag"] != etag


def test_the_inbox_needs_a_player_token(client, games):
    table = new_table(client, seats=2, players=["Alice"])
    assert client.get("/players/me/games").get_json()["code"] == "token_required"
    refused = client.get("/players/me/games", headers=table.seats[0])
    assert refused.status_code == 403 and refused.get_json()["code"] == "unknown_player_token"
