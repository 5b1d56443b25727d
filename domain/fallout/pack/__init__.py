"""Load a Fallout content pack (YAML) into the data classes of ``model.py``.

A pack is a directory (see ``docs/fallout-content.md``)::

    pack.yaml  tiles.yaml  enemies.yaml  dice.yaml  survivors.yaml
    tokens.yaml  agendas.yaml  perks.yaml  cards.yaml  loot.yaml  assets.yaml
    uniques.yaml  encounters.yaml  library.yaml  scenarios/<id>.yaml

Loading has two passes. Each item (a tile, an enemy, a scenario...) is
validated on its own by a marshmallow schema, so one broken item does not hide
the problems of the others. Then the items that loaded are checked against each
other (references, counts, map connectivity), and every card's effects are
read with the vocabulary's own checker (``effects.check``) against the whole
pack, plus what no single card shows (unique library numbers, a deck for every
encounter icon, markers a quest places, library cards that can enter play).
Every problem of both passes ends up in one ``PackError``, one line each,
naming the file and the item: a pack author fixes a whole pack in one round
trip instead of one error per run (``domain.engine.packs`` reads the files
and collects the problems; this package holds what is Fallout's: the
schemas, the files and the cross-checks).

The loader applies no rules; it only guarantees that what the engine reads is
whole and consistent. Ids that failed the first pass are remembered so that the
second pass does not report every reference to them as a second problem.
"""

from __future__ import annotations

from domain.engine.packs import PackError
from domain.fallout.pack.loading import load_folder, load_pack

__all__ = ["PackError", "load_folder", "load_pack"]
