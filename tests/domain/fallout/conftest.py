"""Fixtures of the Fallout tests: the bundled pack and its scenario."""

from __future__ import annotations

import pytest

from domain.fallout.model import Pack, Scenario
from domain.fallout.pack import load_pack
from tests.domain.fallout.bundled_pack import SCENARIO


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_pack()


@pytest.fixture(scope="module")
def scenario(pack: Pack) -> Scenario:
    return pack.scenarios[SCENARIO]
