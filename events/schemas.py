"""Versioned event schemas and the upcasters between their versions.

Stored events are facts and are never rewritten, so when the shape of an
event type changes we bump its schema version and register an upcaster that
turns the old data into the new. Reading upcasts step by step (v1 -> v2 ->
v3) and then validates against the current marshmallow schema. The hash
chain always covers the envelope as stored, never the upcast form.

Types nobody registered are accepted as free-form objects: a reader must
never fail on a stored event (DESIGN.md, invariant 2). Who registers what is
not this module's business: the service declares its own events and each
hosted game's (``domain.game.Game.event_schemas``) at start-up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from marshmallow import Schema, ValidationError

from domain.game import EventSchema
from domain.schema_loads import loader

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class SchemaError(Exception):
    pass


@dataclass
class EventType:
    name: str
    version: int
    schema: Schema
    upcasters: dict[int, Upcaster] = field(default_factory=dict)  # from version -> next
    #: ``schema.load``, quick for data already in its loaded form (``domain.schema_loads``).
    load: Callable[[dict[str, Any]], dict[str, Any]] = field(init=False)

    def __post_init__(self) -> None:
        self.load = loader(self.schema)


class SchemaRegistry:
    def __init__(self) -> None:
        self._types: dict[str, EventType] = {}
        #: Each registered type's current version: a reader skips ``upcast`` for an event already there
        #: (a fold reads thousands, nearly all current), an unregistered type counting as current.
        self.versions: dict[str, int] = {}

    def register(self, name: str, version: int, schema: Schema) -> None:
        """Declare the current ``version`` of event type ``name``."""
        known = self._types.get(name)
        upcasters = known.upcasters if known else {}
        self._types[name] = EventType(name, version, schema, upcasters)
        self.versions[name] = version

    def declare(self, declared: EventSchema) -> None:
        """Register a declared event type with its upcasters (a game's, or the service's)."""
        self.register(declared.name, declared.version, declared.schema())
        for from_version, step in declared.upcasters.items():
            self.upcaster(declared.name, from_version)(step)

    def upcaster(self, name: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
        """Decorator: the function that turns ``name`` v``from_version`` data into the next."""

        def register(fn: Upcaster) -> Upcaster:
            if name not in self._types:
                raise SchemaError(f"register {name} before its upcasters")
            self._types[name].upcasters[from_version] = fn
            return fn

        return register

    def names(self) -> list[str]:
        return list(self._types)

    def current_version(self, name: str) -> int:
        known = self._types.get(name)
        return known.version if known else 1

    def validate(self, name: str, data: dict[str, Any]) -> dict[str, Any]:
        """Validate data about to be written in the current version."""
        known = self._types.get(name)
        if known is None:
            return data
        try:
            return known.load(data)
        except ValidationError as err:
            raise SchemaError(f"{name}: {err.messages}") from err

    def upcast(self, name: str, version: int, data: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """Bring stored data up to the current version of its type."""
        known = self._types.get(name)
        if known is None:
            return version, data
        while version < known.version:
            step = known.upcasters.get(version)
            if step is None:
                raise SchemaError(f"no upcaster for {name} v{version}")
            data = step(dict(data))
            version += 1
        return version, data
