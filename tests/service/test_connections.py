"""Over a real server: an error answer leaves the connection usable (or says it
closes), the server's own errors are problem+json, and a slow client is cut."""

from __future__ import annotations

import http.client
import json
import socket
import time

import pytest

ATTEMPTS = 10
#: (body, headers, status): refused bodies, the first one past the 64 KiB limit.
REFUSED = [
    (b"x" * (300 * 1024), {"Content-Type": "application/json"}, 413),
    (b"[" * 40 + b"]" * 40, {"Content-Type": "application/json"}, 400),
    (b"{bad", {"Content-Type": "application/json"}, 400),
    (b"a=1", {"Content-Type": "text/plain"}, 415),
]


#: A stream idle longer than Redis's socket timeout (2 s), which once cut it early.
IDLE_SECONDS = 3.5


@pytest.fixture
def server_env():
    return {"HOLOTAPE_CLIENT_TIMEOUT_SECONDS": "1", "HOLOTAPE_STREAM_IDLE_SECONDS": str(IDLE_SECONDS)}


def _next_request_works(connection: http.client.HTTPConnection, response: http.client.HTTPResponse) -> bool:
    """Send one more request on ``connection``; a server that said `Connection: close` is taken at its word."""
    if (response.getheader("Connection") or "").lower() == "close":
        connection.close()
    connection.request("GET", "/healthz")
    answer = connection.getresponse()
    answer.read()
    return answer.status == 200


def _refused_then_reused(port: int, body: bytes, headers: dict, status: int) -> int:
    """How many times, of ATTEMPTS, the request after a refused one failed on the same connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    failures = 0
    try:
        for _ in range(ATTEMPTS):
            connection.request("POST", "/games", body=body, headers=headers)
            response = connection.getresponse()
            problem = json.loads(response.read())
            assert response.status == status and problem["status"] == status
            assert response.getheader("Content-Type") == "application/problem+json"
            try:
                failures += not _next_request_works(connection, response)
            except (http.client.HTTPException, OSError):
                failures += 1
                connection.close()
    finally:
        connection.close()
    return failures


def _raw(port: int, request: bytes, wait: float = 10) -> tuple[bytes, float]:
    """Send ``request`` and read until the server closes; the answer and how long it took."""
    began = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer, time.monotonic() - began


def test_errors_keep_the_connection_usable_and_slow_clients_are_cut(server):
    assert [_refused_then_reused(server.port, *case) for case in REFUSED] == [0] * len(REFUSED)

    # Headers past gunicorn's limits: its own answer, as problem+json.
    answer, _ = _raw(server.port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n")
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 431") and b"application/problem+json" in head, head
    assert json.loads(body)["code"] == "headers_too_large"

    # A body promised and never sent: cut after HOLOTAPE_CLIENT_TIMEOUT_SECONDS, with a 408 when it can be told.
    answer, took = _raw(
        server.port, b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
    )
    assert took < 5, took
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]


def test_a_quiet_stream_keeps_alive_past_redis_timeout_and_ends_cleanly(server, tmp_path):
    created = server.request("POST", "/games", {"game": "counter", "seats": 1})[2]
    answer, took = _raw(server.port, f"GET /games/{created['game_id']}/stream HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    body = answer.decode()
    assert IDLE_SECONDS <= took < IDLE_SECONDS + 2, took
    assert body.count(": keep-alive") >= 4  # every 0.5 s here
    assert ": closing; reconnect with Last-Event-ID to go on" in body
    assert "Traceback" not in (tmp_path / "gunicorn.log").read_text()
