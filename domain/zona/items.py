"""Items: where a stalker keeps them, using and wearing them out, gaining, taking from a deck and dropping.

Zona §"PRZEDMIOTY", §"MAŁE PRZEDMIOTY", §"STRÓJ", §"PLECAK", §"6. MIEJSCE",
§"UPUSZCZANIE PRZEDMIOTÓW", §"UŻYWANIE I USZKADZANIE PRZEDMIOTÓW", §"USZKADZANIE",
§"ODDZIAŁYWANIE", §"NAGRODY".

An artifact's emanation hurts through ``harm`` (which needs no item); the
protection window that uses items against damage is ``damage.py``, above this.
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields

from domain.game import RuleViolation
from domain.zona import effects, harm
from domain.zona.effects import Address, effect
from domain.zona.model import ItemType, Pack
from domain.zona.pack import pack_named
from domain.zona.resolution import FRAMES, RULES, ZonaResolution
from domain.zona.state import BACKPACK_SLOTS, MAX_FATIGUE, State, owned_items

RULE_USE = 'Zona §"UŻYWANIE I USZKADZANIE PRZEDMIOTÓW"'
RULE_OUTFIT = 'Zona §"STRÓJ"'
RULE_DROP = 'Zona §"UPUSZCZANIE PRZEDMIOTÓW"'


def discard_target(pack: Pack, card: str) -> str:
    """Starting cards and finds leave the game; the rest go on their deck's discard pile."""
    deck = pack.item_type(card).deck
    return f"discard:{deck}" if deck else "box"


def location_of(s: dict[str, Any], card: str) -> str:
    for kind in ("backpack", "worn", "small", "sixth"):
        if card in s[kind]:
            return f"{kind}:{s['seat']}"
    raise KeyError(card)


def has_sixth_slot(pack: Pack, s: dict[str, Any]) -> bool:
    """Zona §"6. MIEJSCE": the only passive power, working while owned (an outfit: while worn)."""
    for card in owned_items(s):
        t = pack.item_type(card)
        if t.extra_slot and (not t.outfit or card in s["worn"]):
            return True
    return False


def room(pack: Pack, s: dict[str, Any]) -> int:
    """Free backpack slots, the 6th slot counted when it is there and empty."""
    free = BACKPACK_SLOTS - len(s["backpack"])
    if has_sixth_slot(pack, s) and not s["sixth"]:
        free += 1
    return max(free, 0)


def artifacts_owned(pack: Pack, s: dict[str, Any]) -> int:
    return sum(1 for c in owned_items(s) if pack.item_type(c).artifact)


def works(pack: Pack, state: State, s: dict[str, Any], card: str) -> bool:
    """An item may be used now: not deactivated, not worn out, and an outfit only while worn."""
    t = pack.item_type(card)
    if card in state.deactivated:
        return False
    if t.outfit and card not in s["worn"]:
        return False
    return True


def emanation_allowed(pack: Pack, state: State, s: dict[str, Any], card: str, shielded: bool = False) -> bool:
    """Zona §"ODDZIAŁYWANIE": an artifact cannot be used if its emanation would push fatigue
    over the maximum, cause an injury, or need a discard the stalker cannot make."""
    t = pack.item_type(card)
    if t.emanation is None or shielded:
        return True
    times = artifacts_owned(pack, s) if t.emanation.get("per_artifact") else 1
    # An artifact marked over_max may be used at the maximum: each point past it is a damage (Bierwiono).
    if s["fatigue"] + t.emanation.get("fatigue", 0) * times > MAX_FATIGUE and not t.emanation.get("over_max"):
        return False
    hurt = sum(t.emanation.get("damage", {}).values()) * times
    if hurt and s["damage"] + hurt > stamina_of(pack, s):
        return False
    if t.emanation.get("discard") == "trophy" and not s["trophies"]:
        return False
    return True


def shields(pack: Pack, state: State, s: dict[str, Any], but: str) -> list[str]:
    """Items that, used alongside an artifact, make its emanation not happen."""
    return [c for c in owned_items(s) if c != but and pack.item_type(c).ignore_emanation and works(pack, state, s, c)]


def stamina_of(pack: Pack, s: dict[str, Any]) -> int:
    return pack.stalkers[s["character"]].stamina


def wear_out(res: ZonaResolution, seat: int, card: str, purpose: str) -> None:
    """One use (or one "damage an item"): a damage token on the card, with its durability's consequence."""
    t = res.pack.item_type(card)
    wear = res.state.wear.get(card, 0) + 1
    res.emit("ItemUsed", seat=seat, card=card, wear=wear, deactivated=t.use == "durable", purpose=purpose)
    if t.use == "single" or (t.use == "consumable" and wear >= t.durability):
        s = res.stalker(seat)
        res.move("ItemDiscarded", card, location_of(s, card), discard_target(res.pack, card), seat)
        settle_sixth(res, seat)


def use(res: ZonaResolution, seat: int, card: str, purpose: str, shield: str | None = None) -> None:
    """Use an item: wear it, then (an artifact) its emanation, unless a shield is used with it."""
    t = res.pack.item_type(card)
    s = res.stalker(seat)
    times = artifacts_owned(res.pack, s) if t.emanation and t.emanation.get("per_artifact") else 1
    wear_out(res, seat, card, purpose)
    if shield is not None:
        wear_out(res, seat, shield, "shield")
        return
    if t.emanation is None:
        return
    if t.emanation.get("fatigue"):
        harm.change_fatigue(res, seat, t.emanation["fatigue"] * times, by="emanation")
    if t.emanation.get("discard") == "trophy" and res.stalker(seat)["trophies"]:
        token = res.stalker(seat)["trophies"][0]
        res.move("ThreatDiscarded", token, f"trophies:{seat}", f"dispenser_top:{res.pack.threat(token).queue}", seat)
    if t.emanation.get("damage"):
        harm.suffer(res, seat, {k: v * times for k, v in t.emanation["damage"].items()}, by="emanation")


def damageable(res: ZonaResolution, seat: int) -> list[str]:
    """Zona §"USZKADZANIE": durable items cannot be damaged."""
    return [c for c in owned_items(res.stalker(seat)) if res.pack.item_type(c).use != "durable"]


def settle_sixth(res: ZonaResolution, seat: int) -> None:
    """Zona §"6. MIEJSCE": losing the 6th slot moves its item into the backpack at once; with the
    backpack full the stalker may drop another item to make room, or loses the 6th-slot item."""
    s = res.stalker(seat)
    if not s["sixth"] or has_sixth_slot(res.pack, s):
        return
    card = s["sixth"][0]
    if len(s["backpack"]) < BACKPACK_SLOTS:
        res.move("ItemStowed", card, f"sixth:{seat}", f"backpack:{seat}", seat)
    else:
        res.push("sixth", seat=seat)


@FRAMES.step("sixth")
def step_sixth(res: ZonaResolution, frame: dict[str, Any]) -> None:
    s = res.stalker(frame["seat"])
    if not s["sixth"] or has_sixth_slot(res.pack, s):
        res.pop()
        return
    res.ask(frame["seat"], "sixth_lost", [{"type": "drop", "card": c} for c in [*s["backpack"], *s["sixth"]]],
            card=s["sixth"][0])


@RULES.answer("sixth_lost", rule='Zona §"6. MIEJSCE"')
def answer_sixth(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    seat = res.frame["seat"]
    res.pop()
    s = res.stalker(seat)
    card = choice["card"]
    res.move("ItemDropped", card, location_of(s, card), discard_target(res.pack, card), seat)
    s = res.stalker(seat)
    if s["sixth"]:
        res.move("ItemStowed", s["sixth"][0], f"sixth:{seat}", f"backpack:{seat}", seat)


# -- gaining an item -----------------------------------------------------------------


def gain(res: ZonaResolution, seat: int, card: str, source: str) -> None:
    """Take a card into the stalker's keeping: small items aside, else a slot, worn, or a choice."""
    res.push("gain", seat=seat, card=card, source=source)


def _conflicts(pack: Pack, s: dict[str, Any], t: ItemType) -> list[str]:
    return [c for c in s["worn"] if set(pack.item_type(c).outfit) & set(t.outfit)]


def gain_choices(res: ZonaResolution, seat: int, card: str) -> list[dict[str, Any]]:
    s = res.stalker(seat)
    t = res.pack.item_type(card)
    free = room(res.pack, s)
    out: list[dict[str, Any]] = []
    if free > 0:
        out.append({"type": "stow"})
    if t.outfit and len(_conflicts(res.pack, s, t)) <= free:
        out.append({"type": "wear"})
    out += [{"type": "drop", "card": c} for c in [*s["backpack"], *s["sixth"]]]
    out.append({"type": "refuse"})
    return out


@FRAMES.step("gain")
def step_gain(res: ZonaResolution, frame: dict[str, Any]) -> None:
    seat, card = frame["seat"], frame["card"]
    t = res.pack.item_type(card)
    if t.small:
        res.move("ItemKept", card, frame["source"], f"small:{seat}", seat)
        res.pop()
        return
    if not t.outfit and room(res.pack, res.stalker(seat)) > 0:
        _place(res, seat, card, frame["source"])
        res.pop()
        return
    # The card only: its name would tell other seats which find it is (the words name it from the card).
    res.ask(seat, "gain_item", gain_choices(res, seat, card), card=card)


def _place(res: ZonaResolution, seat: int, card: str, source: str) -> None:
    s = res.stalker(seat)
    if len(s["backpack"]) < BACKPACK_SLOTS:
        res.move("ItemKept", card, source, f"backpack:{seat}", seat)
    else:
        res.move("ItemKept", card, source, f"sixth:{seat}", seat)


@RULES.answer("gain_item", rule='Zona §"PLECAK"')
def answer_gain(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    frame = res.frame
    seat, card, source = frame["seat"], frame["card"], frame["source"]
    kind = choice["type"]
    if kind == "drop":
        s = res.stalker(seat)
        res.move("ItemDropped", choice["card"], location_of(s, choice["card"]), discard_target(res.pack, choice["card"]),
                 seat)
        settle_sixth(res, seat)
        return  # the gain frame asks again, now with room
    # The gain is over before wearing: losing a 6th slot by it may push a decision of its own.
    res.pop()
    if kind == "refuse":
        res.move("ItemDiscarded", card, source, discard_target(res.pack, card), seat)
    elif kind == "stow":
        _place(res, seat, card, source)
    else:
        wear(res, seat, card, source)


def wear(res: ZonaResolution, seat: int, card: str, source: str) -> None:
    """Zona §"STRÓJ": put an outfit on, moving worn outfits covering the same body part into the backpack."""
    s = res.stalker(seat)
    for other in _conflicts(res.pack, s, res.pack.item_type(card)):
        _place(res, seat, other, f"worn:{seat}")
    res.move("ItemWorn", card, source, f"worn:{seat}", seat)
    settle_sixth(res, seat)


for _answer in ("stow", "wear", "refuse"):
    RULES.answer_command(_answer, {})
RULES.answer_command("drop", {"card": fields.String(required=True)})


# -- taking cards from an item deck ---------------------------------------------------------


def take(res: ZonaResolution, seat: int, deck: str, count: int, keep: int) -> None:
    """Zona §"NAGRODY": the top cards of the deck (its discards reshuffled when it runs out)."""
    drawn = 0
    for _ in range(count):
        if not res.state.decks[deck]:
            pile = res.state.discards.get(deck, [])
            if not pile:
                break
            res.emit("DeckShuffled", deck=deck, order=res.rng.shuffled(pile))
        card = res.state.decks[deck][0]
        res.move("ItemDrawn", card, f"deck:{deck}", "hand", seat)
        drawn += 1
    if drawn > keep:
        res.push("keep", seat=seat, keep=keep)
    else:
        for card in list(res.state.hand):
            gain(res, seat, card, "hand")


@FRAMES.step("keep")
def step_keep(res: ZonaResolution, frame: dict[str, Any]) -> None:
    hand = res.state.hand
    if len(hand) > frame["keep"]:
        res.ask(frame["seat"], "keep", [{"type": "put_back", "card": c} for c in hand])
        return
    res.pop()
    for card in list(hand):
        gain(res, frame["seat"], card, "hand")


@RULES.answer("keep", rule='Zona §"NAGRODY"')
def answer_keep(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    card = choice["card"]
    res.move("ItemDiscarded", card, "hand", discard_target(res.pack, card), decision.seat)


RULES.answer_command("put_back", {"card": fields.String(required=True)})


@effect("take")
def _take(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    spec = e["take"]
    count = spec.get("count", 1)
    take(res, seat, spec["deck"], count, spec.get("keep", count))


@effect("damage_item")
def _damage_item(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    """Zona §"USZKADZANIE": one of the stalker's items, chosen when there are several (``choices.py`` answers)."""
    choices = [{"type": "damage_item", "card": c} for c in damageable(res, seat)]
    if len(choices) == 1:
        wear_out(res, seat, choices[0]["card"], "damaged")
    elif choices:
        res.push("choice", seat=seat, chooser=seat, decision="damage_item", choices=choices, labels=[])


# -- commands of one's own turn (not actions) -------------------------------------------


def own_turn_items(state: State, seat: int) -> list[dict[str, Any]]:
    """Wearing, taking off, dropping and using heal / rest items: free on one's own turn."""
    pack = pack_named(state.pack)
    s = state.stalkers[seat]
    out: list[dict[str, Any]] = []
    free = room(pack, s)
    for card in owned_items(s):
        t = pack.item_type(card)
        if t.outfit and card not in s["worn"] and len(_conflicts(pack, s, t)) <= free + 1:
            # The card leaves its slot as it goes on, so one more place is free for what it replaces.
            out.append({"type": "put_on", "card": card})
        if card in s["worn"] and free > 0:
            out.append({"type": "take_off", "card": card})
        out.append({"type": "drop", "card": card})
        if not works(pack, state, s, card) or not emanation_allowed(pack, state, s, card):
            continue
        if (t.heal and s["damage"] > 0) or (t.rest and s["fatigue"] > 0) or used_here(pack, t, s["area"]):
            out.append({"type": "use_item", "card": card})
    return out


def used_here(pack: Pack, t: ItemType, area: str) -> bool:
    """A card used in the action phase where it names (an area, any bunker, anywhere): not an action."""
    if t.use_at is None:
        return False
    where = t.use_at["area"]
    return where in ("any", area) or (where == "bunker" and pack.areas[area].sector == "bunker")


def _own(res: ZonaResolution, seat: int, command: dict[str, Any]) -> None:
    if command not in own_turn_items(res.state, seat):
        raise RuleViolation("item_not_usable", "That item cannot be used so now.", rule=RULE_USE)


@RULES.command("put_on", {"card": fields.String(required=True)})
def put_on_command(res: ZonaResolution, seat: int, command: dict[str, Any]) -> None:
    _own(res, seat, command)
    wear(res, seat, command["card"], location_of(res.stalker(seat), command["card"]))


@RULES.command("take_off", {"card": fields.String(required=True)})
def take_off_command(res: ZonaResolution, seat: int, command: dict[str, Any]) -> None:
    _own(res, seat, command)
    _place(res, seat, command["card"], f"worn:{seat}")
    settle_sixth(res, seat)


@RULES.command("use_item", {"card": fields.String(required=True), "shield": fields.String(), "via": fields.String()})
def use_item_command(res: ZonaResolution, seat: int, command: dict[str, Any]) -> None:
    _own(res, seat, command)
    t = res.pack.item_type(command["card"])
    if t.use_at is not None:
        use(res, seat, command["card"], "action_phase")
        effects.run(res, seat, ["item", t.id, "use_at", "effects"])
        return
    use(res, seat, command["card"], "heal" if t.heal else "rest")
    if t.heal:
        harm.heal(res, seat, t.heal)
    if t.rest:
        harm.change_fatigue(res, seat, -t.rest, by="item")


@RULES.command("drop", {"card": fields.String(required=True)})
def drop_command(res: ZonaResolution, seat: int, command: dict[str, Any]) -> None:
    _own(res, seat, command)
    s = res.stalker(seat)
    card = command["card"]
    res.move("ItemDropped", card, location_of(s, card), discard_target(res.pack, card), seat)
    settle_sixth(res, seat)
