"""The events one command resolves into.

``decide`` never changes the state it was given. It opens a ``Resolution`` on
it, and every rule step emits its events through ``emit``, which folds each
event at once with the same ``evolve`` a replay uses. So a later step sees the
earlier steps' effects, and the state a command leaves behind is by
construction the state its events fold to: the service takes it from here
instead of folding the events again.

The first fold of a resolution makes a new record; that record is the
resolution's own (``own``) until it is handed back, so the folds after write
it in place (``records.IN_PLACE``) instead of copying it once an event. Rule
code therefore reads ``res.state`` again after an emit rather than a state it
took before: the one it took may be the record the emit wrote.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Generic, TypeVar

from domain.engine import records
from domain.game import Event
from domain.rng import Rng

S = TypeVar("S")

#: ``object.__new__`` and the event's class, held: the compiled build reads a ``Final`` once, where it looks a name up
#: at each call (``object.__new__`` on ``object``'s type, an imported class in the module's namespace).
_NEW: Final = object.__new__
_EVENT: Final = Event


def made_event(type_: str, data: dict[str, Any]) -> Event:
    """``Event(type_, data)`` without the frozen data class's ``__init__`` (a guarded setattr per field): every
    step of every resolution emits, ten events a command and a hundred commands a greedy decision."""
    event: Event = _NEW(_EVENT)
    fields = event.__dict__
    fields["type"] = type_
    fields["data"] = data
    return event


class Resolution(Generic[S]):
    def __init__(self, state: S, rng: Rng, evolve: Callable[[S, Event], S]):
        self.state = state
        self.rng = rng
        self.evolve = evolve
        self.events: list[Event] = []
        #: The record this resolution's folds made, which no one else holds yet: later folds write it in place.
        self.own: Any = None
        #: Whether ``events`` keeps what is emitted: not for a look-ahead, which wants the state alone
        #: (``RulebookGame.after``), so a game that folds through writers of the data makes no event object.
        self.recorded = True

    def emit(self, type_: str, **data: Any) -> S:
        return self.emitted(type_, data)

    def emitted(self, type_: str, data: dict[str, Any]) -> S:
        """``emit`` with the event's data made already, a dict no one else holds: the kit's and a game's helpers
        hand theirs on (spread into keywords it was gathered into a new dict again, the arguments parsed twice
        at some eight events a decision)."""
        event = made_event(type_, data)
        state = self.state
        if state is self.own:
            writable = records.IN_PLACE
            writable[0] = state
            try:
                self.state = self.evolve(state, event)
            finally:
                writable[0] = None
        else:
            # A fold makes a new record of what it was given (the caller's state): this resolution's own.
            folded = self.state = self.evolve(state, event)
            if folded is not state:
                self.own = folded
        if self.recorded:
            self.events.append(event)
        return self.state

    def request(self, seat: int, kind: str, choices: list[dict[str, Any]], **context: Any) -> None:
        """Stop and wait for ``seat`` to pick one of ``choices`` (Decisions are explicit)."""
        self.requested(seat, kind, choices, context)

    def requested(self, seat: int, kind: str, choices: list[dict[str, Any]], context: dict[str, Any]) -> None:
        """``request`` with its context made already (a dict no one else holds)."""
        self.emitted("DecisionRequested", {"seat": seat, "kind": kind, "choices": choices, "context": context})
