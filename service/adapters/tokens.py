"""Bearer tokens: a game's creator token and one token per seat taken by a person.

A token is 192 random bits, handed out once and never stored: the game's
secrets hash (``game:{id}:secrets``, next to the seed) keeps only its sha256.
A lookup compares the offered token's hash with every stored one using
``hmac.compare_digest`` and without stopping at the first match, so the time
it takes says nothing about how close a guess was. Revoking a token deletes
its hash; rotating replaces it.

Each process keeps what it looked up lately (``TokenCache``): a token found
to hold a seat is trusted without a read for ``TOKEN_CACHE_SECONDS``, so a
game being played costs no token read on most actions. That is the bound on
revocation: a token revoked or rotated by another process stops working
here within ``TOKEN_CACHE_SECONDS`` (at once in the process that revoked
it, which forgets the game's entries). A token that holds nothing is never
cached, so a token just issued elsewhere works at once. A game's seed never
changes once kept, so ``Seeds`` keeps the seeds it read.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import OrderedDict

import redis
from redis.typing import EncodableT, FieldT

from service.usecases.ports import CREATOR, SEAT, Holder

#: The field of a game's secrets hash that holds its seed (the others: token hashes).
SEED_FIELD = "seed"


def secrets_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:secrets"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def _raw(reply: bytes | str) -> bytes:
    """A reply as the client gives it (bytes: it does not decode), whatever redis-py's types allow."""
    return reply if isinstance(reply, bytes) else reply.encode()


#: How long a token found to hold a seat is trusted without reading it again:
#: the bound on how long a revoked token keeps working in another process.
TOKEN_CACHE_SECONDS = 2.0
#: Entries each process keeps (tokens, and seeds).
CACHE_SIZE = 4096


class _Lru:
    """A small thread-safe LRU map whose entries may expire."""

    def __init__(self, size: int = CACHE_SIZE):
        self.size = size
        self._items: OrderedDict[tuple[str, str], tuple[float, object]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str]) -> object | None:
        with self._lock:
            found = self._items.get(key)
            if found is None:
                return None
            until, value = found
            if until < time.monotonic():
                del self._items[key]
                return None
            self._items.move_to_end(key)
            return value

    def put(self, key: tuple[str, str], value: object, seconds: float = float("inf")) -> None:
        with self._lock:
            self._items[key] = (time.monotonic() + seconds, value)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def forget(self, game_id: str, value: object | None = None) -> None:
        """Drop ``game_id``'s entries (only those holding ``value``, if given)."""
        with self._lock:
            for key in [k for k, (_, v) in self._items.items() if k[0] == game_id and value in (None, v)]:
                del self._items[key]


_REVOKE_IF = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
"""


class Tokens:
    def __init__(self, client: redis.Redis, cache_seconds: float = TOKEN_CACHE_SECONDS, seeds: Seeds | None = None):
        self.redis = client
        self._revoke_if = client.register_script(_REVOKE_IF)
        self.cache_seconds = cache_seconds
        self._known = _Lru()
        #: Told the seed a lookup reads anyway (the same hash), so an action saves its own read of it.
        self.seeds = seeds

    def issue(self, game_id: str, holder: Holder) -> str:
        """A new token for ``holder``; any earlier one stops working."""
        token = new_token()
        hashed = token_hash(token)
        self.redis.hset(secrets_key(game_id), holder.field, hashed)
        self._known.forget(game_id, holder)  # the holder's earlier token, replaced
        if self.cache_seconds > 0:
            # Known here as surely as a read would make it: the game's first action, often on the
            # process that created it, makes no read of the token it was just given.
            self._known.put((game_id, hashed), holder, self.cache_seconds)
        return token

    def holder(self, game_id: str, token: str) -> Holder | None:
        offered = token_hash(token).encode()
        key = (game_id, offered.decode())
        cached = self._known.get(key) if self.cache_seconds > 0 else None
        if isinstance(cached, Holder):
            return cached
        found = self._lookup(game_id, offered)
        if found is not None and self.cache_seconds > 0:
            self._known.put(key, found, self.cache_seconds)
        return found

    def _lookup(self, game_id: str, offered: bytes) -> Holder | None:
        found = None
        for field, stored in self.redis.hgetall(secrets_key(game_id)).items():
            name = _raw(field).decode()
            if name == SEED_FIELD and self.seeds is not None:
                self.seeds.remember(game_id, _raw(stored).decode())
            if name != CREATOR and not name.startswith(f"{SEAT}:"):
                continue  # the seed
            if hmac.compare_digest(_raw(stored), offered):
                found = Holder(CREATOR) if name == CREATOR else Holder(SEAT, int(name.split(":", 1)[1]))
        return found

    def current(self, game_id: str, holder: Holder) -> bytes | None:
        """The stored hash of ``holder``'s token, to revoke exactly that one later."""
        stored = self.redis.hget(secrets_key(game_id), holder.field)
        return None if stored is None else _raw(stored)

    def revoke(self, game_id: str, holder: Holder, expected: bytes | None = None) -> None:
        """Delete ``holder``'s token; with ``expected``, only if it is still that
        one (a player who left must not take away the token of whoever took
        the seat after them)."""
        if expected is None:
            self.redis.hdel(secrets_key(game_id), holder.field)
        else:
            self._revoke_if(keys=[secrets_key(game_id)], args=[holder.field, expected])
        self._known.forget(game_id)

    def rotate(self, game_id: str, token: str) -> tuple[Holder, str] | None:
        """Replace ``token`` with a new one for the same holder."""
        key = secrets_key(game_id)
        with self.redis.pipeline(transaction=True) as pipe:
            # Refuse if the token is revoked between the lookup and the write
            # (a player leaving), so a rotation never brings a seat's token back.
            pipe.watch(key)
            holder = self._lookup(game_id, token_hash(token).encode())
            if holder is None:
                return None
            fresh = new_token()
            pipe.multi()
            pipe.hset(key, holder.field, token_hash(fresh))
            try:
                pipe.execute()
            except redis.WatchError:
                return None
        self._known.forget(game_id)
        return holder, fresh

    def copy(self, from_game: str, to_game: str) -> None:
        """Give the holders of ``from_game`` the same tokens in ``to_game`` (a fork)."""
        held: dict[FieldT, EncodableT] = {
            name: value
            for name, value in self.redis.hgetall(secrets_key(from_game)).items()
            if _raw(name) == CREATOR.encode() or _raw(name).startswith(f"{SEAT}:".encode())
        }
        if held:
            self.redis.hset(secrets_key(to_game), mapping=held)


class Seeds:
    """Each game's secret seed, in the game's secrets hash beside its token hashes."""

    def __init__(self, client: redis.Redis):
        self.redis = client
        self._known = _Lru()

    def keep(self, game_id: str, seed: str) -> None:
        self.redis.hset(secrets_key(game_id), SEED_FIELD, seed)
        self.remember(game_id, seed)

    def remember(self, game_id: str, seed: str) -> None:
        """``game_id``'s seed as just written or read: a game's seed never changes once kept."""
        self._known.put((game_id, SEED_FIELD), seed)

    def seed(self, game_id: str) -> str | None:
        cached = self._known.get((game_id, SEED_FIELD))
        if isinstance(cached, str):
            return cached
        value = self.redis.hget(secrets_key(game_id), SEED_FIELD)
        if not isinstance(value, bytes):
            return None
        self.remember(game_id, value.decode())
        return value.decode()
