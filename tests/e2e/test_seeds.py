"""The pinned seeds of the whole-game tests (tests/e2e/seeds.py): a search runs only under rules with none."""

from __future__ import annotations

import pytest

from domain import registry
from tests.e2e.seeds import PINNED, seed_for


def test_a_pinned_seed_is_played_without_a_search_and_other_rules_search_and_say_what_to_pin():
    searched: list[str] = []

    def search() -> str:
        searched.append("searched")
        return "found-7"

    (rules, wanted), seed = next(iter(PINNED.items()))
    game = rules.split("/")[0]
    if registry.game_module(game).rules == rules:
        assert seed_for(game, wanted, search) == seed and searched == []
    with pytest.warns(UserWarning, match="pin 'found-7'"):
        assert seed_for(game, "a wish nobody pinned", search) == "found-7"
    assert searched == ["searched"]
