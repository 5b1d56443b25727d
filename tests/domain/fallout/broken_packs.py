"""Breaking a copy of the bundled pack one thing at a time, and reading the problems it has."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from domain.fallout.pack import PackError, load_pack
from tests.domain.fallout.bundled_pack import BUNDLED


def copy_pack(tmp_path: Path) -> Path:
    target = tmp_path / "pack"
    shutil.copytree(BUNDLED, target, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    return target


def edit_file(root: Path, name: str, change: Callable[[Any], Any]) -> None:
    """Rewrite one YAML file of the copy; ``change`` mutates the parsed data in place."""
    path = root / name
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def problems_of(root: Path) -> list[str]:
    with pytest.raises(PackError) as caught:
        load_pack(root)
    assert str(root) in str(caught.value)
    for problem in caught.value.problems:
        assert problem in str(caught.value)
    return caught.value.problems


def one_problem(problems: list[str], *parts: str) -> str:
    hits = [p for p in problems if all(part in p for part in parts)]
    assert hits, f"no problem mentions {parts}:\n" + "\n".join(problems)
    return hits[0]


def tile_in(data: dict, tile_id: str) -> dict:
    return next(t for t in data["tiles"] if t["id"] == tile_id)


def space_in(data: dict, space_id: str) -> dict:
    return next(s for t in data["tiles"] for s in t["spaces"] if s["id"] == space_id)
