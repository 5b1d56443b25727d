"""Hostile inputs get a 4xx problem+json and leave Redis exactly as it was, key by key."""

from __future__ import annotations

import pytest

from service.api import create_app
from tests.service.conftest import TEST_CONFIG
from tests.service.tables import new_table

JSON = "application/json"
DEEP = "[" * 30000 + "]" * 30000
HUGE = "9" * 5000  # past Python's own 4,300-digit limit on int()
BIG = "9" * 3000
LONE = "\\ud800"


def snapshot(redis_client) -> dict[bytes, bytes | None]:
    """Every key with its serialized value (DUMP): any write shows as a difference."""
    return {key: redis_client.dump(key) for key in redis_client.scan_iter(count=1000)}


@pytest.fixture
def tables(services, redis_client):
    client = create_app(services, TEST_CONFIG).test_client()
    running = new_table(client, seed="hostile")
    lobby = new_table(client, seed="hostile-lobby", players=["Ann"], turn_seconds=3600, vacation_days=3)
    client.get("/games")  # the index catches up now, not during a refused request
    return client, running, lobby


def _hostile(running, lobby):
    seat0 = {**running.seats[0], "If-Match": '"3"'}
    return [
        ("get", running.url(f"/events?after={2**64 + 1}"), {}, 422),
        ("get", running.url(f"/stream?after={2**64 + 1}"), {}, 422),
        ("get", running.url(f"/state?at={2**64 + 1}"), {}, 422),
        ("get", f"/games?limit={HUGE}", {}, 422),
        ("get", "/games?cursor=%00", {}, 400),
        ("post", "/games", {"data": DEEP}, 400),
        ("post", "/games", {"data": f'{{"game": "counter", "seats": {HUGE}}}'}, 400),
        ("post", "/games", {"data": f'{{"game": "counter", "seats": {BIG}}}'}, 400),
        ("post", "/games", {"data": f'{{"game": "counter", "seats": 2, "players": ["{LONE}"]}}'}, 400),
        ("post", "/games", {"data": f'{{"game": "counter", "seats": 2, "options": {{"{LONE}": 1}}}}'}, 400),
        ("post", "/games", {"data": '{"game": "counter", "seats": NaN}'}, 400),
        ("post", "/games", {"data": '{"game": "counter", "seats": 1e999}'}, 400),
        ("post", "/games", {"data": b'{"game": "\xff"}'}, 400),
        ("post", "/games", {"data": '{"game": '}, 400),
        ("post", "/games", {"data": "x" * (65 * 1024)}, 413),
        ("post", running.url("/actions"),
         {"data": f'{{"type": "add", "amount": 1, "note": "{LONE}"}}', "headers": {**seat0, "Idempotency-Key": "k1"}},
         400),
        ("post", running.url("/actions"), {"data": f'{{"type": "add", "amount": {HUGE}}}', "headers": seat0}, 400),
        ("post", running.url("/actions"), {"data": DEEP, "headers": seat0}, 400),
        ("post", lobby.url("/vacation"), {"data": f'{{"days": {BIG}}}', "headers": lobby.seats[0]}, 400),
        ("post", lobby.url("/vacation"), {"data": '{"days": 100000}', "headers": lobby.seats[0]}, 422),
        ("post", lobby.url("/seats"), {"data": f'{{"name": "B{LONE}b"}}'}, 400),
        ("post", running.url("/webhooks"), {"data": '{"url": "http://[::1/hook"}', "headers": running.seats[0]}, 422),
    ]  # fmt: skip


def test_each_hostile_input_is_a_4xx_problem_and_writes_nothing(tables, redis_client):
    client, running, lobby = tables
    for method, path, kwargs, status in _hostile(running, lobby):
        before = snapshot(redis_client)
        response = getattr(client, method)(path, content_type=JSON, **kwargs)
        label = f"{method} {path[:60]} {str(kwargs.get('data', ''))[:60]}"
        assert response.status_code == status, (label, response.get_data(as_text=True)[:300])
        assert response.content_type == "application/problem+json", label
        assert response.get_json()["code"], label
        assert snapshot(redis_client) == before, label


def test_a_fair_body_still_goes_through(tables):
    client, _, _ = tables
    response = client.post("/games", json={"game": "counter", "seats": 2, "players": ["Zoë 🎲"]})
    assert response.status_code == 201
