"""HTTP fixtures: the app on the harness's real Redis, and a way to set a table."""

from __future__ import annotations

import pytest

from service.api import create_app
from service.usecases.services import Services
from tests.service.gunicorn import server, server_env  # noqa: F401 - fixtures for the tests here

#: Short streams, so a test reading one to its end waits well under a second.
TEST_CONFIG = {
    "RATE_LIMIT": "0",
    "STREAM_MAX_SECONDS": 3.0,
    "STREAM_IDLE_SECONDS": 0.4,
    "STREAM_KEEPALIVE_SECONDS": 0.1,
}


@pytest.fixture
def app(services: Services):
    return create_app(services, TEST_CONFIG)


@pytest.fixture
def client(app):
    return app.test_client()
