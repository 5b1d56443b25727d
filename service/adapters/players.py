"""Players on Redis: their records, their tokens (as hashes) and their seats.

Keys, each behind a hash tag so the store runs unchanged on a cluster
(DESIGN.md, "Keys in Redis"):

- ``player:{<player_id>}``: the player's record (a hash: name, email, the
  sha256 of the token, when created, settings);
- ``player:{<player_id>}:games``: the games where the player was bound to a
  seat (a sorted set by the time of binding), the inbox's index;
- ``game:{<game_id>}:players``: which player holds which seat of the game
  (field ``seat:<n>`` or ``creator``), beside the game's secrets in the
  game's own slot, so a binding and the seat token it was made with are read
  together.

A player token is ``<player_id>.<secret>``: the id names the one record to
read, so finding a player costs one read and no index over every player (a
seat token, base64url, never holds a dot). The secret is 192 random bits;
only its sha256 is kept and it is compared with ``hmac.compare_digest``.

A binding holds the player's id and the sha256 of the seat's token when it
was made. It counts only while that token is still the seat's: a player who
leaves, a seat taken by someone else or handed to a bot, a seat token
rotated, each revokes the seat token and so the binding with it, with no
second place to clean up. The per-player index may then list a game where
the player holds nothing any more; readers check each game's bindings, which
are the truth.
"""

from __future__ import annotations

import hmac
import json
import secrets
import time

import redis
from redis.typing import EncodableT, FieldT

from service.adapters.tokens import secrets_key, token_hash
from service.usecases.ports import CREATOR, SEAT, Holder, Player

#: The most games one player's index keeps (the oldest bindings go first).
MAX_GAMES = 1000


def player_key(player_id: str) -> str:
    return f"player:{{{player_id}}}"


def games_key(player_id: str) -> str:
    return f"player:{{{player_id}}}:games"


def bindings_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:players"


def _text(value: bytes | str | None) -> str | None:
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else value


def _split(token: str) -> tuple[str, str] | None:
    player_id, dot, secret = token.partition(".")
    if not dot or not player_id or not secret or len(player_id) > 64:
        return None
    return player_id, secret


# Bind only if the seat's token is still the one presented (no race with a
# leave or a rotation between the check and the write).
_BIND = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then
  return 0
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3] .. ' ' .. ARGV[2])
return 1
"""


def _held(bindings: dict, tokens: dict, player_id: str) -> list[Holder]:
    current = {_text(k): _text(v) or "" for k, v in tokens.items()}
    held = []
    for field, value in bindings.items():
        name = _text(field) or ""
        owner, _, digest = (_text(value) or "").partition(" ")
        # Compared in constant time, and every binding looked at, like a seat token.
        same_owner = hmac.compare_digest(owner.encode(), player_id.encode())
        same_token = hmac.compare_digest(digest.encode(), (current.get(name) or "-").encode())
        if same_owner and same_token:
            held.append(Holder(CREATOR) if name == CREATOR else Holder(SEAT, int(name.split(":", 1)[1])))
    return sorted(held, key=lambda h: (h.kind != CREATOR, h.seat or 0))


class RedisPlayers:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._bind = client.register_script(_BIND)

    # -- the player's record -----------------------------------------------------

    def create(self, name: str, email: str | None) -> tuple[Player, str]:
        player_id = secrets.token_hex(8)
        token = f"{player_id}.{secrets.token_urlsafe(24)}"
        created_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        record: dict[FieldT, EncodableT] = {"name": name, "token": token_hash(token), "created_at": created_at, "email": email or ""}
        self.redis.hset(player_key(player_id), mapping=record)
        return self._player(player_id, {str(k): str(v) for k, v in record.items()}), token

    def by_token(self, token: str) -> Player | None:
        split = _split(token)
        if split is None:
            return None
        raw = self.redis.hgetall(player_key(split[0]))
        record = {_text(k) or "": _text(v) or "" for k, v in raw.items()}
        if not record or not hmac.compare_digest(record.get("token", "").encode(), token_hash(token).encode()):
            return None
        return self._player(split[0], record)

    def by_id(self, player_id: str) -> Player | None:
        raw = self.redis.hgetall(player_key(player_id))
        record = {_text(k) or "": _text(v) or "" for k, v in raw.items()}
        return self._player(player_id, record) if record else None

    def rotate(self, token: str) -> str | None:
        split = _split(token)
        if split is None:
            return None
        key = player_key(split[0])
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.watch(key)  # two rotations at once: one wins, the other's old token is already gone
            stored = _text(pipe.hget(key, "token")) or ""
            if not hmac.compare_digest(stored.encode(), token_hash(token).encode()):
                return None
            fresh = f"{split[0]}.{secrets.token_urlsafe(24)}"
            pipe.multi()
            pipe.hset(key, "token", token_hash(fresh))
            try:
                pipe.execute()
            except redis.WatchError:
                return None
        return fresh

    def update(self, player_id: str, fields: dict[str, str]) -> None:
        mapping: dict[FieldT, EncodableT] = {k: v for k, v in fields.items()}
        self.redis.hset(player_key(player_id), mapping=mapping)

    def field(self, player_id: str, name: str) -> str | None:
        return _text(self.redis.hget(player_key(player_id), name))

    def any_bound(self, game_id: str) -> bool:
        """Whether a seat of the game was ever bound to a player (its notices may have somewhere to go)."""
        return bool(self.redis.exists(bindings_key(game_id)))

    @staticmethod
    def _player(player_id: str, record: dict[str, str]) -> Player:
        return Player(
            player_id=player_id,
            name=record.get("name", ""),
            email=record.get("email") or None,
            email_confirmed=record.get("email_confirmed") == "1",
            created_at=record.get("created_at", ""),
            settings=json.loads(record["settings"]) if record.get("settings") else {},
        )

    # -- seats ----------------------------------------------------------------------

    def bind(self, player_id: str, game_id: str, holder: Holder, token: str) -> bool:
        """Bind ``holder`` of ``game_id`` to the player, if ``token`` is still that holder's."""
        bound = self._bind(
            keys=[secrets_key(game_id), bindings_key(game_id)],
            args=[holder.field, token_hash(token), player_id],
        )
        if not bound:
            return False
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(games_key(player_id), {game_id: time.time()})
        pipe.zremrangebyrank(games_key(player_id), 0, -MAX_GAMES - 1)
        pipe.execute()
        return True

    def bound(self, game_id: str, player_id: str) -> list[Holder]:
        """What the player holds in ``game_id`` now: each binding whose seat token is still the one it was made with."""
        return self.bound_in([game_id], player_id)[game_id]

    def bound_in(self, game_ids: list[str], player_id: str) -> dict[str, list[Holder]]:
        """``bound`` for several games in one round trip (the inbox asks it of every game of the player)."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hgetall(bindings_key(game_id))
            pipe.hgetall(secrets_key(game_id))
        replies = iter(pipe.execute())
        return {game_id: _held(next(replies), next(replies), player_id) for game_id in game_ids}

    def holders(self, game_id: str) -> dict[int, str]:
        """Each seat of ``game_id`` bound to a player now: seat -> player id (for notifications)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(bindings_key(game_id))
        pipe.hgetall(secrets_key(game_id))
        bindings, tokens = pipe.execute()
        current = {_text(k): _text(v) or "" for k, v in tokens.items()}
        found = {}
        for field, value in bindings.items():
            name = _text(field) or ""
            owner, _, digest = (_text(value) or "").partition(" ")
            if name.startswith(f"{SEAT}:") and hmac.compare_digest(digest.encode(), (current.get(name) or "-").encode()):
                found[int(name.split(":", 1)[1])] = owner
        return found

    def games(self, player_id: str) -> list[str]:
        """The games the player was ever bound in, newest binding first (some may hold nothing now)."""
        members = self.redis.zrevrange(games_key(player_id), 0, MAX_GAMES - 1)
        return [m.decode() if isinstance(m, bytes) else str(m) for m in members]

