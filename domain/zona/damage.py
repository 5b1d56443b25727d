"""Damage landing on a stalker: the protection window, the stamina track, injuries and death.

Zona §"OCHRONA PRZED OBRAŻENIAMI", §"OTRZYMYWANIE OBRAŻEŃ", §"WYTRZYMAŁOŚĆ",
§"URAZY", §"ŚMIERĆ".

The ``damage`` frame is pushed by ``harm.suffer`` (and ``harm.change_fatigue``
past the maximum); its step offers the items that protect, then puts what is
left on the track.
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields

from domain.zona import harm, items
from domain.zona.model import ATTRIBUTES, DAMAGE_TYPES
from domain.zona.resolution import FRAMES, RULES, ZonaResolution
from domain.zona.state import MAX_INJURIES, owned_items

RULE_DAMAGE = 'Zona §"OCHRONA PRZED OBRAŻENIAMI"'


def protections(res: ZonaResolution, frame: dict[str, Any]) -> list[dict[str, Any]]:
    """Items (and the stalker's own ability) that would stop some of the damage still coming."""
    if frame["unpreventable"]:
        return []
    seat = frame["seat"]
    s = res.stalker(seat)
    left = {k for k, v in frame["amounts"].items() if v > 0}
    out = []
    for card in owned_items(s):
        t = res.pack.item_type(card)
        protects = bool(t.protect and set(t.protect) & left) or (t.immune is not None and t.immune == frame["by"])
        # What would stop this damage is asked first (most items would not): the checks below only read.
        if not (protects or t.convert) or card in frame["used"] or not left:
            continue
        if not items.works(res.pack, res.state, s, card) or not items.emanation_allowed(res.pack, res.state, s, card):
            continue
        if protects:
            out.append({"type": "protect", "card": card})
        if t.convert:
            # The sponge pattern: one damage changes type, so another item can stop it.
            out += [{"type": "convert", "card": card, "from_type": a, "to_type": b}
                    for a in sorted(left) for b in DAMAGE_TYPES if b != a]
    ability = res.pack.stalkers[s["character"]].ability.get("protect")
    if ability in left and not s.get("ability_used"):
        out.append({"type": "protect", "card": "ability"})
    if out:
        out.append({"type": "take_damage"})
    return out


@FRAMES.step("damage")
def step_damage(res: ZonaResolution, frame: dict[str, Any]) -> None:
    if frame.get("step") != "apply":
        choices = protections(res, frame)
        if choices:
            res.ask(frame["seat"], "protect", choices, amounts=frame["amounts"], by=frame["by"])
            return
    seat = frame["seat"]
    res.pop()
    if frame["fatigue"]:
        harm.change_fatigue(res, seat, frame["fatigue"], by=frame["by"])
    total = sum(frame["amounts"].values())
    if total:
        onto_track(res, seat, total, frame["amounts"], frame["by"])


@RULES.answer("protect", rule=RULE_DAMAGE)
def answer_protect(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    frame = res.frame
    if choice["type"] == "take_damage":
        res.update(step="apply")
        return
    seat = frame["seat"]
    amounts = dict(frame["amounts"])
    if choice["card"] == "ability":
        kind = res.pack.stalkers[res.stalker(seat)["character"]].ability["protect"]
        amounts[kind] = max(0, amounts[kind] - 1)
        res.update(amounts={k: v for k, v in amounts.items() if v > 0})
        res.set("AbilityUsed", seat, ability_used=True, by="protect")
        return
    t = res.pack.item_type(choice["card"])
    if choice["type"] == "convert":
        amounts[choice["from_type"]] -= 1
        amounts[choice["to_type"]] = amounts.get(choice["to_type"], 0) + 1
    elif t.immune is not None and t.immune == frame["by"]:
        amounts = {}  # the herdsman pattern: a failed test against this threat deals no damage
    for kind, stop in (t.protect or {}).items() if choice["type"] == "protect" else ():
        if kind in amounts:
            amounts[kind] = max(0, amounts[kind] - stop)
    res.update(amounts={k: v for k, v in amounts.items() if v > 0}, used=[*frame["used"], choice["card"]])
    # Last: the item's emanation may push a damage of its own on top of this one.
    items.use(res, seat, choice["card"], "protect")


RULES.answer_command("protect", {"card": fields.String(required=True)})
RULES.answer_command("convert", {"card": fields.String(required=True), "from_type": fields.String(required=True),
                                 "to_type": fields.String(required=True)})
RULES.answer_command("take_damage", {})


def onto_track(res: ZonaResolution, seat: int, total: int, amounts: dict[str, int], by: str) -> None:
    """Zona §"OTRZYMYWANIE OBRAŻEŃ" / §"URAZY": fill free boxes; past the last, the rest is
    discarded and the stalker takes one injury (one per overflowing damage)."""
    s = res.stalker(seat)
    stamina = items.stamina_of(res.pack, s)
    free = stamina - s["damage"]
    res.set("DamageSuffered", seat, damage=min(stamina, s["damage"] + total), amounts=amounts, by=by,
            overflow=max(0, total - free))
    if total > free:
        injure(res, seat)


def injure(res: ZonaResolution, seat: int) -> None:
    s = res.stalker(seat)
    if len(s["injuries"]) >= MAX_INJURIES:
        die(res, seat)
        return
    open_ = [a for a in ATTRIBUTES if a not in s["injuries"]]
    if len(open_) == 1:
        res.set("InjuryTaken", seat, injuries=[*s["injuries"], open_[0]])
        return
    res.push("injury", seat=seat)


@FRAMES.step("injury")
def step_injury(res: ZonaResolution, frame: dict[str, Any]) -> None:
    s = res.stalker(frame["seat"])
    res.ask(frame["seat"], "injury", [{"type": "injure", "attribute": a} for a in ATTRIBUTES if a not in s["injuries"]])


@RULES.answer("injury", rule='Zona §"URAZY"')
def answer_injury(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    seat = res.frame["seat"]
    res.pop()
    res.set("InjuryTaken", seat, injuries=[*res.stalker(seat)["injuries"], choice["attribute"]])


RULES.answer_command("injure", {"attribute": fields.String(required=True)})


@FRAMES.step("heal_injury")
def step_heal_injury(res: ZonaResolution, frame: dict[str, Any]) -> None:
    """Zona §"URAZY": which injury token is discarded, in the order they were taken (a lapsed turn takes
    the first choice: the oldest injury heals)."""
    res.ask(frame["seat"], "heal_injury",
            [{"type": "recover", "attribute": a} for a in res.stalker(frame["seat"])["injuries"]])


@RULES.answer("heal_injury", rule='Zona §"URAZY"')
def answer_heal_injury(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    seat = res.frame["seat"]
    res.pop()
    left = [a for a in res.stalker(seat)["injuries"] if a != choice["attribute"]]
    res.set("InjuryHealed", seat, injuries=left)


RULES.answer_command("recover", {"attribute": fields.String(required=True)})


def die(res: ZonaResolution, seat: int) -> None:
    """Zona §"ŚMIERĆ": the fourth injury. Everything the stalker carried is discarded; the
    player comes back with a new stalker at the end of the news phase."""
    s = res.stalker(seat)
    for card in owned_items(s):
        res.move("ItemDiscarded", card, items.location_of(s, card), items.discard_target(res.pack, card), seat)
    for token in list(s["trophies"]):
        res.move("ThreatDiscarded", token, f"trophies:{seat}", f"dispenser_top:{res.pack.threat(token).queue}", seat)
    # The figure leaves the board with its board and tokens.
    res.set("StalkerDied", seat, dead=True, damage=s["damage"], area=None)
    frames = res.state.frames
    # What the dead stalker was in the middle of ends with them: the card being read is
    # discarded, cards being looked at and tokens being met go back.
    depth = len(frames)
    while depth > 0 and frames[depth - 1].get("seat") == seat:
        depth -= 1
    if depth < len(frames):
        for f in frames[depth:]:
            if f["kind"] == "card" and f["card"] in res.state.reading:
                res.move("EventCardDiscarded", f["card"], "reading", f"discard:{f['deck']}", seat)
        res.pop(count=len(frames) - depth)
    for card in list(res.state.hand):
        res.move("ItemDiscarded", card, "hand", items.discard_target(res.pack, card), seat)
    for token in list(res.state.in_play):
        res.move("ThreatDiscarded", token, "in_play", f"dispenser_top:{res.pack.threat(token).queue}")
