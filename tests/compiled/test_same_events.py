"""The compiled build (``make compiled``) records the very events the pure build does, byte for byte.

The plays (``tests.compiled.plays``: whole games of random bots at two and
four seats and greedy bots' openings, both games, several seeds) run here
with the build this process imported, and in a child process that imports
every module of ``domain/`` and ``bots/`` from source. Building takes
minutes on two cores, so the test builds nothing: it runs where a compiled
build is in place (``make compiled``, or ``HOLOTAPE_COMPILED=1 make test``,
which builds it first) and is skipped, saying so, on the pure build, where
there is nothing to compare. A build older than its sources fails the whole
session first (``tests/conftest.py``).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.compiled import plays
from tests.compiled.pure import ROOT, compiled_modules

pytestmark = pytest.mark.skipif(not compiled_modules(), reason="no compiled build in place (make compiled)")


def test_compiled_and_pure_builds_record_identical_events() -> None:
    here = plays.digests()
    child = subprocess.run(
        [sys.executable, "-m", "tests.compiled.pure", "tests.compiled.plays"], cwd=ROOT, capture_output=True, text=True, timeout=600, check=True
    )
    pure = json.loads(child.stdout)
    assert pure["compiled"] == [], f"the pure child ran compiled modules: {pure['compiled']}"
    assert set(here) == set(pure["digests"])
    for name, events in here.items():
        reference = pure["digests"][name]
        differ = next((i for i, (a, b) in enumerate(zip(events, reference, strict=False)) if a != b), None)
        assert differ is None and len(events) == len(reference), (
            f"{name}: the compiled build's events part from the pure build's at event {differ} "
            f"({len(events)} events against {len(reference)})"
        )
    # Whole games were played, and greedy bots decided in them, not only set up.
    assert all(len(events) > 100 for name, events in here.items() if "/random-" in name)
