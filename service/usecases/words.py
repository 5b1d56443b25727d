"""The log and the pending decision in plain English, for the party reading them.

Words are made when an event is served, never stored: the log keeps facts,
and a sentence is only a reading of one. An event is described from the
body ``redaction.visible`` made for the reader, so the words can tell no more
than the event as that reader receives it (DESIGN.md, invariant 5). A game's
own events are the game module's to word (``Game.describe_event``); the
service's own events (``META_EVENTS``) are worded here, with the players'
names from the lobby.
"""

from __future__ import annotations

from typing import Any

from domain.game import SYSTEM, Event
from events.envelope import Envelope
from service.usecases import genesis
from service.usecases.record import META_EVENTS, Record
from service.usecases.redaction import visible


def told(record: Record, envelope: Envelope, seat: int | None) -> dict[str, Any]:
    """``envelope`` as ``seat`` may see it (``redaction.visible``), with its sentence as ``text``."""
    body = visible(record, envelope, seat)
    body["text"] = sentence(record, body["type"], body["data"], seat)
    return body


def sentence(record: Record, event_type: str, data: dict[str, Any], seat: int | None) -> str:
    """One event, whose ``data`` is already as ``seat`` may see it, in words."""
    if event_type in META_EVENTS:
        return _meta(record, event_type, data)
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


def _meta(record: Record, event_type: str, data: dict[str, Any]) -> str:
    who = _capital(player(record, data.get("seat", data.get("by"))))
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
    if event_type == "GameForked":
        return f"A new game is forked from version {data['at_version']}."
    if event_type == "ForkedFrom":
        return f"This game is forked from version {data['version']} of game {data['game_id']}."
    if event_type == "TurnTimedOut":
        by = f"a {data['bot']} bot" if data.get("bot") else "a pass"
        return f"{who}'s time runs out; {by} plays for it."
    if event_type == "VacationTaken":
        return f"{who} takes {data['days']} days of vacation."
    return event_type


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
