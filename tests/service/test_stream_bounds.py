"""Open streams are bounded per caller and per process, keep alive, and end when idle."""

from __future__ import annotations

import time

from service.api import create_app
from tests.service.conftest import TEST_CONFIG
from tests.service.tables import new_table

BOUNDED = {**TEST_CONFIG, "STREAM_MAX_OPEN": 3, "STREAM_MAX_PER_CALLER": 2, "STREAM_IDLE_SECONDS": 30}


def test_streams_past_the_bounds_are_refused_and_a_closed_one_frees_its_place(services):
    client = create_app(services, BOUNDED).test_client()
    table = new_table(client)
    url = table.url("/stream")
    mine = [client.get(url, headers=table.seats[0], buffered=False) for _ in range(2)]
    assert [r.status_code for r in mine] == [200, 200]
    refused = client.get(url, headers=table.seats[0])
    assert refused.status_code == 429 and refused.get_json()["code"] == "too_many_streams"
    assert int(refused.headers["Retry-After"]) >= 1
    other = client.get(url, headers=table.seats[1], buffered=False)
    assert other.status_code == 200
    busy = client.get(url)  # a spectator: a third caller, past the process's total
    assert busy.status_code == 503 and busy.get_json()["code"] == "streams_busy"
    mine[0].close()
    again = client.get(url, headers=table.seats[0], buffered=False)
    assert again.status_code == 200
    for response in (mine[1], other, again):
        response.close()


def test_a_quiet_stream_keeps_alive_then_ends_cleanly(services):
    config = {**TEST_CONFIG, "STREAM_KEEPALIVE_SECONDS": 0.2, "STREAM_IDLE_SECONDS": 0.7}
    client = create_app(services, config).test_client()
    table = new_table(client)
    began = time.monotonic()
    body = client.get(table.url("/stream"), headers=table.seats[0]).get_data(as_text=True)
    took = time.monotonic() - began
    assert body.count(": keep-alive") >= 2
    assert body.rstrip().endswith(": closing; reconnect with Last-Event-ID to go on")
    assert 0.7 <= took < 2.0
