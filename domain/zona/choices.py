"""Choices a card offers: ``choose``, ``may``, ``category``, ``pay``, ``discard_one`` (and an item to damage).

Zona §"POLECENIE „WYBIERZ”" (one option, the others ignored), §"ŁOM", §"WYKONYWANIE AKCJI OBSZARÓW".

Each pushes a ``choice`` frame naming the branches by address; the answer
pops it, pays what the option costs and runs the chosen branch.
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields

from domain.zona import encounter, harm, items
from domain.zona.effects import Address, effect, run
from domain.zona.resolution import FRAMES, RULES, ZonaResolution
from domain.zona.state import owned_items


@effect("choose")
def _choose(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    """Zona §"POLECENIE „WYBIERZ”": one option, the others ignored. ``by: voice`` gives the
    choice to the Voice of the Zone (in solo, to the player)."""
    options = e["choose"]
    chooser = res.state.voice if e.get("by") == "voice" and res.state.players > 1 else seat
    res.push("choice", seat=seat, chooser=chooser, decision="choose", labels=[o["label"] for o in options],
             choices=[{"type": "choose", "option": i} for i in range(len(options))],
             branches=[[*at, "choose", i, "effects"] for i in range(len(options))])


@effect("may")
def _may(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    res.push("choice", seat=seat, chooser=seat, decision="choose", labels=[e["may"]["label"], "Decline"],
             choices=[{"type": "choose", "option": 0}, {"type": "choose", "option": 1}],
             branches=[[*at, "may", "effects"], None])


def category_items(res: ZonaResolution, seat: int, name: str) -> list[str]:
    s = res.stalker(seat)
    return [c for c in owned_items(s) if res.pack.item_type(c).category == name
            and items.works(res.pack, res.state, s, c)]


@effect("category")
def _category(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    """Zona §"ŁOM": the crowbar branch damages the crowbar and skips the crowbar card's own effect."""
    spec = e["category"]
    found = category_items(res, seat, spec["name"])
    if not found:
        return
    if not spec.get("damage", True):
        # Owning one is enough (the Chernobyl-like bonus): nothing is used, nothing to choose.
        run(res, seat, [*at, "category", "effects"])
        return
    res.push("choice", seat=seat, chooser=seat, decision="category", labels=[f"Use {spec['name']}", "Do not"],
             choices=[*({"type": "use_category", "card": c} for c in found), {"type": "choose", "option": 1}],
             branches=[[*at, "category", "effects"], None], damage=spec.get("damage", True))


@effect("pay")
def _pay(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    if res.stalker(seat)["roubles"] >= e["pay"]:
        res.push("choice", seat=seat, chooser=seat, decision="choose", labels=[f"Pay {e['pay']}", "Decline"],
                 choices=[{"type": "choose", "option": 0}, {"type": "choose", "option": 1}],
                 branches=[[*at, "effects"], None], pay=e["pay"])


@effect("discard_one")
def _discard_one(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    s = res.stalker(seat)
    choices: list[dict[str, Any]] = []
    if "trophy" in e["discard_one"]:
        choices += [{"type": "give_up", "thing": t} for t in s["trophies"]]
    if "artifact" in e["discard_one"]:
        choices += [{"type": "give_up", "thing": c} for c in owned_items(s) if res.pack.item_type(c).artifact]
    if choices:
        res.push("choice", seat=seat, chooser=seat, decision="give_up", choices=[*choices, {"type": "choose", "option": 1}],
                 labels=["Give it up", "Keep everything"], branches=[[*at, "then"], None])


@FRAMES.step("choice")
def step_choice(res: ZonaResolution, frame: dict[str, Any]) -> None:
    res.ask(frame["chooser"], frame["decision"], frame["choices"], labels=frame.get("labels", []))


def _answer_choice(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    frame = res.frame
    seat = frame["seat"]
    res.pop()
    kind = choice["type"]
    if kind == "damage_item":
        items.wear_out(res, seat, choice["card"], "damaged")
        return
    option = 0 if kind in ("use_category", "give_up") else choice["option"]
    branch = frame["branches"][option]
    if option == 0 and frame.get("pay"):
        harm.pay(res, seat, -frame["pay"])
    if kind == "use_category" and frame.get("damage", True):
        items.wear_out(res, seat, choice["card"], "category")
    if kind == "give_up":
        thing = choice["thing"]
        s = res.stalker(seat)
        if thing in s["trophies"]:
            encounter.discard(res, thing, f"trophies:{seat}")
        else:
            res.move("ItemDiscarded", thing, items.location_of(s, thing), items.discard_target(res.pack, thing), seat)
            items.settle_sixth(res, seat)
    if branch is not None:
        run(res, seat, branch)


for _kind in ("choose", "category", "give_up", "damage_item"):
    RULES.answer(_kind, rule='Zona §"POLECENIE „WYBIERZ”"')(_answer_choice)
RULES.answer_command("choose", {"option": fields.Integer(required=True)})
RULES.answer_command("use_category", {"card": fields.String(required=True)})
RULES.answer_command("give_up", {"thing": fields.String(required=True)})
RULES.answer_command("damage_item", {"card": fields.String(required=True)})
