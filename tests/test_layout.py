"""Guards that keep the house in order: what names a game, how big a module grows, docs that parse.

The layer contracts themselves are import-linter's (``make lint``); these
are the rules it cannot see: a game named in a string, a file grown past
one screenful of concepts, a YAML example in the docs that no longer parses.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import yaml

from domain import registry

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("domain", "bots", "events", "service", "workers", "tests")
MAX_LINES = 600


def python_files(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are docstrings (documentation may name a game)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


@pytest.mark.parametrize("game", registry.builtin_names())
def test_no_code_outside_domain_names_a_hosted_game(game: str):
    """A second game is a folder in domain/ and a registry line: service, events and workers
    never name one, in an import or in a string (docstrings aside)."""
    named = []
    for path in python_files("service", "events", "workers"):
        tree = ast.parse(path.read_text())
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                if re.search(rf"\b{game}\b", node.value, re.I):
                    named.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            if isinstance(node, ast.ImportFrom) and node.module and f".{game}" in f".{node.module}":
                named.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {node.module}")
    assert named == []


def test_no_source_file_is_over_600_lines():
    """A module holds one concept; past 600 lines it holds several and is split by them."""
    long = [
        f"{p.relative_to(ROOT)}: {n}"
        for p in python_files(*SOURCES)
        if (n := len(p.read_text().splitlines())) > MAX_LINES
    ]
    assert long == []


def yaml_examples() -> list[tuple[str, str]]:
    found = []
    for doc in sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]:
        for number, block in enumerate(re.findall(r"```yaml\n(.*?)```", doc.read_text(), re.S), start=1):
            found.append((f"{doc.name}#{number}", block))
    return found


@pytest.mark.parametrize(("where", "block"), yaml_examples(), ids=[w for w, _ in yaml_examples()])
def test_every_yaml_example_in_the_docs_parses(where: str, block: str):
    """An example a reader copies into a pack must at least be YAML."""
    parsed = yaml.safe_load(block)
    assert parsed not in (None, "", [], {}), f"{where} holds no data"
