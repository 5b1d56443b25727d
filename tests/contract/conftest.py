"""One suite, run against every hosted game.

The games are whatever ``domain.registry`` hosts (``tests/conftest.py``
registers the counter), so a new game is checked the moment it is
registered. Like a storage library's one recorder suite per backend, nothing
here names a game: a failure reads as "<game> breaks the contract".
"""

from __future__ import annotations

import pytest

from domain import registry
from domain.game import Game
from tests.contract.driver import Play, Probe, plays_of, probes_of
from tests.games.counter import COUNTER


def _hosted() -> list[object]:
    # A real game plays a few hundred decisions per play; the counter is the quick one.
    return [
        pytest.param(name, id=name, marks=[] if name == COUNTER.name else [pytest.mark.slow])
        for name in registry.names()
    ]


@pytest.fixture(scope="session", params=_hosted())
def game(request: pytest.FixtureRequest) -> Game:
    module = registry.game_module(request.param)
    if not isinstance(module, Game):
        pytest.fail(
            f"{request.param}: {type(module).__module__}.{type(module).__qualname__} is not a "
            "domain.game.Game: a hosted game declares the contract by subclassing it",
            pytrace=False,
        )
    return module


@pytest.fixture(scope="session")
def plays(game: Game) -> list[Play]:
    # Played once per game and session: every check reads the same record.
    return plays_of(game)


@pytest.fixture(scope="session")
def probes(game: Game, plays: list[Play]) -> list[Probe]:
    # Commands nobody was offered, sent once per game and session on the plays' states.
    return probes_of(game, plays)
