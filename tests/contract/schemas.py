"""Every event a game emits validates against the schema it declares (DESIGN.md, invariant 8).

The service checks each game event before appending it (``service.usecases.record.game_event``:
a ``SchemaRegistry`` holding the game's ``event_schemas``, then ``validate``), and an event that
fails there is a 5xx and a game stuck at that command. The checks here do the same, and are
stricter in two ways the log needs: the type must be declared (the registry lets an unknown type
through as free-form), and the data the schema loads must be the data the game folded (what the
store keeps is what a replay folds).

The whole-game random plays (``tests/domain/*/test_random_play.py``, ``test_base_random_play.py``)
and the contract suite (``test_schemas.py``) check every event they see with ``schemas_of(game)``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from domain.game import Event, Game
from events.schemas import SchemaError, SchemaRegistry


class EventSchemas:
    """One game's declared event schemas, registered as the service registers them."""

    def __init__(self, game: Game):
        self.game = game
        self.registry = SchemaRegistry()
        for declared in game.event_schemas:
            self.registry.declare(declared)
        self.declared = frozenset(self.registry.names())

    def problem(self, event: Event) -> str | None:
        """Why the service would refuse ``event`` or store it otherwise than it was folded; None if valid."""
        if event.type not in self.declared:
            return "its type is not among the game's event_schemas"
        try:
            loaded = self.registry.validate(event.type, event.data)
        except SchemaError as err:
            return str(err)
        if loaded != event.data:
            return f"its schema loads it as {loaded}, not as the game folded it"
        return None

    def check(self, events: Iterable[Event], where: str, *details: object) -> None:
        """Fail on the first invalid event. ``where`` names the seed and the version or step; ``details``
        (the seat, the command) are only formatted when an event fails, for callers in a hot loop."""
        for event in events:
            problem = self.problem(event)
            if problem is not None:
                place = " ".join([where, *map(str, details)])
                raise AssertionError(
                    f"{self.game.name} {place}: {event.type} does not validate against its declared schema: "
                    f"{problem} (data: {event.data})"
                )


@functools.cache
def schemas_of(game: Game) -> EventSchemas:
    return EventSchemas(game)
