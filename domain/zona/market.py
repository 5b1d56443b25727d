"""The market, selling and camping in a bunker.

Zona §"TARGOWISKO" (reputation columns, slide-and-refill at the end of a turn
with a purchase, in every phase), §"OBOZOWANIE" (rest by willpower, heal 200,
repair 100, sell, buy), the bunker actions of §"AKCJE OBSZARÓW" that sell or
repair, and the abilities that camp or sell (§"ZDOLNOŚĆ").
"""

from __future__ import annotations

from typing import Any, Final

from marshmallow import fields

from domain.zona import encounter, harm, items
from domain.zona.effects import Address, effect
from domain.zona.resolution import FRAMES, RULES, ZonaResolution
from domain.zona.state import MARKET_COLUMNS, MARKET_ROWS, Draft, State, owned_items

RULE_MARKET = 'Zona §"TARGOWISKO"'
RULE_CAMP = 'Zona §"OBOZOWANIE"'
HEAL_PRICE: Final = 200
REPAIR_PRICE: Final = 100


def columns_open(reputation: str) -> int:
    """Columns 1-2 for anyone, 3 for good or neutral, the last for good only."""
    return {"bad": 2, "neutral": 3, "good": 4}[reputation]


def sale_value(res: ZonaResolution, thing: str) -> int:
    """Printed price, 100 less per damage token on a consumable (our ruling: never below 0)."""
    if _is_trophy(res, thing):
        return int(res.pack.threat(thing).loot.get("trophy", 0))
    t = res.pack.item_type(thing)
    wear = res.state.wear.get(thing, 0) if t.use == "consumable" else 0
    return max(0, t.price - 100 * wear)


def sale_price(res: ZonaResolution, seat: int, thing: str) -> int:
    """What selling ``thing`` brings the seat: its value and the stalker's ``haggle`` ability (Zona §"ZDOLNOŚĆ")."""
    return sale_value(res, thing) + int(_ability(res, seat).get("haggle", 0))


def _ability(res: ZonaResolution, seat: int) -> dict[str, Any]:
    return res.pack.stalkers[res.stalker(seat)["character"]].ability


def _is_trophy(res: ZonaResolution, thing: str) -> bool:
    return thing.split("#")[0] in res.pack.threats


def fill(res: ZonaResolution) -> None:
    """Empty slots take the top card of their row's deck (its discards reshuffled when it is out)."""
    for row in MARKET_ROWS:
        for slot in range(MARKET_COLUMNS):
            if res.state.market[row][slot] is not None:
                continue
            if not res.state.decks[row]:
                pile = res.state.discards.get(row, [])
                if not pile:
                    continue
                res.emit("DeckShuffled", deck=row, order=res.rng.shuffled(pile))
            card = res.state.decks[row][0]
            res.move("MarketFilled", card, f"deck:{row}", f"market:{row}:{slot}")


def slide_and_fill(res: ZonaResolution) -> None:
    """After a turn with a purchase: cards slide left to close gaps, new ones come in on the right."""
    for row in MARKET_ROWS:
        slots = res.state.market[row]
        target = 0
        for slot in range(MARKET_COLUMNS):
            card = slots[slot]
            if card is None:
                continue
            if slot != target:
                res.move("MarketSlid", card, f"market:{row}:{slot}", f"market:{row}:{target}")
            target += 1
            slots = res.state.market[row]
    fill(res)


def reset(res: ZonaResolution) -> None:
    """Zona §"EMISJA" step 5: every card on the market is discarded and the market filled anew."""
    for row in MARKET_ROWS:
        for slot, card in enumerate(res.state.market[row]):
            if card is not None:
                res.move("ItemDiscarded", card, f"market:{row}:{slot}", f"discard:{row}")
    fill(res)


def _buy_choices(res: ZonaResolution, seat: int) -> list[dict[str, Any]]:
    s = res.stalker(seat)
    out = []
    for row in MARKET_ROWS:
        for slot in range(columns_open(s["reputation"])):
            card = res.state.market[row][slot]
            if card is not None and res.pack.item_type(card).price <= s["roubles"]:
                out.append({"type": "buy", "row": row, "slot": slot})
    return out


def camp(res: ZonaResolution, seat: int) -> None:
    """Zona §"OBOZOWANIE" 1: rest by willpower (willpower items first add to it), then trade."""
    res.push("trade", seat=seat, camping=True, rested=False, plus=0, used=[])


def open_market(res: ZonaResolution, seat: int, camping: bool) -> None:
    res.push("trade", seat=seat, camping=camping, rested=True, plus=0, used=[])


def _rest_items(res: ZonaResolution, seat: int, used: list[str]) -> list[str]:
    s = res.stalker(seat)
    return [c for c in owned_items(s) if c not in used and items.works(res.pack, res.state, s, c)
            and (res.pack.item_type(c).modifier or {}).get("attribute") in ("willpower", "any")
            and (res.pack.item_type(c).modifier or {}).get("plus", 0) > 0
            and not (res.pack.item_type(c).modifier or {}).get("against")
            and items.emanation_allowed(res.pack, res.state, s, c)]


def trade_choices(res: ZonaResolution, frame: dict[str, Any]) -> list[dict[str, Any]]:
    seat = frame["seat"]
    s = res.stalker(seat)
    if not frame["rested"]:
        return [*({"type": "use_item", "card": c} for c in _rest_items(res, seat, frame["used"])), {"type": "rest"}]
    out: list[dict[str, Any]] = []
    if frame["camping"]:
        if s["damage"] > 0 and s["roubles"] >= HEAL_PRICE:
            out.append({"type": "heal"})
        if s["roubles"] >= REPAIR_PRICE:
            out += [{"type": "repair", "card": c} for c in repairable(res, seat)]
        bought = (res.state.turn or {}).get("bought", [])
        out += [{"type": "sell", "thing": c} for c in [*owned_items(s), *s["trophies"]] if c not in bought]
    out += _buy_choices(res, seat)
    out.append({"type": "done"})
    return out


@FRAMES.step("trade")
def step_trade(res: ZonaResolution, frame: dict[str, Any]) -> None:
    choices = trade_choices(res, frame)
    if choices == [{"type": "done"}]:
        _close(res, frame)
        return
    res.ask(frame["seat"], "trade", choices, camping=frame["camping"])


@RULES.answer("trade", rule=RULE_CAMP)
def answer_trade(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    frame = res.frame
    seat = frame["seat"]
    s = res.stalker(seat)
    kind = choice["type"]
    if kind == "use_item":
        plus = (res.pack.item_type(choice["card"]).modifier or {}).get("plus", 0)
        res.update(plus=frame["plus"] + plus, used=[*frame["used"], choice["card"]])
        items.use(res, seat, choice["card"], "camp")
    elif kind == "rest":
        willpower = max(0, res.pack.stalkers[s["character"]].attributes["willpower"]
                        - (1 if "willpower" in s["injuries"] else 0))
        ability = _ability(res, seat)
        res.update(rested=True)
        harm.change_fatigue(res, seat, -(willpower + frame["plus"] + ability.get("camp", 0)), by="camp")
        # Zona §"ZDOLNOŚĆ": a stalker who mends heals that much damage free as they rest.
        harm.heal(res, seat, ability.get("mend", 0))
    elif kind == "heal":
        harm.pay(res, seat, -HEAL_PRICE)
        harm.heal(res, seat, 1)
    elif kind == "repair":
        harm.pay(res, seat, -REPAIR_PRICE)
        _repair_one(res, seat, choice["card"])
    elif kind == "sell":
        thing = choice["thing"]
        harm.pay(res, seat, sale_price(res, seat, thing))
        if _is_trophy(res, thing):
            encounter.discard(res, thing, f"trophies:{seat}")
        else:
            res.move("ItemSold", thing, items.location_of(s, thing), items.discard_target(res.pack, thing), seat)
            items.settle_sixth(res, seat)
    elif kind == "buy":
        card = res.state.market[choice["row"]][choice["slot"]]
        harm.pay(res, seat, -res.pack.item_type(card).price)
        res.move("ItemBought", card, f"market:{choice['row']}:{choice['slot']}", "hand", seat)
        if res.state.turn is None:
            _note_purchase(res)
        items.gain(res, seat, card, "hand")
    else:
        _close(res, frame)


def _note_purchase(res: ZonaResolution) -> None:
    """Zona §"TARGOWISKO": the market slides and refills at the end of the buyer's turn, in every phase.
    The action phase's turn notes its purchases itself (``TurnEnded`` refills); in the event phase a
    stalker's turn is the reading of their card, so the purchase is noted on the event phase's frame,
    which refills before the next stalker reads. Where nobody has a turn (a pack's news card that
    opened the market), the trade's own end is the turn's."""
    frames = res.state.frames
    depth = next((i for i, f in enumerate(reversed(frames)) if f["kind"] == "event_phase"), 0)
    if not frames[-1 - depth].get("bought"):
        res.update(depth=depth, bought=True)


def _close(res: ZonaResolution, frame: dict[str, Any]) -> None:
    res.pop()
    if frame.get("bought"):
        slide_and_fill(res)


_SHAPES: dict[str, dict[str, fields.Field]] = {
    "rest": {}, "heal": {}, "done": {}, "repair": {"card": fields.String(required=True)},
    "sell": {"thing": fields.String(required=True)},
    "buy": {"row": fields.String(required=True), "slot": fields.Integer(required=True)},
}
for _kind, _shape in _SHAPES.items():
    RULES.answer_command(_kind, _shape)


@RULES.watch("ItemBought")
def _bought(state: State, data: dict[str, Any]) -> State:
    if state.turn is None:
        return state
    d = Draft(state)
    d["turn"]["bought"].append(data["thing"])
    return d.new


def repairable(res: ZonaResolution, seat: int) -> list[str]:
    """Consumables with damage tokens; some never lose theirs."""
    return [c for c in owned_items(res.stalker(seat)) if res.pack.item_type(c).use == "consumable"
            and not res.pack.item_type(c).unrepairable and res.state.wear.get(c, 0) > 0]


def _repair_one(res: ZonaResolution, seat: int, card: str) -> None:
    res.emit("ItemRepaired", seat=seat, card=card, wear=res.state.wear[card] - 1)


def repair(res: ZonaResolution, seat: int, amount: int) -> None:
    """Remove up to ``amount`` damage tokens from items, one at a time by choice."""
    if amount > 0 and repairable(res, seat):
        res.push("repair", seat=seat, left=amount)


@FRAMES.step("repair")
def step_repair(res: ZonaResolution, frame: dict[str, Any]) -> None:
    cards = repairable(res, frame["seat"])
    if frame["left"] <= 0 or not cards:
        res.pop()
        return
    res.ask(frame["seat"], "repair", [*({"type": "repair", "card": c} for c in cards), {"type": "done"}])


@RULES.answer("repair", rule='Zona §"AKCJE OBSZARÓW"')
def answer_repair(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    frame = res.frame
    if choice["type"] == "done":
        res.pop()
        return
    res.update(left=frame["left"] - 1)
    _repair_one(res, frame["seat"], choice["card"])


def farm_sale(res: ZonaResolution, seat: int, bonus: dict[str, int]) -> None:
    res.push("sale", seat=seat, bonus=bonus, once=False)


def artifact_sale(res: ZonaResolution, seat: int, bonus: int) -> None:
    res.push("sale", seat=seat, bonus={"green": bonus, "yellow": bonus}, once=True)


def _colour(res: ZonaResolution, thing: str) -> str | None:
    if _is_trophy(res, thing):
        return res.pack.threat(thing).colour
    return res.pack.item_type(thing).colour


@FRAMES.step("sale")
def step_sale(res: ZonaResolution, frame: dict[str, Any]) -> None:
    s = res.stalker(frame["seat"])
    things = [c for c in owned_items(s) if res.pack.item_type(c).artifact]
    if not frame["once"]:
        things += s["trophies"]
    if not things:
        res.pop()
        return
    res.ask(frame["seat"], "sale", [*({"type": "sell", "thing": t} for t in things), {"type": "done"}])


@RULES.answer("sale", rule='Zona §"AKCJE OBSZARÓW"')
def answer_sale(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    frame = res.frame
    seat = frame["seat"]
    if choice["type"] == "done":
        res.pop()
        return
    thing = choice["thing"]
    if frame["once"]:
        res.pop()
    harm.pay(res, seat, sale_price(res, seat, thing) + frame["bonus"].get(_colour(res, thing) or "", 0))
    s = res.stalker(seat)
    if _is_trophy(res, thing):
        encounter.discard(res, thing, f"trophies:{seat}")
    else:
        res.move("ItemSold", thing, items.location_of(s, thing), items.discard_target(res.pack, thing), seat)
        items.settle_sixth(res, seat)


# -- the market, camping and sales in the effects vocabulary ------------------------------


@effect("repair")
def _repair(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    repair(res, seat, e["repair"])


@effect("sell")
def _sell(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    farm_sale(res, seat, e["sell"])


@effect("sell_artifact")
def _sell_artifact(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    artifact_sale(res, seat, e["sell_artifact"])


@effect("camp")
def _camp(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    camp(res, seat)


@effect("market")
def _market(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    open_market(res, seat, camping=False)


@effect("market_refill")
def _market_refill(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    reset(res)
