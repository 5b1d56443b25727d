"""Undo: a seat takes back its own last move, without anyone's agreement, while nothing was learnt from it.

A rewind by agreement (``service.usecases.proposals``) may go back anywhere;
an undo goes back one move of the seat's own, and needs nobody's word
because it takes nothing from anyone. So the service allows it only when the
log shows the move taught nobody anything and drew no chance:

- the move is the game's last batch (after earlier undos: the last batch of
  the history as it now stands), a ``CommandAccepted`` of this seat;
- the game waited on this seat before it and waits on it now: the move is
  within the seat's own turn (an ended turn, another seat's answer, a bot's
  move or a round end after it all make it the table's);
- no event of the move is shown otherwise to any seat or a spectator (nothing
  hidden was revealed to the mover, nor drawn for it);
- deciding the move again from the game's seed draws no random number (no
  die rolled, no card drawn, no deck shuffled).

Undoing appends ``MoveUndone`` (the seat, and the version it goes back to): it
folds as ``GameRewound`` does (the rules state becomes the state after that
version), but it is its own event, since a ``GameRewound`` is the end of an
agreement. Nothing is deleted: the log keeps the move and its taking back.
Undoing again takes back the move before, as long as it too qualifies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.game import Event, RuleViolation
from domain.rng import Rng
from events.envelope import Envelope, NewEvent
from events.log import ConcurrencyError
from service.usecases import genesis
from service.usecases.errors import Refused
from service.usecases.games import Games
from service.usecases.record import BATCH_OPENERS, HUMAN, META_EVENTS, Record
from service.usecases.redaction import visible
from service.usecases.words import sentence

#: How far back the log is read to find the move: an undo is about the last move, not a game's history.
LOOK_BACK = 400
#: The first read's reach: the last move is nearly always within it. Every listing of a seat's actions
#: asks whether it may undo, and reading LOOK_BACK events each time was most of that request's cost.
NEAR = 32
#: Worlds the move is decided again in, to see whether it rests on something hidden (``_learnt``).
WORLDS = 3


@dataclass(frozen=True)
class Undoable:
    to_version: int  # the version the game goes back to: just before the move
    move_version: int  # the move's CommandAccepted
    text: str  # the move in words, as its seat reads it


class Undo:
    def __init__(self, games: Games):
        self.games = games

    def offer(self, game_id: str, seat: int | None) -> dict[str, Any] | None:
        """``{to_version, text}`` when ``seat`` may undo its last move now, else None."""
        if seat is None:
            return None
        try:
            found = self._undoable(game_id, seat)
        except Refused:
            return None
        return {"to_version": found.to_version, "text": f"Take back: {found.text}"}

    def undo(self, game_id: str, seat: int, expected_version: int | None) -> tuple[int, int]:
        """Take back ``seat``'s last move: the game's version after it, and the version it went back to."""

        def decide(record: Record, version: int) -> list[NewEvent]:
            if expected_version is not None and expected_version != version:
                raise ConcurrencyError(game_id, expected_version, version)
            found = self._undoable(game_id, seat)
            return [NewEvent("MoveUndone", {"seat": seat, "to_version": found.to_version})]

        result, _ = self.games.transact(game_id, decide, actor=f"seat:{seat}")
        self.games.follow_up(game_id)  # automatic work may be due at the earlier state
        return result.last_version, result.envelopes[-1].data["to_version"]

    # -- what the log shows ------------------------------------------------------

    def _undoable(self, game_id: str, seat: int) -> Undoable:
        loaded = self.games.load(game_id)
        record = loaded.state
        if not record.started or record.over:
            raise Refused("nothing_to_undo", "only a running game's moves may be taken back", Refused.NOT_NOW)
        if record.kind_of(seat) != HUMAN:
            raise Refused("not_a_player", "only a player's seat may undo", Refused.FORBIDDEN)
        if seat not in record.module.waiting_for(record.state):
            raise Refused("nothing_to_undo", "it is not your turn: your moves are the table's now", Refused.NOT_NOW)
        batch = None
        for reach in (NEAR, LOOK_BACK):
            log = self.games.store.read(game_id, max(1, loaded.version - reach), loaded.version)
            batch = _last_move(log, loaded.version)
            if batch is not None or loaded.version <= reach:
                break
        if batch is None:
            raise Refused("nothing_to_undo", "you have no move of this turn to take back", Refused.NOT_NOW)
        header = batch[0]
        if header.type != "CommandAccepted" or header.data["seat"] != seat:
            raise Refused("nothing_to_undo", "the last move is not yours", Refused.NOT_NOW)
        before = self.games.load(game_id, at=header.version - 1).state
        if before.over or seat not in before.module.waiting_for(before.state):
            raise Refused("nothing_to_undo", "that move began your turn's part of the table", Refused.NOT_NOW)
        shown = [e for e in batch if e.type not in META_EVENTS]
        viewers: list[int | None] = [None, *range(len(record.seats))]
        if any(visible(record, e, viewer)["redacted"] for e in shown for viewer in viewers):
            raise Refused("undo_after_reveal", "that move showed something hidden; ask the others to rewind",
                          Refused.NOT_NOW)  # fmt: skip
        decided, draws = _decide_again(self.games, game_id, before, header)
        if draws:
            raise Refused("undo_after_chance", "that move rolled dice or drew from a deck; ask the others to rewind",
                          Refused.NOT_NOW)  # fmt: skip
        if _learnt(game_id, before, header, decided):
            raise Refused("undo_after_reveal", "that move showed something hidden; ask the others to rewind",
                          Refused.NOT_NOW)  # fmt: skip
        text = sentence(before, shown[0].type, shown[0].data, seat) if shown else "your last move"
        return Undoable(header.version - 1, header.version, text)


def _last_move(log: list[Envelope], version: int) -> list[Envelope] | None:
    """The last batch of the history as it stands: following each rewind and undo back to where it went."""
    by_version = {e.version: e for e in log}
    end = version
    while end in by_version:
        start = end
        while start in by_version and by_version[start].type not in BATCH_OPENERS:
            start -= 1
        if start not in by_version:
            return None  # further back than the log read: nothing recent to undo
        batch = [by_version[v] for v in range(start, end + 1)]
        back = next((e.data["to_version"] for e in batch if e.type in ("GameRewound", "MoveUndone")), None)
        if back is None:
            return batch
        end = back
    return None


def _decide_again(games: Games, game_id: str, before: Record, header: Envelope) -> tuple[list[Event], bool]:
    """The move decided again as ``Games.act`` decided it: its events, and whether it drew from the randomness."""
    secret = games.seed(game_id)
    seed = genesis.effective_seed(secret, before.seed_mix, before.contributions)
    rng = Rng.for_position(seed, header.version - 1)
    command = before.module.check_command(header.data["command"])
    decided, _ = before.module.decide_and_fold(before.state, header.data["seat"], command, rng)
    return list(decided), rng.counter > 0


def _learnt(game_id: str, before: Record, header: Envelope, decided: list[Event]) -> bool:
    """Whether the move taught its seat something hidden: a card drawn from the top of a deck shuffled long ago,
    a face-down tile turned, shows everyone the same thing (so no event is redacted) and draws no number now.

    The move is decided again in a few worlds the seat cannot tell from the real one (the game AI's
    ``determinize``: everything the seat sees kept, everything hidden sampled); if what the seat is shown of
    the move differs in any of them, the move depended on what was hidden, and showed it.
    """
    module = before.module
    if module.ai is None:
        return False  # a game that cannot sample what a seat does not see: the redaction check stands alone
    seat = header.data["seat"]
    command = module.check_command(header.data["command"])
    shown = [module.redact(e, seat) for e in decided]
    view = module.view(before.state, seat)
    for world in range(WORLDS):
        sampled = module.ai.determinize(view, seat, Rng(f"undo:{game_id}", f"v{header.version}-world{world}"))
        try:
            there, _ = module.decide_and_fold(sampled, seat, command, Rng(f"undo:{game_id}", "no draws"))
        except RuleViolation:
            return True  # the move would not even be legal there: it rests on what the seat cannot see
        if [module.redact(e, seat) for e in there] != shown:
            return True
    return False
