"""GET /games/{id}/stream: the log live, as Server-Sent Events.

The first message (``event: state``) is the caller's view now; it carries no
``id`` so it never moves a client's Last-Event-ID. Then every event after
``Last-Event-ID`` (or ``?after=``; by default after the version of that
view) arrives as ``event: event`` with ``id:`` its version, redacted for the
caller and worded exactly as GET /games/{id}/events would show it (the
stream keeps the game at its place, ``Queries.follower``, so it words each
event from the game right before it folding it once). A client that
reconnects with the last id it saw loses nothing and gets nothing twice.

A stream holds a connection (a greenlet of the gevent worker, no thread:
``service.gunicorn_conf``) and a Redis connection while it waits, so it
ends after ``STREAM_MAX_SECONDS`` or ``STREAM_IDLE_SECONDS`` without an
event (the client reconnects; ``retry:`` tells it how soon), and sends a
keep-alive comment every ``STREAM_KEEPALIVE_SECONDS`` so proxies keep it open.
Each process serves at most ``STREAM_MAX_OPEN`` streams (past it: 503
``streams_busy``) and ``STREAM_MAX_PER_CALLER`` to one token, or to one
address without a token (past it: 429 ``too_many_streams``).

When the process is told to stop (gunicorn's SIGTERM: a restart or a
deploy), every stream ends within a poll (``service.stopping``): its client
reconnects at once, to a process that stays, and loses nothing; a stream
left open would hold the old process for its whole graceful timeout.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from service.api.callers import bearer, caller, services
from service.api.problems import Problem
from service.api.schemas import MAX_VERSION
from service.stopping import STOPPING
from service.usecases.queries import Queries

blp = Blueprint("stream", __name__, url_prefix="/games", description="The log, live")

EVENT_STREAM = "text/event-stream"
RETRY_MS = 1000
#: The longest single wait on Redis: under its client's socket timeout
#: (service.adapters.config), so a quiet stream is never taken for a lost Redis.
POLL_SECONDS = 1.0
EXAMPLE = (
    "retry: 1000\n\n"
    'event: state\ndata: {"game_id": "3f2c…", "version": 12, "view": {"total": 7}, "…": "…"}\n\n'
    'id: 13\nevent: event\ndata: {"version": 13, "type": "CommandAccepted", "text": "Seat 1 acts.", "…": "…"}\n\n'
    ": keep-alive\n\n"
)


#: The body of a stream, as the document describes it: text, a message at a time.
STREAM_BODY = {
    "type": "string",
    "description": "Server-Sent Events (text/event-stream), read as they arrive. Each message is a block of "
    "`field: value` lines ended by a blank line:\n\n"
    "- first `retry: 1000` (how many milliseconds to wait before reconnecting);\n"
    "- then `event: state` with `data:` one line of JSON, the caller's view now exactly as `GET "
    "/games/{game_id}/state` answers it (the `State` schema), and no `id`;\n"
    "- then each event of the log as `event: event` with `id:` its version and `data:` one line of JSON, "
    "an `Event` as in the log's pages (the game's own `…Event` schema), with its `text`;\n"
    "- comments (lines starting with `:`) keep the connection open (`: keep-alive`) or say why the stream "
    "ends (`: closing; reconnect with Last-Event-ID to go on`).\n\n"
    "Reconnect with `Last-Event-ID` set to the last `id` received to go on without a gap; `Last-Event-ID: 0` "
    "(or `?after=0`) replays the whole log.",
}


class StreamArgs(Schema):
    after = fields.Integer(
        validate=validate.Range(0, MAX_VERSION),
        metadata={"description": "Send events after this version (Last-Event-ID wins when both are sent)", "example": 12},
    )


AFTER = {
    "in": "query",
    "name": "after",
    "required": False,
    "description": "Send events after this version (Last-Event-ID wins when both are sent; `0`: the whole log); "
    "default: after the version of the first, state message",
    "schema": {"type": "integer", "minimum": 0, "maximum": MAX_VERSION, "example": 12},
}
LAST_EVENT_ID = {
    "in": "header",
    "name": "Last-Event-ID",
    "required": False,
    "description": "The `id` of the last event received, to resume without a gap (`0`: from the first event)",
    "schema": {"type": "string", "pattern": "^[0-9]{1,12}$", "example": "13"},
}


#: Seconds a refused stream is told to wait before trying again.
RETRY_AFTER_BUSY = 5


@dataclass
class OpenStreams:
    """The streams this process serves now, counted by caller (a token, or an address)."""

    most: int
    most_per_caller: int
    by_caller: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def open(self, who: str) -> Problem | None:
        """Count a stream for ``who``, or the problem that refuses it."""
        with self.lock:
            if self.by_caller.total() >= self.most:
                return Problem(
                    503, "streams_busy", "this server holds as many streams as it may; try again",
                    headers={"Retry-After": str(RETRY_AFTER_BUSY)},
                )  # fmt: skip
            if self.by_caller[who] >= self.most_per_caller:
                return Problem(
                    429, "too_many_streams", f"at most {self.most_per_caller} open streams per token (or address)",
                    headers={"Retry-After": str(RETRY_AFTER_BUSY)},
                )  # fmt: skip
            self.by_caller[who] += 1
            return None

    def close(self, who: str) -> None:
        with self.lock:
            self.by_caller[who] -= 1
            if self.by_caller[who] <= 0:
                del self.by_caller[who]


def open_streams() -> OpenStreams:
    config = current_app.config
    found: OpenStreams = current_app.extensions.setdefault(
        "holotape.open_streams",
        OpenStreams(int(config["STREAM_MAX_OPEN"]), int(config["STREAM_MAX_PER_CALLER"])),
    )
    return found


def sse(event: str, data: Any, id_: int | None = None) -> str:
    lines = [f"id: {id_}"] if id_ is not None else []
    lines += [f"event: {event}", f"data: {json.dumps(data, sort_keys=True)}"]
    return "\n".join(lines) + "\n\n"


def _resume_point(args: dict[str, Any], current: int) -> int:
    header = request.headers.get("Last-Event-ID")
    if header is not None:
        if not header.strip().isdigit() or len(header.strip()) > 12:
            raise Problem(400, "bad_last_event_id", "Last-Event-ID takes the id (a version) of an event")
        after = int(header)
    else:
        after = args.get("after", current)
    if after > current:
        raise Problem(422, "no_such_version", f"the game has no version {after} yet")
    return after


@blp.route("/<game_id>/stream")
class GameStream(MethodView):
    @blp.arguments(StreamArgs, location="query")
    @blp.doc(
        operationId="streamGame",
        # Listed here in full: a manual list replaces the one flask-smorest makes from StreamArgs.
        parameters=[AFTER, LAST_EVENT_ID],
        responses={
            "200": {
                "description": "An event stream: first the caller's view, then each event as it is appended",
                "content": {EVENT_STREAM: {"schema": STREAM_BODY, "example": EXAMPLE}},
            }
        },
    )
    def get(self, args: dict[str, Any], game_id: str) -> Response:
        """Follow the game live (Server-Sent Events), resumable with Last-Event-ID."""
        seat = caller(game_id).seat
        queries = services().queries
        first = queries.state(game_id, seat)
        after = _resume_point(args, first["version"])
        config = current_app.config
        messages = _messages(
            queries,
            game_id,
            seat,
            first,
            after,
            float(config["STREAM_MAX_SECONDS"]),
            float(config["STREAM_IDLE_SECONDS"]),
            float(config["STREAM_KEEPALIVE_SECONDS"]),
            services().unavailable,
        )
        streams = open_streams()
        who = bearer() or f"address {request.remote_addr}"
        refused = streams.open(who)
        if refused is not None:
            raise refused
        response = Response(
            messages,  # needs no request context: everything it uses is passed in
            mimetype=EVENT_STREAM,
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
        # On close, whether or not the stream was ever read (a client gone at once).
        response.call_on_close(lambda: streams.close(who))
        return response


def _messages(
    queries: Queries,
    game_id: str,
    seat: int | None,
    first: dict[str, Any],
    after: int,
    longest: float,
    idle: float,
    keepalive: float,
    unavailable: tuple[type[Exception], ...],
) -> Iterator[str]:
    yield f"retry: {RETRY_MS}\n\n"
    yield sse("state", first)
    follower = queries.follower(game_id, seat, after)
    began = time.monotonic()
    quiet_since = spoke = began
    while True:
        now = time.monotonic()
        left = min(began + longest, quiet_since + idle) - now
        if left <= 0 or STOPPING.is_set():
            yield ": closing; reconnect with Last-Event-ID to go on\n\n"
            return
        if now - spoke >= keepalive:
            yield ": keep-alive\n\n"
            spoke = now
        wait = min(keepalive - (now - spoke), left, POLL_SECONDS)
        try:
            batch = follower.next(max(1, int(wait * 1000)))
        except unavailable:
            # The headers are sent: end the stream cleanly; the client
            # reconnects with Last-Event-ID after `retry` and loses nothing.
            yield ": the store does not answer; reconnect with Last-Event-ID\n\n"
            return
        for event in batch:
            yield sse("event", event, event["version"])
        if batch:
            quiet_since = spoke = time.monotonic()
