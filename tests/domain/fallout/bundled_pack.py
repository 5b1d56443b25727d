"""Where the bundled content pack lies, and its scenario (``conftest`` loads them as fixtures)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

BUNDLED = Path(str(resources.files("domain.fallout.packs") / "base"))
SCENARIO = "saltmarsh_reach"
