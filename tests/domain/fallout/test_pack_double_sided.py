"""Map Tiles: double-sided tiles, in the pack format, the bundled pack and the setup.

The Rules Reference ("Map Tiles") knows three kinds of tile by their back: dangerous, deadly and
double-sided. A double-sided tile has a face on both sides; the scenario sheet shows it face up and
names the side, and it is never shuffled face down (only dangerous and deadly tiles are).
"""

from __future__ import annotations

from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from domain.engine.shelf import FROZEN
from domain.fallout.game import FALLOUT
from domain.fallout.model import DOUBLE_SIDED, SIDES, Pack
from domain.fallout.pack import load_folder
from domain.rng import Rng
from tests.domain.fallout.broken_packs import copy_pack, edit_file, one_problem, problems_of
from tests.domain.fallout.bundled_pack import SCENARIO, SCENARIOS
from tests.domain.fallout.fixtures import fold

#: The box's 21 map tiles, by their back (the Learn to Play's component list).
BOX = {"start": 1, "dangerous": 9, "deadly": 9, DOUBLE_SIDED: 2}


def _by_back(pack: Pack) -> Counter:
    """The physical tiles by back: a double-sided tile counts once, for its two faces."""
    backs = Counter(tile.back for tile in pack.tiles.values() if tile.back != DOUBLE_SIDED)
    backs[DOUBLE_SIDED] = len(pack.double_sided)
    return backs


def test_map_tiles_the_box_has_double_sided_tiles_and_every_scenario_lays_one(pack: Pack) -> None:
    """Rules Reference "Map Tiles": 21 tiles, dangerous, deadly or double-sided by their back (and the
    starting tile); every scenario sheet lays a double-sided tile face up with the side it names, and
    each side of each double-sided tile is some scenario's."""
    assert _by_back(pack) == BOX and sum(BOX.values()) == 21
    used = set()
    for scenario in pack.scenarios.values():
        laid = [p for p in scenario.places if p.double_sided is not None]
        assert laid, scenario.id
        for place in laid:
            face = pack.double_sided[place.double_sided].face(place.side or "")
            assert place.tile == face.id and pack.tiles[face.id].back == DOUBLE_SIDED
            used.add((place.double_sided, place.side))
    assert used == {(double, side) for double in pack.double_sided for side in SIDES}


@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_map_tiles_setup_lays_the_named_side_face_up_and_never_shuffles_a_double_sided_tile(
    pack: Pack, scenario_id: str
) -> None:
    """Rules Reference "Map Tiles", Complete Setup step 2: tiles shown face up are placed that way, a
    double-sided one with the side the sheet names; the face-down places are dealt dangerous and deadly
    tiles only, so neither face of a double-sided tile lies face down, and the other face is never seen."""
    scenario = pack.scenarios[scenario_id]
    faces = {face.id: double for double in pack.double_sided.values() for face in double.faces}
    sheet = {p.id: p for p in scenario.places}
    for seed in range(8):
        options = {"pack": "base", "scenario": scenario_id, "players": 2}
        state = fold(FALLOUT.initial_state(), FALLOUT.setup(options, Rng(f"sides{seed}")))
        on_map = {p.tile for p in state.places}
        for place in state.places:
            written = sheet[place.id]
            if written.double_sided is not None:
                assert place.faceup and place.back == DOUBLE_SIDED
                assert place.tile == pack.double_sided[written.double_sided].face(written.side or "").id
                other = next(f.id for f in pack.double_sided[written.double_sided].faces if f.id != place.tile)
                assert other not in on_map
            elif not place.faceup:
                assert place.tile not in faces and pack.tiles[place.tile].back == written.back
        # Complete Setup step 9: the face-up double-sided face's enemy icons are manned at once.
        (laid,) = [p.tile for p in state.places if p.back == DOUBLE_SIDED]
        icons = Counter(k for s in pack.tiles[laid].spaces for k in s.enemy_icons)
        standing = Counter(e.type for e in state.enemies if e.space.startswith(laid + ".") and e.faction is None)
        assert standing == icons, (scenario_id, laid)


def test_map_tiles_the_loader_reports_every_problem_of_double_sided_tiles(tmp_path: Path) -> None:
    """Rules Reference "Map Tiles": the loader checks the double-sided tiles and the places that lay them,
    every problem at once."""
    root = copy_pack(tmp_path)

    def tiles(d: dict) -> None:
        glass = d["double_sided"][1]
        glass["sides"]["a"]["back"] = "deadly"  # a face has no back of its own
        del glass["sides"]["b"]  # two sides, or it is no double-sided tile

    def places(d: dict) -> None:  # what one place shows
        by_id = {p["id"]: p for p in d["places"]}
        by_id["d_ne"]["side"] = "b"  # a face-down place shows a back
        by_id["d_sw"]["side"] = "c"

    def sheet(d: dict) -> None:  # which tile the sheet's places name
        by_id = {p["id"]: p for p in d["places"]}
        del by_id["vent"]["side"]  # which face is up?
        by_id["camp"]["side"] = "a"  # the starting tile has one face
        by_id["d_n"]["tile"] = by_id["d_n"].pop("back") and "kettle_harbor"  # a face, not the tile

    edit_file(root, "tiles.yaml", tiles)
    edit_file(root, f"scenarios/{SCENARIO}.yaml", places)
    edit_file(root, "scenarios/sulphur_flats.yaml", sheet)
    problems = problems_of(root)
    one_problem(problems, "tiles.yaml", "double-sided tile 'glass_spire'", "sides.a.back")
    one_problem(problems, "tiles.yaml", "double-sided tile 'glass_spire'", "sides.b")
    one_problem(problems, f"scenario '{SCENARIO}'", "d_ne", "a face-down place has none")
    one_problem(problems, f"scenario '{SCENARIO}'", "d_sw", "side", "'c'")
    where = "scenarios/sulphur_flats.yaml: scenario 'sulphur_flats'"
    one_problem(problems, where, "place 'vent'", "double-sided tile 'harbor_vent'", "side")
    one_problem(problems, where, "place 'camp'", "'tollbridge', a tile with one face")
    one_problem(problems, where, "place 'd_n'", "'kettle_harbor', a face of a double-sided tile")
    assert len(problems) == 7, problems


def test_map_tiles_a_card_names_a_double_sided_face_only_where_a_sheet_lays_it(tmp_path: Path) -> None:
    """Rules Reference "Map Tiles": a double-sided tile is only ever on the map face up, where a sheet lays
    it; a card every scenario shares naming a place on one face, or waiting for it to be explored, is
    refused for the scenarios that never show that face."""
    root = copy_pack(tmp_path)

    def cards(d: dict) -> None:
        market = next(c for c in d["encounters"] if c["id"] == "enc_market_day")
        market["options"][-1]["condition"] = {"space": "ventmouth.boomtown"}

    def library(d: dict) -> None:
        quest = next(q for q in d["quests"] if q["number"] == 171)
        quest["objectives"][1]["trigger"] = {"explore": "glasshouse"}

    edit_file(root, "encounters.yaml", cards)
    edit_file(root, "library.yaml", library)
    problems = problems_of(root)
    for sid in SCENARIOS:
        named = [p for p in problems if "enc_market_day" in p and f"scenario '{sid}'" in p]
        assert bool(named) == (sid != "sulphur_flats"), (sid, problems)
        one_problem(problems, "quest", "waits for 'glasshouse' to be explored", f"scenario '{sid}'")
    assert len(problems) == 3 + 4, problems


def test_map_tiles_the_frozen_packs_without_double_sided_tiles_still_load() -> None:
    """Map Tiles: `double_sided` and a place's `side` may be left out, so the packs frozen before them (the
    games created with them) load as they did."""
    root = Path(str(resources.files("domain.fallout.packs") / FROZEN))
    older = [folder for folder in sorted(root.iterdir()) if "double_sided" not in (folder / "tiles.yaml").read_text()]
    assert older
    for folder in older:
        pack = load_folder(folder, folder.name)
        assert pack.double_sided == {} and DOUBLE_SIDED not in {t.back for t in pack.tiles.values()}
