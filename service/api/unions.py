"""Discriminated unions in the API document: each hosted game's commands, events, state and bodies, typed.

The routes are the same for every game, so the document says which game's
shapes a body has by a discriminator a generated client can follow:

- every command schema's ``type`` is a one-value enum, and ``FalloutCommand``
  (say) is the ``oneOf`` of the game's commands, discriminated by ``type``;
  two games may share a command's name, so each game has a union of its own,
  and the action body (``Command``) is any of them;
- every event is an envelope whose ``type`` is a one-value enum and whose
  ``data`` has the event type's declared schema (``FalloutDiceRolledEvent``
  with ``FalloutDiceRolledData``; the service's own, shared by every game:
  ``SeatJoinedEvent``…), and ``FalloutEvent`` is their ``oneOf`` by ``type``;
- the answers that hold a game's view, commands or events (``State``,
  ``Actions``, ``Acted``, ``EventPage``) and the create body (``CreateGame``)
  are each a ``oneOf`` of one schema per game (``FalloutState``…),
  discriminated by ``game``.

While a game runs, an event's ``data`` may be redacted for the caller
(``redacted: true``): a hidden value reads ``null`` (or a placeholder of its
type, or a hidden list is emptied). So in the document every property of an
event's data is nullable; the rest is the event type's declared schema. The
end-to-end suites check every event they are served, redacted or not,
against it (tests/service/conformance.py).

Everything is built from the game registry's declared schemas and the
service's own event schemas: nothing here names a game.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator, Sequence
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from domain.game import Game
from events.schemas import SchemaRegistry
from service.usecases.record import declare_events

SCHEMAS = "#/components/schemas/"


def camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.replace("-", "_").split("_"))


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"{SCHEMAS}{name}"}


def union(names: dict[str, str], on: str, description: str) -> dict[str, Any]:
    """``oneOf`` the components ``names`` (by discriminator value), discriminated by ``on``."""
    return {
        "description": description,
        "oneOf": [ref(name) for name in names.values()],
        "discriminator": {"propertyName": on, "mapping": {value: f"{SCHEMAS}{n}" for value, n in names.items()}},
    }


def service_event_schemas() -> dict[str, Any]:
    """The service's own event types (the lobby, commands, proposals…) and their current schemas."""
    declared = declare_events(SchemaRegistry())
    # SchemaRegistry keeps no public way to its schemas: the service reads its own.
    return {name: declared._types[name].schema for name in declared.names()}


class Registrar:
    """Adds schemas to ``spec``, each class once: a class met again is copied under its new name."""

    def __init__(self, spec: APISpec):
        self.spec = spec
        self.schemas: dict[str, Any] = spec.components.schemas
        self.named: dict[type, str] = {}

    def add(self, name: str, schema: Any, **component: Any) -> str:
        key = schema if isinstance(schema, type) else type(schema)
        if key in self.named:
            self.schemas[name] = {**copy.deepcopy(self.schemas[self.named[key]]), **component}
        else:
            self.spec.components.schema(name, component=component or None, schema=schema)
            self.named[key] = name
        return name

    @contextlib.contextmanager
    def nesting(self, prefix: str) -> Iterator[None]:
        """Name the schemas nested in those added meanwhile ``prefix`` + their own name, apart from others'."""
        converter = next(p for p in self.spec.plugins if isinstance(p, MarshmallowPlugin)).converter
        assert converter is not None
        resolve = converter.schema_name_resolver
        converter.schema_name_resolver = lambda schema: f"{prefix}{resolve(schema)}"
        try:
            yield
        finally:
            converter.schema_name_resolver = resolve

    def derive(self, name: str, base: str, description: str, **properties: Any) -> str:
        """Component ``name``: a copy of ``base`` with ``properties`` replaced, and ``game`` and ``type`` required."""
        derived = copy.deepcopy(self.schemas[base])
        derived["description"] = description
        derived["properties"].update(properties)
        derived["required"] = sorted({*derived.get("required", []), *({"game", "type"} & set(properties))})
        self.schemas[name] = derived
        return name


def _redactable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` as redaction may leave it: every property, list item and map value nullable, at every depth
    (a hidden deck's order is a list of nulls)."""
    schema = copy.deepcopy(schema)

    def loosen(node: Any) -> None:
        if not isinstance(node, dict) or "$ref" in node:
            return
        for child in node.get("properties", {}).values():
            if isinstance(child, dict) and "$ref" not in child:
                child["nullable"] = True
                loosen(child)
        for key in ("items", "additionalProperties"):
            if isinstance(node.get(key), dict):
                if "$ref" not in node[key]:
                    node[key]["nullable"] = True
                loosen(node[key])

    loosen(schema)
    return schema


#: An action's words (``Game.describe_command``): served with each action, left out of a posted one.
TEXT = {
    "type": "string",
    "description": "The command in words for the caller's seat, as a button says it (GET …/actions serves it "
    "with every action; posted back, it is left out: never part of the command the game reads or the log keeps)",
    "example": "Reroll die 2",
}


def _command_unions(reg: Registrar, game: Game, prefix: str) -> str:
    names = {}
    for kind in sorted(game.command_schemas):
        name = reg.add(f"{prefix}Command{camel(kind)}", game.command_schemas[kind])
        typed = reg.schemas[name]
        typed["properties"]["type"] = {"type": "string", "enum": [kind]}
        typed["properties"]["text"] = dict(TEXT)
        typed["required"] = sorted({*typed.get("required", []), "type"})
        names[kind] = name
    return _put(reg, f"{prefix}Command", union(names, "type", f"A command of {game.title}, told apart by its `type`"))


def _put(reg: Registrar, name: str, schema: dict[str, Any]) -> str:
    reg.schemas[name] = schema
    return name


def _envelope(reg: Registrar, name: str, kind: str, data: str, description: str) -> str:
    """An event envelope of type ``kind`` whose data is the component ``data``."""
    return reg.derive(
        name, "Event", description, type={"type": "string", "enum": [kind]}, data=ref(data)
    )


def _event_data(reg: Registrar, name: str, schema: Any, nested: str) -> str:
    """The data of an event type, and the schemas it nests (named ``nested`` + their own name), redactable."""
    before = set(reg.schemas)
    with reg.nesting(nested):
        reg.add(name, schema)
    for added in set(reg.schemas) - before:
        reg.schemas[added] = _redactable(reg.schemas[added])
    return name


def _service_events(reg: Registrar) -> dict[str, str]:
    envelopes = {}
    for kind, schema in sorted(service_event_schemas().items()):
        data = _event_data(reg, f"{kind}Data", schema, "Logged")
        envelopes[kind] = _envelope(reg, f"{kind}Event", kind, data, f"`{kind}`: one of the service's own events")
    return envelopes


def _game_events(reg: Registrar, game: Game, prefix: str, shared: dict[str, str]) -> str:
    envelopes = dict(shared)
    for declared in sorted(game.event_schemas, key=lambda e: e.name):
        data = _event_data(reg, f"{prefix}{declared.name}Data", declared.schema, f"{prefix}Logged")
        envelopes[declared.name] = _envelope(
            reg, f"{prefix}{declared.name}Event", declared.name, data, f"`{declared.name}`: an event of {game.title}"
        )
    return _put(
        reg,
        f"{prefix}Event",
        union(envelopes, "type", f"An event of {game.title} (or of the service), told apart by its `type`"),
    )


#: The generic answers made one per game, and what of each becomes the game's own.
PER_GAME = ("State", "Actions", "Acted", "EventPage")


def publish_unions(spec: APISpec, games: Sequence[Game], names: dict[str, tuple[str, str]]) -> None:
    """Type every game's commands and events, and make the generic bodies unions by ``game``.

    ``names``: each game's options and view components, by game.
    """
    reg = Registrar(spec)
    shared = _service_events(reg)
    per_game: dict[str, dict[str, str]] = {kind: {} for kind in (*PER_GAME, "CreateGame")}
    commands = []
    for game in games:
        prefix = camel(game.name)
        options, view = names[game.name]
        command = _command_unions(reg, game, prefix)
        commands.append(ref(command))
        event = _game_events(reg, game, prefix, shared)
        this = {"type": "string", "enum": [game.name], "description": "Which game"}
        create = {**this, "description": "Which game (left out, the server takes the first it ships: name it)"}
        per_game["CreateGame"][game.name] = reg.derive(
            f"Create{prefix}Game", "CreateGame", f"Create a game of {game.title}", game=create, options=ref(options)
        )
        per_game["State"][game.name] = reg.derive(
            f"{prefix}State", "State", f"A game of {game.title} as the caller may see it", game=this, view=ref(view)
        )
        per_game["Actions"][game.name] = reg.derive(
            f"{prefix}Actions", "Actions", f"What the caller may do in a game of {game.title}", game=this,
            # Each listed action always carries its `text`; the command schemas keep it optional, since a
            # posted command may leave it out (client generators take no allOf of a oneOf to require it here).
            actions={"type": "array", "items": ref(command),
                     "description": "Each one a complete body to POST, always with its `text` (the command in words)"},
        )  # fmt: skip
        events = {"type": "array", "items": ref(event)}
        per_game["Acted"][game.name] = reg.derive(
            f"{prefix}Acted", "Acted", f"What a command did in a game of {game.title}", game=this, events=events
        )
        per_game["EventPage"][game.name] = reg.derive(
            f"{prefix}EventPage", "EventPage", f"A page of the log of a game of {game.title}", game=this, events=events
        )
    if not games:
        return
    for kind, by_game in per_game.items():
        reg.schemas[kind] = union(by_game, "game", f"One of the `{kind}` schemas of each game, told apart by `game`")
    reg.schemas["Command"] = {
        "description": "A command of the game the path names: one of that game's `…Command` (each told apart by "
        "its `type`)",
        "anyOf": commands,
    }
    reg.schemas["Event"]["description"] = (
        "An event of any game (the stream's `event` messages); each game's `…Event` union types its `data`"
    )
