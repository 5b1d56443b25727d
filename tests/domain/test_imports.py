"""The domain reads bottom-up (docs/architecture.md): no import cycle anywhere in ``domain/``, and no hidden import.

import-linter's contracts (``make lint``, with a ``layers`` contract per game) say which module may import
which; these tests keep what they cannot see: that there is no cycle at all, imports made only for the
type checker (``if TYPE_CHECKING:``) counted, a cycle inside one layer too; and that no function hides an
import of the project's own modules, nor imports one by its name, the way cycles used to be hidden.
"""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]


def import_cycle(imports: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``imports`` (module -> the modules it imports), or None (graphlib's topological sort)."""
    try:
        tuple(graphlib.TopologicalSorter(imports).static_order())
    except graphlib.CycleError as cycle:
        return list(cycle.args[1])
    return None


def _own(node: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.level > 0 or (node.module or "").split(".")[0] == "domain"
    return any(alias.name.split(".")[0] == "domain" for alias in node.names)


def hidden_imports(tree: ast.AST) -> list[int]:
    """Lines of imports of the project's modules inside a function, and of imports by a module's name."""
    lines: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            lines += [n.lineno for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom) and _own(n)]
        elif isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("import_module", "__import__"):
                lines.append(node.lineno)
    return sorted(set(lines))


def test_no_import_cycle_in_the_domain_type_only_imports_counted() -> None:
    """grimp reads every import, those under ``if TYPE_CHECKING:`` and inside functions included."""
    graph = grimp.build_graph("domain", exclude_type_checking_imports=False, cache_dir=None)
    imports = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules if m.startswith("domain")}
    assert len(imports) > 80, "the graph holds both games"
    assert import_cycle(imports) is None


def test_the_cycle_finder_finds_one() -> None:
    assert import_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) is not None
    assert import_cycle({"a": {"b"}, "b": set()}) is None


def test_no_function_hides_an_import_of_the_projects_modules() -> None:
    found = {str(path.relative_to(ROOT)): lines for path in sorted((ROOT / "domain").rglob("*.py"))
             if (lines := hidden_imports(ast.parse(path.read_text(encoding="utf-8"))))}  # fmt: skip
    assert found == {}


def test_the_hidden_import_finder_finds_them() -> None:
    source = "def f():\n    from domain.zona import harm\n\ndef g():\n    import json\n\nx = __import__('domain.zona')\n"
    assert hidden_imports(ast.parse(source)) == [2, 7]
