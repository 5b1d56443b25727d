"""Reading a game as one party may see it: its state, its actions, its log.

Every answer passes through the game's ``view`` for the caller's seat and
every event through ``redaction.visible``, so what a seat learns is decided in
one place (DESIGN.md, invariant 5), whether it asks for the state, a page of
the log, the export, the live stream or the answer to its own action. Every
event carries its sentence for the caller as ``text``, and the state and the
actions the pending decision in words (``service.usecases.words``). An
event's words are made against the record right before it, so every channel
words a run of events by folding the record along it from the record before
its first event (``words.Telling``): the answer to an action from the record
the command was decided on, a page or the stream from the record at the
version it starts after, the export from the beginning.

That record comes from what this process already holds, in this order: the
game as it is now (``Games.load``), the records at the versions lately read
to (``_Marks``: where the last page ended, where a stream got to, a state
shown), else a load at that version (the newest snapshot at or below it, and
the events after it). So paging forward, or following a stream, folds each
event once, and a page anywhere else folds at most the events since a
snapshot, never the whole game.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import Any

from events.envelope import Envelope
from events.snapshots import Loaded
from service.usecases import clock
from service.usecases.audit import Verdict, audit
from service.usecases.errors import Refused
from service.usecases.games import Acted, Games
from service.usecases.ports import SEAT, Holder
from service.usecases.record import BATCH_OPENERS, OPEN, Record
from service.usecases.words import Telling, prompt

#: Events the export reads from the store at a time.
EXPORT_PAGE = 500
#: How many records at versions lately read to a process keeps, for the words of what follows them.
MARKS = 512
#: Events read at a time when looking for the edges of a batch.
BATCH_WINDOW = 64


def state_body(game_id: str, record: Record, version: int, seat: int | None) -> dict[str, Any]:
    """The caller's view of ``record`` at ``version`` (GET state, and a stream's first message)."""
    module = record.module
    return {
        "game_id": game_id,
        "game": record.game,
        "version": version,
        "status": record.status,
        "seat": seat,
        "seats": [dict(s) for s in record.seats],
        "waiting_for": module.waiting_for(record.state) if record.started else [],
        "over": record.over,
        "proposal": record.proposal,
        "seed_commitment": record.seed_commitment,
        "seed_source": record.seed_source,
        "seed": record.seed,
        # Public from the moment given: without the server's secret they tell nobody the seed.
        "contributions": [{"seat": seat, "contribution": c} for seat, c in sorted(record.contributions.items())],
        "view": module.view(record.state, seat),
        "prompt": prompt(record, seat),
        "clocks": [
            {"seat": c.seat, "since": c.since, "deadline": clock.iso(c.due), "reminder": clock.iso(c.remind) if c.remind else None}
            for c in clock.clocks(record)
        ],
    }


class _Marks:
    """Records at versions lately read to, for the words of the events after them (a cache: events never change)."""

    def __init__(self, size: int):
        self.size = size
        self._records: OrderedDict[tuple[str, int], Record] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str, version: int) -> Record | None:
        with self._lock:
            found = self._records.get((game_id, version))
            if found is not None:
                self._records.move_to_end((game_id, version))
            return found

    def put(self, game_id: str, version: int, record: Record) -> None:
        if not self.size:
            return
        with self._lock:
            self._records[(game_id, version)] = record
            self._records.move_to_end((game_id, version))
            while len(self._records) > self.size:
                self._records.popitem(last=False)


class Queries:
    def __init__(self, games: Games, marks: int = MARKS):
        self.games = games
        self.marks = _Marks(marks)

    # -- words: the record before a run of events, folded along it -------------------

    def record_at(self, game_id: str, version: int, now: Loaded[Record] | None = None) -> Record:
        """The game right after ``version`` (right before the event after it), for words."""
        if version == 0:
            return Record()
        if now is not None and now.version == version:
            return now.state
        found = self.marks.get(game_id, version)
        if found is None:
            found = self.games.load(game_id, at=version).state
            self.marks.put(game_id, version, found)
        return found

    def telling(self, game_id: str, after: int, now: Loaded[Record], before: Record | None = None) -> Telling:
        """Words for the events after version ``after``, read with the game as ``now``
        (``before``: the record at ``after``, when the caller has it)."""
        record = before if before is not None else self.record_at(game_id, after, now)
        return Telling(record, now.state, lambda v: self.games.load(game_id, at=v).state)

    def told(
        self, game_id: str, envelopes: Sequence[Envelope], seat: int | None, now: Loaded[Record], before: Record | None = None
    ) -> list[dict[str, Any]]:
        """Consecutive ``envelopes`` as ``seat`` may read them (``before``: the record before the first, if known)."""
        if not envelopes:
            return []
        telling = self.telling(game_id, envelopes[0].version - 1, now, before)
        # Ending at ``now`` (an action's answer), the game after the last event is
        # known: it is not folded again (settled, as ``record_at`` gives it).
        ends_now = envelopes[-1].version == now.version
        told = telling.tell(envelopes, seat, fold_last=not ends_now)
        self.marks.put(game_id, envelopes[-1].version, now.state if ends_now else telling.record)
        return told

    def holder(self, game_id: str, token: str) -> Holder:
        """Who ``token`` speaks for in ``game_id``; refused if it holds nothing there."""
        holder = self.games.tokens.holder(game_id, token)
        if holder is None:
            self.games.load(game_id)  # no such game reads as such, before a refused token
            raise Refused("token_not_for_this_game", "the token holds nothing in this game", Refused.FORBIDDEN)
        return holder

    def state(self, game_id: str, seat: int | None, at: int | None = None) -> dict[str, Any]:
        """The game as ``seat`` may see it, now or right after version ``at``."""
        if at is not None:
            latest = self.games.load(game_id)
            if at > latest.version:
                raise Refused("no_such_version", f"the game has no version {at} yet", Refused.MALFORMED)
        loaded = self.games.load(game_id, at=at)
        self.marks.put(game_id, loaded.version, loaded.state)  # a stream opened on it words from here
        return state_body(game_id, loaded.state, loaded.version, seat)

    def actions(self, game_id: str, seat: int | None) -> dict[str, Any]:
        """Every command ``seat`` may post now (none for a spectator), each with its ``text``: the command
        in words for that seat (``Game.describe_command``). A client may post an action back as it is:
        the API leaves ``text`` out before the game reads the command."""
        loaded = self.games.load(game_id)
        record = loaded.state
        playing = seat is not None and record.started and not record.over and record.kind_of(seat) != OPEN
        module = record.module
        actions = []
        if playing and seat is not None:
            actions = [
                {**command, "text": module.describe_command(record.state, seat, command)}
                for command in module.legal_actions(record.state, seat)
            ]
        return {
            "game_id": game_id,
            "game": record.game,
            "version": loaded.version,
            "seat": seat,
            "actions": actions,
            "prompt": prompt(record, seat),
        }

    def acted(self, acted: Acted, seat: int | str) -> dict[str, Any]:
        """The answer to a command: the batch it appended, as its seat may see it."""
        if acted.after is None:
            raise AssertionError("act answers with the game after it")
        viewer = seat if isinstance(seat, int) else None
        before = acted.before.state if acted.before is not None else None  # a duplicate: loaded at its version
        return {
            "game_id": acted.game_id,
            "game": acted.after.state.game,
            "version": acted.version,
            "events": self.told(acted.game_id, acted.envelopes, viewer, acted.after, before),
        }

    def events(self, game_id: str, seat: int | None, after: int, limit: int) -> dict[str, Any]:
        """A page of the log as ``seat`` may see it."""
        loaded = self.games.load(game_id)
        envelopes = self.games.store.read(game_id, after + 1, min(after + limit, loaded.version))
        events = self.told(game_id, envelopes, seat, loaded)
        last = events[-1]["version"] if events else after
        return {
            "game_id": game_id,
            "game": loaded.state.game,
            "version": loaded.version,
            "events": events,
            "next_after": last if last < loaded.version else None,
        }

    def export(self, game_id: str, seat: int | None) -> tuple[int, Iterator[dict[str, Any]]]:
        """The whole log as stored (no upcasting), as ``seat`` may see it: the version and the events.

        The view is fixed at the version loaded, so the export is one
        consistent cut of the log even if the game moves on meanwhile.
        """
        loaded = self.games.load(game_id)
        store = self.games.store

        def events() -> Iterator[dict[str, Any]]:
            telling = self.telling(game_id, 0, loaded)
            for start in range(1, loaded.version + 1, EXPORT_PAGE):
                end = min(start + EXPORT_PAGE - 1, loaded.version)
                yield from telling.tell(store.read(game_id, start, end, upcast=False), seat)

        return loaded.version, events()

    def follow(self, game_id: str, seat: int | None, after: int, block_ms: int) -> list[dict[str, Any]]:
        """The events after ``after`` as ``seat`` may see them, waiting up to ``block_ms`` for the first."""
        follower = Follower(self, game_id, seat, after)
        told = follower.next(block_ms)
        if follower.record is not None:
            self.marks.put(game_id, follower.after, follower.record)
        return told

    def follower(self, game_id: str, seat: int | None, after: int) -> Follower:
        """``seat``'s place in the log after ``after``, to follow it batch by batch (a stream)."""
        return Follower(self, game_id, seat, after)

    def batch(self, game_id: str, version: int, seats: Sequence[int | None]) -> dict[int | None, list[dict[str, Any]]]:
        """The batch that holds ``version`` (the events one append wrote), as each of ``seats`` reads it now."""
        now = self.games.load(game_id)
        envelopes = self._batch_holding(game_id, version, now.version)
        telling = self.telling(game_id, envelopes[0].version - 1, now)
        told: dict[int | None, list[dict[str, Any]]] = {seat: [] for seat in seats}
        for each in telling.each(envelopes, list(seats)):
            for seat, body in each.items():
                told[seat].append(body)
        self.marks.put(game_id, envelopes[-1].version, telling.record)
        return told

    def _batch_holding(self, game_id: str, version: int, last: int) -> list[Envelope]:
        store = self.games.store
        found = store.read(game_id, version, version)
        while found[0].type not in BATCH_OPENERS and found[0].version > 1:
            found = store.read(game_id, max(1, found[0].version - BATCH_WINDOW), found[0].version - 1) + found
            opens = [i for i, e in enumerate(found) if e.type in BATCH_OPENERS]
            if opens:
                found = found[opens[-1] :]
        while found[-1].version < last:
            more = store.read(game_id, found[-1].version + 1, min(last, found[-1].version + BATCH_WINDOW))
            opens = [i for i, e in enumerate(more) if e.type in BATCH_OPENERS]
            found += more[: opens[0]] if opens else more
            if opens:
                break
        return found

    def audit(self, game_id: str) -> Verdict:
        self.games.load(game_id)  # no such game reads as such
        return audit(self.games.store, game_id)


def seat_of(holder: Holder | None) -> int | None:
    """The seat whose view a token holder gets (None: a spectator's)."""
    return holder.seat if holder is not None and holder.kind == SEAT else None


class Follower:
    """One reader's place in a game's log, as a stream keeps it: the version it was last told and the
    record there, carried from one batch to the next, so following a game folds each event once."""

    def __init__(self, queries: Queries, game_id: str, seat: int | None, after: int):
        self.queries = queries
        self.game_id = game_id
        self.seat = seat
        self.after = after
        self.record: Record | None = None  # at ``after``, once known

    def next(self, block_ms: int) -> list[dict[str, Any]]:
        """The events after the place, as the seat may see them, waiting up to ``block_ms`` for the first."""
        games = self.queries.games
        batch = games.store.wait(self.game_id, self.after, block_ms)
        if not batch:
            return []
        # Redact with the game as it is now, as a page of the log does: once
        # it is over, everything shows.
        telling = self.queries.telling(self.game_id, self.after, games.load(self.game_id), self.record)
        told = telling.tell(batch, self.seat)
        self.record, self.after = telling.record, batch[-1].version
        return told
