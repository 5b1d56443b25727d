"""Attribute tests: three symbol dice, then forcing, rerolls and items, then the result.

Zona §"TESTY", §"WYKONYWANIE TESTÓW", §"FORSOWANIE TESTU", §"PRZERZUCANIE KOŚCI",
§"UŻYWANIE PRZEDMIOTÓW", §"MODYFIKATORY SPOTKAŃ", §"CECHY".

A test is a frame: rolled in ``decide`` (the faces are in ``DiceRolled``), then
as long as the stalker has something left to do after seeing the dice, a
``test_options`` decision; ``accept`` settles it and hands the result to the
frame below.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Final

from marshmallow import fields

from domain.zona import harm, items
from domain.zona.effects import Address, effect
from domain.zona.model import ItemType
from domain.zona.resolution import FRAMES, RULES, ZonaResolution
from domain.zona.state import MAX_FATIGUE, State, owned_items

RULE = 'Zona §"WYKONYWANIE TESTÓW"'
DICE: Final = 3


def start(res: ZonaResolution, seat: int, attribute: str, difficulty: int, against: str | None = None,
          stage: str | None = None) -> None:
    """``stage`` names an encounter's test (``detect``, ``confront``): some items work in one only."""
    res.push("test", seat=seat, attribute=attribute, difficulty=difficulty, against=against, stage=stage, dice=[],
             forced=False, used=[], plus=0, cancel=0, ability=False, step="roll")


@effect("test")
def _test(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    """A test in an effect list: the list's frame takes the ``pass`` or ``fail`` branch when it is settled."""
    spec = e["test"]
    res.update(test_at=at)
    start(res, seat, spec["attribute"], spec["difficulty"], spec.get("against"))


def faces(state: State) -> list[str]:
    return list(state.options["die_faces"])


def attribute_value(res: ZonaResolution, seat: int, attribute: str) -> int:
    """Zona §"CECHY": printed 1-4; an injury above it takes 1 off (the test's "-1"), never below 0."""
    s = res.stalker(seat)
    value = res.pack.stalkers[s["character"]].attributes[attribute]
    return max(0, value - (1 if attribute in s["injuries"] else 0))


def total(res: ZonaResolution, frame: dict[str, Any]) -> int:
    dice = frame["dice"]
    minus = dice.count("minus")
    cancel = frame["cancel"]
    cancelled = min(minus, cancel)
    triangles = dice.count("triangle")
    if res.state.options["cancel_target"] == "minus_or_triangle":
        # The sentence's own reading: a cancel left over after the minuses breaks a triangle pair.
        triangles = max(0, triangles - (cancel - cancelled))
    pair = 1 if triangles >= 2 and res.state.options["triangle_pair"] == "minus" else 0
    value = attribute_value(res, frame["seat"], frame["attribute"])
    return value + dice.count("plus") + frame["plus"] - (minus - cancelled) - pair


def _fits(res: ZonaResolution, frame: dict[str, Any], spec: dict[str, Any] | None) -> bool:
    if spec is None:
        return False
    if spec.get("attribute") not in (frame["attribute"], "any"):
        return False
    if spec.get("stage") not in (None, frame.get("stage")):
        return False  # a confrontation-only item (the book's Magma)
    # Zona §"MODYFIKATORY SPOTKAŃ": a mutant- or anomaly-marked item only against that threat.
    return spec.get("against") in (None, frame["against"])


def options(res: ZonaResolution, frame: dict[str, Any]) -> list[dict[str, Any]]:
    seat = frame["seat"]
    s = res.stalker(seat)
    pack = res.pack
    used = frame["used"]
    # The items not yet used in this test, with their types: every kind of option below reads them.
    unused = [(card, pack.item_type(card)) for card in owned_items(s) if card not in used]
    out: list[dict[str, Any]] = []
    dice = range(len(frame["dice"]))
    if not frame["forced"] and s["fatigue"] < MAX_FATIGUE:
        out += [{"type": "force", "die": i} for i in dice]
        out += _force_many(res, frame, s, unused)
    if pack.stalkers[s["character"]].ability.get("reroll") == frame["attribute"] and not frame["ability"]:
        out += [{"type": "reroll", "card": "ability", "die": i} for i in dice]
    for card, t in unused:
        modifies, rerolls = _fits(res, frame, t.modifier), _fits(res, frame, t.reroll)
        # What fits the test is asked first (most items do not): the checks below only read.
        if not (modifies or rerolls) or not items.works(pack, res.state, s, card):
            continue
        shield = None
        if not items.emanation_allowed(pack, res.state, s, card):
            found = items.shields(pack, res.state, s, card)
            if not found:
                continue
            shield = found[0]
        extra = {} if shield is None else {"shield": shield}
        if modifies:
            out.append({"type": "use_item", "card": card, **extra})
        if rerolls:
            out += [{"type": "reroll", "card": card, "die": i, **extra} for i in dice]
    out += _reused(res, frame, s, unused)
    if out:
        out.append({"type": "accept"})
    return out


def _force_many(res: ZonaResolution, frame: dict[str, Any], s: dict[str, Any],
                unused: list[tuple[str, ItemType]]) -> list[dict[str, Any]]:
    """The devil's-guts pattern: forcing with it rerolls up to 2 dice with one injury, 3 with more,
    all at once (no die twice)."""
    most = min(len(frame["dice"]), 1 + len(s["injuries"]))
    out: list[dict[str, Any]] = []
    for card, t in unused:
        if not t.force_dice or not items.works(res.pack, res.state, s, card):
            continue
        for size in range(2, most + 1):
            out += [{"type": "force_many", "card": card, "dice": list(dice)}
                    for dice in combinations(range(len(frame["dice"])), size)]
    return out


def _reused(res: ZonaResolution, frame: dict[str, Any], s: dict[str, Any],
            unused: list[tuple[str, ItemType]]) -> list[dict[str, Any]]:
    """The professor's-notes pattern: use an already deactivated durable artifact again, emanation too."""
    pack = res.pack
    notes = [c for c, t in unused if t.reuse and items.works(pack, res.state, s, c)]
    out: list[dict[str, Any]] = []
    for via in notes:
        for card, t in unused:
            if card not in res.state.deactivated or not t.artifact:
                continue
            if not items.emanation_allowed(pack, res.state, s, card):
                continue
            if _fits(res, frame, t.modifier):
                out.append({"type": "use_item", "card": card, "via": via})
            if _fits(res, frame, t.reroll):
                out += [{"type": "reroll", "card": card, "die": i, "via": via} for i in range(len(frame["dice"]))]
    return out


@FRAMES.step("test")
def step_test(res: ZonaResolution, frame: dict[str, Any]) -> None:
    if frame["step"] == "roll":
        rolled = [res.rng.choice(faces(res.state)) for _ in range(DICE)]
        res.update(step="adjust")
        res.emit("DiceRolled", seat=frame["seat"], dice=rolled)
        return
    if frame["step"] == "adjust":  # once accepted ("done") nothing is left to offer, so nothing is listed
        choices = options(res, frame)
        if choices:
            res.ask(frame["seat"], "test_options", choices, attribute=frame["attribute"],
                    difficulty=frame["difficulty"], dice=frame["dice"], total=total(res, frame))
            return
    value = total(res, frame)
    passed = value >= frame["difficulty"]
    res.emit("TestResolved", seat=frame["seat"], attribute=frame["attribute"], total=value,
             difficulty=frame["difficulty"], passed=passed)
    res.pop(result={"passed": passed, "total": value})


@RULES.answer("test_options", rule=RULE)
def answer_options(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    frame = res.frame
    seat = frame["seat"]
    kind = choice["type"]
    if kind == "accept":
        res.update(step="done")
        return
    if kind == "force":
        # Zona §"FORSOWANIE TESTU": +1 fatigue, one die again, once per test.
        res.update(forced=True)
        _reroll(res, seat, choice["die"], "force")
        harm.change_fatigue(res, seat, 1, by="force")
        return
    if kind == "force_many":
        res.update(forced=True, used=[*frame["used"], choice["card"]])
        for die in choice["dice"]:
            _reroll(res, seat, die, choice["card"])
        items.use(res, seat, choice["card"], "force")
        harm.change_fatigue(res, seat, 1, by="force")
        return
    card = choice["card"]
    if kind == "reroll" and card == "ability":
        res.update(ability=True)
        _reroll(res, seat, choice["die"], "ability")
        return
    t = res.pack.item_type(card)
    if "via" in choice:
        res.update(used=[*frame["used"], choice["via"]])
        items.wear_out(res, seat, choice["via"], "reuse")
        frame = res.frame
    if kind == "use_item" and t.modifier is not None:
        res.update(plus=frame["plus"] + t.modifier.get("plus", 0), cancel=frame["cancel"] + t.modifier.get("cancel", 0),
                   used=[*frame["used"], card])
    else:
        res.update(used=[*frame["used"], card])
        _reroll(res, seat, choice["die"], card)
    # Last, as the emanation may push frames of its own above the test.
    items.use(res, seat, card, "test", shield=choice.get("shield"))


def _reroll(res: ZonaResolution, seat: int, die: int, by: str) -> None:
    res.emit("DieRerolled", seat=seat, die=die, face=res.rng.choice(faces(res.state)), by=by)


RULES.answer_command("force", {"die": fields.Integer(required=True)})
RULES.answer_command("force_many", {"card": fields.String(required=True),
                                    "dice": fields.List(fields.Integer(), required=True)})
RULES.answer_command("reroll", {"card": fields.String(required=True), "die": fields.Integer(required=True),
                                "shield": fields.String(), "via": fields.String()})
RULES.answer_command("use_item", {"card": fields.String(required=True), "shield": fields.String(),
                                  "via": fields.String()})
RULES.answer_command("accept", {})
