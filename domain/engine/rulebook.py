"""One table per game: its commands, decision answers, event folds and event schemas.

Each rule module of a game registers what it owns where it defines it::

    RULES = Rulebook[GameState, FalloutResolution]("fallout")   # in the game's rulebook module

    @RULES.command("camp", {})                                  # in camp.py
    def camp_command(res, seat, command): ...

    @RULES.fold("Camped", {"seat": fields.Integer(required=True)})
    def _camped(state, data): ...

and the game's ``decide``, ``evolve``, ``command_schemas`` and
``event_schemas`` all read the same table, so no list of event types or
commands is kept by hand anywhere else. Folds run in registration order;
``watch`` adds a fold that runs after another module's fold of the same
event (a test reporting to an attempt, a kill completing an objective).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from marshmallow import RAISE, Schema, fields

from domain.engine.decisions import Decision
from domain.game import Event, EventSchema, Upcaster

S = TypeVar("S")
R = TypeVar("R")

Fold = Callable[[S, dict[str, Any]], S]
#: A turn's command: ``(resolution, seat, command)``; emits through the resolution.
Action = Callable[[R, int, dict[str, Any]], None]
#: The answer to a pending decision: ``(resolution, chosen command, decision)``.
Answer = Callable[[R, dict[str, Any], Decision], None]
FieldsOrSchema = Mapping[str, fields.Field] | type[Schema]


class RulebookError(Exception):
    """A game registered the same thing twice, or something unknown."""


@dataclass(frozen=True)
class AnswerRule:
    # Not generic in the resolution: mypyc compiles no frozen dataclass that is also Generic (its module
    # fails at import), and the fold this module holds is the hottest code a compiled build can reach.
    handler: Answer[Any]
    #: The rule book topic a refused answer names.
    rule: str | None


def schema_of(name: str, shape: FieldsOrSchema, *, command: bool = False) -> type[Schema]:
    """A marshmallow schema class from a dict of fields (or the class itself).

    Unknown fields are refused: what is written to the log for good has the
    shape its schema says. A command's schema always holds its ``type``.
    """
    if isinstance(shape, type):
        return shape
    declared = dict(shape)
    if command:
        declared.setdefault("type", fields.String(required=True))
    built = Schema.from_dict(declared, name=name)
    built.Meta.unknown = RAISE
    return built


class Rulebook(Generic[S, R]):
    def __init__(self, game: str):
        self.game = game
        self.actions: dict[str, Action[R]] = {}
        self.answers: dict[str, AnswerRule] = {}
        #: Command types that only ever answer a pending decision.
        self.answer_commands: set[str] = set()
        self.system_commands: set[str] = set()
        self.commands: dict[str, type[Schema]] = {}
        self.folds: dict[str, Fold[S]] = {}
        self.watches: dict[str, list[Fold[S]]] = {}
        self.events: dict[str, EventSchema] = {}

    # -- registering ---------------------------------------------------------------

    def _declare_command(self, type_: str, shape: FieldsOrSchema) -> None:
        schema = schema_of(f"{self.game}.{type_}", shape, command=True)
        known = self.commands.get(type_)
        if known is not None and set(known().fields) != set(schema().fields):
            raise RulebookError(f"command {type_!r} declared twice with different fields")
        self.commands[type_] = schema

    def command(self, type_: str, shape: FieldsOrSchema) -> Callable[[Action[R]], Action[R]]:
        """Register a turn's command ``type_`` with its fields."""

        def register(action: Action[R]) -> Action[R]:
            if type_ in self.actions:
                raise RulebookError(f"command {type_!r} registered twice")
            self._declare_command(type_, shape)
            self.actions[type_] = action
            return action

        return register

    def answer_command(self, type_: str, shape: FieldsOrSchema) -> None:
        """Declare a command type that answers pending decisions (a choice's shape)."""
        self._declare_command(type_, shape)
        if type_ not in self.actions:
            self.answer_commands.add(type_)

    def answers_only(self, type_: str) -> bool:
        """True for a command type that only ever answers a pending decision
        (whichever of its turn's command and its answer registered first)."""
        return type_ in self.answer_commands and type_ not in self.actions

    def system_command(self, type_: str, shape: FieldsOrSchema) -> None:
        """Declare a command only the system sends (the round end)."""
        self._declare_command(type_, shape)
        self.system_commands.add(type_)

    def answer(
        self,
        kind: str,
        rule: str | None = None,
        *,
        commands: Mapping[str, FieldsOrSchema] | None = None,
    ) -> Callable[[Answer[R]], Answer[R]]:
        """Register who resolves the answer to a pending decision of ``kind``,
        and (``commands``) the command types its choices may be, with their fields."""

        def register(handler: Answer[R]) -> Answer[R]:
            if kind in self.answers:
                raise RulebookError(f"decision {kind!r} registered twice")
            for type_, shape in (commands or {}).items():
                self.answer_command(type_, shape)
            self.answers[kind] = AnswerRule(handler, rule)
            return handler

        return register

    def fold(
        self,
        event_type: str,
        shape: FieldsOrSchema,
        *,
        version: int = 1,
        upcasters: Mapping[int, Upcaster] | None = None,
    ) -> Callable[[Fold[S]], Fold[S]]:
        """Register the fold of ``event_type`` and the schema of its data."""

        def register(fold: Fold[S]) -> Fold[S]:
            if event_type in self.folds:
                raise RulebookError(f"event {event_type!r} folded twice")
            self.declare_event(event_type, shape, version=version, upcasters=upcasters)
            self.folds[event_type] = fold
            return fold

        return register

    def declare_event(
        self,
        event_type: str,
        shape: FieldsOrSchema,
        *,
        version: int = 1,
        upcasters: Mapping[int, Upcaster] | None = None,
    ) -> None:
        """Declare an event type whose only effect is through watches (or none)."""
        if event_type in self.events:
            raise RulebookError(f"event {event_type!r} declared twice")
        schema = schema_of(f"{self.game}.{event_type}", shape)
        self.events[event_type] = EventSchema(event_type, version, schema, dict(upcasters or {}))

    def watch(self, event_type: str) -> Callable[[Fold[S]], Fold[S]]:
        """Register a fold that runs after ``event_type``'s own fold."""

        def register(fold: Fold[S]) -> Fold[S]:
            self.watches.setdefault(event_type, []).append(fold)
            return fold

        return register

    # -- reading -------------------------------------------------------------------

    def evolve(self, state: S, event: Event) -> S:
        """The state after ``event``; an event type this version does not know changes nothing."""
        kind, data = event.type, event.data  # an Event is a Python class: each read is a generic look-up, compiled
        fold = self.folds.get(kind)
        if fold is not None:
            state = fold(state, data)
        for watch in self.watches.get(kind, ()):
            state = watch(state, data)
        return state

    def event_schemas(self) -> list[EventSchema]:
        return list(self.events.values())

    def check(self) -> None:
        """Every watched event is declared, every event type has a schema."""
        missing = sorted(set(self.watches) - set(self.events))
        if missing:
            raise RulebookError(f"watched but never declared: {missing}")
