"""Broken packs: ``PackError`` names every problem of the cards, the card library and their effects."""

from __future__ import annotations

from pathlib import Path

from tests.domain.fallout.broken_packs import copy_pack, edit_file, one_problem, problems_of
from tests.domain.fallout.bundled_pack import SCENARIO


def _card(data: dict, key: str, card_id: str) -> dict:
    return next(c for c in data[key] if c["id"] == card_id)


def test_a_result_naming_a_missing_library_card(tmp_path: Path) -> None:
    """Card Library / Results: ADD # and STAGE # find the card with that number."""
    root = copy_pack(tmp_path)

    def change(d: dict) -> None:
        _card(d, "encounters", "enc_drowned_tollbooth")["options"][1]["succeed"].insert(0, {"add": 999})
        _card(d, "encounters", "enc_market_day")["options"][0]["results"].append({"stage": 998})

    edit_file(root, "encounters.yaml", change)
    problems = problems_of(root)
    one_problem(problems, "encounters.yaml", "encounter 'enc_drowned_tollbooth'", "option 2: succeed[0]", "add 999")
    one_problem(problems, "encounters.yaml", "encounter 'enc_market_day'", "option 1: results[1]", "stage 998")
    assert len(problems) == 2, problems


def test_add_finds_an_encounter_and_stage_a_quest(tmp_path: Path) -> None:
    """ADD # shuffles an encounter card into its deck; STAGE # puts a quest in the play area."""
    root = copy_pack(tmp_path)
    wrong = [{"add": 110}, {"stage": 121}]  # a quest's number, an encounter's number
    edit_file(root, "loot.yaml", lambda d: _card(d, "cards", "court_summons").update(effects=wrong))
    problems = problems_of(root)
    one_problem(problems, "loot.yaml", "loot card 'court_summons'", "effects[0]", "add 110", "no encounter card")
    one_problem(problems, "loot.yaml", "loot card 'court_summons'", "effects[1]", "stage 121", "no quest card")


def test_a_quest_naming_an_unknown_space(tmp_path: Path) -> None:
    """Quest Cards: requirements and markers name spaces of the map."""
    root = copy_pack(tmp_path)

    def change(d: dict) -> None:
        quest = _card(d, "quests", "q_drowned_bell")
        quest["on_stage"] = [{"place_marker": "grayhook.atlantis"}]
        quest["objectives"][2]["requirement"] = {"space": "grayhook.lamp_room"}
        _card(d, "quests", "q_pumphouse_survey")["objectives"][1]["trigger"] = {"explore": "pumphouse_hill"}

    edit_file(root, "library.yaml", change)
    problems = problems_of(root)
    one_problem(problems, "library.yaml", "quest 'q_drowned_bell'", "on_stage[0]", "no space 'grayhook.atlantis'")
    one_problem(problems, "library.yaml", "quest 'q_drowned_bell'", "objective 3: requirement", "'grayhook.lamp_room'")
    one_problem(problems, "library.yaml", "quest 'q_pumphouse_survey'", "objective 2: trigger", "no tile 'pumphouse_hill'")


def test_an_effect_that_does_not_parse(tmp_path: Path) -> None:
    """Every condition, task, result and influence entry is in the vocabulary (docs/fallout-effects.md)."""
    root = copy_pack(tmp_path)

    def encounters(d: dict) -> None:
        options = _card(d, "encounters", "enc_reed_ambush")["options"]
        options[1]["succeed"][0] = {"xp": "lots"}
        options[3]["tasks"] = [{"test": {"special": ["Q"], "difficulty": 2}}]
        options[2]["condition"] = {"wealthy": True}

    edit_file(root, "encounters.yaml", encounters)
    edit_file(root, "agendas.yaml", lambda d: d["agendas"][0].update(influence=[{"per": "enemies_killed"}]))
    edit_file(root, "perks.yaml", lambda d: d["perks"][0].update(effects=["teleport"]))
    edit_file(root, "uniques.yaml", lambda d: _card(d, "cards", "hatch_mother").update(keep_if={"trait": "grumpy"}))
    problems = problems_of(root)
    one_problem(problems, "encounter 'enc_reed_ambush'", "option 2: succeed[0]", "'lots'")
    one_problem(problems, "encounter 'enc_reed_ambush'", "option 4: tasks[0]", "'Q'")
    one_problem(problems, "encounter 'enc_reed_ambush'", "option 3: condition", "unknown condition 'wealthy'")
    one_problem(problems, "agendas.yaml", "agenda 'agenda_hold_the_sluices'", "influence[0]", "'enemies_killed'")
    one_problem(problems, "perks.yaml", "perk 'perk_shoulder_the_load'", "effects[0]", "'teleport'")
    one_problem(problems, "uniques.yaml", "unique asset 'hatch_mother'", "keep_if", "no trait 'grumpy'")
    assert len(problems) == 6, problems


def test_a_duplicate_library_number(tmp_path: Path) -> None:
    """Card Library: a number finds exactly one card, encounter or quest."""
    root = copy_pack(tmp_path)
    edit_file(root, "library.yaml", lambda d: _card(d, "encounters", "enc_fallen_courier").update(number=110))
    problems = problems_of(root)
    one_problem(problems, "library.yaml", "library number 110", "quest 'q_sluice_keys'", "encounter 'enc_fallen_courier'",
         "unique")


def test_starting_cards_have_a_star_and_library_cards_a_number(tmp_path: Path) -> None:
    """Encounter Cards: the starting decks are the cards with a star; vault decks start empty."""
    root = copy_pack(tmp_path)

    def starting(d: dict) -> None:
        _card(d, "encounters", "enc_gull_storm")["number"] = 300
        _card(d, "encounters", "enc_sea_fog")["deck"] = "vault84"

    edit_file(root, "encounters.yaml", starting)
    edit_file(root, "library.yaml", lambda d: _card(d, "encounters", "enc_bells_echo").pop("number"))
    problems = problems_of(root)
    one_problem(problems, "encounters.yaml", "encounter 'enc_gull_storm'", "(300) belong in library.yaml")
    one_problem(problems, "encounters.yaml", "encounter 'enc_sea_fog'", "vault encounter has a library number")
    one_problem(problems, "library.yaml", "encounter 'enc_bells_echo'", "needs its library number")


def test_every_icon_has_a_deck(tmp_path: Path) -> None:
    """Encounter Icons: the map's settlement icons need a starting deck, its vaults library cards."""
    root = copy_pack(tmp_path)
    edit_file(root, "encounters.yaml",
          lambda d: d.update(encounters=[c for c in d["encounters"] if c["deck"] != "settlement"]))

    def no_vault_109(d: dict) -> None:
        d["encounters"] = [c for c in d["encounters"] if c["deck"] != "vault109"]
        d["quests"] = [q for q in d["quests"] if q["number"] != 195]
        for quest in d["quests"]:
            for objective in quest["objectives"]:
                objective["results"] = [r for r in objective["results"] if r not in ({"add": 190}, {"add": 191})]

    edit_file(root, "library.yaml", no_vault_109)
    problems = problems_of(root)
    one_problem(problems, "encounters.yaml", "settlement encounter icons", "no starting settlement card")
    one_problem(problems, "library.yaml", "vault109 icon", "no vault109 card")


def test_a_library_card_nothing_brings_into_play(tmp_path: Path) -> None:
    """Card Library: a card is retrieved only by ADD, STAGE or the scenario sheet."""
    root = copy_pack(tmp_path)

    def change(d: dict) -> None:
        for quest in d["quests"]:
            quest["on_stage"] = [r for r in quest.get("on_stage", []) if r != {"add": 176}]

    edit_file(root, "library.yaml", change)
    one_problem(problems_of(root), "library.yaml", "encounter 'enc_late_request_line'", "library card 176",
         "never added or staged")


def test_a_faction_token_on_a_tile_the_scenario_lays_face_down(tmp_path: Path) -> None:
    """Faction Tokens: a token goes face up in its space, so a card that can enter play in a
    scenario places one only on a tile that scenario lays face up."""
    root = copy_pack(tmp_path)
    token = {"faction_token": {"faction": "spade", "space": "saltmarsh.reedbeds"}}  # a dangerous tile, dealt face down
    edit_file(root, "encounters.yaml", lambda d: _card(d, "encounters", "enc_market_day")["options"][0]["results"]
              .append(token))
    one_problem(problems_of(root), "encounters.yaml", "encounter 'enc_market_day'", "option 1: results[1]",
                "'saltmarsh.reedbeds'", f"scenario '{SCENARIO}' (where this card can enter play)", "face up")


def test_quest_markers_belong_to_a_quest(tmp_path: Path) -> None:
    """Quest Markers: one of a pair goes on the quest card placing it."""
    root = copy_pack(tmp_path)

    def library(d: dict) -> None:
        _card(d, "quests", "q_drowned_bell")["on_stage"] = []
        bells_echo = _card(d, "encounters", "enc_bells_echo")
        bells_echo["options"][1]["results"].append({"place_marker": "grayhook.tide_pools"})

    edit_file(root, "library.yaml", library)
    edit_file(root, "encounters.yaml", lambda d: _card(d, "encounters", "enc_market_day")["options"][0].update(
        condition={"marker": True}))
    problems = problems_of(root)
    one_problem(problems, "quest 'q_drowned_bell'", "objective 1: requirement", "never places a marker")
    one_problem(problems, "encounter 'enc_bells_echo'", "option 2: results[2]", "only a quest card")
    one_problem(problems, "encounter 'enc_market_day'", "option 1: condition", "marker: <number>")


def test_scenario_setup_and_staged_quests(tmp_path: Path) -> None:
    """Complete Setup step 9: the staged quests exist; setup resolves only results about the game (a marker
    on a space that exists among them)."""
    root = copy_pack(tmp_path)

    def change(d: dict) -> None:
        d["staged_quests"] = [101, 404, "q_nowhere"]
        d["on_deplete"] = [{"xp": 1}]
        d["setup"] += [{"place_marker": "atlantis.dock"}, {"caps": 3}, {"faction_token": {"faction": "star",
                                                                                           "space": "atlantis.gate"}}]

    edit_file(root, f"scenarios/{SCENARIO}.yaml", change)
    problems = problems_of(root)
    where = f"scenarios/{SCENARIO}.yaml: scenario '{SCENARIO}'"
    one_problem(problems, where, "staged_quests[1]", "library number 404")
    one_problem(problems, where, "staged_quests[2]", "'q_nowhere'")
    one_problem(problems, where, "setup[2]", "no space 'atlantis.dock'")
    one_problem(problems, where, "setup[3]", "GainCaps needs a survivor")
    one_problem(problems, where, "on_deplete[0]", "GainXP needs a survivor")
    one_problem(problems, where, "setup[4]", "no space 'atlantis.gate'")


def test_scenario_rules_at_the_round_end_are_about_the_game(tmp_path: Path) -> None:
    """Scenario: an `on_round_end` rule has no survivor to give XP to; an `on_turn_start` one has."""
    root = copy_pack(tmp_path)

    def change(d: dict) -> None:
        d["on_round_end"] = [{"results": [{"xp": 1}]}]
        d["on_turn_start"] = [{"results": [{"xp": 1}]}]

    edit_file(root, f"scenarios/{SCENARIO}.yaml", change)
    where = f"scenarios/{SCENARIO}.yaml: scenario '{SCENARIO}'"
    one_problem(problems_of(root), where, "on_round_end[0]: results[0]", "GainXP needs a survivor")


def test_trash_only_on_encounter_and_quest_cards(tmp_path: Path) -> None:
    """TRASH sends the card being resolved to the box: an encounter or a quest card."""
    root = copy_pack(tmp_path)
    edit_file(root, "perks.yaml", lambda d: d["perks"][0]["effects"].append("trash"))
    one_problem(problems_of(root), "perks.yaml", "perk 'perk_shoulder_the_load'", "effects[1]", "trash")


def test_faction_tokens_need_the_scenarios_token_enemy(tmp_path: Path) -> None:
    """Faction Tokens: the scenario says which enemy a faction's tokens are."""
    root = copy_pack(tmp_path)
    edit_file(root, f"scenarios/{SCENARIO}.yaml", lambda d: d["factions"][0].pop("token_enemy"))
    one_problem(problems_of(root), "library.yaml", "quest 'q_salt_ledger'", "on_stage[1]", "star faction token",
         "no token_enemy")


def test_cards_belong_to_their_files_deck(tmp_path: Path) -> None:
    """Loot, asset and unique asset cards go back to their own deck; character cards to none."""
    root = copy_pack(tmp_path)
    edit_file(root, "loot.yaml", lambda d: _card(d, "cards", "gutting_knife").update(deck="asset"))
    edit_file(root, "cards.yaml", lambda d: _card(d, "cards", "sprocket").update(deck="loot"))
    edit_file(root, "assets.yaml", lambda d: _card(d, "cards", "harpoon_gun").pop("cost"))
    edit_file(root, "library.yaml", lambda d: _card(d, "encounters", "enc_fallen_courier")["options"][0]["succeed"]
          .__setitem__(0, {"unique": "lost_crown"}))
    problems = problems_of(root)
    one_problem(problems, "loot.yaml", "loot card 'gutting_knife'", "'asset'", "loot deck")
    one_problem(problems, "survivors.yaml", "survivor 'marek_sallow'", "'sprocket' is a loot card")
    one_problem(problems, "assets.yaml", "asset card 'harpoon_gun'", "has a cost")
    one_problem(problems, "library.yaml", "encounter 'enc_fallen_courier'", "no unique asset 'lost_crown'")


def test_broken_library_cards_do_not_cascade(tmp_path: Path) -> None:
    """A card that fails its schema is reported once; results naming its number are not reported again."""
    root = copy_pack(tmp_path)
    edit_file(root, "library.yaml", lambda d: _card(d, "quests", "q_sluice_keys").update(title=7))
    problems = problems_of(root)
    assert problems == [one_problem(problems, "library.yaml", "quest 'q_sluice_keys'", "title")]
