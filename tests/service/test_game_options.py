"""Each game's options as the lobby offers them: the API document's create examples are real games.

Zona's options (Zona §"PRZYGOTOWANIE DO GRY"): 1 to 4 seats, a draft of two stalker boards or a free
choice, the facility decks dealt at random, and the board side (the one printed for the player count by
default; a creator may choose the other).
"""

from __future__ import annotations

import pytest

from service.cli import openapi_document
from tests.service.tables import bearer

DOCUMENT = openapi_document()
CREATE = DOCUMENT["paths"]["/games"]["post"]["requestBody"]["content"]["application/json"]["examples"]


@pytest.mark.parametrize("name", sorted(CREATE))
def test_every_create_example_in_the_api_document_creates_that_game(client, name):
    body = CREATE[name]["value"]
    created = client.post("/games", json=body)
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["game_id"]
    shown = client.get(f"/games/{game_id}").get_json()
    assert shown["game"] == body["game"] and len(shown["seats"]) == body["seats"]
    recorded = client.get(f"/games/{game_id}/events?limit=1").get_json()["events"][0]["data"]["options"]
    # A pack is recorded by its address: the name given, pinned to its content (docs/versioning.md).
    named = {k: v.split("@")[0] if k == "pack" else v for k, v in body.get("options", {}).items()}
    assert {k: recorded[k].split("@")[0] if k == "pack" else recorded[k] for k in named} == named


def test_the_zona_options_schema_offers_the_draft_random_facilities_and_the_board_side():
    options = DOCUMENT["components"]["schemas"]["ZonaOptions"]
    assert {"draft", "random_facilities", "side"} <= set(options["properties"])
    assert options["properties"]["draft"]["enum"] == ["draft", "free"]
    assert "1 to 4 seats" in options["description"]
    assert {"zona", "zona_solo", "zona_four_players"} <= set(CREATE)


def test_a_zona_game_on_the_side_a_creator_chose(client):
    """Zona §"PRZYGOTOWANIE DO GRY" step 1 prints a side per player count; two players may take the other."""
    sides = {}
    for side in (None, "large"):
        options = {"first_voice": 0, **({"side": side} if side else {})}
        created = client.post("/games", json={"game": "zona", "seats": 2, "players": ["A", "B"], "options": options})
        assert created.status_code == 201, created.get_json()
        body = created.get_json()
        view = client.get(f"/games/{body['game_id']}/state", headers=bearer(body["seats"][0]["token"])).get_json()["view"]
        sides[side] = view["side"]
    assert sides == {None: "small", "large": "large"}


def test_a_side_the_pack_has_not_is_refused_and_creates_nothing(client):
    before = client.get("/games?game=zona").get_json()["games"]
    refused = client.post("/games", json={"game": "zona", "seats": 2, "options": {"side": "upside_down"}})
    assert refused.status_code == 422 and refused.get_json()["code"] == "bad_options"
    assert client.get("/games?game=zona").get_json()["games"] == before
