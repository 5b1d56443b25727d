"""A join killed between its SeatJoined and its token leaves no orphan: the same join,
sent again with the same Idempotency-Key, gets that seat with a working token."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

from service.api import create_app
from tests.conftest import TEST_GAMES
from tests.service.conftest import TEST_CONFIG
from tests.service.tables import bearer, new_table

ROOT = Path(__file__).resolve().parents[2]

#: Joins, and dies (SIGKILL) at the moment the seat's token would be written.
JOIN_AND_DIE = """
import os, signal, sys
from service import wiring
from service.adapters.config import redis_client
from service.adapters.tokens import Tokens
from tests.games.counter import COUNTER
from domain import registry
registry.register(COUNTER)
Tokens.issue = lambda *args, **kwargs: os.kill(os.getpid(), signal.SIGKILL)
wiring.build(redis_client(sys.argv[1])).lobby.join(sys.argv[2], "Bob", claim=sys.argv[3])
"""


def test_a_join_killed_before_its_token_is_recovered_by_the_same_join(services, redis_url):
    client = create_app(services, TEST_CONFIG).test_client()
    table = new_table(client, seats=3, players=["Ann"])
    key = str(uuid.uuid4())
    died = subprocess.run(
        [sys.executable, "-c", JOIN_AND_DIE, redis_url, table.game_id, key],
        cwd=ROOT, env={**os.environ, "HOLOTAPE_GAMES": TEST_GAMES}, capture_output=True, timeout=60,
    )  # fmt: skip
    assert died.returncode == -9, died.stderr.decode()[-2000:]
    seats = client.get(table.url()).get_json()["seats"]
    assert [s["kind"] for s in seats] == ["human", "human", "open"]  # seat 1 taken, its token never written

    again = client.post(table.url("/seats"), json={"name": "Bob"}, headers={"Idempotency-Key": key})
    assert again.status_code == 201, again.get_json()
    assert again.get_json()["seat"] == 1
    token = bearer(again.get_json()["token"])
    assert client.get(table.url("/state"), headers=token).get_json()["seat"] == 1
    assert [s["kind"] for s in client.get(table.url()).get_json()["seats"]] == ["human", "human", "open"]

    # Another key claims nothing: it takes the next open seat.
    other = client.post(table.url("/seats"), json={"name": "Cy"}, headers={"Idempotency-Key": str(uuid.uuid4())})
    assert other.get_json()["seat"] == 2
    # Nor does the same key in another game, nor a short one.
    elsewhere = new_table(client, seats=2, players=["Di"])
    assert client.post(elsewhere.url("/seats"), json={"name": "Bob"}, headers={"Idempotency-Key": key}).get_json()["seat"] == 1
    short = client.post(elsewhere.url("/seats"), json={"name": "Ed"}, headers={"Idempotency-Key": "abc"})
    assert short.status_code == 400 and short.get_json()["code"] == "bad_idempotency_key"


def test_leaving_ends_the_claim(services):
    client = create_app(services, TEST_CONFIG).test_client()
    table = new_table(client, seats=2, players=["Ann"])
    key = str(uuid.uuid4())
    joined = client.post(table.url("/seats"), json={"name": "Bob"}, headers={"Idempotency-Key": key}).get_json()
    assert client.delete(table.url("/seats/1"), headers=bearer(joined["token"])).status_code == 200
    # The same key now joins afresh (the seat was open again), with a new SeatJoined.
    again = client.post(table.url("/seats"), json={"name": "Bob"}, headers={"Idempotency-Key": key})
    assert again.status_code == 201 and again.get_json()["version"] > joined["version"] + 1
