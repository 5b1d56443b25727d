"""gunicorn's settings for the API (``gunicorn -c python:service.gunicorn_conf``).

``holotape run`` and the tests' real server both start from here, so what
is tested is what runs. Every value can be overridden on the command line.

Why gevent: an event stream waits for minutes on Redis; with one thread per
connection (gthread) 200 open streams starved ``/healthz``. A gevent worker
serves each connection in a greenlet, so waiting costs a little memory and
no thread, and ``worker_connections`` bounds what one process holds. The
worker is gevent's with new connections spread evenly over the workers
(``service.gevent_worker``): left to the kernel, a worker could hold twelve
of sixteen keep-alive clients while the other held four.

Slow clients: headers must arrive within ``keepalive`` seconds (gevent
times the parse of every request on a connection, the first included); a
body, and each write to a client that does not read, within
``HOLOTAPE_CLIENT_TIMEOUT_SECONDS`` (``service.wsgi`` sets it on the socket);
past either the connection is closed, and no other connection waits for it.
"""

from __future__ import annotations

import json
import logging
import os
import signal
from typing import TYPE_CHECKING

from gunicorn import util

from service import gevent_worker
from service.stopping import STOPPING

if TYPE_CHECKING:
    import socket
    from types import FrameType

    from gunicorn.arbiter import Arbiter
    from gunicorn.workers.base import Worker

worker_class = "service.gevent_worker.EvenGeventWorker"
workers = int(os.environ.get("HOLOTAPE_WORKERS") or 2)
#: Connections one worker process holds at once (open streams included);
#: past it, new connections wait in the listen backlog.
worker_connections = int(os.environ.get("HOLOTAPE_WORKER_CONNECTIONS") or 2000)
#: Seconds for a request's headers to arrive, and to wait for the next
#: request on a kept-alive connection.
keepalive = 5
#: A worker that stops answering gunicorn's master for this long is restarted.
timeout = 30
#: On SIGTERM, requests have this long to finish (open streams end at once:
#: post_worker_init below).
graceful_timeout = 10
#: Bounds on the request line and headers (gunicorn's defaults, stated).
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190


#: Codes of the errors gunicorn answers itself, before the app sees the request.
SERVER_CODES = {
    400: "bad_request",
    403: "forbidden",
    414: "request_line_too_long",
    417: "expectation_failed",
    431: "headers_too_large",
    500: "internal_error",
    501: "not_implemented",
}


def write_problem(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's error answer as problem+json, like every other error of the API."""
    code = SERVER_CODES.get(status_int, "bad_request")
    body = json.dumps(
        {"type": f"/problems/{code}", "title": reason, "status": status_int, "code": code, "detail": mesg[:200]}
    ).encode()
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
        f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin-1") + body)


# gunicorn writes its own errors (a request line or headers past the limits
# above, a malformed request) with this one function, as an HTML page; there
# is no setting for it, so the function is replaced.
util.write_error = write_problem


class SlowClientCut(logging.Filter):
    """A client cut by the socket timeout is routine, not a failure: one DEBUG line, no traceback.

    gunicorn logs any socket error but a reset or a broken pipe as an
    exception with its traceback; a timeout is how ``service.wsgi`` cuts a
    client that sends or reads too slowly, which is the protection working.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        failure = record.exc_info[1] if record.exc_info else None
        if not isinstance(failure, TimeoutError):
            return True
        record.exc_info, record.exc_text = None, None
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        record.msg, record.args = "cut a client too slow to send or to read (HOLOTAPE_CLIENT_TIMEOUT_SECONDS)", ()
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


def post_worker_init(worker: Worker) -> None:
    worker.log.error_log.addFilter(SlowClientCut())
    # gunicorn has no hook for a graceful stop, so its SIGTERM handler is wrapped:
    # open streams end now (their clients reconnect elsewhere) instead of holding
    # the process for graceful_timeout.
    stop = worker.handle_exit

    def stopping(sig: int, frame: FrameType | None) -> None:
        STOPPING.set()
        stop(sig, frame)

    signal.signal(signal.SIGTERM, stopping)


def pre_fork(server: Arbiter, worker: Worker) -> None:
    gevent_worker.pre_fork(server.WORKERS.values(), worker)


def child_exit(server: Arbiter, worker: Worker) -> None:
    gevent_worker.child_exit(worker)
