"""The compiled build records the very events the pure build does, byte for byte.

The plays (``tests.compiled.plays``: whole games of random bots at two and
four seats and greedy bots' openings, both games, several seeds) run once
with each build and their events' digests are compared. Where the build is
in place (``make compiled``), this process runs it and a child process runs
the sources (``tests.compiled.pure``). ``make test`` builds a copy instead
(``tests.compiled.tree``, started in the background before pytest, so the
rest of the suite tests the pure build); then this process runs the sources
and a child process the copy. With neither, as in a bare ``pytest``, the
test is skipped, saying so. A build in place older than its sources fails
the whole session first (``tests/conftest.py``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.compiled import plays, tree
from tests.compiled.pure import ROOT, compiled_modules

#: How long the test waits for ``make test``'s background build (a minute or two on two quiet cores).
BUILD_WAIT = 900


def _compiled_in_place() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    child = subprocess.run(
        [sys.executable, "-m", "tests.compiled.pure", "tests.compiled.plays"], cwd=ROOT, capture_output=True, text=True, timeout=600, check=True
    )
    pure = json.loads(child.stdout)
    assert pure["compiled"] == [], f"the pure child ran compiled modules: {pure['compiled']}"
    return plays.digests(), pure["digests"]


def _compiled_copy() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    expected = bool(os.environ.get(tree.EXPECTED))
    found = tree.state()
    if expected or found == "building":
        found = tree.wait(BUILD_WAIT)
    if found is None and not expected:
        pytest.skip("no compiled build in place (make compiled) and none built beside it (make test builds one)")
    assert found == "built", f"the compiled copy is {found}: {tree.LOG} says\n" + (tree.LOG.read_text()[-3000:] if tree.LOG.is_file() else "nothing")
    # The copy first on the path (the child's working folder), the project's other packages after it.
    child = subprocess.run(
        [sys.executable, "-m", "tests.compiled.plays"], cwd=tree.TREE, env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True, text=True, timeout=600, check=True,
    )
    compiled = json.loads(child.stdout)
    assert len(compiled["compiled"]) > 50, f"the child ran few compiled modules: {compiled['compiled']}"
    return compiled["digests"], plays.digests()


@pytest.mark.after_the_rest
def test_compiled_and_pure_builds_record_identical_events() -> None:
    here, reference = _compiled_in_place() if compiled_modules() else _compiled_copy()
    assert set(here) == set(reference)
    for name, events in here.items():
        pure = reference[name]
        differ = next((i for i, (a, b) in enumerate(zip(events, pure, strict=False)) if a != b), None)
        assert differ is None and len(events) == len(pure), (
            f"{name}: the compiled build's events part from the pure build's at event {differ} "
            f"({len(events)} events against {len(pure)})"
        )
    # Whole games were played, and greedy bots decided in them, not only set up.
    assert all(len(events) > 100 for name, events in here.items() if "/random-" in name)
