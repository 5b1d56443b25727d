"""The options a creator may pass for a game of Fallout, and their defaults.

``players`` is not among them: the service passes the number of seats. What
``resolve_options`` returns is what ``GameCreated`` records and ``setup``
receives, so every default is filled in here (the pack, its scenario).
"""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, fields

from domain.fallout.content import DEFAULT_PACK, pack_named, pinned
from domain.game import malformed

RULE = "Complete Setup"

#: The bundled pack's scenarios, by id, for a client's form (the API document's `x-choices`): written here rather
#: than read from the pack, which takes most of a second to load, at import. tests/domain/fallout/test_setup.py
#: checks they are the bundled pack's, named as it names them.
SCENARIO_CHOICES = {
    "saltmarsh_reach": "The Saltmarsh Reach",
    "sulphur_flats": "The Sulphur Flats",
    "thornwood_hollow": "Thornwood Hollow",
    "vesper_heights": "Vesper Heights",
}


class OptionsSchema(Schema):
    class Meta:
        unknown = RAISE

    pack = fields.String(
        load_default=DEFAULT_PACK,
        metadata={"description": "The content pack to play with (its id); the bundled pack by default. "
        "The resolved options pin it to the pack's address, `base@<content hash>` (docs/versioning.md)."},
    )
    scenario = fields.String(
        load_default=None,
        metadata={"description": "The pack's scenario to play (its id); the pack's first scenario by default.",
                  "x-choices": SCENARIO_CHOICES},
    )
    survivors = fields.List(
        fields.String(),
        load_default=None,
        metadata={
            "description": "One survivor id per seat, in seat order, each different; "
            "left out, each seat chooses its survivor in turn (Complete Setup, step 7)."
        },
    )


def resolve_options(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` as the schema loaded them, with the pack's default scenario filled in."""
    out = dict(options)
    try:
        pack = pack_named(out["pack"])
    except KeyError:
        raise malformed("unknown_pack", f"There is no content pack {out['pack']!r}.", rule=RULE) from None
    if out["scenario"] is None:
        out["scenario"] = next(iter(pack.scenarios))
    elif out["scenario"] not in pack.scenarios:
        raise malformed("unknown_scenario", f"There is no scenario {out['scenario']!r}.", rule=RULE)
    if out["survivors"] is None:
        del out["survivors"]
    # The game plays these files for good, whatever later releases bundle (docs/versioning.md).
    out["pack"] = pinned(out["pack"])
    return out
