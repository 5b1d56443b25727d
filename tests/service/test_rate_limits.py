"""Rate limits per token and per address: guessing tokens meets 429s and writes no key per token."""

from __future__ import annotations

import secrets

from service import wiring
from service.api import create_app
from service.usecases.ports import ADDRESS_BUCKET, REFUSED_BUCKET, TOKEN_BUCKET
from tests.service.tables import bearer, new_table

GUESSES = 2000


def _app(redis_client, **limits):
    return create_app(wiring.build(redis_client, rate_limits=limits)).test_client()


def _rate_keys(redis_client) -> list[bytes]:
    return list(redis_client.scan_iter("holotape:rate:*"))


def test_each_token_has_its_own_allowance_answered_with_retry_after(redis_client):
    client = _app(redis_client, **{TOKEN_BUCKET: (3, 60)})
    table = new_table(client, seats=1)
    answers = [client.get(table.url("/state"), headers=table.seats[0]) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[-1].get_json()["code"] == "rate_limited" and 1 <= int(answers[-1].headers["Retry-After"]) <= 60
    # Another token has its own allowance.
    assert client.get(table.url("/state"), headers=table.creator).status_code == 200


def test_random_tokens_from_one_address_meet_429s_and_write_no_key_per_token(redis_client):
    client = _app(redis_client, **{TOKEN_BUCKET: (1200, 60), ADDRESS_BUCKET: (100000, 60), REFUSED_BUCKET: (60, 60)})
    table = new_table(client, seats=1)
    statuses = [
        client.get(table.url("/state"), headers=bearer(secrets.token_urlsafe(24))).status_code for _ in range(GUESSES)
    ]
    assert statuses[:60] == [403] * 60
    assert set(statuses[60:]) == {429}
    # The refused address is refused with a real token too, until its window ends...
    assert client.get(table.url("/state"), headers=table.seats[0]).status_code == 429
    # ...and the guesses cost one key (the address's), none per token.
    assert len(_rate_keys(redis_client)) <= 3


def test_every_request_counts_against_its_address_token_or_not(redis_client):
    client = _app(redis_client, **{ADDRESS_BUCKET: (10, 60)})
    answers = [
        client.post("/games", json={"game": "counter", "seats": 1}, headers=bearer(secrets.token_urlsafe(24)))
        for _ in range(12)
    ]
    assert [a.status_code for a in answers] == [201] * 10 + [429, 429]
    assert client.get("/games").status_code == 429
    assert len(_rate_keys(redis_client)) == 1
