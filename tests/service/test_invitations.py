"""Invitations: one use, expiring, revocable, unguessable, and silent about the game until taken (docs/players.md)."""

from __future__ import annotations

import json
import time

from tests.service.tables import bearer, new_table, state


def _player(client, name="Bob"):
    return bearer(client.post("/players", json={"name": name}).get_json()["token"])


def test_an_invitation_takes_its_seat_once_for_a_player_and_binds_it(client):
    table = new_table(client, seats=3, players=["Alice"])
    made = client.post(table.url("/invitations"), json={"seat": 2}, headers=table.creator)
    assert made.status_code == 201
    invitation = made.get_json()
    code = invitation["code"]
    assert len(code) >= 22 and invitation["url"] == f"/lobby#invite={code}" and invitation["seat"] == 2
    # Before it is taken, following it says nothing about the game.
    peeked = client.get(f"/invitations/{code}")
    assert peeked.status_code == 200 and set(peeked.get_json()) == {"expires_at"}
    assert table.game_id not in peeked.get_data(as_text=True)
    bob = _player(client)
    taken = client.post(f"/invitations/{code}", json={}, headers=bob)
    assert taken.status_code == 201
    assert taken.get_json()["game_id"] == table.game_id and taken.get_json()["seat"] == 2
    assert state(client, table)["seats"][2] == {"seat": 2, "kind": "human", "name": "Bob", "bot": None}
    assert client.get(table.url("/state"), headers=bob).get_json()["seat"] == 2
    # One use.
    again = client.post(f"/invitations/{code}", json={}, headers=_player(client, "Eve"))
    assert again.status_code == 404 and again.get_json()["code"] == "no_such_invitation"
    assert client.get(f"/invitations/{code}").status_code == 404


def test_taking_without_a_player_creates_one_on_the_way(client):
    table = new_table(client, seats=2, players=["Alice"])
    code = client.post(table.url("/invitations"), json={}, headers=table.creator).get_json()["code"]
    assert client.post(f"/invitations/{code}", json={}).get_json()["code"] == "token_required"
    taken = client.post(f"/invitations/{code}", json={"name": "Carol"}).get_json()
    carol = bearer(taken["player"]["token"])
    assert taken["seat"] == 1 and client.get("/players/me", headers=carol).get_json()["name"] == "Carol"
    inbox = client.get("/players/me/games", headers=carol).get_json()["games"]
    assert [(e["game_id"], e["seat"]) for e in inbox] == [(table.game_id, 1)]


def test_only_the_creator_invites_and_revokes_and_a_revoked_link_is_dead(client):
    table = new_table(client, seats=3, players=["Alice"])
    assert client.post(table.url("/invitations"), json={}, headers=table.seats[0]).status_code == 403
    assert client.post(table.url("/invitations"), json={"seat": 0}, headers=table.creator).get_json()["code"] == "seat_taken"
    made = client.post(table.url("/invitations"), json={"seat": 1}, headers=table.creator).get_json()
    listed = client.get(table.url("/invitations"), headers=table.creator).get_json()["invitations"]
    assert [i["invitation_id"] for i in listed] == [made["invitation_id"]] and "code" not in json.dumps(listed)
    assert client.delete(table.url(f"/invitations/{made['invitation_id']}"), headers=table.seats[0]).status_code == 403
    assert client.delete(table.url(f"/invitations/{made['invitation_id']}"), headers=table.creator).status_code == 204
    dead = client.post(f"/invitations/{made['code']}", json={}, headers=_player(client))
    assert dead.status_code == 404 and dead.get_json()["code"] == "no_such_invitation"
    assert client.get(table.url("/invitations"), headers=table.creator).get_json()["invitations"] == []
    # A player who created the game invites with its player token.
    alice = _player(client, "Alice")
    created = client.post("/games", json={"game": "counter", "seats": 2, "players": ["Alice"]}, headers=alice).get_json()
    assert client.post(f"/games/{created['game_id']}/invitations", json={}, headers=alice).status_code == 201


def test_an_expired_or_guessed_code_and_a_seat_taken_meanwhile_are_refused_alike(client, services):
    table = new_table(client, seats=2, players=["Alice"])
    made = client.post(table.url("/invitations"), json={}, headers=table.creator).get_json()
    # Someone else takes the seat first: the link fails and stays usable once the seat opens again.
    other = client.post(table.url("/seats"), json={"name": "Eve"}).get_json()
    bob = _player(client)
    busy = client.post(f"/invitations/{made['code']}", json={}, headers=bob)
    assert busy.status_code == 409 and busy.get_json()["code"] == "seat_taken"
    client.delete(table.url("/seats/1"), headers=bearer(other["token"]))
    assert client.post(f"/invitations/{made['code']}", json={}, headers=bob).status_code == 201
    guessed = client.get("/invitations/AAAAAAAAAAAAAAAAAAAAAA")
    assert guessed.status_code == 404 and guessed.get_json()["code"] == "no_such_invitation"
    short = client.post(table.url("/invitations"), json={"expires_in": 60}, headers=table.creator)
    assert short.status_code == 422
    # Expired (a second's invitation, made below the API's hour): the same answer as a guess.
    lobby = new_table(client, seats=2, players=["Alice"])
    _, code = services.invitations.store.create(lobby.game_id, 1, 1)
    assert client.get(f"/invitations/{code}").status_code == 200
    time.sleep(1.1)
    expired = client.post(f"/invitations/{code}", json={}, headers=bob)
    assert expired.status_code == 404 and expired.get_json()["code"] == "no_such_invitation"
