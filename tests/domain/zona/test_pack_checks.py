"""The pack loader's cross-checks: a broken pack is refused with every problem named at once."""

from __future__ import annotations

import copy

import pytest

from domain.zona.pack import PACKS, SHELF, PackError, load, read_directory

TEST_FILES = read_directory(SHELF.bundled("test"))


def _problems(files) -> str:
    with pytest.raises(PackError) as err:
        load(files, "broken")
    return "\n".join(err.value.problems)


def _broken():
    """The test pack with one of each cross-reference broken."""
    files = copy.deepcopy(TEST_FILES)
    board = files["board"]
    board["areas"].append({"id": "island", "name": "Island", "sector": "green"})  # no border reaches it
    board["areas"].append({"id": "backyard", "name": "Backyard", "sector": "green"})
    board["borders"].append({"between": ["vault", "backyard"], "entrance": True})  # only through a facility
    # Without the red gates' action, the power plant (and so the sarcophagus) is out of reach.
    for area in board["areas"]:
        if area["id"] in ("ghosttown", "ironeye"):
            area["action"] = [e for e in area["action"] if "to_power_plant" not in e]
    items = files["items"]["items"]
    items.append(dict(next(i for i in items if i["id"] == "canned_meat")))  # the same id twice
    # No green artifact left: the threats' loot and the cards' takes draw from an empty deck.
    files["items"]["items"] = [i for i in items if not (i["kind"] == "artifact" and i.get("colour") == "green")]
    stalkers = files["stalkers"]["stalkers"]
    stalkers[0]["equipment"] = ["rag_mask", "pocket_lamp", "tin_flask", "no_such_item"]
    stalkers[1]["start"]["threats"][0]["kind"] = "ghost"
    events = files["events"]
    events["green"].append({"id": "g_lost", "name": "Lost", "sections": {
        "nowhere": [{"fatigue": 1}], "hayfields": [], "other": []}})
    events["yellow"].append(dict(events["yellow"][0]))  # an event id used twice
    decks = events["facilities"]
    decks["vault"] = [{"id": "f_loose", "name": "Loose End", " Stray": None, "paragraphs": [
        [{"fatigue": 1}],  # runs out without an ending
        [{"test": {"attribute": "agility", "difficulty": 2}, "pass": [{"next": True}], "fail": [{"failed": True}]}],
    ]}]
    del decks["deeparchive"]
    decks["greenhouse"].append("a card as bare text")
    files["news"]["emissions"][0]["place"][0] = {"kind": "anomaly", "colour": "green", "area": "fieldlab"}
    files["locks"] = {"locks": files["news"]["locks"]}  # locks in both files
    files["news"]["set_aside"] = {5: 1, 2: 40}  # no fifth player; more than the deck holds
    return files


def test_a_broken_pack_names_every_cross_reference_problem_at_once():
    """Zona §"SPIS ELEMENTÓW": areas reachable, items, threats and decks that exist, event paths that end,
    ids used once — all problems in one report."""
    text = _problems(_broken())
    expected = [
        "board.yaml side small: areas cut off: ['backyard', 'core', 'island', 'reactoryard']",
        "board.yaml side large: areas cut off: ['backyard', 'core', 'island', 'reactoryard']",
        "items.yaml item canned_meat: items id 'canned_meat' used twice",
        "stalkers.yaml stalker vera: four starting items of kind starting",
        "stalkers.yaml stalker bogdan: a threat placed on 'quarrypit' is a mutant or anomaly, green or yellow",
        "events.yaml green card g_lost: sections: two green areas and other",
        "events.yaml yellow card y_caravan: events id 'y_caravan' used twice",
        "events.yaml facilities: one deck per facility",
        "events.yaml greenhouse: not a mapping: 'a card as bare text'",
        "events.yaml vault card f_loose: unknown keys [' Stray']",
        "events.yaml vault card f_loose paragraph 1: every way through a paragraph ends in next, failed, secret or win",
        "events.yaml vault card f_loose paragraph 2: next in the last paragraph leads to no paragraph",
        "events.yaml vault: no card of the deck can end in its secret (or the win)",
        "news.yaml emission e_pale: threats go on open ground, not 'fieldlab'",
        "news.yaml: lock tokens are in locks.yaml: none in news.yaml",
        "news.yaml: set_aside: news cards set aside at a player count (1-4), fewer than the deck holds",
        "draws from the green_artifact deck, which holds no cards",
        "threats.yaml threat ga_fizz loot: draws from the green_artifact deck, which holds no cards",
    ]
    missing = [line for line in expected if line not in text]
    assert missing == [], text


def test_the_test_pack_and_the_base_pack_pass_every_check():
    """Zona §"SPIS ELEMENTÓW": the shipped packs load with no problem."""
    for name in PACKS:
        pack = load(read_directory(SHELF.bundled(name)), name)
        assert pack.name == name and pack.areas


def test_locks_may_come_from_their_own_file():
    """Zona §"PRZYGOTOWANIE DO GRY": eight lock tokens, read from locks.yaml when the pack has one."""
    files = copy.deepcopy(TEST_FILES)
    files["locks"] = {"locks": files["news"].pop("locks")}
    assert len(load(files, "split").locks) == 8


def test_every_stalkers_ability_is_its_own():
    """Zona §"ZDOLNOŚĆ": "each stalker has a unique ability": the shipped packs give no two stalkers the same
    one, and a pack that does is refused; a frozen copy (games were played with it) still loads as it shipped."""
    from domain.zona.pack import pack_named

    for name in PACKS:
        pack = load(read_directory(SHELF.bundled(name)), name)
        abilities = [tuple(sorted(s.ability.items())) for s in pack.stalkers.values()]
        assert len(set(abilities)) == len(abilities) == len(pack.stalkers), name
    files = copy.deepcopy(TEST_FILES)
    stalkers = files["stalkers"]["stalkers"]
    stalkers[1]["ability"] = dict(stalkers[0]["ability"])
    stalkers[2]["ability"] = {"camp": 0}
    stalkers[3]["ability"] = {"reroll": "luck"}
    text = _problems(files)
    assert "stalkers.yaml stalker bogdan: ability {'reroll': 'intellect'} is vera's too: each stalker's is its own" in text
    assert "stalkers.yaml stalker mila: ability is one of reroll: <attribute>, protect: <damage type>" in text
    assert "stalkers.yaml stalker orest: ability is one of reroll: <attribute>, protect: <damage type>" in text
    for address in SHELF.frozen():
        assert pack_named(address).stalkers, address
