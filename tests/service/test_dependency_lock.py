"""constraints.txt is the set the tests run with: every dependency named, each at the version installed."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]


def _name(text: str) -> str:
    return re.sub(r"[-_.]+", "-", text).lower()


def _pins() -> dict[str, str]:
    lines = (ROOT / "constraints.txt").read_text().splitlines()
    return {_name(n): v for n, _, v in (line.partition("==") for line in lines if line and not line.startswith("#"))}


def test_every_dependency_is_pinned_at_the_version_the_tests_run_with():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    direct = [*project["dependencies"], *(r for extra in project["optional-dependencies"].values() for r in extra)]
    pins = _pins()
    assert sorted(_name(Requirement(r).name) for r in direct if _name(Requirement(r).name) not in pins) == []
    differ = {}
    for name, pinned in pins.items():
        try:
            installed = version(name)
        except PackageNotFoundError:
            continue  # a platform's own dependency, not this machine's
        if installed != pinned:
            differ[name] = (pinned, installed)
    assert differ == {}, "run `make lock` (or reinstall with `make`): the environment is not the locked set"
