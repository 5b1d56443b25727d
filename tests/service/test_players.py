"""Players over HTTP: one token across games, bound seats, and what a player token may do (docs/players.md)."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime

from standardwebhooks.webhooks import Webhook

from service import wiring
from service.adapters.players import player_key
from service.api import create_app
from service.usecases.ports import PLAYER_BUCKET
from tests.service.conftest import TEST_CONFIG
from tests.service.tables import act, bearer, new_table, state


def _player(client, name="Alice", **body) -> tuple[dict, dict[str, str]]:
    created = client.post("/players", json={"name": name, **body})
    assert created.status_code == 201, created.get_json()
    answer = created.get_json()
    return answer, bearer(answer["token"])


def test_a_player_is_created_once_and_its_token_names_it(client, redis_client):
    alice, headers = _player(client, email="alice@example.org")
    assert alice["name"] == "Alice" and not alice["email_confirmed"]
    me = client.get("/players/me", headers=headers).get_json()
    assert me["player_id"] == alice["player_id"] and me["email"] == "alice@example.org" and "token" not in me
    # Kept as a hash only: the token is nowhere in Redis.
    assert not any(alice["token"].split(".", 1)[1].encode() in (redis_client.dump(k) or b"") for k in redis_client.keys())
    assert client.get("/players/me").get_json()["code"] == "token_required"
    wrong = client.get("/players/me", headers=bearer(alice["player_id"] + ".not-the-secret"))
    assert wrong.status_code == 403 and wrong.get_json()["code"] == "unknown_player_token"


def test_rotating_a_player_token_revokes_the_old_one(client):
    alice, headers = _player(client)
    rotated = client.post("/players/me/token", headers=headers)
    assert rotated.status_code == 200
    fresh = bearer(rotated.get_json()["token"])
    assert client.get("/players/me", headers=headers).get_json()["code"] == "unknown_player_token"
    assert client.get("/players/me", headers=fresh).get_json()["player_id"] == alice["player_id"]


def test_creating_and_joining_with_a_player_token_bind_the_seats_taken(client):
    _, alice = _player(client, "Alice")
    _, bob = _player(client, "Bob")
    created = client.post("/games", json={"game": "counter", "seats": 2, "players": ["Alice"]}, headers=alice)
    assert created.status_code == 201
    game_id = created.get_json()["game_id"]
    joined = client.post(f"/games/{game_id}/seats", json={"name": "Bob"}, headers=bob)
    assert joined.status_code == 201 and joined.get_json()["seat"] == 1
    # The player token acts as creator (start) and as its seat; the seat tokens still work.
    assert client.post(f"/games/{game_id}/start", headers=bob).get_json()["code"] == "not_the_creator"
    assert client.post(f"/games/{game_id}/start", headers=alice).status_code == 200
    assert client.get(f"/games/{game_id}/state", headers=alice).get_json()["seat"] == 0
    assert client.get(f"/games/{game_id}/state", headers=bob).get_json()["seat"] == 1
    seat_token = bearer(joined.get_json()["token"])
    assert client.get(f"/games/{game_id}/state", headers=seat_token).get_json()["seat"] == 1


def test_a_seat_is_bound_by_presenting_its_token_once_and_acts_for_that_seat_only(client):
    table = new_table(client, seats=2, players=["Alice", "Bob"])
    other = new_table(client, seats=2, players=["Carol", "Dan"])
    _, alice = _player(client)
    # Before binding, the player token holds nothing in the game.
    assert client.get(table.url("/state"), headers=alice).get_json()["code"] == "token_not_for_this_game"
    seat_token = table.seats[0]["Authorization"].split()[1]
    bound = client.post("/players/me/seats", json={"game_id": table.game_id, "token": seat_token}, headers=alice)
    assert bound.status_code == 201 and bound.get_json() == {"game_id": table.game_id, "seat": 0}
    assert state(client, table, 0)["seat"] == 0
    assert client.get(table.url("/state"), headers=alice).get_json()["seat"] == 0
    turn = state(client, table)["waiting_for"][0]
    answer = client.post(
        table.url("/actions"), json={"type": "add", "amount": 1},
        headers={**alice, "If-Match": f'"{state(client, table)["version"]}"'},
    )
    assert answer.status_code == (200 if turn == 0 else 409)
    # Nothing for the other seat, nothing in another game, nothing as the creator.
    refused = client.get(table.url("/state"), headers={**alice, "Holotape-Seat": "1"})
    assert refused.status_code == 403 and refused.get_json()["code"] == "not_your_seat"
    assert client.get(other.url("/state"), headers=alice).status_code == 403
    assert client.put(table.url("/seats/1/bot"), json={}, headers=alice).status_code == 403
    # A wrong seat token binds nothing; a player token is not a seat token.
    wrong = client.post("/players/me/seats", json={"game_id": other.game_id, "token": seat_token}, headers=alice)
    assert wrong.status_code == 403
    assert client.post("/players/me/seats", json={"game_id": table.game_id, "token": seat_token},
                       headers=table.seats[0]).get_json()["code"] == "unknown_player_token"


def test_a_binding_ends_when_its_seat_token_is_revoked(client):
    table = new_table(client, seats=2, players=["Alice"])
    _, alice = _player(client)
    joined = client.post(table.url("/seats"), json={"name": "Alice"}, headers=alice).get_json()
    assert client.get(table.url("/state"), headers=alice).get_json()["seat"] == joined["seat"]
    # Leaving with the player token frees the seat; whoever takes it next is not the player.
    assert client.delete(table.url(f"/seats/{joined['seat']}"), headers=alice).status_code == 200
    client.post(table.url("/seats"), json={"name": "Eve"})
    assert client.get(table.url("/state"), headers=alice).status_code == 403
    # Rotating the seat token a binding was made with ends the binding too.
    _, bob = _player(client, "Bob")
    seat_token = table.seats[0]["Authorization"].split()[1]
    client.post("/players/me/seats", json={"game_id": table.game_id, "token": seat_token}, headers=bob)
    assert client.get(table.url("/state"), headers=bob).get_json()["seat"] == 0
    client.post(table.url("/token"), headers=table.seats[0])
    assert client.get(table.url("/state"), headers=bob).status_code == 403
    refused = client.post(table.url("/token"), headers=alice)
    assert refused.status_code == 403


def test_a_player_with_two_seats_of_one_game_names_the_seat_it_acts_as(client):
    _, alice = _player(client)
    created = client.post("/games", json={"game": "counter", "seats": 2, "seed": "two"}, headers=alice).get_json()
    game_id = created["game_id"]
    ambiguous = client.get(f"/games/{game_id}/state", headers=alice)
    assert ambiguous.status_code == 400 and ambiguous.get_json()["code"] == "seat_required"
    for seat in (0, 1):
        seen = client.get(f"/games/{game_id}/state", headers={**alice, "Holotape-Seat": str(seat)}).get_json()
        assert seen["seat"] == seat
    bad = client.get(f"/games/{game_id}/state", headers={**alice, "Holotape-Seat": "one"})
    assert bad.status_code == 400 and bad.get_json()["code"] == "bad_seat_header"
    turn = client.get(f"/games/{game_id}/state").get_json()["waiting_for"][0]
    version = client.get(f"/games/{game_id}/state").get_json()["version"]
    played = client.post(
        f"/games/{game_id}/actions", json={"type": "add", "amount": 1},
        headers={**alice, "Holotape-Seat": str(turn), "If-Match": f'"{version}"'},
    )
    assert played.status_code == 200


def test_seat_tokens_work_exactly_as_before_beside_a_player(client):
    table = new_table(client, seats=2, players=["Alice", "Bob"])
    _, alice = _player(client)
    seat_token = table.seats[0]["Authorization"].split()[1]
    client.post("/players/me/seats", json={"game_id": table.game_id, "token": seat_token}, headers=alice)
    turn = state(client, table)["waiting_for"][0]
    assert act(client, table, turn, {"type": "add", "amount": 1}).status_code == 200


def test_player_creation_is_limited_per_address_and_an_invitation_taken_by_name_counts(redis_client):
    """docs/players.md, "Limits": a player is a record kept for good, so an address makes a few an hour."""
    limited = create_app(wiring.build(redis_client, rate_limits={PLAYER_BUCKET: (2, 3600)}), TEST_CONFIG).test_client()
    assert [limited.post("/players", json={"name": f"p{n}"}).status_code for n in range(2)] == [201, 201]
    refused = limited.post("/players", json={"name": "p3"})
    assert refused.status_code == 429 and refused.get_json()["code"] == "rate_limited" and refused.headers["Retry-After"]
    table = new_table(limited, seats=2, players=["Alice"])
    code = limited.post(table.url("/invitations"), json={}, headers=table.creator).get_json()["code"]
    assert limited.post(f"/invitations/{code}", json={"name": "Bob"}).status_code == 429
    # Another address has its own allowance; the refused invitation still works.
    other = limited.post("/players", json={"name": "q"}, environ_base={"REMOTE_ADDR": "10.1.2.3"})
    assert other.status_code == 201
    taken = limited.post(f"/invitations/{code}", json={}, headers=bearer(other.get_json()["token"]))
    assert taken.status_code == 201


def test_a_players_webhook_secret_is_a_standard_webhooks_key_every_time(redis_client):
    """docs/players.md: the secret is ``whsec_`` and the standard base64 of its key, as every Standard Webhooks
    verifier decodes it. A URL-safe one (as made before) failed the signer one time in eighteen; saving such a
    webhook again replaces it."""
    client = create_app(wiring.build(redis_client, allow_private_webhooks=True), TEST_CONFIG).test_client()
    ada = bearer(client.post("/players", json={"name": "Ada"}).get_json()["token"])
    for n in range(40):
        answer = client.put("/players/me/notifications", json={"webhook": {"url": f"http://127.0.0.1:9/h{n}"}}, headers=ada)
        secret = answer.get_json()["webhook_secret"]
        assert secret.startswith("whsec_") and len(base64.b64decode(secret[6:], validate=True)) == 24, secret
        Webhook(secret).sign("msg_1", datetime.now(UTC), "{}")
    player = wiring.build(redis_client).players.me(ada["Authorization"].split()[1])
    settings = json.loads(redis_client.hget(player_key(player.player_id), "settings") or "{}")
    assert settings, "the player's settings are where this test looks for them"
    settings["webhook"]["secret"] = "whsec_" + "-_-" + "A" * 29  # as a URL-safe secret could be
    redis_client.hset(player_key(player.player_id), "settings", json.dumps(settings))
    again = client.put("/players/me/notifications", json={"webhook": {"url": settings["webhook"]["url"]}}, headers=ada)
    assert again.get_json()["webhook_secret"] != settings["webhook"]["secret"]
