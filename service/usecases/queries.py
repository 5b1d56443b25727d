"""Reading a game as one party may see it: its state, its actions, its log.

Every answer passes through the game's ``view`` for the caller's seat and
every event through ``redaction.visible``, so what a seat learns is decided in
one place (DESIGN.md, invariant 5), whether it asks for the state, a page of
the log, the export, the live stream or the answer to its own action. Pages,
the stream and the answer to an action carry each event's sentence for the
caller, and the state and the actions the pending decision in words
(``service.usecases.words``); the export is the log as stored, without words.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from service.usecases import clock
from service.usecases.audit import Verdict, audit
from service.usecases.errors import Refused
from service.usecases.games import Acted, Games
from service.usecases.ports import SEAT, Holder
from service.usecases.record import OPEN, Record
from service.usecases.redaction import visible
from service.usecases.words import prompt, told

#: Events the export reads from the store at a time.
EXPORT_PAGE = 500


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


class Queries:
    def __init__(self, games: Games):
        self.games = games

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
        return state_body(game_id, loaded.state, loaded.version, seat)

    def actions(self, game_id: str, seat: int | None) -> dict[str, Any]:
        """Every command ``seat`` may post now (none for a spectator)."""
        loaded = self.games.load(game_id)
        record = loaded.state
        playing = seat is not None and record.started and not record.over and record.kind_of(seat) != OPEN
        actions = record.module.legal_actions(record.state, seat) if playing and seat is not None else []
        return {
            "game_id": game_id,
            "game": record.game,
            "version": loaded.version,
            "seat": seat,
            "actions": actions,
            "prompt": prompt(record, seat),
        }

    @staticmethod
    def acted(acted: Acted, seat: int | str) -> dict[str, Any]:
        """The answer to a command: the batch it appended, as its seat may see it."""
        if acted.after is None:
            raise AssertionError("act answers with the game after it")
        viewer = seat if isinstance(seat, int) else None
        record = acted.after.state
        return {
            "game_id": acted.game_id,
            "game": record.game,
            "version": acted.version,
            "events": [told(record, e, viewer) for e in acted.envelopes],
        }

    def events(self, game_id: str, seat: int | None, after: int, limit: int) -> dict[str, Any]:
        """A page of the log as ``seat`` may see it."""
        loaded = self.games.load(game_id)
        envelopes = self.games.store.read(game_id, after + 1, min(after + limit, loaded.version))
        events = [told(loaded.state, e, seat) for e in envelopes]
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
            for start in range(1, loaded.version + 1, EXPORT_PAGE):
                end = min(start + EXPORT_PAGE - 1, loaded.version)
                for envelope in store.read(game_id, start, end, upcast=False):
                    yield visible(loaded.state, envelope, seat)

        return loaded.version, events()

    def follow(self, game_id: str, seat: int | None, after: int, block_ms: int) -> list[dict[str, Any]]:
        """The events after ``after`` as ``seat`` may see them, waiting up to ``block_ms`` for the first."""
        batch = self.games.store.wait(game_id, after, block_ms)
        if not batch:
            return []
        # Redact with the game as it is now, as a page of the log does: once
        # it is over, everything shows.
        record = self.games.load(game_id).state
        return [told(record, envelope, seat) for envelope in batch]

    def audit(self, game_id: str) -> Verdict:
        self.games.load(game_id)  # no such game reads as such
        return audit(self.games.store, game_id)


def seat_of(holder: Holder | None) -> int | None:
    """The seat whose view a token holder gets (None: a spectator's)."""
    return holder.seat if holder is not None and holder.kind == SEAT else None
