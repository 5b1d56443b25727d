"""One Redis command on a standalone client's connections, without redis-py's per-call hooks around it.

An action costs one round trip, the append's script, and redis-py 8 wraps
each call in work an action does not need: observability records (a
duration, a connection count, a pool name looked up twice), a per-call
closure and failure counter, a check for ``HIMPORT SET``, its own packer
re-tupling every argument. That was a fifth of an append's client
instructions, and the append runs sixteen writers to a process under one
interpreter lock.

``send`` keeps what matters of ``Redis.execute_command``: a connection
from the client's own pool (so its size, timeouts and health checks hold),
the connection's ``Retry`` (a dropped connection is closed and the command
sent again, as configured), the server's errors raised as redis-py raises
them (``NoScriptError``, ``ResponseError``), and the connection back in
the pool whatever happens (whose ``release`` closes one the server asked to
move). A cluster client routes each command by its keys' slot, so for one
``send`` is its own ``execute_command``. Replies go through no response
callback: use it only for commands whose raw reply the caller reads
(``EVALSHA``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import redis
from hiredis import pack_command  # redis-py's own packer calls it too, after re-tupling every argument

Send = Callable[..., Any]


def sender(client: redis.Redis | redis.RedisCluster) -> Send:
    """``send(*args)``: the command's raw reply, sent on one of ``client``'s pooled connections."""
    if isinstance(client, redis.RedisCluster):
        return client.execute_command
    pool = client.connection_pool

    def send(*args: Any) -> Any:
        conn = pool.get_connection()
        try:
            return conn.retry.call_with_retry(lambda: _round_trip(conn, args), lambda _error: conn.disconnect())
        finally:
            pool.release(conn)

    return send


def _round_trip(conn: Any, args: tuple[Any, ...]) -> Any:
    conn.send_packed_command([pack_command(args)])
    return conn.read_response()
