"""Zona's modules form layers (docs/zona-engine.md, "Layers"): no import cycle, no hidden import, one table.

import-linter's layers contract in ``pyproject.toml`` says which layer may import which (``make lint``);
these tests keep what it cannot see: that there is no cycle at all, type-only imports counted (a cycle
inside one layer too); that importing any one rule module, alone in a fresh interpreter, yields the
complete rule table (the package loads every rule module); and that no function hides an import of the
project's own modules, nor imports one by its name.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

from domain.zona.effects import HANDLERS
from domain.zona.flow import STEPS
from domain.zona.game import ZONA
from domain.zona.resolution import RULES

ROOT = Path(__file__).resolve().parents[3]
ZONA_DIR = ROOT / "domain" / "zona"
PACKAGE = "domain.zona"


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, or of one that imports itself (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in graph[node]:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_among_zonas_modules_type_only_imports_counted():
    """grimp reads every import, those under ``if TYPE_CHECKING:`` and inside functions included."""
    graph = grimp.build_graph("domain", cache_dir=None)
    modules = {m for m in graph.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")}
    assert len(modules) > 20, "the graph holds Zona's modules"
    imports = {m: graph.find_modules_directly_imported_by(m) & modules for m in modules}
    assert _cycles(imports) == []


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


def _own_module(node: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.level > 0 or (node.module or "").split(".")[0] == "domain"
    return any(alias.name.split(".")[0] == "domain" for alias in node.names)


def _hidden_imports(tree: ast.AST) -> list[int]:
    """Lines of imports of the project's modules inside a function, and of imports by a module's name."""
    lines: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            lines += [n.lineno for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom) and _own_module(n)]
        elif isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("import_module", "__import__"):
                lines.append(node.lineno)
    return sorted(set(lines))


def test_the_hidden_import_finder_finds_them():
    source = "def f():\n    from domain.zona import harm\n\ndef g():\n    import json\n\nx = __import__('domain.zona')\n"
    assert _hidden_imports(ast.parse(source)) == [2, 7]


def test_no_function_local_import_of_the_projects_modules_in_zona():
    found = {str(path.relative_to(ROOT)): lines for path in sorted(ZONA_DIR.rglob("*.py"))
             if (lines := _hidden_imports(ast.parse(path.read_text(encoding="utf-8"))))}
    assert found == {}
