"""Counting a client's Redis round trips: one packet sent is one round trip, however many commands it holds."""

from __future__ import annotations

import redis


class CountingConnection(redis.Connection):
    """A connection that counts the packets (round trips) and the commands it sends, over every instance."""

    packets = 0
    commands = 0

    def send_packed_command(self, command, check_health: bool = True) -> None:
        CountingConnection.packets += 1
        super().send_packed_command(command, check_health)

    def send_command(self, *args, **kwargs) -> None:
        CountingConnection.commands += 1
        super().send_command(*args, **kwargs)


def counted_client(url: str) -> redis.Redis:
    """A client of the server at ``url`` whose every round trip ``CountingConnection.packets`` counts."""
    return redis.Redis(connection_pool=redis.ConnectionPool.from_url(url, connection_class=CountingConnection))
