"""The game registry: built-in games, and games a deployment hosts through HOLOTAPE_GAMES (service.wiring)."""

from __future__ import annotations

import pytest

from domain import registry
from service import wiring


def test_fallout_is_hosted():
    assert "fallout" in registry.names()
    assert registry.game_module("fallout").name == "fallout"


def test_a_game_named_in_the_environment_is_hosted_by_the_wiring(monkeypatch):
    monkeypatch.setattr(registry, "_extra", {})
    monkeypatch.setenv("HOLOTAPE_GAMES", "tests.games.counter:COUNTER")
    assert "counter" not in registry.names()  # the domain reads no environment
    wiring.host_games()
    assert "counter" in registry.names()


def test_an_unknown_game_is_refused():
    with pytest.raises(registry.UnknownGame):
        registry.game_module("chess")
