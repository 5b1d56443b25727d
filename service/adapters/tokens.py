"""Bearer tokens: a game's creator token and one token per seat taken by a person.

A token is 192 random bits, handed out once and never stored: the game's
secrets hash (``game:{id}:secrets``, next to the seed) keeps only its sha256.
A lookup compares the offered token's hash with every stored one using
``hmac.compare_digest`` and without stopping at the first match, so the time
it takes says nothing about how close a guess was. Revoking a token deletes
its hash; rotating replaces it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

import redis

from service.usecases.ports import CREATOR, SEAT, Holder


def secrets_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:secrets"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


_REVOKE_IF = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
"""


class Tokens:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._revoke_if = client.register_script(_REVOKE_IF)

    def issue(self, game_id: str, holder: Holder) -> str:
        """A new token for ``holder``; any earlier one stops working."""
        token = new_token()
        self.redis.hset(secrets_key(game_id), holder.field, token_hash(token))
        return token

    def holder(self, game_id: str, token: str) -> Holder | None:
        offered = token_hash(token).encode()
        found = None
        for name, stored in self.redis.hgetall(secrets_key(game_id)).items():
            name = name.decode()
            if name != CREATOR and not name.startswith(f"{SEAT}:"):
                continue  # the seed
            if hmac.compare_digest(stored, offered):
                found = Holder(CREATOR) if name == CREATOR else Holder(SEAT, int(name.split(":", 1)[1]))
        return found

    def current(self, game_id: str, holder: Holder) -> bytes | None:
        """The stored hash of ``holder``'s token, to revoke exactly that one later."""
        return self.redis.hget(secrets_key(game_id), holder.field)

    def revoke(self, game_id: str, holder: Holder, expected: bytes | None = None) -> None:
        """Delete ``holder``'s token; with ``expected``, only if it is still that
        one (a player who left must not take away the token of whoever took
        the seat after them)."""
        if expected is None:
            self.redis.hdel(secrets_key(game_id), holder.field)
        else:
            self._revoke_if(keys=[secrets_key(game_id)], args=[holder.field, expected])

    def rotate(self, game_id: str, token: str) -> tuple[Holder, str] | None:
        """Replace ``token`` with a new one for the same holder."""
        key = secrets_key(game_id)
        with self.redis.pipeline(transaction=True) as pipe:
            # Refuse if the token is revoked between the lookup and the write
            # (a player leaving), so a rotation never brings a seat's token back.
            pipe.watch(key)
            holder = self.holder(game_id, token)
            if holder is None:
                return None
            fresh = new_token()
            pipe.multi()
            pipe.hset(key, holder.field, token_hash(fresh))
            try:
                pipe.execute()
            except redis.WatchError:
                return None
        return holder, fresh

    def copy(self, from_game: str, to_game: str) -> None:
        """Give the holders of ``from_game`` the same tokens in ``to_game`` (a fork)."""
        held = {
            name: value
            for name, value in self.redis.hgetall(secrets_key(from_game)).items()
            if name == CREATOR.encode() or name.startswith(f"{SEAT}:".encode())
        }
        if held:
            self.redis.hset(secrets_key(to_game), mapping=held)


class Seeds:
    """Each game's secret seed, in the game's secrets hash beside its token hashes."""

    def __init__(self, client: redis.Redis):
        self.redis = client

    def keep(self, game_id: str, seed: str) -> None:
        self.redis.hset(secrets_key(game_id), "seed", seed)

    def seed(self, game_id: str) -> str | None:
        value = self.redis.hget(secrets_key(game_id), "seed")
        return value.decode() if isinstance(value, bytes) else None
