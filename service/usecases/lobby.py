"""The lobby: taking and leaving seats, handing seats to bots, starting a game.

Every change of seat is an event in the game's own stream, so the log shows
who sat where and when. Tokens are not: they live, hashed, in the game's
secrets (the ``Tokens`` port). A seat's token is written just after its
``SeatJoined`` is appended, because only then do we know the seat is ours
(the other order could overwrite the token of a player who won the seat in
a race). A crash in between, or an answer lost on the way, leaves a seat
taken whose token nobody has; so a join may carry a claim (the client's
``Idempotency-Key``), kept in ``SeatJoined`` as a hash, and the same join
sent again with the same key finds the seat its claim holds and is given a
new token for it: the recovery is the retry a client makes anyway.

The rules of the lobby:

- a person may take any open seat, before or after the start (a replacement
  for a player who left) but not once the game is over;
- a player may leave at any time before the end; the seat opens again;
- the creator may remove a player before the start, hand any seat to a bot
  before the start and an open seat after it, and start the game once no
  seat is open;
- a player may give the seat's contribution to the game's seed (as they join,
  or later with the seat's token) until the start, and no later: the start
  fixes the seed and deals the setup from it (``games.start_events``). A
  player who leaves before the start takes their contribution with them.
"""

from __future__ import annotations

import hashlib

from bots import LEVELS
from events.envelope import NewEvent
from service.usecases import genesis
from service.usecases.errors import Refused
from service.usecases.games import Decision, Games, start_events
from service.usecases.ports import SEAT, Holder
from service.usecases.record import BOT, HUMAN, OPEN, Record


class Lobby:
    def __init__(self, games: Games):
        self.games = games

    def join(
        self,
        game_id: str,
        name: str,
        seat: int | None = None,
        claim: str | None = None,
        contribution: str | None = None,
    ) -> tuple[int, str, int]:
        """Take ``seat`` (or the first open one); returns the seat, its token and the version.

        With ``claim``: if a seat was already taken with it, that seat's token
        is issued anew instead (the retry of a join whose answer was lost).
        With ``contribution``: the seat's part of the seed, in the same append.
        """
        digest = claim_digest(game_id, claim) if claim else None
        if digest is not None:
            loaded = self.games.load(game_id)
            held = [s for s, c in loaded.state.claims.items() if c == digest]
            if held:
                return held[0], self.games.tokens.issue(game_id, Holder(SEAT, held[0])), loaded.version

        def decide(record: Record, version: int) -> list[NewEvent]:
            _not_over(record)
            chosen = _first_open(record) if seat is None else seat
            _seat_exists(record, chosen)
            if record.kind_of(chosen) != OPEN:
                raise Refused("seat_taken", f"seat {chosen} is not open")
            data: dict[str, object] = {"seat": chosen, "name": name}
            if digest is not None:
                data["claim"] = digest
            joined = [NewEvent("SeatJoined", data)]
            if contribution is not None:
                _seed_not_fixed(record)
                joined.append(NewEvent("ContributionGiven", {"seat": chosen, "contribution": contribution}))
            return joined

        result, _ = self.games.transact(game_id, decide)
        taken: int = result.envelopes[0].data["seat"]
        token = self.games.tokens.issue(game_id, Holder(SEAT, taken))
        return taken, token, result.last_version

    def leave(self, game_id: str, seat: int, *, removed: bool = False) -> int:
        """The player at ``seat`` leaves (or, ``removed``, the creator removes them)."""

        def decide(record: Record, version: int) -> list[NewEvent]:
            _not_over(record)
            _seat_exists(record, seat)
            if record.kind_of(seat) != HUMAN:
                raise Refused("no_player", f"nobody sits at seat {seat}")
            if removed and record.started:
                raise Refused(
                    "already_started", "a player can be removed only before the start"
                )
            return [NewEvent("SeatLeft", {"seat": seat, "removed": removed})]

        return self._and_revoke(game_id, seat, decide)

    def hand_to_bot(self, game_id: str, seat: int, bot: str) -> int:
        check_bot_level(bot)

        def decide(record: Record, version: int) -> list[NewEvent]:
            _not_over(record)
            _seat_exists(record, seat)
            if record.kind_of(seat) == BOT:
                raise Refused("already_a_bot", f"a bot already holds seat {seat}")
            if record.started and record.kind_of(seat) != OPEN:
                raise Refused(
                    "seat_taken", "after the start only an open seat can go to a bot"
                )
            return [NewEvent("SeatHandedToBot", {"seat": seat, "bot": bot})]

        version = self._and_revoke(game_id, seat, decide)
        self.games.follow_up(game_id)  # the game may be waiting on that seat
        return version

    def contribute(self, game_id: str, seat: int, contribution: str) -> int:
        """``seat``'s player gives (or replaces) the seat's contribution to the seed, before the start."""

        def decide(record: Record, version: int) -> list[NewEvent]:
            _seat_exists(record, seat)
            if record.kind_of(seat) != HUMAN:
                raise Refused("no_player", f"nobody sits at seat {seat}")
            _seed_not_fixed(record)
            return [NewEvent("ContributionGiven", {"seat": seat, "contribution": contribution})]

        result, _ = self.games.transact(game_id, decide)
        return result.last_version

    def start(self, game_id: str) -> int:
        secret = self.games.seed(game_id)

        def decide(record: Record, version: int) -> list[NewEvent]:
            if record.started:
                raise Refused("already_started", "the game has started")
            if record.seats_of(OPEN):
                raise Refused(
                    "seats_open",
                    f"seats {record.seats_of(OPEN)} are open: fill them or hand them to bots",
                )
            return start_events(record, secret)

        result, _ = self.games.transact(game_id, decide)
        self.games.follow_up(game_id)
        return result.last_version

    def rotate_token(self, game_id: str, token: str) -> tuple[Holder, str]:
        """Replace ``token`` with a new one for the same holder; the old one stops working at once."""
        rotated = self.games.tokens.rotate(game_id, token)
        if rotated is None:
            raise Refused("token_not_for_this_game", "the token was revoked meanwhile", Refused.FORBIDDEN)
        return rotated

    def _and_revoke(self, game_id: str, seat: int, decide: Decision) -> int:
        """Append a change that frees ``seat``, then revoke the token it had."""
        holder = Holder(SEAT, seat)
        held = self.games.tokens.current(game_id, holder)
        result, _ = self.games.transact(game_id, decide)
        if held is not None:
            self.games.tokens.revoke(game_id, holder, expected=held)
        return result.last_version


def claim_digest(game_id: str, claim: str) -> str:
    """What a join's claim is kept as: tied to the game, so one key claims nothing elsewhere."""
    return hashlib.sha256(f"{game_id}\n{claim}".encode()).hexdigest()


def check_bot_level(level: str) -> None:
    if level not in LEVELS:
        raise Refused("unknown_bot", f"no bot level {level!r}; choose from {', '.join(LEVELS)}", Refused.MALFORMED)


def _seed_not_fixed(record: Record) -> None:
    if record.started:
        raise Refused("seed_fixed", "the game has started: its seed is fixed, and a contribution would change nothing")
    if record.seed_mix != genesis.WITH_CONTRIBUTIONS:
        # A chosen seed (or an older game's) is the seed: nothing mixes in.
        raise Refused("seed_fixed", "this game's seed takes no contributions (chosen by its creator, or set before seats contributed)")


def _not_over(record: Record) -> None:
    if record.over:
        raise Refused("game_over", "the game is over")


def _seat_exists(record: Record, seat: int) -> None:
    if record.kind_of(seat) is None:
        raise Refused("no_such_seat", f"the game has no seat {seat}", Refused.NOT_FOUND)


def _first_open(record: Record) -> int:
    open_seats = record.seats_of(OPEN)
    if not open_seats:
        raise Refused("no_open_seat", "every seat is taken")
    return open_seats[0]
