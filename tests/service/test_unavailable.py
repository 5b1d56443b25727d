"""A lost Redis is a 503 with Retry-After on every endpoint, not a bug's 500, and the
service recovers by itself when Redis is back."""

from __future__ import annotations

import signal
import time

import pytest

from service import wiring
from service.adapters.config import SOCKET_TIMEOUT, redis_client
from service.adapters.embedded_redis import EmbeddedRedis
from service.api import create_app
from service.cli import openapi_document
from service.usecases.ports import ADDRESS_BUCKET
from tests.service.conftest import TEST_CONFIG
from tests.service.tables import act, new_table

GAME = "0123456789abcdef0123456789abcdef"
#: What each path parameter is filled with: names that exist, so a request gets as far as Redis.
PATH_VALUES = {"game_id": GAME, "seat": "0", "proposal_id": "3", "webhook_id": "wh_0123456789abcdef"}
#: Served from memory: the API document and its browser.
NO_REDIS_NEEDED = {"/openapi.json", "/docs"}


def _operations():
    for path, item in openapi_document()["paths"].items():
        for method, operation in item.items():
            if method != "parameters":
                yield path, method, operation


def _request(path: str, operation: dict) -> tuple[str, dict]:
    for name, value in PATH_VALUES.items():
        path = path.replace("{" + name + "}", value)
    headers = {"Authorization": "Bearer some-token", "If-Match": '"3"'}
    kwargs: dict = {"headers": headers}
    body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    if body:
        kwargs["json"] = body.get("example", {})
    return path, kwargs


def _assert_unavailable(response, path):
    assert response.status_code == 503, (path, response.status_code, response.get_data(as_text=True))
    assert int(response.headers["Retry-After"]) >= 1
    if path != "/healthz":
        assert response.content_type == "application/problem+json"
        assert response.get_json()["code"] == "store_unavailable"


def test_every_endpoint_answers_503_with_retry_after_while_redis_is_down():
    # Nothing listens on port 1: every connection is refused, as when Redis is down.
    services = wiring.build(redis_client("redis://127.0.0.1:1/0"), rate_limits={ADDRESS_BUCKET: (100, 60)})
    client = create_app(services, TEST_CONFIG).test_client()
    seen = 0
    for path, method, operation in _operations():
        if path in NO_REDIS_NEEDED:
            continue
        url, kwargs = _request(path, operation)
        _assert_unavailable(getattr(client, method)(url, **kwargs), path)
        seen += 1
    assert seen >= 20  # every operation of the document, not a few


@pytest.fixture
def pausable(tmp_path):
    with EmbeddedRedis(tmp_path / "pausable", durable=False) as server:
        yield server
        server.process.send_signal(signal.SIGCONT)


def test_a_paused_redis_answers_503_within_the_socket_timeout_then_recovers(pausable):
    client = create_app(wiring.build(redis_client(pausable.url)), TEST_CONFIG).test_client()
    table = new_table(client)
    assert client.get(table.url("/state")).status_code == 200
    pausable.process.send_signal(signal.SIGSTOP)
    try:
        began = time.monotonic()
        response = act(client, table, 0, {"type": "add", "amount": 1}, version=3)
        _assert_unavailable(response, table.url("/actions"))
        assert time.monotonic() - began < SOCKET_TIMEOUT + 1.5
    finally:
        pausable.process.send_signal(signal.SIGCONT)
    # Back by itself: the same client, no restart.
    assert client.get(table.url("/state")).status_code == 200
    assert client.get("/healthz").status_code == 200
