"""The shop and shopping (Shop, Shopping, Asset Cards, Component Limitations).

The shop is a row of asset cards, leftmost first. SHOP # draws one asset to
the left, then allows up to # interactions, each a decision: buy (pay the
cost), sell (discard an equipped or inventory card for its value − 1 Caps;
a card without a value cannot be sold), or recruit (a companion, if the
survivor has the trait or letter it asks for). After the survivor's action
the shop is reset to four: cards discarded from the right, drawn to the left,
the asset discards reshuffled when the deck runs out.
"""

from __future__ import annotations

from typing import Any

from domain.engine.shapes import integer, string, strings
from domain.fallout import conditions, items, results
from domain.fallout import effects as fx
from domain.fallout.content import catalog
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import SHOP_SIZE, Decision, GameState, Shopping, replace, replaced

RULE = "Shopping"
RULE_SHOP = "Shop"


def _top_asset(res: Resolution) -> str | None:
    if not res.state.asset_deck:
        if not res.state.asset_discard:
            return None
        res.emit("AssetDeckReshuffled", order=res.rng.shuffled(list(res.state.asset_discard)))
    return res.state.asset_deck[0]


def open_shop(res: Resolution, seat: int, interactions: int) -> None:
    res.emit("ShopOpened", seat=seat, interactions=interactions, card=_top_asset(res))


@results.about_survivor(fx.Shop)
def _shop_result(res: Resolution, seat: int, level: int, r: fx.Shop) -> None:
    open_shop(res, seat, r.amount.of(level))


def choices(state: GameState, seat: int) -> list[dict[str, Any]]:
    cards = catalog(state.pack).cards
    s = state.survivor(seat)
    out: list[dict[str, Any]] = []
    for c in state.shop:
        k = cards[c]
        if k.kind == "companion" and k.cost is None:
            if conditions.holds(state, seat, k.recruit):
                out.append({"type": "recruit", "card": c})
        elif k.cost is not None and k.cost <= s.caps:
            out.append({"type": "buy", "card": c})
    for c in s.equipped + s.inventory:
        if cards[c].value is not None and cards[c].deck is not None:
            out.append({"type": "sell", "card": c})
    out.append({"type": "done_shopping"})
    return out


def step(res: Resolution) -> None:
    shopping = res.state.shopping
    assert shopping is not None
    if shopping.left <= 0 or not res.state.survivor(shopping.seat).on_map:
        res.emit("ShopClosed", seat=shopping.seat)
        return
    res.request(shopping.seat, "shop", choices(res.state, shopping.seat), left=shopping.left)


@RULES.answer(
    "shop",
    RULE,
    commands={
        "buy": {"card": string()},
        "sell": {"card": string()},
        "recruit": {"card": string()},
        "done_shopping": {},
    },
)
def answer(res: Resolution, command: dict[str, Any], decision: Decision) -> None:
    seat = decision.seat
    kind = command["type"]
    if kind == "done_shopping":
        res.emit("ShopClosed", seat=seat)
        return
    c = catalog(res.state.pack).cards[command["card"]]
    if kind == "buy":
        res.emit("AssetBought", seat=seat, card=c.id, cost=c.cost)
    elif kind == "recruit":
        res.emit("AssetBought", seat=seat, card=c.id, cost=0)
    else:
        res.emit("CardSold", seat=seat, card=c.id, caps=max(0, (c.value or 0) - 1))


def needs_reset(state: GameState) -> bool:
    if len(state.shop) > SHOP_SIZE:
        return True
    return len(state.shop) < SHOP_SIZE and bool(state.asset_deck or state.asset_discard)


def reset(res: Resolution) -> None:
    """Discard from the right / draw to the left until four (or the assets run out)."""
    if len(res.state.shop) > SHOP_SIZE:
        res.emit("ShopReset", discarded=list(res.state.shop[SHOP_SIZE:]), drawn=[])
        return
    drawn: list[str] = []
    while len(res.state.shop) + len(drawn) < SHOP_SIZE:
        deck = [c for c in res.state.asset_deck if c not in drawn]
        if not deck:
            if drawn:
                break  # draw what we have first; the next pass reshuffles
            top = _top_asset(res)
            if top is None:
                break
            continue
        drawn.append(deck[0])
    if drawn:
        res.emit("ShopReset", discarded=[], drawn=drawn)


# -- folds -------------------------------------------------------------------


@RULES.fold("ShopOpened", {"card": string(), "interactions": integer(), "seat": integer()})
def _opened(state: GameState, data: dict) -> GameState:
    card = data.get("card")
    changes: dict[str, Any] = {"shopping": Shopping(data["seat"], data["interactions"])}
    if card is not None:
        changes.update(shop=(card,) + state.shop, asset_deck=tuple(c for c in state.asset_deck if c != card))
    return replaced(state, changes)


def _spent(state: GameState) -> GameState:
    shopping = state.shopping
    return state if shopping is None else replace(state, shopping=replace(shopping, left=shopping.left - 1))


@RULES.fold("AssetBought", {"card": string(), "cost": integer(), "seat": integer()})
def _bought(state: GameState, data: dict) -> GameState:
    seat = data["seat"]
    s = state.survivor(seat)
    state = state.with_survivor(seat, caps=max(0, s.caps - data["cost"]))
    state = replace(
        state, shop=tuple(c for c in state.shop if c != data["card"]), gaining=state.gaining + ((seat, data["card"]),)
    )
    return _spent(state)


@RULES.fold("CardSold", {"caps": integer(), "card": string(), "seat": integer()})
def _sold(state: GameState, data: dict) -> GameState:
    seat = data["seat"]
    state = items.drop(state, seat, data["card"])
    s = state.survivor(seat)
    return _spent(state.with_survivor(seat, caps=s.caps + data["caps"]))


@RULES.fold("ShopClosed", {"seat": integer()})
def _closed(state: GameState, data: dict) -> GameState:
    return replace(state, shopping=None)


@RULES.fold("ShopReset", {"discarded": strings(), "drawn": strings()})
def _reset(state: GameState, data: dict) -> GameState:
    gone = set(data["discarded"])
    drawn = tuple(data["drawn"])
    shop = tuple(reversed(drawn)) + tuple(c for c in state.shop if c not in gone)
    return replace(
        state,
        shop=shop,
        asset_deck=tuple(c for c in state.asset_deck if c not in drawn),
        asset_discard=state.asset_discard + tuple(data["discarded"]),
    )
