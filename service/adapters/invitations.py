"""Invitations on Redis: one key per invitation, found by the hash of its code.

- ``invite:{<sha256 of the code>}``: the invitation (game, seat, expiry, id),
  behind a hash tag of its own, expiring with it: an invitation spans no game
  key, so it lives in a slot of its own like a player (DESIGN.md, "Keys in Redis");
- ``game:{<game_id>}:invitations``: the game's invitations, id -> code hash,
  so its creator can list and revoke them.

The code (128 random bits) is shown once and only its sha256 is kept, so a
copy of the database holds no usable link. Taking deletes the key first: of
two takers only the one whose delete removed it goes on (one use).
"""

from __future__ import annotations

import hashlib
import secrets
import time

import redis
from redis.typing import EncodableT, FieldT

from service.usecases.ports import Invitation


def invite_key(code_hash: str) -> str:
    return f"invite:{{{code_hash}}}"


def game_invitations_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:invitations"


def _code_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RedisInvitations:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def create(self, game_id: str, seat: int, seconds: int) -> tuple[Invitation, str]:
        code = secrets.token_urlsafe(16)  # 128 bits
        digest = _code_hash(code)
        invitation = Invitation(secrets.token_hex(6), game_id, seat, time.time() + seconds)
        fields: dict[FieldT, EncodableT] = {
            "id": invitation.invitation_id, "game_id": game_id, "seat": seat, "expires": invitation.expires,
        }
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(invite_key(digest), mapping=fields)
        pipe.expireat(invite_key(digest), int(invitation.expires) + 1)
        pipe.execute()
        self.redis.hset(game_invitations_key(game_id), invitation.invitation_id, f"{digest} {invitation.expires} {seat}")
        return invitation, code

    def peek(self, code: str) -> Invitation | None:
        return self._read(_code_hash(code))

    def take(self, code: str) -> Invitation | None:
        """The invitation, used up; None if there is none (never made, taken, revoked or expired)."""
        digest = _code_hash(code)
        found = self._read(digest)
        if found is None or not self.redis.delete(invite_key(digest)):
            return None
        self.redis.hdel(game_invitations_key(found.game_id), found.invitation_id)
        return found

    def give_back(self, invitation: Invitation, code: str) -> None:
        """Make a taken invitation usable again (its seat could not be taken: nothing was used)."""
        digest = _code_hash(code)
        fields: dict[FieldT, EncodableT] = {
            "id": invitation.invitation_id, "game_id": invitation.game_id, "seat": invitation.seat,
            "expires": invitation.expires,
        }
        self.redis.hset(invite_key(digest), mapping=fields)
        self.redis.expireat(invite_key(digest), int(invitation.expires) + 1)
        self.redis.hset(
            game_invitations_key(invitation.game_id), invitation.invitation_id,
            f"{digest} {invitation.expires} {invitation.seat}",
        )

    def of_game(self, game_id: str) -> list[Invitation]:
        found = []
        for key, value in self.redis.hgetall(game_invitations_key(game_id)).items():
            _, expires, seat = _text(value).split(" ")
            if float(expires) > time.time():
                found.append(Invitation(_text(key), game_id, int(seat), float(expires)))
        return sorted(found, key=lambda i: i.expires)

    def revoke(self, game_id: str, invitation_id: str) -> bool:
        value = self.redis.hget(game_invitations_key(game_id), invitation_id)
        if value is None:
            return False
        digest = _text(value).split(" ")[0]
        self.redis.delete(invite_key(digest))
        self.redis.hdel(game_invitations_key(game_id), invitation_id)
        return True

    def _read(self, digest: str) -> Invitation | None:
        raw = {_text(k): _text(v) for k, v in self.redis.hgetall(invite_key(digest)).items()}
        if not raw or float(raw["expires"]) <= time.time():
            return None
        return Invitation(raw["id"], raw["game_id"], int(raw["seat"]), float(raw["expires"]))
