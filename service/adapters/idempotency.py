"""Idempotency-Key for HTTP requests: a retried request gets the first answer.

The first request with a key takes a short lease (``pending``); when it
succeeds its response is kept for 48 hours, and a retry with the same key and
the same body gets exactly that response again, without acting twice. The
same key with another body is a client bug (422); the same key while the
first request is still running is a race the client should wait out (409).

An error is not kept: the key is released and a retry tries again (a stale
``If-Match`` or a move that became legal since should not stick to a key for
two days). Underneath, the event store keeps its own idempotency record of
the append, so a request that appended and then crashed before its response
was kept is still answered from the log when retried after the lease.
"""

from __future__ import annotations

import json

import redis

from events.store import IDEMPOTENCY_TTL
from service.usecases.ports import REPLAY, Begun

#: How long a request may hold its key before a retry may run again.
LEASE_SECONDS = 30


_BEGIN = """
local prior = redis.call('GET', KEYS[1])
if not prior then
  redis.call('SET', KEYS[1], 'pending\\n' .. ARGV[1], 'EX', tonumber(ARGV[2]))
  return {'new', ''}
end
local cut = string.find(prior, '\\n', 1, true)
local state = string.sub(prior, 1, cut - 1)
local rest = string.sub(prior, cut + 1)
local cut2 = string.find(rest, '\\n', 1, true)
local fingerprint = cut2 and string.sub(rest, 1, cut2 - 1) or rest
if fingerprint ~= ARGV[1] then
  return {'mismatch', ''}
end
if state == 'pending' then
  return {'in_flight', ''}
end
return {'replay', string.sub(rest, cut2 + 1)}
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == 'pending\\n' .. ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


def request_key(game_id: str, scope: str, key: str) -> str:
    return f"game:{{{game_id}}}:request:{scope}:{key}"


class IdempotentRequests:
    def __init__(self, client: redis.Redis, ttl: int = IDEMPOTENCY_TTL, lease: int = LEASE_SECONDS):
        self.ttl = ttl
        self.lease = lease
        self.redis = client
        self._begin = client.register_script(_BEGIN)
        self._release = client.register_script(_RELEASE)

    def key_for(self, game_id: str, scope: str, key: str) -> str:
        return request_key(game_id, scope, key)

    def begin(self, key: str, print_: str) -> Begun:
        outcome, payload = self._begin(keys=[key], args=[print_, self.lease])
        outcome = outcome.decode() if isinstance(outcome, bytes) else outcome
        if outcome == REPLAY:
            return Begun(REPLAY, json.loads(payload))
        return Begun(outcome)

    def finish(self, key: str, print_: str, status: int, headers: dict[str, str], body: str) -> None:
        response = json.dumps({"status": status, "headers": headers, "body": body})
        self.redis.set(key, f"done\n{print_}\n{response}", ex=self.ttl)

    def release(self, key: str, print_: str) -> None:
        self._release(keys=[key], args=[print_])
