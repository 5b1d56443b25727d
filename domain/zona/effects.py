"""The effects vocabulary cards and area actions are written in, and its interpreter.

An effect list runs as an ``effects`` frame: one effect at a time, each
emitting its events or pushing what it needs (a test, an encounter, a choice)
and the frame carrying on when that is done. The vocabulary is the one the
pack loader checks (``vocabulary.EffectChecker``).

Frames hold an *address* of their effect list (``["card", id, "sections",
area]``, ``["area", id, "action"]``, ``["news", id, "effects"]``, then list
indexes and keys), never the effects themselves: the frames are in the log,
and an event card's unchosen outcomes must not be (the read-aloud split).
``["inline", effects]`` runs a list written in place (nothing hidden in it).
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields

from domain.zona import checks, encounter, harm, items
from domain.zona.model import Pack
from domain.zona.resolution import ZonaResolution
from domain.zona.rules import RULES
from domain.zona.state import owned_items, turn_order

Address = list[Any]


def effects_at(pack: Pack, at: Address) -> list[dict[str, Any]]:
    """The effect list an address names."""
    root, key, *path = at
    node: Any
    if root == "inline":
        node = key
    elif root == "card":
        card = pack.events[key]
        node = {"sections": card.sections, "paragraphs": list(card.paragraphs)}
    elif root == "area":
        node = {"action": pack.areas[key].action}
    elif root == "item":
        node = {"use_at": pack.items[key].use_at}
    else:
        node = {"effects": pack.news[key].effects}
    for step in path:
        node = node[step]
    return list(node)


def run(res: ZonaResolution, seat: int, at: Address) -> None:
    if effects_at(res.pack, at):
        res.push("effects", seat=seat, at=list(at), index=0, test_at=None)


def step_effects(res: ZonaResolution, frame: dict[str, Any]) -> None:
    if frame.get("test_at") is not None:
        branch = [*frame["test_at"], "pass" if frame["result"]["passed"] else "fail"]
        res.update(test_at=None, result=None)
        run(res, frame["seat"], branch)
        return
    effects = effects_at(res.pack, frame["at"])
    index = frame["index"]
    if index >= len(effects):
        res.pop()
        return
    res.update(index=index + 1)
    effect = effects[index]
    HANDLERS[next(iter(effect))](res, frame["seat"], effect, [*frame["at"], index])


# -- the vocabulary ------------------------------------------------------------------


def _damage(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    harm.suffer(res, seat, dict(e["damage"]), by="effect")


def _fatigue(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    harm.change_fatigue(res, seat, e["fatigue"], by="effect")


def _fatigue_max(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    harm.max_out_fatigue(res, seat)


def _reputation(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    harm.change_reputation(res, seat, e["reputation"])


def _heal(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    harm.heal(res, seat, e["heal"])


def _heal_injury(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    harm.heal_injury(res, seat)


def _roubles(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    harm.pay(res, seat, e["roubles"])


def take(res: ZonaResolution, seat: int, deck: str, count: int, keep: int) -> None:
    """Zona §"NAGRODY": the top cards of the deck (its discards reshuffled when it runs out)."""
    drawn = 0
    for _ in range(count):
        if not res.state["decks"][deck]:
            pile = res.state["discards"].get(deck, [])
            if not pile:
                break
            res.emit("DeckShuffled", deck=deck, order=res.rng.shuffled(pile))
        card = res.state["decks"][deck][0]
        res.move("ItemDrawn", card, f"deck:{deck}", "hand", seat)
        drawn += 1
    if drawn > keep:
        res.push("keep", seat=seat, keep=keep)
    else:
        for card in list(res.state["hand"]):
            items.gain(res, seat, card, "hand")


def step_keep(res: ZonaResolution, frame: dict[str, Any]) -> None:
    hand = res.state["hand"]
    if len(hand) > frame["keep"]:
        res.ask(frame["seat"], "keep", [{"type": "put_back", "card": c} for c in hand])
        return
    res.pop()
    for card in list(hand):
        items.gain(res, frame["seat"], card, "hand")


@RULES.answer("keep", rule='Zona §"NAGRODY"')
def answer_keep(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    card = choice["card"]
    res.move("ItemDiscarded", card, "hand", items.discard_target(res.pack, card), decision.seat)


RULES.answer_command("put_back", {"card": fields.String(required=True)})


def _take(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    spec = e["take"]
    count = spec.get("count", 1)
    take(res, seat, spec["deck"], count, spec.get("keep", count))


def _damage_item(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    choices = [{"type": "damage_item", "card": c} for c in items.damageable(res, seat)]
    if len(choices) == 1:
        items.wear_out(res, seat, choices[0]["card"], "damaged")
    elif choices:
        res.push("choice", seat=seat, chooser=seat, decision="damage_item", choices=choices, labels=[])


def _test(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    spec = e["test"]
    res.update(test_at=at)
    checks.start(res, seat, spec["attribute"], spec["difficulty"], spec.get("against"))


def _choose(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    """Zona §"POLECENIE „WYBIERZ”": one option, the others ignored. ``by: voice`` gives the
    choice to the Voice of the Zone (in solo, to the player)."""
    options = e["choose"]
    chooser = res.state["voice"] if e.get("by") == "voice" and res.state["players"] > 1 else seat
    res.push("choice", seat=seat, chooser=chooser, decision="choose", labels=[o["label"] for o in options],
             choices=[{"type": "choose", "option": i} for i in range(len(options))],
             branches=[[*at, "choose", i, "effects"] for i in range(len(options))])


def _may(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    res.push("choice", seat=seat, chooser=seat, decision="choose", labels=[e["may"]["label"], "Decline"],
             choices=[{"type": "choose", "option": 0}, {"type": "choose", "option": 1}],
             branches=[[*at, "may", "effects"], None])


def category_items(res: ZonaResolution, seat: int, name: str) -> list[str]:
    s = res.stalker(seat)
    return [c for c in owned_items(s) if res.pack.item_type(c).category == name
            and items.works(res.pack, res.state, s, c)]


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


def _reputation_sections(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    """Zona §"REPUTACJA A WYDARZENIA": only the section of the stalker's reputation."""
    run(res, seat, [*at, "reputation_sections", res.stalker(seat)["reputation"]])


def _encounter(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    """Zona §"SPOTKANIA": a token from the bottom of its queue, met at once."""
    token = encounter.draw(res, e["encounter"]["kind"], e["encounter"]["colour"], "in_play")
    if token is not None:
        encounter.start(res, seat, token)


def _threat_encounter(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    spec = e["threat_encounter"]
    token = encounter.draw(res, spec["kind"], spec["colour"], "in_play")
    if token is not None:
        encounter.start(res, seat, token, no_flee=spec.get("no_flee", False))


def _threat_pair(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    area = res.stalker(seat)["area"]
    placed = [t for kind in ("mutant", "anomaly")
              if (t := encounter.draw(res, kind, e["threat_pair"]["colour"], f"area:{area}")) is not None]
    if len(placed) == 1:
        encounter.met(res, seat, placed[0], area)
    elif placed:
        res.push("arrival", seat=seat, area=area, chooser=seat, tokens=placed)


def _place_threat(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    spec = e["place_threat"]
    area = res.stalker(seat)["area"] if spec["area"] == "here" else spec["area"]
    encounter.place(res, spec["kind"], spec["colour"], area)


def _relocate(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    """A "transfer" is no move: no encounter where the stalker arrives."""
    res.set("StalkerRelocated", seat, area=e["relocate"], by="effect")


def _control(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    """A paragraph ends: hand the ending to the card being read and drop what is left of the paragraph."""
    frames = res.state["frames"]
    depth = next(i for i, f in enumerate(reversed(frames)) if f["kind"] == "card")
    res.pop(count=depth)
    res.update(control=next(iter(e)))


def _all(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    for other in reversed(turn_order(res.state)):
        if not res.stalker(other)["dead"]:
            run(res, other, [*at, "all"])


def _pay(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    if res.stalker(seat)["roubles"] >= e["pay"]:
        res.push("choice", seat=seat, chooser=seat, decision="choose", labels=[f"Pay {e['pay']}", "Decline"],
                 choices=[{"type": "choose", "option": 0}, {"type": "choose", "option": 1}],
                 branches=[[*at, "effects"], None], pay=e["pay"])


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


def _repair(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    from domain.zona import market

    market.repair(res, seat, e["repair"])


def _sell(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    from domain.zona import market

    market.farm_sale(res, seat, e["sell"])


def _sell_artifact(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    from domain.zona import market

    market.artifact_sale(res, seat, e["sell_artifact"])


def _camp(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    from domain.zona import market

    market.camp(res, seat)


def _market(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    from domain.zona import market

    market.open_market(res, seat, camping=False)


def _market_refill(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    from domain.zona import market

    market.reset(res)


def _to_power_plant(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    """Zona §"GRANICA OBSZARU ELEKTROWNI": only with two secrets of two facilities."""
    from domain.zona import facilities

    if facilities.ready_for_sarcophagus(res.state, seat) and not res.stalker(seat)["dead"]:
        res.set("StalkerRelocated", seat, area=res.board.power_plant, by="area_action")


def _to_sarcophagus(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    """Zona §"SARKOFAG": the power plant's action leads in, one way."""
    if not res.stalker(seat)["dead"]:
        res.set("StalkerRelocated", seat, area=res.board.sarcophagus, by="area_action")


def _place_threats(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    from domain.zona import news

    for spec in reversed(e["place_threats"]):
        news.voice_places(res, spec["kind"], spec["colour"], bool(spec.get("spread")))


HANDLERS = {
    "damage": _damage, "fatigue": _fatigue, "fatigue_max": _fatigue_max, "reputation": _reputation, "heal": _heal, "heal_injury": _heal_injury,
    "roubles": _roubles, "take": _take, "damage_item": _damage_item, "test": _test, "choose": _choose, "may": _may,
    "category": _category, "reputation_sections": _reputation_sections, "encounter": _encounter,
    "threat_encounter": _threat_encounter, "threat_pair": _threat_pair, "place_threat": _place_threat,
    "relocate": _relocate, "next": _control, "failed": _control, "secret": _control, "win": _control, "all": _all,
    "pay": _pay, "discard_one": _discard_one, "repair": _repair, "sell": _sell, "sell_artifact": _sell_artifact,
    "camp": _camp, "market": _market, "market_refill": _market_refill, "to_power_plant": _to_power_plant,
    "to_sarcophagus": _to_sarcophagus, "place_threats": _place_threats,
}


# -- choices a card offers --------------------------------------------------------------


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
