"""Every event a game emits validates against its declared schema, as the service checks it before appending."""

from __future__ import annotations

import pytest

from domain.game import Event, Game
from tests.contract.driver import Play
from tests.contract.schemas import EventSchemas, schemas_of
from tests.games.counter import COUNTER


def test_every_emitted_event_validates_against_its_declared_schema(game: Game, plays: list[Play]) -> None:
    """DESIGN.md invariant 8: the setup's events and every decision's, each of a declared type, loading as
    the game folded it (what the store keeps is what a replay folds)."""
    schemas = schemas_of(game)
    checked = 0
    for play in plays:
        schemas.check(play.setup, f"{play.name} setup")
        for step in play.steps:
            schemas.check(step.events, f"{play.name} {step.label} seat", step.seat, step.command)
        checked += len(play.setup) + sum(len(step.events) for step in play.steps)
    assert checked, "no event was emitted"


def test_the_check_names_the_game_the_place_the_type_and_the_errors() -> None:
    """What a failure reads like: an undeclared type, a field the schema refuses, data it would load otherwise."""
    schemas = EventSchemas(COUNTER)
    schemas.check([Event("Added", {"seat": 0, "amount": 3})], "seed s v6")
    with pytest.raises(AssertionError, match=r"^counter seed s v7: NoSuchEvent does not validate .* not among"):
        schemas.check([Event("NoSuchEvent", {})], "seed s v7")
    with pytest.raises(AssertionError, match=r"^counter seed s v8: Added does not validate .*'amount': \['Missing"):
        schemas.check([Event("Added", {"seat": 0})], "seed s v8")
    with pytest.raises(AssertionError, match=r"^counter seed s v9: Added does not validate .* loads it as"):
        schemas.check([Event("Added", {"seat": 0, "amount": "3"})], "seed s v9")
