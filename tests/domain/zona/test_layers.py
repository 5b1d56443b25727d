"""Zona's modules form layers (docs/zona-engine.md, "Layers"): no import cycle, no hidden import, one table.

import-linter's layers contract in ``pyproject.toml`` says which layer may import which (``make lint``),
and tests/domain/test_imports.py finds no cycle (type-only imports counted) and no hidden import anywhere
in ``domain/``. These tests keep the rest: importing any one rule module, alone in a fresh interpreter,
yields the complete rule table (the package loads every rule module).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from domain.zona.effects import HANDLERS
from domain.zona.flow import STEPS
from domain.zona.game import ZONA
from domain.zona.resolution import RULES

ROOT = Path(__file__).resolve().parents[3]


#: Rule modules at the bottom, the middle and the top of the rule layers.
LEAVES = ["domain.zona.folds", "domain.zona.harm", "domain.zona.market"]

_DUMP = """
import json, sys
import {module}
loaded = set(sys.modules)
rules = sys.modules["domain.zona.resolution"].RULES
table = {{
    "folds": sorted(rules.folds), "watches": sorted(rules.watches), "events": sorted(rules.events),
    "commands": sorted(rules.commands), "actions": sorted(rules.actions), "answers": sorted(rules.answers),
    "effects": sorted(sys.modules["domain.zona.effects"].HANDLERS), "steps": sorted(sys.modules["domain.zona.flow"].STEPS),
}}
assert set(sys.modules) == loaded
print(json.dumps({{"table": table, "game": "domain.zona.game" in sys.modules}}))
"""


def _whole_table() -> dict[str, list[str]]:
    return {
        "folds": sorted(RULES.folds), "watches": sorted(RULES.watches), "events": sorted(RULES.events),
        "commands": sorted(RULES.commands), "actions": sorted(RULES.actions), "answers": sorted(RULES.answers),
        "effects": sorted(HANDLERS), "steps": sorted(STEPS),
    }


@pytest.mark.parametrize("module", LEAVES)
def test_importing_one_rule_module_alone_yields_the_whole_rule_table(module):
    """In a fresh interpreter: the same commands, answers, folds, event schemas, effects and frame steps as
    the game's, without the game module (nothing else is imported to read them)."""
    done = subprocess.run([sys.executable, "-c", _DUMP.format(module=module)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=True)
    found = json.loads(done.stdout)
    assert found["table"] == _whole_table()
    assert not found["game"], "the table is whole without the game module"
    assert set(found["table"]["commands"]) == set(ZONA.command_schemas)
    assert len(found["table"]["events"]) == len(ZONA.event_schemas)


def test_the_game_reads_the_same_whole_table():
    assert len(RULES.folds) > 50 and len(RULES.answers) > 20 and len(HANDLERS) > 30
    assert ZONA.command_schemas is RULES.commands
