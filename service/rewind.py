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

import hashlib
import secrets
import uuid
from dataclasses import dataclass

from domain.game import RuleViolation
from events.envelope import NewEvent
from service.application import Games
from service.record import HUMAN, META_EVENTS, Record

REWIND, FORK = "rewind", "fork"
#: Events that never open a batch (the seed is revealed in the batch that ends a game).
_NOT_HEADERS = frozenset({"SeedRevealed"})


@dataclass(frozen=True)
class Outcome:
    version: int  # the game's version after the change
    proposal: dict | None  # still pending, or None
    outcome: str  # "pending", "declined", "rewound" or "forked"
    fork_game_id: str | None = None


class Proposals:
    def __init__(self, games: Games):
        self.games = games

    def propose(self, game_id: str, seat: int, kind: str, to_version: int) -> Outcome:
        loaded = self.games.load(game_id)
        if kind == FORK and loaded.state.over:
            self._check_target(game_id, loaded.state, FORK, to_version, loaded.version)
            fork_id = self._fork(game_id, to_version, uuid.uuid4().hex)
            return Outcome(loaded.version, None, "forked", fork_id)
        concluded: list = []

        def decide(record: Record, version: int) -> list[NewEvent]:
            if not record.started:
                raise RuleViolation("not_started", "the game has not started yet", status=409)
            if record.over:
                raise RuleViolation("game_over", "a finished game cannot be rewound", status=409)
            if record.kind_of(seat) != HUMAN:
                raise RuleViolation("not_a_player", "only a player's seat may propose", status=403)
            if record.proposal is not None:
                raise RuleViolation(
                    "proposal_pending", f"proposal {record.proposal['id']} is still open", status=409
                )
            self._check_target(game_id, record, kind, to_version, version)
            events = [NewEvent("ProposalMade", {"kind": kind, "to_version": to_version, "by": seat})]
            proposal = {"id": version + 1, "kind": kind, "to_version": to_version}
            return events + self._conclusion(record, proposal, {seat}, concluded)

        result, _ = self.games.transact(game_id, decide)
        outcome = self._after(game_id, result.last_version, concluded)
        if outcome.outcome == "pending" and kind == REWIND and outcome.proposal is not None:
            self._tell_the_others(game_id, seat, outcome.proposal)
        return outcome

    def _tell_the_others(self, game_id: str, seat: int, proposal: dict) -> None:
        """A rewind proposal is news to every other player (their webhooks)."""
        follow_ups = self.games.follow_ups
        if not follow_ups.notifying(game_id):
            return
        others = [s for s in self.games.load(game_id).state.seats_of(HUMAN) if s != seat]
        follow_ups.notify(
            game_id, "rewind_proposed", f"rewind-{game_id}-p{proposal['id']}", others, {"proposal": proposal}
        )

    def answer(self, game_id: str, seat: int, proposal_id: int, accept: bool) -> Outcome:
        concluded: list = []

        def decide(record: Record, version: int) -> list[NewEvent]:
            proposal = record.proposal
            if proposal is None or proposal["id"] != proposal_id:
                raise RuleViolation("no_such_proposal", f"no open proposal {proposal_id}", status=404)
            if record.kind_of(seat) != HUMAN:
                raise RuleViolation("not_a_player", "only a player's seat may answer", status=403)
            answer = {"proposal": proposal_id, "by": seat}
            if not accept:
                concluded[:] = ["declined"]
                return [NewEvent("ProposalDeclined", answer)]
            if seat in proposal["accepted"]:
                raise RuleViolation("already_accepted", "this seat has accepted already", status=409)
            accepted = {*proposal["accepted"], seat}
            return [NewEvent("ProposalAccepted", answer), *self._conclusion(record, proposal, accepted, concluded)]

        result, _ = self.games.transact(game_id, decide)
        return self._after(game_id, result.last_version, concluded)

    # -- the agreement's consequences -----------------------------------------

    @staticmethod
    def _conclusion(record: Record, proposal: dict, accepted: set[int], concluded: list) -> list[NewEvent]:
        """The events that carry the proposal out once every player has accepted (else none).

        ``concluded`` learns what happened, for the work after the append.
        """
        if not set(record.seats_of(HUMAN)) <= accepted:
            concluded[:] = []
            return []
        if proposal["kind"] == REWIND:
            concluded[:] = ["rewound"]
            return [NewEvent("GameRewound", {"to_version": proposal["to_version"], "proposal": proposal["id"]})]
        fork_id = uuid.uuid4().hex
        concluded[:] = ["forked", fork_id, proposal["to_version"]]
        return [
            NewEvent(
                "GameForked",
                {"fork_game_id": fork_id, "at_version": proposal["to_version"], "proposal": proposal["id"]},
            )
        ]

    def _after(self, game_id: str, version: int, concluded: list) -> Outcome:
        if not concluded:
            return Outcome(version, self.games.load(game_id).state.proposal, "pending")
        if concluded[0] == "rewound":
            self.games.follow_up(game_id, version)  # automatic work may be due at the earlier state
        fork_id = None
        if concluded[0] == "forked":
            fork_id = self._fork(game_id, concluded[2], concluded[1])
        return Outcome(version, None, concluded[0], fork_id)

    def _check_target(self, game_id: str, record: Record, kind: str, to_version: int, version: int) -> None:
        latest = version if kind == FORK else version - 1
        if not record.started_at <= to_version <= latest:
            raise RuleViolation(
                "bad_version",
                f"choose a version from the start ({record.started_at}) to {latest}",
                status=422,
            )
        following = self.games.store.read(game_id, to_version + 1, to_version + 1)
        if following and (following[0].type not in META_EVENTS or following[0].type in _NOT_HEADERS):
            raise RuleViolation(
                "not_a_resting_point", f"version {to_version} is in the middle of a move", status=422
            )
        if self.games.load(game_id, at=to_version).state.over:
            raise RuleViolation("game_over", f"the game was over at version {to_version}", status=422)

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
                    "options": now.options,
                    "seats": list(now.seats),
                    "seed_commitment": hashlib.sha256(seed.encode()).hexdigest(),
                },
            ),
            NewEvent(
                "ForkedFrom",
                {
                    "game_id": origin,
                    "version": at_version,
                    "hash": origin_event.hash,
                    "state_format": getattr(module, "state_format", "1"),
                    "state": module.dump_state(at.state),
                },
            ),
            NewEvent("GameStarted", {}),
        ]
        games.tokens.copy(origin, fork_id)
        games.open(fork_id, seed, batch)
        return fork_id
