"""The base pack's map layout (layout.yaml): where the table draws each area, and nothing a rule reads."""

from __future__ import annotations

import itertools

from domain.engine.shelf import yaml_files
from domain.zona.game import ZONA
from domain.zona.layout import layout
from domain.zona.pack import SHELF, load, pack_named, read_directory
from domain.zona.view import board_description
from tests.domain.zona.fixtures import new_game


def test_every_area_of_the_base_map_has_a_place_and_no_two_boxes_overlap():
    """Zona §"OPIS PLANSZY GŁÓWNEJ": the map's areas as the board lays them out, green in the south and the power plant in the
    north, each area's box clear of every other's so their names can be read."""
    drawn = layout("base")
    assert drawn is not None
    pack = pack_named("base")
    assert set(drawn["areas"]) == set(pack.areas)
    width, height = drawn["size"]
    box_w, box_h = drawn["box"]
    for area, (x, y) in drawn["areas"].items():
        assert box_w / 2 <= x <= width - box_w / 2 and box_h / 2 <= y <= height - box_h / 2, area
    for (a, (ax, ay)), (b, (bx, by)) in itertools.combinations(drawn["areas"].items(), 2):
        assert abs(ax - bx) >= box_w or abs(ay - by) >= box_h, (a, b)
    sectors = {a.id: a.sector for a in pack.areas.values()}
    south = max(y for area, (_, y) in drawn["areas"].items() if sectors[area] == "green")
    north = min(y for area, (_, y) in drawn["areas"].items() if sectors[area] == "red")
    assert north < south


def test_the_view_hands_the_positions_to_the_table_and_a_pack_without_a_layout_draws_without_them():
    for side in ("small", "large"):
        board = board_description("base", side)
        assert board["map"]["size"] == layout("base")["size"]
        assert all(area["at"] == layout("base")["areas"][area_id] for area_id, area in board["areas"].items())
    state = new_game(players=1)  # the test pack: no layout.yaml
    assert "map" not in ZONA.view(state, 0)["board"]
    assert all("at" not in area for area in ZONA.view(state, 0)["board"]["areas"].values())


def test_the_layout_changes_no_rule_the_pack_loads_the_same_without_it():
    """Positions are drawing only: the pack the rules read is the same with and without layout.yaml."""
    folder = SHELF.open("base")
    files = read_directory(folder)
    assert "layout.yaml" in yaml_files(folder)
    without = {name: body for name, body in files.items() if name != "layout"}
    assert load(files, "base") == load(without, "base")
