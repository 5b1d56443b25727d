"""``events.wire``: the append's one command, sent without redis-py's per-call hooks, loses nothing of its care.

Run per backend, as the store's contract is: on a cluster ``send`` is the
client's own ``execute_command`` (routed by slot), on a standalone server
the lean path, which must answer, retry and fail exactly as redis-py would.
"""

from __future__ import annotations

from typing import Any

import pytest
import redis
from redis.backoff import NoBackoff
from redis.cluster import RedisCluster
from redis.exceptions import NoScriptError, ResponseError
from redis.retry import Retry

from events.wire import sender


def test_a_command_is_answered_with_the_servers_raw_reply(raw: redis.Redis | RedisCluster) -> None:
    send = sender(raw)
    assert send("INCRBY", "{wire}count", 5) == 5
    assert send("SET", "{wire}word", "köln") in (b"OK", True)  # a cluster's execute_command parses SET
    assert send("EVAL", "return redis.call('GET', KEYS[1])", 1, "{wire}word") == "köln".encode()
    assert raw.get("{wire}count") == b"5"


def test_the_servers_errors_are_raised_as_redis_py_raises_them(raw: redis.Redis | RedisCluster) -> None:
    send = sender(raw)
    raw.set("{wire}text", "not a number")
    with pytest.raises(NoScriptError):
        send("EVALSHA", "0" * 40, 1, "{wire}text")
    with pytest.raises(ResponseError, match="not an integer"):
        send("INCR", "{wire}text")
    assert raw.get("{wire}text") == b"not a number"


class _DroppedOnceHandedOut(redis.ConnectionPool):
    """A real pool whose first connection the server drops just after the pool hands it out (checked,
    connected, idle): the command written next meets a closed socket, which only a retry survives."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.killer = redis.Redis(connection_pool=redis.ConnectionPool(**{**kwargs, "retry": None}))
        self.dropped: list[int] = []

    def get_connection(self, *args: Any, **kwargs: Any) -> Any:
        conn = super().get_connection(*args, **kwargs)
        if not self.dropped:
            conn.send_command("CLIENT", "ID")
            self.dropped.append(conn.read_response())
            assert self.killer.client_kill_filter(_id=self.dropped[0]) == 1
        return conn


def test_a_connection_the_server_dropped_is_opened_again_and_the_command_sent_once(redis_client: redis.Redis) -> None:
    # The retry the service's clients are made with (``service.adapters.config``): one, on a broken connection.
    retry = Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,))
    pool = _DroppedOnceHandedOut(**redis_client.connection_pool.connection_kwargs, retry=retry)
    send = sender(redis.Redis(connection_pool=pool))
    try:
        assert send("INCR", "wire:after-kill") == 1
        assert send("CLIENT", "ID") != pool.dropped[0]
        assert redis_client.get("wire:after-kill") == b"1"
    finally:
        pool.killer.close()
        pool.disconnect()


def test_every_connection_goes_back_to_the_pool_answered_or_refused(redis_client: redis.Redis) -> None:
    pool = redis.ConnectionPool(**redis_client.connection_pool.connection_kwargs, max_connections=1)
    send = sender(redis.Redis(connection_pool=pool))
    redis_client.set("wire:text", "x")
    try:
        for _ in range(20):
            with pytest.raises(ResponseError):
                send("INCR", "wire:text")
            assert send("GET", "wire:text") == b"x"
        # One connection in all: each send gave it back, refused or answered (a second would raise).
        assert len(pool._in_use_connections) == 0
        assert len(pool._available_connections) == 1
    finally:
        pool.disconnect()


def test_on_a_cluster_each_command_is_routed_by_its_keys_slot(raw: redis.Redis | RedisCluster) -> None:
    send = sender(raw)
    for key in ("{a}x", "{b}x", "{c}x", "{d}x"):
        assert send("INCR", key) == 1
        assert raw.get(key) == b"1"
