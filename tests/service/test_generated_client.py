"""The client openapi-python-client generates from openapi.yaml: no warning but the NDJSON export's, a typed
model for every game's commands, views and events, and unions that tell them apart."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import yaml

from domain import registry
from service.api.unions import camel, service_event_schemas
from tests.service.client import generate, warnings_of

ROOT = Path(__file__).resolve().parents[2]


def test_the_generator_warns_of_nothing_but_the_ndjson_export(request, tmp_path):
    document = (ROOT / "openapi.yaml").read_text()
    cache = getattr(request.config, "cache", None)
    key = f"holotape-client/warnings/{hashlib.sha256(document.encode()).hexdigest()[:16]}"
    output = cache.get(key, None) if cache else None
    if output is None:
        output = generate(yaml.safe_load(document), tmp_path)
        if cache:
            cache.set(key, output)
    warnings = warnings_of(output)
    assert len(warnings) == 1, "\n\n".join(warnings)
    assert "GET /games/{game_id}/export" in warnings[0] and "application/x-ndjson" in warnings[0]


@pytest.mark.parametrize("game", registry.names())
def test_every_command_view_and_event_of_a_game_has_its_model(generated, game: str):
    module, models = registry.game_module(game), generated.models
    prefix = camel(game)
    for kind in module.command_schemas:
        assert hasattr(models, f"{prefix}Command{camel(kind)}"), kind
    for declared in module.event_schemas:
        assert hasattr(models, f"{prefix}{declared.name}Event") and hasattr(models, f"{prefix}{declared.name}Data")
    for kind in service_event_schemas():
        assert hasattr(models, f"{kind}Event")
    for name in ("Options", "View", "State", "Actions", "Acted", "EventPage"):
        assert hasattr(models, f"{prefix}{name}"), name
    assert hasattr(models, f"Create{prefix}Game")


def test_a_command_is_read_as_its_own_model_and_no_other(generated):
    """The issue's case: `{"type": "end_turn"}` was a valid FalloutCommandMove."""
    models = generated.models
    with pytest.raises(TypeError):
        models.FalloutCommandMove.from_dict({"type": "end_turn"})
    actions = models.FalloutActions.from_dict(
        {"game_id": "g", "game": "fallout", "version": 3, "seat": 0, "prompt": None,
         "actions": [{"type": "end_turn"}, {"type": "move"}, {"type": "reroll", "dice": [0, 2]}]}
    )  # fmt: skip
    assert [type(a).__name__ for a in actions.actions] == ["FalloutCommandEndTurn", "FalloutCommandMove",
                                                           "FalloutCommandReroll"]  # fmt: skip
    zona = models.ZonaActions.from_dict(
        {"game_id": "g", "game": "zona", "version": 3, "seat": 0, "prompt": None,
         "actions": [{"type": "move", "to": "bar"}, {"type": "reroll", "card": "c", "die": 1}]}
    )  # fmt: skip
    assert [type(a).__name__ for a in zona.actions] == ["ZonaCommandMove", "ZonaCommandReroll"]


def test_create_options_keep_every_field_of_their_game(generated):
    """The issue's case: Zona's options were read as Fallout's, dropping `draft` and `random_facilities`."""
    body = {"game": "zona", "seats": 2, "options": {"pack": "base", "draft": "free", "random_facilities": True}}
    create = generated.models.CreateZonaGame.from_dict(body)
    assert create.to_dict() == body
