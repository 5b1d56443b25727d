"""Where the bundled content pack lies, and its scenarios (``conftest`` loads them as fixtures)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

BUNDLED = Path(str(resources.files("domain.fallout.packs") / "base"))
#: The scenario a test plays when any will do: the pack's first, the default of the options.
SCENARIO = "saltmarsh_reach"
#: Every scenario of the box, one file each.
SCENARIOS = sorted(path.stem for path in (BUNDLED / "scenarios").glob("*.yaml"))
