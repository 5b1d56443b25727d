"""The log as one party may see it: the same rule for every way out.

State views, event pages, the live stream, the export and the responses to
an action all pass events through ``visible``, so there is one place that
decides what a seat learns (DESIGN.md, invariant 5):

- once the game is over, everything, to everyone;
- until then, each rules event as the game module's ``redact`` shows it to
  that seat, and the service's own events as they are, except
  ``CommandAccepted`` (another seat's command may name a hidden choice: others
  see only that the seat acted) and ``ForkedFrom`` (the whole state of the
  origin, hidden parts included: its state is left out).

A redacted event keeps its stored ``hash`` and ``prev_hash`` so the chain's
shape stays visible; its hash can be recomputed only once the game is over
(``redacted`` says which events were changed).

Whether the game is over is judged when the log is read (``record`` is the
game now), so an event's words (``service.usecases.words``), made from the
body this hands the reader, depend on the log up to the event, the reader's
seat, and whether the game has ended at reading: after the end every reader
reads the unredacted event and its unredacted words.
"""

from __future__ import annotations

from typing import Any

from domain.game import SYSTEM, Event
from events.envelope import Envelope
from service.usecases.record import META_EVENTS, Record


def visible(record: Record, envelope: Envelope, seat: int | None) -> dict[str, Any]:
    """``envelope`` as ``seat`` (None: a spectator) may see it, given the game now."""
    data = envelope.data
    if not record.over:
        data = _redact(record, envelope.type, data, seat)
    body = envelope.as_dict()
    body["data"] = data
    body["redacted"] = data is not envelope.data
    return body


def _redact(record: Record, event_type: str, data: dict[str, Any], seat: int | None) -> dict[str, Any]:
    if event_type == "CommandAccepted":
        if data["seat"] in (seat, SYSTEM):
            return data
        return {**data, "command": None}
    if event_type == "ForkedFrom":
        return {**data, "state": None}
    if event_type in META_EVENTS:
        return data
    shown = record.module.redact(Event(event_type, data), seat)
    return data if shown.data == data else shown.data
