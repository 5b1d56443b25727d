"""Rate limiting per token (per client address without one), kept in Redis.

A fixed window: the first request of a caller opens a window of ``window``
seconds in which it may make ``limit`` requests; past that it is told to come
back when the window closes (``Retry-After``). One Lua call per request, so
every API process shares the same count. Coarse, but cheap and predictable,
which is what a client writing a polite retry loop needs.
"""

from __future__ import annotations

import hashlib
import math

import redis

from service.usecases.ports import Verdict

_HIT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}
"""


class RateLimiter:
    def __init__(self, client: redis.Redis, limit: int, window: float):
        self.limit = limit
        self.window_ms = int(window * 1000)
        self.redis = client
        self._hit = client.register_script(_HIT)

    def hit(self, caller: str) -> Verdict:
        # Keys name a hash of the caller, never a token.
        key = f"holotape:rate:{hashlib.sha256(caller.encode()).hexdigest()[:32]}"
        count, ttl_ms = self._hit(keys=[key], args=[self.window_ms])
        count, ttl_ms = int(count), int(ttl_ms)
        return Verdict(count <= self.limit, max(self.limit - count, 0), max(1, math.ceil(ttl_ms / 1000)))
