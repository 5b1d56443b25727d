"""What the use cases need from outside, named as ports.

Each is a small protocol that an adapter in ``service.adapters`` implements
on Redis or rq, and ``service.wiring`` plugs in. The event log and snapshots
are ``events``' own ports (``events.log.EventLog``, ``events.snapshots.Snapshots``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from events.envelope import canonical_json
from events.log import Allowances
from service.usecases.clock import Clock

CREATOR = "creator"
SEAT = "seat"


@dataclass(frozen=True)
class Holder:
    """Who a token speaks for: the creator, or a seat."""

    kind: str  # CREATOR or SEAT
    seat: int | None = None

    @property
    def field(self) -> str:
        return CREATOR if self.kind == CREATOR else f"{SEAT}:{self.seat}"


class Tokens(Protocol):
    """Bearer tokens, kept only as hashes."""

    def issue(self, game_id: str, holder: Holder) -> str: ...

    def holder(self, game_id: str, token: str) -> Holder | None: ...

    def current(self, game_id: str, holder: Holder) -> bytes | None: ...

    def revoke(self, game_id: str, holder: Holder, expected: bytes | None = None) -> None: ...

    def rotate(self, game_id: str, token: str) -> tuple[Holder, str] | None: ...

    def copy(self, from_game: str, to_game: str) -> None: ...


@dataclass(frozen=True)
class Player:
    """A person across games: what ``POST /players`` made (docs/players.md)."""

    player_id: str
    name: str
    email: str | None
    email_confirmed: bool
    created_at: str
    settings: dict[str, Any]


class PlayerStore(Protocol):
    """Players, their tokens (kept as hashes) and the seats bound to them."""

    def create(self, name: str, email: str | None) -> tuple[Player, str]: ...

    def by_token(self, token: str) -> Player | None: ...

    def by_id(self, player_id: str) -> Player | None: ...

    def rotate(self, token: str) -> str | None: ...

    def update(self, player_id: str, fields: dict[str, str]) -> None: ...

    def field(self, player_id: str, name: str) -> str | None: ...

    def bind(self, player_id: str, game_id: str, holder: Holder, token: str) -> bool:
        """Bind ``holder`` to the player while ``token`` stays that holder's token; False if it is not now."""
        ...

    def bound(self, game_id: str, player_id: str) -> list[Holder]: ...

    def bound_in(self, game_ids: list[str], player_id: str) -> dict[str, list[Holder]]: ...

    def holders(self, game_id: str) -> dict[int, str]: ...

    def games(self, player_id: str) -> list[str]: ...


@dataclass(frozen=True)
class Mail:
    """One mail to one player, made by the use cases, sent by the mail adapter."""

    mail_id: str  # names the event and the player: the same mail is never sent twice
    to: str
    subject: str
    text: str
    html: str
    unsubscribe_url: str | None = None


class Mailer(Protocol):
    """Mail as rq jobs through the operator's relay (nothing when none is configured)."""

    def enabled(self) -> bool: ...

    def queue(self, player_id: str, mail: Mail) -> bool:
        """Keep ``mail`` and enqueue its sending; False if it was queued before, or mail is off."""
        ...

    def hold_for_digest(self, player_id: str, line: str, seconds: int) -> None:
        """Keep ``line`` for the player's next digest, due within ``seconds``."""
        ...

    def webhook(self, player_id: str, message: dict[str, Any]) -> None:
        """Enqueue a delivery of ``message`` to the player's webhook."""
        ...


@dataclass(frozen=True)
class Invitation:
    """A link that takes one seat of a game, once, before it expires."""

    invitation_id: str
    game_id: str
    seat: int
    expires: float  # epoch seconds


class Invitations(Protocol):
    """Invitations, found by their code (kept only as a hash)."""

    def create(self, game_id: str, seat: int, seconds: int) -> tuple[Invitation, str]: ...

    def peek(self, code: str) -> Invitation | None: ...

    def take(self, code: str) -> Invitation | None: ...

    def give_back(self, invitation: Invitation, code: str) -> None: ...

    def of_game(self, game_id: str) -> list[Invitation]: ...

    def revoke(self, game_id: str, invitation_id: str) -> bool: ...


class Seeds(Protocol):
    """Each game's secret seed, kept apart from its log until the game ends."""

    def keep(self, game_id: str, seed: str) -> None: ...

    def seed(self, game_id: str) -> str | None: ...


class FollowUps(Protocol):
    """Work to do after a change: automatic steps, bots, deadlines, notifications."""

    def system_due(self, game_id: str, version: int) -> None:
        """Automatic work (the round end) is due at ``version``."""

    def bots_due(self, game_id: str, version: int) -> None:
        """The game waits on a seat a bot plays at ``version``."""

    def clock_running(self, game_id: str, clock: Clock) -> None:
        """A seat's play-by-post clock runs: its deadline (and reminder) must fire."""

    def notifying(self, game_id: str) -> bool:
        """Whether any seat of the game wants to be told things (webhooks)."""

    def notice_marks(self, game_id: str) -> Sequence[str]:
        """What ``notifying`` reads, for an append to read in its own round trip: any present means notifying.

        Empty when the marks are not on the event store's server (the append cannot read them).
        """

    def notify(self, game_id: str, kind: str, message_id: str, seats: list[int], data: dict[str, Any]) -> None:
        """Tell ``seats`` (their webhooks) about ``kind``; ``message_id`` names it, once."""


class NoFollowUps:
    """For in-process play (self-play, tests of the rules): nothing to enqueue."""

    def system_due(self, game_id: str, version: int) -> None:
        return None

    def bots_due(self, game_id: str, version: int) -> None:
        return None

    def clock_running(self, game_id: str, clock: Clock) -> None:
        return None

    def notifying(self, game_id: str) -> bool:
        return False

    def notice_marks(self, game_id: str) -> Sequence[str]:
        return ()

    def notify(self, game_id: str, kind: str, message_id: str, seats: list[int], data: dict[str, Any]) -> None:
        return None


class Webhooks(Protocol):
    """A seat's registered URLs and its delivery log."""

    def register(self, game_id: str, seat: int, url: str, kinds: list[str] | None = None) -> dict[str, Any]: ...

    def of_seat(self, game_id: str, seat: int) -> list[dict[str, Any]]: ...

    def remove(self, game_id: str, seat: int, webhook_id: str) -> bool: ...

    def log(self, game_id: str, seat: int, limit: int = 50) -> list[dict[str, Any]]: ...


NEW, REPLAY, IN_FLIGHT, MISMATCH = "new", "replay", "in_flight", "mismatch"


@dataclass(frozen=True)
class Begun:
    outcome: str  # NEW, REPLAY, IN_FLIGHT or MISMATCH
    response: dict[str, Any] | None = None  # for REPLAY: status, headers, body


def fingerprint(method: str, path: str, body: Any) -> str:
    """What makes two requests with one Idempotency-Key the same request."""
    return hashlib.sha256(canonical_json([method, path, body]).encode()).hexdigest()


class IdempotentRequests(Protocol):
    """Answers kept for requests that carried an Idempotency-Key."""

    def key_for(self, game_id: str, scope: str, key: str) -> str: ...

    def begin(self, key: str, print_: str) -> Begun: ...

    def finish(self, key: str, print_: str, status: int, headers: dict[str, str], body: str) -> None: ...

    def release(self, key: str, print_: str) -> None: ...


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    remaining: int
    retry_after: int  # whole seconds until the window closes


#: Rate-limit buckets: requests per real token; requests per client address;
#: failed authentications (a token that holds nothing) per client address.
TOKEN_BUCKET = "token"
ADDRESS_BUCKET = "address"
REFUSED_BUCKET = "refused"
#: Players created per client address (a player costs a record kept for good; an invitation taken by a
#: name creates one too).
PLAYER_BUCKET = "players"


class RateLimits(Protocol):
    def hit(self, bucket: str, caller: str) -> Verdict | None:
        """Count a request and judge it; None when ``bucket`` has no limit."""
        ...

    def peek(self, bucket: str, caller: str) -> Verdict | None:
        """Judge the next request without counting it, writing nothing."""
        ...

    def hit_and_peek(self, hit: tuple[str, str], peeks: list[tuple[str, str]]) -> list[Verdict | None]:
        """``hit(*hit)`` then ``peek`` of each of ``peeks``, in one round trip: their verdicts in order."""
        ...

    def for_append(self, hit: tuple[str, str], peeks: list[tuple[str, str]], count: str | None) -> Allowances | None:
        """The same checks as allowances an append judges in its own round trip, and then ``count``
        (a peeked bucket) counted; None when the store cannot (it is on another server)."""
        ...

    def spent(self, allowances: Allowances, index: int, retry_after: int) -> Verdict:
        """The verdict of an append refused for ``allowances``' item ``index`` (and remember the refusal)."""
        ...

    def known_refusal(self, buckets: list[tuple[str, str]]) -> Verdict | None:
        """A refusal of one of ``buckets`` this process learned and whose window is still open: no round trip."""
        ...


class GameRows(Protocol):
    """The game index projection's rows (``service.usecases.index``), caught up on demand."""

    def catch_up(self, batch: int = 500, limit: int | None = None) -> int: ...

    def row(self, game_id: str) -> dict[str, Any] | None: ...

    def current_row(self, game_id: str) -> dict[str, Any] | None:
        """The row with the game's own events after it applied, read from its stream."""
        ...

    def rows(self) -> dict[str, dict[str, Any]]: ...

    def rows_of(self, game_ids: list[str]) -> list[dict[str, Any] | None]: ...

    def index_page(self, index: str, before: str | None, count: int) -> list[str]:
        """Members of a sorted index, greatest first, each less than ``before``."""
        ...


class Health(Protocol):
    def alive(self) -> bool: ...
