"""Over a real server: keep-alive connections are spread evenly over gunicorn's workers, and a connection
waits no longer than ``HOLOTAPE_ACCEPT_DEFER_SECONDS`` when the emptier worker cannot take it
(``service/gevent_worker.py``)."""

from __future__ import annotations

import http.client
import os
import signal
import time

import pytest

from service.gevent_worker import FREE, ConnectionTable
from tests.service.gunicorn import connections_held

#: Long enough that a worker of a loaded test machine always comes round to its socket within it, so the
#: spread is exact; the server's default is a hundredth of that.
DEFER = 1.0
CONNECTIONS = 16


@pytest.fixture
def server_env():
    return {"HOLOTAPE_WORKERS": "2", "HOLOTAPE_ACCEPT_DEFER_SECONDS": str(DEFER)}


def _held(server) -> dict[int, int]:
    """The connections each of the server's two workers holds, by pid."""
    held = connections_held(server.process.pid, server.port)
    assert len(held) == 2
    return held


def _connect(port: int) -> http.client.HTTPConnection:
    """A keep-alive connection that has been answered once (so a worker holds it)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    connection.request("GET", "/healthz")
    answer = connection.getresponse()
    answer.read()
    assert answer.status == 200
    return connection


def test_keep_alive_connections_are_spread_evenly_over_the_workers(server):
    """Sixteen clients opening their connections one after another: eight on each worker, where the
    kernel alone split them anywhere from 4/12 to 8/8."""
    connections = [_connect(server.port) for _ in range(CONNECTIONS)]
    try:
        assert sorted(_held(server).values()) == [CONNECTIONS // 2, CONNECTIONS // 2]
    finally:
        for connection in connections:
            connection.close()


def test_a_connection_is_taken_late_when_the_emptier_worker_is_stuck(server):
    """With one connection held, the other worker stopped: the crowded worker leaves the next connection
    for DEFER seconds, then takes it itself, and answers it."""
    first = _connect(server.port)
    stuck = next(pid for pid, held in _held(server).items() if held == 0)
    os.kill(stuck, signal.SIGSTOP)
    try:
        started = time.monotonic()
        second = _connect(server.port)
        waited = time.monotonic() - started
        second.close()
    finally:
        os.kill(stuck, signal.SIGCONT)
        first.close()
    assert DEFER * 0.9 <= waited < DEFER + 5


def test_a_worker_is_crowded_while_another_live_worker_holds_fewer():
    table = ConnectionTable(slots=4)
    first, second = table.claim([]), table.claim([0])
    assert (first, second) == (0, 1)
    table.mine = first
    assert not table.crowded()  # 0 against 0
    table.opened(1)
    assert table.crowded()  # 1 against 0
    table.counts[second] = 1
    assert not table.crowded()  # 1 against 1
    table.release(second)
    assert not table.crowded()  # alone: a freed slot is no worker
    assert table.counts[first] == 1


def test_a_slot_is_claimed_past_those_live_workers_hold_and_freed_when_one_exits():
    table = ConnectionTable(slots=3)
    assert table.claim([0, 2]) == 1
    table.release(1)
    assert table.counts[1] == FREE
    assert table.claim([0, 1, 2]) is None  # past the table's room: served uncounted
    table.mine = None
    table.opened(1)
    assert not table.crowded()
