"""Rewind and fork: going back to an earlier version, by agreement.

A seat proposes (``ProposalMade``: rewind or fork, and the version); every
other human seat accepts (``ProposalAccepted``) or one declines
(``ProposalDeclined``, which is also how the proposer withdraws). The answer
that completes the agreement appends, in the same batch:

- for a rewind, ``GameRewound`` naming the version: the rules state becomes
  the state after it (``service.record``) and play goes on from there. Nothing
  is deleted: the log still shows every move made and taken back;
- for a fork, ``GameForked`` naming a new game, which is then created with the
  same seats (the same tokens work in it) and the rules state of this one at
  that version, behind a fresh secret seed.

A fork of a running game needs agreement for the same reason as a rewind:
when the fork ends it reveals its state, hidden parts included, which were
this game's hidden parts at that version. A finished game has nothing hidden
left, so any seat may fork it at once, and nothing is appended to it.

A player joining or leaving, or a seat going to a bot, drops a pending
proposal (``service.record``): the players who must agree are no longer the
same.

A version one may go back to is a resting point: the end of a batch, at or
after the start, at which the game was not over.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from events.envelope import Envelope, NewEvent
from service.usecases import genesis, notifications
from service.usecases.errors import Refused
from service.usecases.games import Games
from service.usecases.record import HUMAN, META_EVENTS, SERVER_SEED, Record

REWIND, FORK = "rewind", "fork"


@dataclass(frozen=True)
class Outcome:
    version: int  # the game's version after the change
    proposal: dict[str, Any] | None  # still pending, or None
    outcome: str  # "pending", "declined", "rewound" or "forked"
    fork_game_id: str | None = None


class Proposals:
    def __init__(self, games: Games):
        self.games = games

    def propose(self, game_id: str, seat: int, kind: str, to_version: int) -> Outcome:
        loaded = self.games.load(game_id)
        if kind == FORK and loaded.state.over:
            self._check_target(game_id, loaded.state, FORK, to_version, loaded.version)
            fork_id = self._fork(game_id, to_version, self.games.store.new_game_id())
            return Outcome(loaded.version, None, "forked", fork_id)

        def decide(record: Record, version: int) -> list[NewEvent]:
            if not record.started:
                raise Refused("not_started", "the game has not started yet")
            if record.over:
                raise Refused("game_over", "a finished game cannot be rewound")
            if record.kind_of(seat) != HUMAN:
                raise Refused("not_a_player", "only a player's seat may propose", Refused.FORBIDDEN)
            if record.proposal is not None:
                raise Refused("proposal_pending", f"proposal {record.proposal['id']} is still open")
            self._check_target(game_id, record, kind, to_version, version)
            events = [NewEvent("ProposalMade", {"kind": kind, "to_version": to_version, "by": seat})]
            proposal = {"id": version + 1, "kind": kind, "to_version": to_version}
            return events + _conclusion(record, proposal, {seat}, self.games.store.new_game_id)

        result, _ = self.games.transact(game_id, decide)
        outcome = self._after(game_id, result.last_version, result.envelopes)
        if outcome.outcome == "pending" and kind == REWIND and outcome.proposal is not None:
            self._tell_the_others(game_id, seat, outcome.proposal)
        return outcome

    def _tell_the_others(self, game_id: str, seat: int, proposal: dict[str, Any]) -> None:
        """A rewind proposal is news to every other player (their webhooks)."""
        follow_ups = self.games.follow_ups
        if not follow_ups.notifying(game_id):
            return
        record = self.games.load(game_id).state
        others = [s for s in record.seats_of(HUMAN) if s != seat]
        data = {"proposal": proposal, "text": notifications.rewind_text(record, proposal)}
        follow_ups.notify(game_id, "rewind_proposed", f"rewind-{game_id}-p{proposal['id']}", others, data)

    def answer(self, game_id: str, seat: int, proposal_id: int, accept: bool) -> Outcome:
        def decide(record: Record, version: int) -> list[NewEvent]:
            proposal = record.proposal
            if proposal is None or proposal["id"] != proposal_id:
                raise Refused("no_such_proposal", f"no open proposal {proposal_id}", Refused.NOT_FOUND)
            if record.kind_of(seat) != HUMAN:
                raise Refused("not_a_player", "only a player's seat may answer", Refused.FORBIDDEN)
            answer = {"proposal": proposal_id, "by": seat}
            if not accept:
                return [NewEvent("ProposalDeclined", answer)]
            if seat in proposal["accepted"]:
                raise Refused("already_accepted", "this seat has accepted already")
            accepted = {*proposal["accepted"], seat}
            conclusion = _conclusion(record, proposal, accepted, self.games.store.new_game_id)
            return [NewEvent("ProposalAccepted", answer), *conclusion]

        result, _ = self.games.transact(game_id, decide)
        return self._after(game_id, result.last_version, result.envelopes)

    # -- the agreement's consequences -----------------------------------------

    def _after(self, game_id: str, version: int, written: Sequence[Envelope]) -> Outcome:
        """What the batch ``written`` did, and the work it leaves: a rewind's follow-up, a fork's new game."""
        last = written[-1]
        if last.type == "ProposalDeclined":
            return Outcome(version, None, "declined")
        if last.type == "GameRewound":
            self.games.follow_up(game_id)  # automatic work may be due at the earlier state
            return Outcome(version, None, "rewound")
        if last.type == "GameForked":
            fork_id = self._fork(game_id, last.data["at_version"], last.data["fork_game_id"])
            return Outcome(version, None, "forked", fork_id)
        return Outcome(version, self.games.load(game_id).state.proposal, "pending")

    def _check_target(self, game_id: str, record: Record, kind: str, to_version: int, version: int) -> None:
        latest = version if kind == FORK else version - 1
        started_at = record.started_at or 0
        if not started_at <= to_version <= latest:
            raise Refused(
                "bad_version", f"choose a version from the start ({started_at}) to {latest}", Refused.MALFORMED
            )
        following = self.games.store.read(game_id, to_version + 1, to_version + 1)
        # A resting point is the end of a batch: what follows is the service's
        # own event, not a rules event of the same move nor the seed it revealed.
        if following and (following[0].type not in META_EVENTS or following[0].type == "SeedRevealed"):
            raise Refused("not_a_resting_point", f"version {to_version} is in the middle of a move", Refused.MALFORMED)
        if self.games.load(game_id, at=to_version).state.over:
            raise Refused("game_over", f"the game was over at version {to_version}", Refused.MALFORMED)

    def _fork(self, origin: str, at_version: int, fork_id: str) -> str:
        """Create game ``fork_id``: this game's seats, its rules state at ``at_version``."""
        games = self.games
        now = games.load(origin).state
        at = games.load(origin, at=at_version).state
        seed = secrets.token_hex(32)
        module = at.module
        origin_event = games.store.read(origin, at_version, at_version)[0]
        batch = [
            NewEvent(
                "GameCreated",
                {
                    "game": now.game,
                    # The fork goes on under this release's rules, from the origin's state as they fold it.
                    "rules": module.rules,
                    "options": now.options,
                    "seats": list(now.seats),
                    "seed_commitment": genesis.commitment(seed),
                    "seed_source": SERVER_SEED,
                    # It starts at once, from a state already dealt: nobody contributes.
                    "seed_mix": genesis.SECRET_ONLY,
                },
            ),
            NewEvent(
                "ForkedFrom",
                {
                    "game_id": origin,
                    "version": at_version,
                    "hash": origin_event.hash,
                    "state_format": module.state_format,
                    "state": module.dump_state(at.state),
                },
            ),
            NewEvent("GameStarted", {}),
        ]
        games.tokens.copy(origin, fork_id)
        games.open(fork_id, seed, batch)
        return fork_id


def _conclusion(
    record: Record, proposal: dict[str, Any], accepted: set[int], new_game_id: Callable[[], str]
) -> list[NewEvent]:
    """The events that carry the proposal out once every player has accepted (else none).

    ``new_game_id``: the store's, for a fork (its id decides where it lives).
    """
    if not set(record.seats_of(HUMAN)) <= accepted:
        return []
    if proposal["kind"] == REWIND:
        return [NewEvent("GameRewound", {"to_version": proposal["to_version"], "proposal": proposal["id"]})]
    fork = {"fork_game_id": new_game_id(), "at_version": proposal["to_version"], "proposal": proposal["id"]}
    return [NewEvent("GameForked", fork)]
