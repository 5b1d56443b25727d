"""Fixtures of the Fallout tests: the bundled pack and each of its scenarios."""

from __future__ import annotations

import pytest

from domain.fallout.model import Pack, Scenario
from domain.fallout.pack import load_pack
from tests.domain.fallout.bundled_pack import SCENARIOS


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_pack()


@pytest.fixture(scope="module", params=SCENARIOS)
def scenario(pack: Pack, request: pytest.FixtureRequest) -> Scenario:
    """Each scenario of the bundled pack in turn: what the rules ask of one sheet, they ask of all."""
    return pack.scenarios[request.param]
