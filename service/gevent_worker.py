"""The API's gunicorn worker: gevent's, with new connections spread evenly over the workers.

Every worker waits on the one listening socket and whichever the kernel
wakes first takes the next connection, so where a client's keep-alive
connection lands is a coin toss. Sixteen clients split 4/12 to 8/8 over two
workers, run to run (``tests/bench/http.py``); the fuller worker's clients
then wait on it while the other has CPU to spare, and their latency follows
the split: a p99 of 17 ms at 8/8 and 24 ms at 4/12 for the same code. This
is gunicorn's known behaviour with async workers (benoitc/gunicorn#3071,
#2095); ``reuse_port`` does not change it, the master's one socket being
shared by every worker.

So the workers keep a table of how many connections each holds, in memory
the master maps before it forks (``ConnectionTable``). A worker holding
more than the emptiest other leaves a waiting connection alone for
``DEFER`` seconds, for that one to take; if none has by then (it is busy,
or stuck), it takes the connection itself. A connection waits ``DEFER`` at
most, and only where another worker holds fewer.
"""

from __future__ import annotations

import mmap
import os
from typing import TYPE_CHECKING, Any

from gevent.server import StreamServer
from gunicorn.workers import ggevent

if TYPE_CHECKING:
    import socket
    from collections.abc import Iterable

    from gunicorn.workers.base import Worker

#: Seconds a crowded worker leaves a waiting connection to the others: longer than a busy worker takes to
#: come round to its listening socket (a few requests' CPU), short against a connection's life.
DEFER = float(os.environ.get("HOLOTAPE_ACCEPT_DEFER_SECONDS") or 0.01)
#: Workers a table has room for (a crowded worker reads them all on each accept); one past them is served
#: as gevent's own worker serves, uncounted.
SLOTS = 64
#: A slot no live worker holds.
FREE = -1


class ConnectionTable:
    """How many connections each live worker holds, in shared memory: each worker writes its own slot
    only, and the master gives out and frees the slots (``pre_fork``, ``child_exit``)."""

    def __init__(self, slots: int = SLOTS):
        # An anonymous mapping is shared with the processes forked after it is made.
        self.counts = memoryview(mmap.mmap(-1, slots * 8)).cast("q")
        for slot in range(slots):
            self.counts[slot] = FREE
        self.mine: int | None = None

    def claim(self, taken: Iterable[int | None]) -> int | None:
        """A free slot for a worker about to be forked, ``taken`` those the live workers hold."""
        held = set(taken)
        slot = next((s for s in range(len(self.counts)) if s not in held), None)
        if slot is not None:
            self.counts[slot] = 0
        return slot

    def release(self, slot: int | None) -> None:
        if slot is not None:
            self.counts[slot] = FREE

    def opened(self, change: int) -> None:
        if self.mine is not None:
            self.counts[self.mine] += change

    def crowded(self) -> bool:
        """Whether this worker holds more connections than another live one."""
        if self.mine is None:
            return False
        mine = self.counts[self.mine]
        return any(n != FREE and n < mine for s, n in enumerate(self.counts) if s != self.mine)


#: The master's table, inherited by every worker it forks.
CONNECTIONS = ConnectionTable()


class EvenStreamServer(StreamServer):
    """gevent's server, which a crowded worker's listening socket waits a moment before accepting on."""

    def do_read(self) -> tuple[socket.socket, Any] | None:
        if not CONNECTIONS.crowded():
            return super().do_read()
        self.stop_accepting()
        deferred = self.loop.timer(DEFER)
        deferred.start(self._take_late, deferred)
        return None

    def _take_late(self, deferred: Any) -> None:
        """Take the connection no other worker took while this one deferred, if one still waits."""
        deferred.close()
        if not self.started:
            return
        if not self.full():
            try:
                waiting = super().do_read()
            except OSError:
                waiting = None  # the listening socket's error: gevent's own accepting meets it again, and backs off
            if waiting:
                self.do_handle(*waiting)
        self.start_accepting()


class EvenGeventWorker(ggevent.GeventWorker):
    """gunicorn's gevent worker, counting the connections it holds and serving with ``EvenStreamServer``."""

    #: Given by the master before the fork (``pre_fork``).
    slot: int | None = None

    def run(self) -> None:
        CONNECTIONS.mine = self.slot
        # gunicorn's run() makes each listener's server from this module-level name, and has no setting
        # for it; the name is replaced in this worker process only, before run() reads it.
        ggevent.StreamServer = EvenStreamServer
        super().run()

    def handle(self, listener: socket.socket, client: socket.socket, addr: Any) -> None:
        CONNECTIONS.opened(1)
        try:
            super().handle(listener, client, addr)
        finally:
            CONNECTIONS.opened(-1)


def pre_fork(workers: Iterable[Worker], worker: Worker) -> None:
    """The master gives a worker about to be forked a slot no live worker holds."""
    worker.slot = CONNECTIONS.claim(getattr(w, "slot", None) for w in workers)


def child_exit(worker: Worker) -> None:
    """The master frees the slot of a worker that has exited."""
    CONNECTIONS.release(getattr(worker, "slot", None))
