"""A seed chosen by the creator is shown as such to every seat, in the listing and in the log."""

from __future__ import annotations

from service.api import create_app
from tests.service.conftest import TEST_CONFIG
from tests.service.tables import new_table


def test_a_chosen_seed_is_shown_to_every_seat_and_in_the_listing(services):
    client = create_app(services, TEST_CONFIG).test_client()
    chosen = new_table(client, seats=2, players=["Ann"], seed="demo")
    joined = client.post(chosen.url("/seats"), json={"name": "Bob"}).get_json()
    bob = {"Authorization": f"Bearer {joined['token']}"}
    assert client.get(chosen.url("/state"), headers=bob).get_json()["seed_source"] == "creator"
    assert client.get(chosen.url()).get_json()["seed_source"] == "creator"
    created = client.get(chosen.url("/events?after=0&limit=1"), headers=bob).get_json()["events"][0]
    assert created["type"] == "GameCreated" and created["data"]["seed_source"] == "creator"

    fair = client.post("/games", json={"game": "counter", "seats": 2, "players": ["Cy"]}).get_json()
    assert client.get(f"/games/{fair['game_id']}/state").get_json()["seed_source"] == "server"
    listed = {g["game_id"]: g["seed_source"] for g in client.get("/games?status=lobby").get_json()["games"]}
    assert listed == {chosen.game_id: "creator", fair["game_id"]: "server"}


def test_a_server_may_take_chosen_seeds_only_for_private_games(services):
    client = create_app(services, {**TEST_CONFIG, "CHOSEN_SEEDS": "private"}).test_client()
    refused = client.post("/games", json={"game": "counter", "seats": 2, "players": ["Ann"], "seed": "demo"})
    assert refused.status_code == 422 and refused.get_json()["code"] == "seed_not_allowed"
    # Every seat taken now (one device, or bots): nobody else will join.
    assert client.post("/games", json={"game": "counter", "seats": 2, "seed": "demo"}).status_code == 201
    both = {"game": "counter", "seats": 2, "players": ["Ann"], "bots": [{"seat": 1, "level": "random"}], "seed": "d"}
    assert client.post("/games", json=both).status_code == 201
    assert client.post("/games", json={"game": "counter", "seats": 2, "players": ["Ann"]}).status_code == 201
