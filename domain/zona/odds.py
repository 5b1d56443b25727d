"""How likely a stalker is to read a facility's secret (or the sarcophagus's ending) from one card: the bots'
reading of the cards, for the AI's evaluation (``domain.zona.ai``).

Zona §"WYDARZENIA TAJNEGO OBIEKTU": a facility card is paragraphs; every way
through one ends in "continue", "mission failed" or the secret, and most ways
to the secret pass attribute tests (Zona §"WYKONYWANIE TESTÓW": the attribute
plus the three symbol dice against the difficulty). So a stalker's chance at a
facility is a matter of its attributes against the tests that deck asks for:
most of the base pack's facility tests are of intellect or willpower, and a
stalker with 1 in an attribute a deck tests at 4 almost never gets through.
This is what the bots draft by and what makes one facility a better target
than another for a given stalker. It reads the pack only, never a game, so it
is cached by the attributes it is asked about.

A reading, not the rules: items, forcing and the encounters a card starts are
left out (an encounter is taken as got through), a choice is the stalker's
best way (the Voice's, where the card gives it the choice, its worst),
reputation sections count as likely as each other, and an item category a card
asks for as not held.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any, Final

from domain.zona.pack import pack_named

#: Where a way through a paragraph ends: the next paragraph, the mission failed, the secret (or the win).
NEXT: Final = "next"
FAILED: Final = "failed"
SECRET: Final = "secret"


@functools.cache
def pass_chance(value: int, difficulty: int, reroll: bool, faces: tuple[str, ...]) -> float:
    """Zona §"WYKONYWANIE TESTÓW": ``value`` plus the dice (+1 a plus, -1 a minus, -1 for two triangles or
    more) reaching ``difficulty``; an ability's free reroll (Zona §"ZDOLNOŚĆ") as a second chance at half
    the failures (a reroll is of one die, not all three)."""
    rolls = list(itertools.product(faces, repeat=3))
    passed = sum(
        1 for r in rolls
        if value + r.count("plus") - r.count("minus") - (1 if r.count("triangle") >= 2 else 0) >= difficulty
    ) / len(rolls)
    return passed + 0.5 * (1 - passed) * passed if reroll else passed


Attributes = tuple[tuple[str, int], ...]


def _ends(effects: Any, attributes: dict[str, int], reroll: str | None, faces: tuple[str, ...]) -> dict[str, float]:
    """The chances that a list of effects ends the paragraph in each of its ways (what is left: it runs on)."""
    if not effects:
        return {}
    head, rest = effects[0], effects[1:]
    if not isinstance(head, dict):
        return _ends(rest, attributes, reroll, faces)
    for end in (NEXT, FAILED, SECRET):
        if head.get(end):
            return {end: 1.0}
    if head.get("win"):
        return {SECRET: 1.0}
    if isinstance(head.get("test"), dict):
        test = head["test"]
        attribute = test.get("attribute")
        chance = pass_chance(attributes.get(attribute, 0), int(test.get("difficulty", 0)), reroll == attribute, faces)
        return _mix([(chance, _ends([*(head.get("pass") or []), *rest], attributes, reroll, faces)),
                     (1 - chance, _ends([*(head.get("fail") or []), *rest], attributes, reroll, faces))])
    if isinstance(head.get("choose"), list):
        ways = [_ends([*(o.get("effects") or []), *rest], attributes, reroll, faces) for o in head["choose"]]
        pick = min if head.get("by") == "voice" else max
        return pick(ways, key=lambda w: (w.get(SECRET, 0.0), w.get(NEXT, 0.0))) if ways else _ends(rest, attributes, reroll, faces)
    if isinstance(head.get("may"), dict):
        ways = [_ends([*(head["may"].get("effects") or []), *rest], attributes, reroll, faces),
                _ends(rest, attributes, reroll, faces)]
        return max(ways, key=lambda w: (w.get(SECRET, 0.0), w.get(NEXT, 0.0)))
    sections = head.get("reputation_sections")
    if isinstance(sections, dict) and sections:
        return _mix([(1 / len(sections), _ends([*(v or []), *rest], attributes, reroll, faces)) for v in sections.values()])
    return _ends(rest, attributes, reroll, faces)


def _mix(parts: list[tuple[float, dict[str, float]]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for weight, ends in parts:
        for end, chance in ends.items():
            out[end] = out.get(end, 0.0) + weight * chance
    return out


def card_chance(paragraphs: Any, attributes: dict[str, int], reroll: str | None, faces: tuple[str, ...]) -> float:
    """The chance of reading a paragraph card through to its secret (its ending), paragraph after paragraph."""
    chance, reach = 0.0, 1.0
    for paragraph in paragraphs:
        ends = _ends(list(paragraph), attributes, reroll, faces)
        chance += reach * ends.get(SECRET, 0.0)
        reach *= ends.get(NEXT, 0.0)
    return chance


@functools.cache
def deck_chance(pack_name: str, deck: str, attributes: Attributes, reroll: str | None) -> float:
    """A card of ``deck`` drawn at random: the chance a stalker with ``attributes`` reads it to its secret."""
    pack = pack_named(pack_name)
    cards = [c for c in pack.events.values() if c.deck == deck and c.paragraphs]
    if not cards:
        return 0.0
    given = dict(attributes)
    return sum(card_chance(c.paragraphs, given, reroll, pack.faces) for c in cards) / len(cards)


def chances(pack_name: str, stalker: dict[str, Any]) -> dict[str, float]:
    """A stalker's chance (``deck_chance``) at every facility deck and the sarcophagus, as its view shows it."""
    return _chances(pack_name, stalker["character"], tuple(stalker.get("injuries") or ()))


@functools.cache
def _chances(pack_name: str, character: str, injuries: tuple[str, ...]) -> dict[str, float]:
    pack = pack_named(pack_name)
    stalker = pack.stalkers[character]
    shown = {"attributes": dict(stalker.attributes), "ability": dict(stalker.ability), "injuries": list(injuries)}
    attributes, reroll = attributes_of(shown), reroll_of(shown)
    return {deck: deck_chance(pack_name, deck, attributes, reroll) for deck in [*pack.facilities, "sarcophagus"]}


def attributes_of(stalker: dict[str, Any]) -> Attributes:
    """A stalker's attributes as its view shows them, an injury taking 1 off (Zona §"CECHY", never below 0)."""
    injured = set(stalker.get("injuries") or ())
    return tuple(sorted((a, max(0, v - (1 if a in injured else 0))) for a, v in (stalker.get("attributes") or {}).items()))


def reroll_of(stalker: dict[str, Any]) -> str | None:
    ability = stalker.get("ability") or {}
    reroll = ability.get("reroll")
    return reroll if isinstance(reroll, str) else None
