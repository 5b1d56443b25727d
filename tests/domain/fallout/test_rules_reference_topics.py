"""Every topic of the Rules Reference is named by at least one Fallout test.

The topics are taken from the English Rules Reference: each glossary topic
(its title, as the book spells it), each step of Complete Setup, each step of
Fight, each enemy ability, and each exception of Solo Play. A test names a
topic in its name or docstring: glossary topics by their title ("Killed:
..."), steps as "Complete Setup step 3" or "Fight step 2" (or "steps 3 and
8", "steps 1 to 5"), an ability as "Enemy Abilities (Armor)", a solo rule as
"Solo Play" with the rule's keyword in the same docstring.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

GLOSSARY = (
    "Actions", "Activating Enemies", "Agenda Cards", "Apparel", "Asset Cards", "Camp Action", "Caps",
    "Card Library", "Character Cards", "Companions", "Component Limitations", "Damage", "Dying",
    "Encounter Action", "Encounter Cards", "Encounter Icons", "Enemies", "Enemy Abilities", "Equipping",
    "Explore Action", "Exhaust", "Factions", "Faction Power Track", "Faction Tokens", "Fight", "Fight Action",
    "First Player", "HP Track", "Influence", "Inventory", "Items", "Killed", "Leveling Up", "Loot Cards",
    "Loyalty", "Map Tiles", "Move Action", "Perk Cards", "Quest Action", "Quest Cards", "Rads", "Results",
    "Rounds", "Scenario", "Shopping", "Shop", "Solo Play", "Spaces", "S.P.E.C.I.A.L. Tokens", "Survivors",
    "Terrain", "Tests", "Trading", "Traits", "Trash", "Turns", "Unique Asset Cards", "V.A.T.S. Dice", "Weapons",
    "Winning the Game", "XP",
)

# Complete Setup: 1 choose scenario, 2 build map, 3 sort tokens, 4 create encounter decks,
# 5 create other decks, 6 create shop, 7 choose and place survivors, 8 prepare player
# boards, 9 resolve starting effects.
SETUP_STEPS = range(1, 10)

# Fight: 1 roll dice, 2 reroll dice, 3 resolve enemy hits, 4 resolve survivor hits, 5 gain XP.
FIGHT_STEPS = range(1, 6)

ENEMY_ABILITIES = ("Aggressive", "Armor", "Radiation", "Ranged", "Loot", "Retreat")

# Solo Play's three exceptions, each known by a keyword of its own.
SOLO_RULES = {
    "another survivor: a settlement space, and a test of 3": "another survivor",
    "encounters read to oneself": "read",
    "a depleted agenda deck advances the weaker faction": "weaker",
}

TESTS = Path(__file__).parent


def citations() -> list[str]:
    """Each test's name and docstring, one text per test."""
    out = []
    for path in sorted(TESTS.glob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                out.append(node.name.replace("_", " ") + "\n" + (ast.get_docstring(node) or ""))
    return out


def _numbers(listed: str) -> set[int]:
    """'3' -> {3}; '3 and 8' -> {3, 8}; '1 to 5' -> {1, ..., 5}; '2, 4 and 6' -> {2, 4, 6}."""
    found: set[int] = set()
    for part in re.split(r",|\band\b", listed):
        bounds = [int(n) for n in re.findall(r"\d+", part)]
        if len(bounds) == 2 and "to" in part:
            found.update(range(bounds[0], bounds[1] + 1))
        else:
            found.update(bounds)
    return found


def steps_named(texts: list[str], topic: str) -> set[int]:
    pattern = re.compile(rf"{topic},? steps? (\d+(?:(?:,| and| to) \d+)*)")
    return {n for text in texts for listed in pattern.findall(text) for n in _numbers(listed)}


def abilities_named(texts: list[str]) -> set[str]:
    named = set()
    for text in texts:
        for inside in re.findall(r"Enemy Abilities \(([^)]*)\)", text):
            named.update(word.strip().lower() for word in inside.split(","))
    return named


def test_rules_reference_every_glossary_topic_is_named_by_a_test() -> None:
    """Every glossary topic of the Rules Reference is named by a test (its title, as the book spells it)."""
    texts = citations()
    missing = [t for t in GLOSSARY if not any(re.search(rf"(?<![\w.]){re.escape(t)}(?!\w)", x) for x in texts)]
    assert missing == []


def test_rules_reference_every_setup_and_fight_step_is_named_by_a_test() -> None:
    """Each of the nine Complete Setup steps and the five Fight steps is named by a test."""
    texts = citations()
    assert set(SETUP_STEPS) - steps_named(texts, "Complete Setup") == set()
    assert set(FIGHT_STEPS) - steps_named(texts, "Fight") == set()


def test_rules_reference_every_enemy_ability_and_solo_rule_is_named_by_a_test() -> None:
    """Each enemy ability is named as "Enemy Abilities (Name)"; each Solo Play exception by its keyword."""
    texts = citations()
    assert {a.lower() for a in ENEMY_ABILITIES} - abilities_named(texts) == set()
    solo = [x for x in texts if "Solo Play" in x]
    assert [rule for rule, word in SOLO_RULES.items() if not any(word in x for x in solo)] == []


def test_rules_reference_the_coverage_check_itself_can_fail() -> None:
    """The reading of step lists and ability names: what a citation names, and what it does not."""
    assert _numbers("3 and 8") == {3, 8} and _numbers("1 to 5") == {1, 2, 3, 4, 5}
    assert _numbers("2, 4 and 6") == {2, 4, 6}
    texts = ["Complete Setup steps 3 and 8: tokens", "Fight step 2: rerolls", "Enemy Abilities (Armor, loot): x"]
    assert steps_named(texts, "Complete Setup") == {3, 8} and steps_named(texts, "Fight") == {2}
    assert abilities_named(texts) == {"armor", "loot"}
    assert abilities_named(["Enemy Abilities: armor"]) == set()


#: The English Rules Reference, where the project's checkout sits beside the shared rule books
#: (``../shared/rules``); a checkout without them skips the comparison below.
BOOK = TESTS.parents[2].parent / "shared" / "rules" / "002_c99bce799aa0e289.txt"


def book_glossary(text: str) -> list[str]:
    """The glossary's topic titles as the book prints them (capitals, one a line), between GLOSSARY and INDEX."""
    lines = text.splitlines()
    start, end = lines.index("GLOSSARY"), lines.index("INDEX")
    return [line for line in lines[start + 1:end] if re.fullmatch(r"[A-Z][A-Z .'-]*[A-Z.]", line.strip())]


def test_rules_reference_the_topic_list_is_the_books() -> None:
    """The glossary topics checked above are the Rules Reference's own list, read from the book when it is at hand."""
    if not BOOK.exists():
        import pytest  # only a checkout without the rule books needs it

        pytest.skip("the rule books are not beside this checkout")
    assert [t.upper() for t in book_glossary(BOOK.read_text())] == [t.upper() for t in GLOSSARY]
