"""The log and the pending decision in plain English, for the party reading them.

Words are made when an event is served, never stored: the log keeps facts,
and a sentence is only a reading of one. An event's words are a function of
three things only (DESIGN.md, invariant 8):

- the log up to that event: the event is described against the record as
  folded *just before* it (``Telling``), the world it acted on, so an enemy
  it kills or a card it discards is still there to be named, and a seat is
  called by the survivor it played then, not the one it plays when the log is
  read; what an event brings into the game (a survivor chosen, an enemy
  placed, the pack set up) it names from its own data;
- the reader's seat: the event is described from the body
  ``redaction.visible`` made for the reader, so the words tell no more than
  the event as that reader receives it (invariant 5);
- whether the game has ended when it is read: after the end every reader
  reads every event unredacted, and so its unredacted words.

So the answer to an action, the stream, the log's pages, webhooks and the
export say the same sentence for the same event, seat and moment of reading
(while the game runs, or after its end), this year and the next under the
same release. Every channel words events through ``Telling``, which folds
the record along the events it words. A game's own events are the game
module's to word (``Game.describe_event``); the service's own events
(``META_EVENTS``) are worded here, with the players' names as the lobby had
them at that event.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from domain.engine.addressing import YOU, addressed
from domain.game import SYSTEM, Event
from events.envelope import Envelope
from events.schemas import SchemaRegistry
from service.usecases import genesis
from service.usecases.record import (
    BATCH_OPENERS,
    META_EVENTS,
    Record,
    StateAt,
    apply,
    declare_events,
    settle,
    upcast,
)
from service.usecases.redaction import visible

#: The service's own event schemas, to bring an event read as stored (the export) up to date for its words.
_SERVICE_EVENTS = declare_events(SchemaRegistry())


class Telling:
    """Words for a run of consecutive events, the record folded along them.

    ``record`` is the game right before the first event to be told (``Record()``
    before version 1); ``now`` the game as it is read, which decides the
    redaction (everything shows once it is over). ``state_at`` gives the game
    at an earlier version, for a ``GameRewound`` in the run.

    The record is folded as ``RecordFolder`` folds it, a batch's waits settled
    when the next batch opens; at the end of a run that stops inside a batch
    they are not, which no words read (``record`` is for words only).
    """

    def __init__(self, record: Record, now: Record, state_at: StateAt | None = None):
        self.record = record
        self.now = now
        self.state_at = state_at
        self._last: Envelope | None = None

    def tell(self, envelopes: Iterable[Envelope], seat: int | None, *, fold_last: bool = True) -> list[dict[str, Any]]:
        """Each event as ``seat`` may see it, with its sentence as ``text``.

        ``fold_last=False``: the record is left right before the last event, for a
        caller that holds the game after it already (no words read that fold).
        """
        return [told[seat] for told in self.each(envelopes, [seat], fold_last=fold_last)]

    def each(
        self, envelopes: Iterable[Envelope], seats: Iterable[int | None], *, fold_last: bool = True
    ) -> Iterator[dict[int | None, dict[str, Any]]]:
        """Each event as each of ``seats`` may see it, with its words, by seat (the record folded once)."""
        readers = list(seats)
        told: Envelope | None = None
        for envelope in envelopes:
            if told is not None:
                self._step(told)
            told = self._upcast(envelope)
            yield {seat: self._told(envelope, told, seat) for seat in readers}
        if told is not None and fold_last:
            self._step(told)

    def _told(self, envelope: Envelope, current: Envelope, seat: int | None) -> dict[str, Any]:
        body = visible(self.now, envelope, seat)
        if current is envelope:
            data = body["data"]
        else:  # read as stored (the export): the words read it as the game does now
            data = visible(self.now, current, seat)["data"]
        body["text"] = sentence(self.record, current.type, data, seat)
        return body

    def _upcast(self, envelope: Envelope) -> Envelope:
        """``envelope`` with its data in its type's current version (for the fold and the words only)."""
        if envelope.type in META_EVENTS:
            data = _SERVICE_EVENTS.upcast(envelope.type, envelope.schema_version, envelope.data)[1]
        else:
            data = upcast(self.record, envelope)
        if data is envelope.data:
            return envelope
        current = object.__new__(Envelope)
        current.__dict__.update(envelope.__dict__, data=data)
        return current

    def _step(self, envelope: Envelope) -> None:
        last = self._last
        if last is not None and envelope.type in BATCH_OPENERS:
            self.record = settle(self.record, last.version, last.timestamp)
        self.record = apply(self.record, envelope.type, envelope.data, envelope.version, self._state_at)
        self._last = envelope

    def _state_at(self, version: int) -> Record:
        if self.state_at is None:
            raise ValueError("telling a GameRewound needs the state at its version")
        return self.state_at(version)


def told(record: Record, envelope: Envelope, seat: int | None, now: Record | None = None) -> dict[str, Any]:
    """One event as ``seat`` may see it, with its words: ``record`` is the game right before it, ``now`` as read."""
    return Telling(record, now if now is not None else record).tell([envelope], seat)[0]


def sentence(record: Record, event_type: str, data: dict[str, Any], seat: int | None) -> str:
    """One event, whose ``data`` is already as ``seat`` may see it, in words; ``record``: the game right before it."""
    if event_type in META_EVENTS:
        return addressed(_meta(record, event_type, data, seat))
    return record.module.describe_event(Event(event_type, data), seat, record.state)


def prompt(record: Record, seat: int | None) -> str | None:
    """What the game waits for now, in words for ``seat``; None before the start, once over, or while nobody is waited on."""
    if not record.started or record.over:
        return None
    return record.module.describe_decision(record.state, seat)


def player(record: Record, seat: Any) -> str:
    """A seat as the table knows it: ``Ada (seat 0)``, ``the bot (seat 1)``, ``the server``."""
    if seat == SYSTEM:
        return "the server"
    held = record.seats[seat] if isinstance(seat, int) and 0 <= seat < len(record.seats) else {}
    name = held.get("name") or (f"the {held['bot']} bot" if held.get("bot") else None)
    return f"{name} (seat {seat})" if name else f"seat {seat}"


def _meta(record: Record, event_type: str, data: dict[str, Any], reader: int | None) -> str:
    actor = data.get("seat", data.get("by"))
    # The reader's own seat is "you" (``domain.engine.addressing``), as in the game's words.
    who = YOU if reader is not None and actor == reader else _capital(player(record, actor))
    if event_type == "GameCreated":
        return f"A game of {data['game']} is created for {len(data['seats'])} seats."
    if event_type == "SeatJoined":
        return f"{data['name']} takes seat {data['seat']}."
    if event_type == "ContributionGiven":
        return f"{who} gives a contribution to the game's seed."
    if event_type == "SeatLeft":
        return f"Seat {data['seat']} is {'freed by the creator' if data.get('removed') else 'left'}."
    if event_type == "SeatHandedToBot":
        return f"A {data['bot']} bot takes seat {data['seat']}."
    if event_type == "GameStarted":
        return "The game starts."
    if event_type == "CommandAccepted":
        command = data.get("command")
        if command is None:
            return f"{who} acts."
        return f"{who} sends {str(command.get('type', 'a command')).replace('_', ' ')}."
    if event_type == "SeedRevealed":
        if record.seed_mix == genesis.WITH_CONTRIBUTIONS:
            return f"The server's secret is revealed: {data['seed']}; with the seats' contributions it made the seed."
        return f"The game's seed is revealed: {data['seed']}."
    if event_type == "ProposalMade":
        return f"{who} proposes to {data['kind']} the game to version {data['to_version']}."
    if event_type == "ProposalAccepted":
        return f"{who} accepts the proposal."
    if event_type == "ProposalDeclined":
        return f"{who} declines the proposal."
    if event_type == "GameRewound":
        return f"The game is rewound to version {data['to_version']}."
    if event_type == "MoveUndone":
        return f"{who} takes back a move (back to version {data['to_version']})."
    if event_type == "GameForked":
        return f"A new game is forked from version {data['at_version']}."
    if event_type == "ForkedFrom":
        return f"This game is forked from version {data['version']} of game {data['game_id']}."
    if event_type == "TurnTimedOut":
        by = f"a {data['bot']} bot" if data.get("bot") else "a pass"
        return f"{who}'s time runs out; {by} plays for it."
    if event_type == "VacationTaken":
        return f"{who} takes {data['days']} days of vacation."
    if event_type == "RulesUpgraded":
        was = data["from"] or "rules from before rules versions"
        if data["diverged_at"] is None:
            return f"The game moves from {was} to {data['to']}; every recorded move comes out the same under them."
        return (f"The game moves from {was} to {data['to']}, which decide version {data['diverged_at']} otherwise; "
                f"the game keeps its history and goes on from where it stands.")
    raise KeyError(f"the service has no words for {event_type}")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
