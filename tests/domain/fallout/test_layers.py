"""Fallout's modules stand in layers (docs/fallout-engine.md, "Layers").

import-linter's layers contract for ``domain.fallout`` (``make lint``) keeps
each module above what it imports, and tests/domain/test_imports.py finds no
cycle (type-only imports counted) and no hidden import anywhere in ``domain/``.
These tests say what the layers are for: importing any one rule module, in a
fresh interpreter, gives the complete rule table (every command, decision
answer, fold and result handler, not only those of the modules it happens to
import).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, get_args

import pytest

import domain
from domain.fallout import effects as fx
from domain.fallout.game import FALLOUT

ROOT = Path(domain.__file__).resolve().parent.parent
PACKAGE = "domain.fallout"


#: Run in a fresh interpreter: import one module, then print the rule table it leaves (what
#: registered, not where) and whether the game module was imported on the way.
PROBE = """
import importlib, json, sys
importlib.import_module(sys.argv[1])
game_imported = "domain.fallout.game" in sys.modules
from domain.fallout import results
from domain.fallout.rulebook import RULES
table = {
    "actions": sorted(RULES.actions),
    "answers": sorted(RULES.answers),
    "commands": sorted(RULES.commands),
    "system_commands": sorted(RULES.system_commands),
    "folds": sorted(RULES.folds),
    "events": sorted(RULES.events),
    "watches": {event: len(folds) for event, folds in sorted(RULES.watches.items())},
    "results": sorted(k.__name__ for k in results.RESULTS.handlers),
}
print(json.dumps({"table": table, "game_imported": game_imported}))
"""


def _probe(module: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", PROBE, module], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def whole_table() -> dict[str, Any]:
    """The table the hosted game plays with."""
    probe = _probe(f"{PACKAGE}.game")
    assert probe["game_imported"]
    return probe["table"]


@pytest.mark.parametrize("module", ["tallies", "killed"])
def test_importing_one_rule_module_gives_the_whole_rule_table(module: str, whole_table: dict[str, Any]) -> None:
    """``tallies`` imports nothing but the table; ``killed`` alone used to leave 71 of 99 folds."""
    probe = _probe(f"{PACKAGE}.{module}")
    assert probe["game_imported"] is False, "the table must not need the game module"
    assert probe["table"] == whole_table


def test_the_whole_table_is_the_games(whole_table: dict[str, Any]) -> None:
    assert whole_table["commands"] == sorted(FALLOUT.command_schemas)
    assert whole_table["events"] == sorted(e.name for e in FALLOUT.event_schemas)
    assert len(whole_table["folds"]) >= 99 and len(whole_table["actions"]) >= 21
    assert whole_table["results"] == sorted(k.__name__ for k in get_args(fx.Result))
