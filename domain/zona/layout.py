"""Where a pack draws each area of its map: ``layout.yaml`` beside the pack's rules, for clients only.

A pack may say where each area lies on the printed map (``areas: {id: [x, y]}``
on a map ``size`` wide and high, each area a ``box``); the view hands it to
the table, which then draws the map as the board shows it rather than as a
schematic. No rule reads it: positions change no decision, so a pack without
one (the test pack) plays the same and is drawn in columns by sector.

Read by its own small function, apart from the pack's loader, since the
positions are drawing, not content the rules check.
"""

from __future__ import annotations

import functools
from typing import Any

import yaml

from domain.engine.shelf import UnknownPack
from domain.zona.pack import SHELF

LAYOUT_FILE = "layout.yaml"
#: libyaml's loader when installed (as the packs' own), else the pure-Python one: both safe.
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@functools.cache
def layout(pack_name: str) -> dict[str, Any] | None:
    """``{"size": [w, h], "box": [w, h], "areas": {id: [x, y]}}`` for the pack (a name or an address), or None."""
    try:
        folder = SHELF.open(pack_name)
    except UnknownPack:
        return None
    found = folder.joinpath(LAYOUT_FILE)
    if not found.is_file():
        return None
    raw = yaml.load(found.read_text(encoding="utf-8"), Loader=_LOADER) or {}
    areas = {str(area): [float(x), float(y)] for area, (x, y) in (raw.get("areas") or {}).items()}
    return {"size": [float(v) for v in raw.get("size", [1000, 1000])], "box": [float(v) for v in raw.get("box", [150, 64])],
            "areas": areas}
