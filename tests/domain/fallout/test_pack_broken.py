"""Broken packs: ``PackError`` names every problem of the map, the components and the files, with the file and the item."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.fallout.pack import PackError, load_pack
from tests.domain.fallout.broken_packs import copy_pack, edit_file, one_problem, problems_of, space_in, tile_in
from tests.domain.fallout.bundled_pack import SCENARIO


def test_the_copied_pack_is_valid(tmp_path: Path) -> None:
    root = copy_pack(tmp_path)
    assert load_pack(root).tiles.keys() == load_pack().tiles.keys()


def test_asymmetric_adjacency(tmp_path: Path) -> None:
    """Spaces: two spaces are adjacent if they share a border, so adjacency is symmetric."""
    root = copy_pack(tmp_path)
    edit_file(root, "tiles.yaml", lambda d: space_in(d, "saltmarsh.reedbeds")["links"].remove("saltmarsh.pumping_shack"))
    one_problem(problems_of(root), "tiles.yaml", "tile 'saltmarsh'", "'saltmarsh.pumping_shack' links to 'saltmarsh.reedbeds'",
         "does not link back")


def test_unknown_adjacency(tmp_path: Path) -> None:
    """Spaces: a link names a space of the same tile."""
    root = copy_pack(tmp_path)
    edit_file(root, "tiles.yaml", lambda d: space_in(d, "saltmarsh.reedbeds")["links"].append("saltmarsh.lagoon"))
    one_problem(problems_of(root), "tiles.yaml", "tile 'saltmarsh'", "'saltmarsh.lagoon'", "not a space of this tile")


def test_link_to_a_space_of_another_tile(tmp_path: Path) -> None:
    """Spaces: adjacency inside a tile never crosses into another tile; edges do that."""
    root = copy_pack(tmp_path)
    edit_file(root, "tiles.yaml", lambda d: space_in(d, "saltmarsh.reedbeds")["links"].append("halfmoon.car_lot"))
    one_problem(problems_of(root), "tile 'saltmarsh'", "'halfmoon.car_lot'", "not a space of this tile")


def test_unknown_enemy_type(tmp_path: Path) -> None:
    """Enemies: each enemy has one of the five types (critter, human, robot, monster, super mutant)."""
    root = copy_pack(tmp_path)
    edit_file(root, "enemies.yaml", lambda d: d["enemies"][0].update(type="ghoul"))
    one_problem(problems_of(root), "enemies.yaml", "enemy 'glowgull'", "type", "'ghoul'")


def test_unknown_enemy_icon_type(tmp_path: Path) -> None:
    """Explore Action: each enemy icon draws a token of its type."""
    root = copy_pack(tmp_path)
    edit_file(root, "tiles.yaml", lambda d: space_in(d, "halfmoon.snack_bar").update(enemy_icons=["gremlin"]))
    one_problem(problems_of(root), "tiles.yaml", "tile 'halfmoon'", "enemy_icons", "'gremlin'")


def test_unknown_ability(tmp_path: Path) -> None:
    """Enemy Abilities: aggressive, armor, radiation, ranged, loot, retreat."""
    root = copy_pack(tmp_path)
    edit_file(root, "enemies.yaml", lambda d: d["enemies"][1].update(abilities=["cloaking"]))
    one_problem(problems_of(root), "enemies.yaml", "enemy 'brine_skipper'", "abilities", "'cloaking'")


def test_too_many_abilities(tmp_path: Path) -> None:
    """Enemies: up to two icons representing abilities."""
    root = copy_pack(tmp_path)
    edit_file(root, "enemies.yaml", lambda d: d["enemies"][1].update(abilities=["armor", "loot", "ranged"]))
    one_problem(problems_of(root), "enemy 'brine_skipper'", "abilities")


def test_unknown_vulnerable_area_and_no_area(tmp_path: Path) -> None:
    """V.A.T.S. Dice: the chart's four areas are head, body, arms and legs."""
    root = copy_pack(tmp_path)

    def change(d: dict) -> None:
        d["enemies"][0]["vulnerable"] = ["tail"]
        d["enemies"][1]["vulnerable"] = []

    edit_file(root, "enemies.yaml", change)
    problems = problems_of(root)
    one_problem(problems, "enemy 'glowgull'", "vulnerable", "'tail'")
    one_problem(problems, "enemy 'brine_skipper'", "vulnerable")


def test_unknown_encounter_kind(tmp_path: Path) -> None:
    """Encounter Icons: wasteland, settlement, and the two vaults 84 and 109."""
    root = copy_pack(tmp_path)
    edit_file(root, "tiles.yaml", lambda d: space_in(d, "halfmoon.car_lot")["encounter"].update(kind="casino"))
    one_problem(problems_of(root), "tiles.yaml", "tile 'halfmoon'", "halfmoon.car_lot", "encounter.kind", "'casino'")


def test_unknown_terrain(tmp_path: Path) -> None:
    """Terrain: difficult (red border) or irradiated (green border)."""
    root = copy_pack(tmp_path)
    edit_file(root, "tiles.yaml", lambda d: space_in(d, "halfmoon.car_lot").update(terrain=["swamp"]))
    one_problem(problems_of(root), "tile 'halfmoon'", "terrain", "'swamp'")


def test_space_that_cannot_be_reached(tmp_path: Path) -> None:
    """Move Action: a survivor moves into adjacent spaces, so a space without borders is unreachable."""
    root = copy_pack(tmp_path)
    edit_file(root, "tiles.yaml", lambda d: tile_in(d, "halfmoon")["spaces"].append({"id": "halfmoon.sinkhole", "links": []}))
    one_problem(problems_of(root), "tiles.yaml", "tile 'halfmoon'", "'halfmoon.sinkhole' cannot be reached")


def test_edge_half_naming_a_space_of_another_tile(tmp_path: Path) -> None:
    """Map Tiles: a tile's edge halves are its own spaces."""
    root = copy_pack(tmp_path)
    edit_file(root, "tiles.yaml", lambda d: tile_in(d, "halfmoon")["edges"][2].__setitem__(0, "gullwing.sidings"))
    one_problem(problems_of(root), "tiles.yaml", "tile 'halfmoon'", "edge 2 half 0", "'gullwing.sidings'", "not a space of this tile")


def test_tile_needs_six_edges(tmp_path: Path) -> None:
    """Map Tiles: tiles are hexes with six edges."""
    root = copy_pack(tmp_path)
    edit_file(root, "tiles.yaml", lambda d: tile_in(d, "halfmoon")["edges"].pop())
    one_problem(problems_of(root), "tile 'halfmoon'", "5 edges")


def test_spaces_meeting_on_the_rim_must_be_linked(tmp_path: Path) -> None:
    """Spaces: two spaces are adjacent if they share a border; neighbours along the rim do."""
    root = copy_pack(tmp_path)

    def change(d: dict) -> None:
        space_in(d, "saltmarsh.reedbeds")["links"].remove("saltmarsh.sinkhole")
        space_in(d, "saltmarsh.sinkhole")["links"].remove("saltmarsh.reedbeds")

    edit_file(root, "tiles.yaml", change)
    one_problem(problems_of(root), "tile 'saltmarsh'", "'saltmarsh.reedbeds' and 'saltmarsh.sinkhole' meet on the rim")


def test_space_id_must_carry_its_tile(tmp_path: Path) -> None:
    root = copy_pack(tmp_path)
    edit_file(root, "tiles.yaml", lambda d: space_in(d, "halfmoon.screen_ruins").update(id="screen"))
    one_problem(problems_of(root), "tile 'halfmoon'", "'screen'")


def test_scenario_place_naming_an_unknown_tile(tmp_path: Path) -> None:
    """Scenario / Map Tiles: the layout names tiles of the pack."""
    root = copy_pack(tmp_path)
    edit_file(root, f"scenarios/{SCENARIO}.yaml", lambda d: d["places"][1].update(tile="atlantis"))
    one_problem(problems_of(root), f"scenarios/{SCENARIO}.yaml", f"scenario '{SCENARIO}'", "place 'harbor'", "'atlantis'")


def test_fewer_face_down_tiles_than_places(tmp_path: Path) -> None:
    """Complete Setup, step 2: a random deadly tile goes face down in each deadly place."""
    root = copy_pack(tmp_path)
    doomed = {"redfin_yard", "glass_marsh"}
    edit_file(root, "tiles.yaml", lambda d: d.update(tiles=[t for t in d["tiles"] if t["id"] not in doomed]))
    # Seven deadly tiles are left to shuffle; two more deadly places make the layout need eight.
    more = [{"id": "x_far", "q": 3, "r": -1, "back": "deadly"}, {"id": "x_farther", "q": 3, "r": 0, "back": "deadly"}]
    edit_file(root, f"scenarios/{SCENARIO}.yaml", lambda d: d["places"].extend(more))
    one_problem(problems_of(root), f"scenario '{SCENARIO}'", "needs 8 face-down deadly tiles", "only 7")


def test_start_place_must_hold_the_starting_tile(tmp_path: Path) -> None:
    """Complete Setup, step 7: survivors start on the starting tile."""
    root = copy_pack(tmp_path)
    edit_file(root, f"scenarios/{SCENARIO}.yaml", lambda d: d.update(start_place="harbor"))
    one_problem(problems_of(root), f"scenario '{SCENARIO}'", "start_place 'harbor'", "back: start")


def test_layout_must_be_connected_and_without_overlaps(tmp_path: Path) -> None:
    """Map Tiles: the map is one piece of hexes, one tile per hex."""
    root = copy_pack(tmp_path)

    def change(d: dict) -> None:
        d["places"].append({"id": "island", "q": 9, "r": 9, "back": "deadly"})
        d["places"].append({"id": "ghost", "q": 0, "r": 1, "back": "dangerous"})

    edit_file(root, f"scenarios/{SCENARIO}.yaml", change)
    problems = problems_of(root)
    one_problem(problems, "place 'island' at (9, 9) does not touch")
    one_problem(problems, "'d_se'", "'ghost'", "share the hex (0, 1)")


def test_faction_letters(tmp_path: Path) -> None:
    """Faction Power Track: the factions' enemies show the letters X and Y."""
    root = copy_pack(tmp_path)
    edit_file(root, f"scenarios/{SCENARIO}.yaml", lambda d: d["factions"][1].update(letter="Z"))
    one_problem(problems_of(root), f"scenario '{SCENARIO}'", "letter", "'Z'")


def test_letter_level_without_a_faction(tmp_path: Path) -> None:
    """Faction Power Track: a letter level is read off the faction that shows that letter."""
    root = copy_pack(tmp_path)
    edit_file(root, "enemies.yaml", lambda d: d["enemies"][0].update(level="Q"))
    one_problem(problems_of(root), f"scenario '{SCENARIO}'", "enemy 'glowgull'", "'Q'")


def test_survivor_without_starting_token(tmp_path: Path) -> None:
    """Complete Setup, step 7: each survivor takes the S.P.E.C.I.A.L. token with their silhouette."""
    root = copy_pack(tmp_path)
    edit_file(root, "tokens.yaml", lambda d: d["special_tokens"].remove(
        {"id": "special_own_wren_okafor", "letter": "S", "survivor": "wren_okafor"}))
    one_problem(problems_of(root), "survivors.yaml", "survivor 'wren_okafor'", "no starting S.P.E.C.I.A.L. token")


def test_starting_token_of_another_letter(tmp_path: Path) -> None:
    root = copy_pack(tmp_path)
    edit_file(root, "survivors.yaml", lambda d: d["survivors"][0].update(special="L"))
    one_problem(problems_of(root), "survivor 'tamsin_reed'", "starts with L", "shows P")


def test_survivor_without_character_card(tmp_path: Path) -> None:
    """Character Cards: each survivor gains the card unique to their character."""
    root = copy_pack(tmp_path)
    edit_file(root, "survivors.yaml", lambda d: d["survivors"][3].update(character_card="gizmo"))
    one_problem(problems_of(root), "survivors.yaml", "survivor 'marek_sallow'", "'gizmo'")


def test_token_naming_an_unknown_survivor(tmp_path: Path) -> None:
    root = copy_pack(tmp_path)
    edit_file(root, "tokens.yaml", lambda d: d["special_tokens"].append(
        {"id": "special_own_nobody", "letter": "S", "survivor": "nobody"}))
    one_problem(problems_of(root), "tokens.yaml", "special token 'special_own_nobody'", "'nobody'")


def test_five_tokens_per_letter(tmp_path: Path) -> None:
    """S.P.E.C.I.A.L. Tokens: the supply holds five of each letter."""
    root = copy_pack(tmp_path)
    edit_file(root, "tokens.yaml", lambda d: d["special_tokens"].remove({"id": "special_l5", "letter": "L"}))
    one_problem(problems_of(root), "tokens.yaml", "letter L has 4")


def test_special_tokens_a_survivors_own_token_is_not_counted_in_the_supply(tmp_path: Path) -> None:
    """S.P.E.C.I.A.L. Tokens: the supply is 35 tokens plus the survivors' own; a letter's count is
    of the supply alone, so a survivor's own S token does not stand in for a missing supply S."""
    root = copy_pack(tmp_path)
    edit_file(root, "tokens.yaml", lambda d: d["special_tokens"].remove({"id": "special_s5", "letter": "S"}))
    one_problem(problems_of(root), "tokens.yaml", "letter S has 4", "not counting survivors' own")


def test_three_dice_of_six_faces(tmp_path: Path) -> None:
    """V.A.T.S. Dice: three dice, six faces each."""
    root = copy_pack(tmp_path)

    def change(d: dict) -> None:
        d["dice"].pop()
        d["dice"][0]["faces"] = d["dice"][0]["faces"][:5]

    edit_file(root, "dice.yaml", change)
    problems = problems_of(root)
    one_problem(problems, "dice.yaml", "die 'vats_1'", "faces")
    # the count is not reported while a die is broken; fix the die and it is
    root2 = copy_pack(tmp_path / "again")
    edit_file(root2, "dice.yaml", lambda d: d["dice"].pop())
    one_problem(problems_of(root2), "dice.yaml", "exactly 3")


def test_ids_unique_across_the_pack(tmp_path: Path) -> None:
    root = copy_pack(tmp_path)
    edit_file(root, "perks.yaml", lambda d: d["perks"][0].update(id="agenda_map_the_reach"))
    one_problem(problems_of(root), "'agenda_map_the_reach'", "agendas.yaml", "perks.yaml", "unique")


def test_unknown_fields_are_refused(tmp_path: Path) -> None:
    root = copy_pack(tmp_path)
    edit_file(root, "perks.yaml", lambda d: d["perks"][0].update(colour="red"))
    edit_file(root, "agendas.yaml", lambda d: d.update(decks=[]))
    problems = problems_of(root)
    one_problem(problems, "perks.yaml", "perk 'perk_shoulder_the_load'", "colour")
    one_problem(problems, "agendas.yaml", "'decks'")


def test_every_problem_is_listed(tmp_path: Path) -> None:
    """One load reports the problems of every file, not only the first."""
    root = copy_pack(tmp_path)
    edit_file(root, "enemies.yaml", lambda d: d["enemies"][0].update(type="ghoul"))
    edit_file(root, "agendas.yaml", lambda d: d["agendas"][0].update(activation=["ghost"]))
    edit_file(root, "agendas.yaml", lambda d: d["agendas"][1].update(players=7))
    edit_file(root, "survivors.yaml", lambda d: d["survivors"][3].update(character_card="gizmo"))
    edit_file(root, f"scenarios/{SCENARIO}.yaml", lambda d: d["places"][1].update(tile="atlantis"))
    problems = problems_of(root)
    one_problem(problems, "enemies.yaml", "'ghoul'")
    one_problem(problems, "agendas.yaml", "agenda 'agenda_hold_the_sluices'", "activation", "'ghost'")
    one_problem(problems, "agendas.yaml", "agenda 'agenda_wardens_ledger'", "players")
    one_problem(problems, "survivors.yaml", "'gizmo'")
    one_problem(problems, "'atlantis'")
    assert len(problems) == 5, problems


def test_a_broken_item_does_not_cascade(tmp_path: Path) -> None:
    """A tile that fails its schema is reported once, not again by every place that names it."""
    root = copy_pack(tmp_path)
    edit_file(root, "tiles.yaml", lambda d: tile_in(d, "tollbridge").update(back="shiny"))
    problems = problems_of(root)
    assert problems == [one_problem(problems, "tile 'tollbridge'", "back", "'shiny'")]
    root = copy_pack(tmp_path / "double")
    edit_file(root, "tiles.yaml", lambda d: d["double_sided"][0]["sides"]["a"].update(back="shiny"))
    problems = problems_of(root)
    assert problems == [one_problem(problems, "double-sided tile 'harbor_vent'", "sides.a.back")]


def test_missing_file_and_bad_yaml(tmp_path: Path) -> None:
    root = copy_pack(tmp_path)
    (root / "perks.yaml").unlink()
    (root / "cards.yaml").write_text("cards: [unclosed\n")
    problems = problems_of(root)
    one_problem(problems, "perks.yaml", "missing")
    one_problem(problems, "cards.yaml", "not valid YAML")


def test_not_a_directory(tmp_path: Path) -> None:
    with pytest.raises(PackError, match="not a directory"):
        load_pack(tmp_path / "nowhere")
