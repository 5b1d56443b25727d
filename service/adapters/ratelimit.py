"""Rate limits kept in Redis by the ``limits`` library (fixed windows, one key per bucket and caller).

Each bucket (``service.usecases.ports``: per token, per address, failed
authentications per address) has its own allowance: ``limit`` requests per
``window`` seconds. Callers are named in keys by a hash, never by a token.
``peek`` judges without counting and writes nothing, so the API can ask
about a token before it knows the token is real, and only a real token ever
gets a key of its own: a client trying random tokens costs one key, its
address's.

An action needs no round trip of its own for its checks: on a standalone
server the event store's append judges them (``for_append``: the same keys,
counts and windows as ``limits`` keeps). A refusal learned that way is kept
in the process until its window closes (``known_refusal``), so a client
hammering past its allowance is answered without Redis or a decision.
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from collections.abc import Mapping

import redis
from limits import RateLimitItemPerSecond
from limits.storage import RedisStorage
from limits.strategies import FixedWindowRateLimiter

from events.log import HIT, PEEK, PEEK_THEN_COUNT, Allowance, Allowances
from service.usecases.ports import Verdict

KEY_PREFIX = "holotape:rate"
#: An allowed request: what is left of the allowance is not shown to clients.
ALLOWED = Verdict(True, -1, 0)
#: Refusals a process remembers at most (the oldest forgotten first).
KNOWN_REFUSALS = 10_000


class RateLimiter:
    def __init__(self, client: redis.Redis, limits: Mapping[str, tuple[int, float]], *, with_store: bool = False):
        # The service's own pool (its timeouts and bounds); the URL only names the scheme.
        self.client = client
        self.storage = RedisStorage("redis://", connection_pool=client.connection_pool, key_prefix=KEY_PREFIX)
        self.strategy = FixedWindowRateLimiter(self.storage)
        self.items = {
            bucket: RateLimitItemPerSecond(count, max(1, math.ceil(window)), namespace=bucket)
            for bucket, (count, window) in limits.items()
        }
        #: Whether the event store is on this server, so that an append can judge these limits.
        self.with_store = with_store
        self._refusals: dict[str, float] = {}  # counter key -> when its window closes (monotonic)
        self._lock = threading.Lock()

    def _key(self, item: RateLimitItemPerSecond, caller: str) -> str:
        return self.storage.prefixed_key(item.key_for(_hashed(caller)))

    def for_append(self, hit: tuple[str, str], peeks: list[tuple[str, str]], count: str | None) -> Allowances | None:
        """``hit_and_peek``'s checks as allowances for an append, and ``count``'s bucket counted once all allow."""
        if not self.with_store:
            return None
        items = []
        for n, (bucket, caller) in enumerate([hit, *peeks]):
            item = self.items.get(bucket)
            if item is not None:
                mode = HIT if n == 0 else PEEK_THEN_COUNT if bucket == count else PEEK
                items.append(Allowance(self._key(item, caller), item.amount, item.get_expiry(), mode))
        return Allowances(tuple(items))

    def spent(self, allowances: Allowances, index: int, retry_after: int) -> Verdict:
        with self._lock:
            if len(self._refusals) >= KNOWN_REFUSALS:
                now = time.monotonic()
                self._refusals = {k: t for k, t in self._refusals.items() if t > now}
                while len(self._refusals) >= KNOWN_REFUSALS:
                    del self._refusals[next(iter(self._refusals))]
            self._refusals[allowances.items[index].key] = time.monotonic() + retry_after
        return Verdict(False, 0, retry_after)

    def known_refusal(self, buckets: list[tuple[str, str]]) -> Verdict | None:
        if not self._refusals:
            return None
        now = time.monotonic()
        for bucket, caller in buckets:
            item = self.items.get(bucket)
            until = self._refusals.get(self._key(item, caller)) if item is not None else None
            if until is not None and until > now:
                return Verdict(False, 0, max(1, math.ceil(until - now)))
        return None

    def hit_and_peek(self, hit: tuple[str, str], peeks: list[tuple[str, str]]) -> list[Verdict | None]:
        """``hit(*hit)`` and each ``peek``, as one pipeline: a request's checks cost one round trip.

        The hit is the fixed window's count as ``limits`` keeps it (INCRBY,
        and the window's expiry set when the key is new), on the same keys.
        """
        wanted = [(bucket, caller, self.items.get(bucket)) for bucket, caller in [hit, *peeks]]
        # On the client itself: the storage's, on the same pool, is typed without pipelines.
        pipe = self.client.pipeline(transaction=False)
        for n, (_, caller, item) in enumerate(wanted):
            if item is None:
                continue
            key = self.storage.prefixed_key(item.key_for(_hashed(caller)))
            if n == 0:
                pipe.incrby(key, 1)
                pipe.expire(key, item.get_expiry(), nx=True)
            else:
                pipe.get(key)
        answers = iter(pipe.execute())
        verdicts: list[Verdict | None] = []
        for n, (_, caller, item) in enumerate(wanted):
            if item is None:
                verdicts.append(None)
                continue
            count = int(next(answers) or 0)
            if n == 0:
                next(answers)  # the expiry
            allowed = count <= item.amount if n == 0 else count < item.amount
            verdicts.append(ALLOWED if allowed else self._refused(item, _hashed(caller)))
        return verdicts

    def _refused(self, item: RateLimitItemPerSecond, key: str) -> Verdict:
        stats = self.strategy.get_window_stats(item, key)
        return Verdict(False, 0, max(1, math.ceil(stats.reset_time - time.time())))

    def hit(self, bucket: str, caller: str) -> Verdict | None:
        """Count one request of ``caller`` in ``bucket`` and judge it (None: the bucket has no limit)."""
        item = self.items.get(bucket)
        if item is None:
            return None
        key = _hashed(caller)
        return ALLOWED if self.strategy.hit(item, key) else self._refused(item, key)

    def peek(self, bucket: str, caller: str) -> Verdict | None:
        """Judge the next request of ``caller`` in ``bucket`` without counting it (reads only)."""
        item = self.items.get(bucket)
        if item is None:
            return None
        key = _hashed(caller)
        # One GET; the window's reset time is read only for a refusal's Retry-After.
        return ALLOWED if self.strategy.test(item, key) else self._refused(item, key)


def _hashed(caller: str) -> str:
    return hashlib.sha256(caller.encode()).hexdigest()[:32]
