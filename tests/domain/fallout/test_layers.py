"""Fallout's modules stand in layers (docs/fallout-engine.md, "Layers").

import-linter's layers contract for ``domain.fallout`` (``make lint``) keeps
each module above what it imports; these tests say what the layers are for:

- no import cycle among the modules, counting imports made only for the type
  checker (``if TYPE_CHECKING:``), so any module can be read, tested or moved
  with only what lies below it;
- importing any one rule module, in a fresh interpreter, gives the complete
  rule table: every command, decision answer, fold and result handler, not
  only those of the modules it happens to import;
- no module imports one of the project's own modules inside a function, the
  way cycles used to be hidden.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any, get_args

import grimp
import pytest

import domain
from domain.fallout import effects as fx
from domain.fallout.game import FALLOUT

ROOT = Path(domain.__file__).resolve().parent.parent
FALLOUT_DIR = ROOT / "domain" / "fallout"
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
    "results": sorted(k.__name__ for k in (*results._ABOUT_GAME, *results._ABOUT_SURVIVOR)),
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


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module (or a module importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle_among_fallouts_modules_type_only_imports_included() -> None:
    graph = grimp.build_graph("domain", exclude_type_checking_imports=False, cache_dir=None)
    modules = {PACKAGE} | graph.find_descendants(PACKAGE)
    imports = {m: {i for i in graph.find_modules_directly_imported_by(m) if i in modules} for m in modules}
    assert sum(len(i) for i in imports.values()) > 100, "the graph is not Fallout's"
    assert _strongly_connected(imports) == []


def test_the_sanity_check_finds_a_cycle() -> None:
    assert _strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


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


def _local_imports(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, module) of each import of a ``domain`` module (or a relative one) inside a function."""
    found = []
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        for node in ast.walk(func):
            if isinstance(node, ast.Import):
                found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "domain"]
            elif isinstance(node, ast.ImportFrom):
                name = node.module or ""
                if node.level or name.split(".")[0] == "domain":
                    found.append((node.lineno, "." * node.level + name))
    return found


def test_no_function_local_import_of_the_projects_modules() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted(FALLOUT_DIR.rglob("*.py"))
        for line, module in _local_imports(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert offenders == []


def test_the_local_import_check_sees_one() -> None:
    tree = ast.parse("def f():\n    from domain.fallout import results\n    import json\n")
    assert _local_imports(tree) == [(2, "domain.fallout")]
