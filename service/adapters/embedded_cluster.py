"""A real Redis Cluster on loopback ports, from the same server binary as ``EmbeddedRedis``.

For the tests and ``make bench``: three masters and a replica each (six
processes), cluster mode with AOF, joined with the cluster's own commands
(MEET, ADDSLOTSRANGE, REPLICATE) so no ``redis-cli --cluster`` is needed.
A short node timeout makes a failover take a few seconds, not fifteen.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import redis

from service.adapters.embedded_redis import EmbeddedRedis, free_port

SLOTS = 16384
#: How long a master may be silent before its replica takes over (ms).
NODE_TIMEOUT_MS = 1000


class EmbeddedCluster:
    def __init__(self, data_dir: str | os.PathLike, *, masters: int = 3, replicas_each: int = 1):
        self.data_dir = Path(data_dir)
        self.masters = masters
        self.replicas_each = replicas_each
        self.nodes: list[EmbeddedRedis] = []

    @property
    def url(self) -> str:
        """The nodes, as ``HOLOTAPE_EVENTS_URL`` names a cluster: comma-separated ``redis://host:port``."""
        return ",".join(f"redis://127.0.0.1:{node.port}" for node in self.nodes if node.process is not None)

    def start(self, timeout: float = 60.0) -> EmbeddedCluster:
        count = self.masters * (1 + self.replicas_each)
        buses = []
        for n in range(count):
            buses.append(free_port())
            args = (
                "--cluster-enabled", "yes",
                "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
                # A replica answers reads only for itself; the store reads masters.
                "--cluster-replica-validity-factor", "0",
                # The bus port defaults to the port + 10,000, past 65,535 for a high free port.
                "--cluster-port", str(buses[-1]),
            )  # fmt: skip
            self.nodes.append(EmbeddedRedis(self.data_dir / f"node{n}", durable=True, extra_args=args).start())
        clients = [redis.Redis(port=node.port) for node in self.nodes]
        first = clients[0]
        for node, bus in zip(self.nodes[1:], buses[1:], strict=True):
            first.execute_command("CLUSTER", "MEET", "127.0.0.1", node.port, bus)
        for m in range(self.masters):
            low, high = m * SLOTS // self.masters, (m + 1) * SLOTS // self.masters - 1
            clients[m].execute_command("CLUSTER", "ADDSLOTSRANGE", low, high)
        ids = [c.execute_command("CLUSTER", "MYID").decode() for c in clients]
        self._until(lambda: all(len(_nodes(c)) == count for c in clients), timeout, "every node to meet")
        for r in range(self.masters * self.replicas_each):
            clients[self.masters + r].execute_command("CLUSTER", "REPLICATE", ids[r % self.masters])
        self._until(lambda: all(_info(c)["cluster_state"] == "ok" for c in clients), timeout, "the cluster")
        self._until(lambda: all(_in_sync(c) for c in clients[self.masters :]), timeout, "the replicas")
        for c in clients:
            c.close()
        return self

    @staticmethod
    def _until(predicate: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if predicate():
                    return
            except redis.RedisError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"timed out waiting for {what}")

    def master_of_slot(self, slot: int) -> EmbeddedRedis:
        """The node serving ``slot`` now (after a failover, a promoted replica)."""
        for node in self.nodes:
            if node.process is None:
                continue
            with redis.Redis(port=node.port) as client:
                for low, high, master, *_ in client.execute_command("CLUSTER", "SLOTS"):
                    if low <= slot <= high:
                        port = master[1]
                        return next(n for n in self.nodes if n.port == port)
        raise RuntimeError(f"no node serves slot {slot}")

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()

    def __enter__(self) -> EmbeddedCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _info(client: redis.Redis) -> dict[str, str]:
    raw = client.execute_command("CLUSTER", "INFO").decode()
    return dict(line.split(":", 1) for line in raw.split() if ":" in line)


def _nodes(client: redis.Redis) -> list[str]:
    return [line for line in client.execute_command("CLUSTER", "NODES").decode().splitlines() if line]


def _in_sync(replica: redis.Redis) -> bool:
    info = replica.info("replication")
    return info.get("role") == "slave" and info.get("master_link_status") == "up"
