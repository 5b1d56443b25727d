"""A server told to stop (SIGTERM: a restart, a deploy) ends its open streams at once, over a real gunicorn."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time

import pytest

#: Far longer than the stop may take: a stream that ended by itself would not pass.
IDLE_SECONDS = 30


@pytest.fixture
def server_env():
    return {"HOLOTAPE_STREAM_IDLE_SECONDS": str(IDLE_SECONDS), "HOLOTAPE_STREAM_KEEPALIVE_SECONDS": "5"}


def _read_until(port: int, request: bytes, mark: bytes, read: list[tuple[bytes, float]]) -> None:
    """Send ``request`` and read until ``mark`` arrives (then close, as a client reconnecting would)."""
    with socket.create_connection(("127.0.0.1", port), timeout=IDLE_SECONDS) as sock:
        sock.sendall(request)
        answer = b""
        while mark not in answer and (chunk := sock.recv(65536)):
            answer += chunk
    read.append((answer, time.monotonic()))


def test_a_stopping_server_ends_its_open_streams_at_once(server, tmp_path):
    """An open stream ends within a poll with the closing comment, so its client reconnects to a process that
    stays (with Last-Event-ID, losing nothing), and the server exits long before its graceful timeout (10 s)."""
    created = server.request("POST", "/games", {"game": "counter", "seats": 1})[2]
    request = f"GET /games/{created['game_id']}/stream HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    closing = b": closing; reconnect with Last-Event-ID to go on"
    read: list[tuple[bytes, float]] = []
    reader = threading.Thread(target=_read_until, args=(server.port, request, closing, read))
    reader.start()
    time.sleep(1)  # the stream is open, and waits
    began = time.monotonic()
    os.killpg(server.process.pid, signal.SIGTERM)
    reader.join(timeout=IDLE_SECONDS)
    server.process.wait(timeout=IDLE_SECONDS)
    stopped = time.monotonic() - began
    ((body, ended),) = read
    assert b"event: state" in body and closing in body
    assert ended - began < 3, ended - began
    assert stopped < 5, stopped
    assert "Traceback" not in (tmp_path / "gunicorn.log").read_text()
