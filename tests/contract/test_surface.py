"""What a game declares: the data the service publishes and validates against."""

from __future__ import annotations

import inspect
from collections.abc import Mapping

import pytest
from marshmallow import Schema
from marshmallow.utils import missing

from domain.game import EventSchema, Game, Outcome, Refusal, RuleViolation, SeatRange
from domain.rng import Rng
from service.usecases.record import META_EVENTS
from tests.contract.driver import Play, json_ready


def _is_schema(value: object) -> bool:
    return inspect.isclass(value) and issubclass(value, Schema)


def test_the_declared_surface_is_complete(game: Game):
    assert isinstance(game.name, str) and game.name, "a name for the API and the log"
    assert isinstance(game.title, str) and game.title.strip(), "a sentence for the lobby"
    assert isinstance(game.seats, SeatRange) and 1 <= game.seats.min <= game.seats.max, game.seats
    assert isinstance(game.state_format, str) and game.state_format, "snapshots name their format"
    assert _is_schema(game.options_schema), f"options_schema is {game.options_schema!r}, not a Schema class"
    assert _is_schema(game.view_schema), f"view_schema is {game.view_schema!r}, not a Schema class"
    assert isinstance(game.command_schemas, Mapping) and game.command_schemas, "no commands declared"
    for kind, schema in game.command_schemas.items():
        assert _is_schema(schema), f"command {kind!r}: {schema!r} is not a Schema class"
        assert "type" in schema().fields, f"command {kind!r} has no `type` field"
    assert set(game.out_of_turn) <= set(game.command_schemas), "out_of_turn names undeclared commands"


def test_no_event_of_the_game_takes_a_name_the_service_writes(game: Game):
    """The service's own events (the lobby, CommandAccepted, GameCreated…) share each
    game's log and are folded by the service: a game event of the same name
    would be taken for the service's."""
    taken = sorted({d.name for d in game.event_schemas} & META_EVENTS)
    assert taken == [], f"{game.name} names events the service writes: {taken}"


def test_event_schemas_are_declared_once_with_their_upcasters(game: Game):
    names = [declared.name for declared in game.event_schemas]
    assert len(names) == len(set(names)), f"declared twice: {sorted(n for n in names if names.count(n) > 1)}"
    for declared in game.event_schemas:
        assert isinstance(declared, EventSchema) and _is_schema(declared.schema), declared
        # A stored event of any older version must be readable: one step per version.
        missing_steps = [v for v in range(1, declared.version) if v not in declared.upcasters]
        assert declared.version >= 1 and not missing_steps, f"{declared.name}: no upcaster from {missing_steps}"


def test_every_emitted_event_is_declared_and_fits_its_schema(game: Game, plays: list[Play]):
    schemas = {declared.name: declared.schema for declared in game.event_schemas}
    for play in plays:
        for _, events, _, _ in play.decisions():
            for event in events:
                assert event.type in schemas, f"{play.name}: {event.type} is emitted but not in event_schemas"
                errors = schemas[event.type]().validate(event.data)
                assert not errors, f"{play.name}: {event.type} {event.data} does not fit its schema: {errors}"
                assert json_ready(event.data), f"{play.name}: {event.type} data does not survive JSON"


def test_redacted_events_keep_their_declared_shape(game: Game, plays: list[Play]):
    """A client reads the log as redacted for it, so the published schema must describe that too."""
    schemas = {declared.name: declared.schema for declared in game.event_schemas}
    for play in plays[:2]:
        for _, events, _, _ in play.decisions():
            for event in events:
                for seat in [None, *play.seat_range]:
                    shown = game.redact(event, seat)
                    assert shown.type == event.type, f"{play.name}: redact changed {event.type}'s type"
                    errors = schemas[event.type]().validate(shown.data)
                    assert not errors, f"{play.name}: {event.type} as seat {seat} sees it: {errors}"
                    assert json_ready(shown.data), f"{play.name}: redacted {event.type} does not survive JSON"


def test_setup_is_deterministic_for_a_seed(game: Game, plays: list[Play]):
    for play in plays:
        again = game.setup({**play.options, "players": play.players}, Rng.for_position(play.seed, 0))
        assert again == play.setup, f"{play.name}: setup drew differently from the same seed"


def test_resolve_options_fills_every_default_and_is_idempotent(game: Game):
    example = dict(game.examples.get("options", {}))
    resolved = game.resolve_options(example)
    assert json_ready(resolved), "resolved options are recorded in GameCreated"
    # The audit resolves the recorded options again: resolving must be a fixed point.
    assert game.resolve_options(resolved) == resolved
    for name, declared in game.options_schema().fields.items():
        # A default of None says no more than a missing key does: a game may leave it out.
        if declared.load_default is missing or declared.load_default is None:
            continue
        key = declared.data_key or name
        without = {k: v for k, v in example.items() if k != key}
        assert key in game.resolve_options(without), f"option {key!r} has a default that resolve_options leaves out"


def test_unknown_options_are_refused_as_malformed(game: Game):
    with pytest.raises(RuleViolation) as refused:
        game.resolve_options({**game.examples.get("options", {}), "no_such_option": 1})
    assert refused.value.kind is Refusal.MALFORMED


def test_examples_validate_against_the_schemas(game: Game):
    examples = game.examples
    assert {"options", "view", "actions"} <= set(examples), "the API document shows an example of each"
    game.resolve_options(examples["options"])
    errors = game.view_schema().validate(examples["view"])
    assert not errors, f"the example view does not fit view_schema: {errors}"
    assert examples["actions"], "at least one example action"
    for action in examples["actions"]:
        assert game.check_command(action) == action


def test_outcome_is_an_outcome_with_json_ready_progress(game: Game, plays: list[Play]):
    for play in plays:
        for state in play.sampled(20):
            outcome = game.outcome(state)
            assert isinstance(outcome, Outcome) and isinstance(outcome.over, bool)
            assert json_ready(dict(outcome.progress)), f"{play.name}: progress {outcome.progress!r}"
            assert set(outcome.winners) <= set(play.seat_range), f"{play.name}: winners {outcome.winners}"
