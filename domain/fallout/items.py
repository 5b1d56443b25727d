"""Items, companions and the cards survivors hold (Equipping, Items,
Inventory, Apparel, Weapons, Companions, Exhaust, Loot Cards, Asset Cards,
Unique Asset Cards).

A survivor equips one weapon, one apparel and one companion, and holds up to
three more cards in the inventory. A card gained (drawn, bought, recruited,
traded) waits in ``GameState.gaining`` until it is placed: an item that can
be equipped goes to its slot when the slot is free; when it is taken, the
survivor decides (equip it, the old card moving to the inventory, or stow
it). Then, with more than three inventory cards, the survivor discards down,
one card at a time (a decision). A one-time loot event is resolved and
discarded instead.

At the start of their turn (before any action) a survivor may equip
inventory cards, swapping out what the slot held. During their own turn,
outside other actions, they may use an aid, drug or magazine from the
inventory (then discarded) and the ability of an equipped card (exhausting
it). Unexhausting pays the card's cost, if it has one, or leaves it
exhausted; a companion whose condition fails when it unexhausts is
discarded, equipped or not.

Discarded cards go to their own deck's discard pile; a unique asset is placed
next to the unique asset deck (Unique Asset Cards), out of the game: it is no
longer available to be gained by name, nor at random.
"""

from __future__ import annotations

from typing import Any

from domain.engine.shapes import integer, string, strings
from domain.fallout import conditions, results
from domain.fallout import effects as fx
from domain.fallout.content import catalog
from domain.fallout.model import EQUIPPABLE, USABLE, Card
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import (
    INVENTORY_SIZE,
    MAX_AGENDAS,
    MAX_HP,
    Decision,
    GameState,
    SurvivorState,
    clamp_hp,
    clamp_rads,
    replace,
)
from domain.game import RuleViolation

RULE_EQUIPPING = "Equipping"
RULE_INVENTORY = "Inventory"
RULE_ITEMS = "Items"


def card(state: GameState, card_id: str) -> Card:
    return catalog(state.pack).cards[card_id]


def in_slot(state: GameState, seat: int, kind: str) -> str | None:
    for c in state.survivor(seat).equipped:
        if card(state, c).kind == kind:
            return c
    return None


# -- drawing and gaining ------------------------------------------------------


def draw(res: Resolution, seat: int, deck: str, count: int) -> None:
    """Draw and keep ``count`` loot or asset cards (reshuffling a spent deck)."""
    for _ in range(count):
        cards = res.state.loot_deck if deck == "loot" else res.state.asset_deck
        discards = res.state.loot_discard if deck == "loot" else res.state.asset_discard
        if not cards:
            if not discards:
                return
            res.emit(
                "LootDeckReshuffled" if deck == "loot" else "AssetDeckReshuffled",
                order=res.rng.shuffled(list(discards)),
            )
            cards = res.state.loot_deck if deck == "loot" else res.state.asset_deck
        res.emit("LootDrawn" if deck == "loot" else "AssetDrawn", seat=seat, card=cards[0])


def gain_unique(res: Resolution, seat: int, wanted: str | None) -> None:
    """By name; if that one is not available, a random one (Unique Asset Cards)."""
    deck = res.state.unique_deck
    if not deck:
        return
    chosen = wanted if wanted in deck else res.rng.choice(sorted(deck))
    res.emit("UniqueGained", seat=seat, card=chosen, asked=wanted)


def gain_next(res: Resolution) -> None:
    seat, card_id = res.state.gaining[0]
    state = res.state
    c = card(state, card_id)
    if state.survivor(seat).eliminated:
        res.emit("CardGained", seat=seat, card=card_id, to="discard", unequipped=None)
        return
    if c.kind == "event":
        res.emit("CardGained", seat=seat, card=card_id, to="event", unequipped=None)
        level = conditions.level_at(res.state, res.state.survivor(seat).space)
        results.push(res, seat, card_id, "loot", level, c.effects)
        return
    if c.kind in EQUIPPABLE:
        held = in_slot(state, seat, c.kind)
        if held is None:
            res.emit("CardGained", seat=seat, card=card_id, to="equipped", unequipped=None)
            return
        res.request(
            seat, "equip_gained",
            [{"type": "equip", "card": card_id}, {"type": "stow", "card": card_id}],
            card=card_id, equipped=held,
        )
        return
    res.emit("CardGained", seat=seat, card=card_id, to="inventory", unequipped=None)


@RULES.answer("equip_gained", RULE_EQUIPPING, commands={"equip": {"card": string()}, "stow": {"card": string()}})
def answer_gained(res: Resolution, command: dict[str, Any], decision: Decision) -> None:
    seat, card_id = res.state.gaining[0]
    if command["type"] == "equip":
        old = in_slot(res.state, seat, card(res.state, card_id).kind)
        res.emit("CardGained", seat=seat, card=card_id, to="equipped", unequipped=old)
    else:
        res.emit("CardGained", seat=seat, card=card_id, to="inventory", unequipped=None)


# -- discarding down ----------------------------------------------------------


#: The survivors last found within their limits, the very tuple (held, so its id is never reused): ``over_limit``
#: is asked at every step of every resolution, and most steps (an enemy moving, a die kept) leave them alone.
_WITHIN: list[tuple[SurvivorState, ...]] = []


def over_limit(state: GameState) -> tuple[int, str] | None:
    """The first survivor (turn order) holding too many cards: (seat, "inventory"/"agendas")."""
    survivors = state.survivors
    if _WITHIN and _WITHIN[0] is survivors:
        return None
    # Nearly always nobody is over: the turn order only for a find.
    if all(len(s.inventory) <= INVENTORY_SIZE and len(s.agendas) <= MAX_AGENDAS for s in survivors):
        _WITHIN[:] = [survivors]
        return None
    for seat in state.turn_order():
        s = state.survivor(seat)
        if len(s.inventory) > INVENTORY_SIZE:
            return seat, "inventory"
        if len(s.agendas) > MAX_AGENDAS:
            return seat, "agendas"
    return None


def request_discard(res: Resolution, seat: int, what: str) -> None:
    s = res.state.survivor(seat)
    if what == "inventory":
        res.request(seat, "discard_card", [{"type": "discard", "card": c} for c in s.inventory])
    else:
        res.request(seat, "discard_agenda", [{"type": "discard_agenda", "agenda": a} for a in s.agendas])


@RULES.answer("discard_card", RULE_INVENTORY, commands={"discard": {"card": string()}})
def answer_discard(res: Resolution, command: dict[str, Any], decision: Decision) -> None:
    discard(res, decision.seat, command["card"], "inventory_full")


def discard(res: Resolution, seat: int, card_id: str, reason: str) -> None:
    res.emit("CardDiscarded", seat=seat, card=card_id, reason=reason)


# -- using, equipping, exhausting -------------------------------------------


def exhausts(c: Card) -> bool:
    # Character Cards: an ability card is never discarded, so using it always exhausts it.
    return c.kind == "ability" or (c.exhaust if c.exhaust is not None else c.kind in EQUIPPABLE)


def usable(state: GameState, seat: int) -> list[str]:
    """Cards whose effects the survivor may use now (their own turn, between actions)."""
    turn = state.turn
    s = state.survivor(seat)
    if turn is None or turn.seat != seat or not s.on_map or state.trade is not None:
        return []
    out = []
    for c in s.inventory:
        k = card(state, c)
        if k.kind in USABLE and k.effects:
            out.append(c)
    for c in s.equipped + s.abilities:
        k = card(state, c)
        # A card with a timing is used in a fight (``modifiers``), not between actions.
        if k.effects and k.timing is None and not (exhausts(k) and c in s.exhausted):
            out.append(c)
    return out


@RULES.command("use", {"card": string()})
def use_command(res: Resolution, seat: int, command: dict[str, Any]) -> None:
    card_id = command.get("card")
    if card_id not in usable(res.state, seat):
        raise RuleViolation(
            "cannot_use", "Use an aid, drug or magazine from your inventory, or an equipped card's ability "
            "that is not exhausted, during your turn.", rule=RULE_ITEMS,
        )
    c = card(res.state, card_id)
    s = res.state.survivor(seat)
    spent = "exhausted" if card_id in s.equipped + s.abilities and exhausts(c) else "discarded"
    res.emit("CardUsed", seat=seat, card=card_id, spent=spent)
    level = conditions.level_at(res.state, res.state.survivor(seat).space)
    results.push(res, seat, card_id, "item", level, c.effects)


def equip_choices(state: GameState, seat: int) -> list[dict[str, Any]]:
    turn = state.turn
    if turn is None or turn.seat != seat or not turn.at_start or state.trade is not None:
        return []
    return [
        {"type": "equip", "card": c}
        for c in state.survivor(seat).inventory
        if card(state, c).kind in EQUIPPABLE
    ]


@RULES.command("equip", {"card": string()})
def equip_command(res: Resolution, seat: int, command: dict[str, Any]) -> None:
    if command not in equip_choices(res.state, seat):
        raise RuleViolation(
            "cannot_equip", "At the start of your turn, equip a weapon, apparel or companion from your inventory.",
            rule=RULE_EQUIPPING,
        )
    card_id = command["card"]
    old = in_slot(res.state, seat, card(res.state, card_id).kind)
    res.emit("CardEquipped", seat=seat, card=card_id, unequipped=old)


def unexhaust_all(res: Resolution, seat: int) -> None:
    """Exhaust: pay each card's cost or leave it exhausted; companions check their condition."""
    s = res.state.survivor(seat)
    caps, hp, rads = s.caps, s.hp, s.rads
    back, lost = [], []
    for c in s.exhausted:
        k = card(res.state, c)
        # A cost in HP or rads is never paid with one's life (HP Track: HP <= rads is killed).
        if k.unexhaust_cost > caps or hp - k.unexhaust_hp <= min(MAX_HP, rads + k.unexhaust_rads):
            continue
        caps, hp, rads = caps - k.unexhaust_cost, hp - k.unexhaust_hp, rads + k.unexhaust_rads
        back.append(c)
        if k.kind == "companion" and not conditions.holds(res.state, seat, k.keep_if):
            lost.append(c)
    if back:
        # HP and rads appear only when paid: the event as it always was otherwise.
        extra = {k: v for k, v in (("hp", s.hp - hp), ("rads", rads - s.rads)) if v}
        res.emit("CardsUnexhausted", seat=seat, cards=back, paid=s.caps - caps, **extra)
    for c in lost:
        discard(res, seat, c, "companion_condition")


@results.about_survivor(fx.GainUnique)
def _unique_result(res: Resolution, seat: int, level: int, r: fx.GainUnique) -> None:
    gain_unique(res, seat, r.card)


@results.about_survivor(fx.LoseItem)
def _lose_result(res: Resolution, seat: int, level: int, r: fx.LoseItem) -> None:
    s = res.state.survivor(seat)
    if r.card in s.equipped + s.inventory:
        discard(res, seat, r.card, "lost")


@results.about_survivor(fx.Unexhaust)
def _unexhaust_result(res: Resolution, seat: int, level: int, r: fx.Unexhaust) -> None:
    unexhaust_all(res, seat)


# -- folds -------------------------------------------------------------------


def to_pile(state: GameState, card_id: str) -> GameState:
    """A discarded card goes back where it came from (character cards go nowhere)."""
    deck = catalog(state.pack).cards[card_id].deck if card_id in catalog(state.pack).cards else None
    if deck == "loot":
        return replace(state, loot_discard=state.loot_discard + (card_id,))
    if deck == "asset":
        return replace(state, asset_discard=state.asset_discard + (card_id,))
    if deck == "unique":
        return replace(state, unique_discard=state.unique_discard + (card_id,))
    return state


def _queue(state: GameState, seat: int, card_id: str | None) -> GameState:
    if card_id is None:
        return state
    return replace(state, gaining=state.gaining + ((seat, card_id),))


@RULES.fold("LootDrawn", {"card": string(nullable=True), "seat": integer()})
def _loot_drawn(state: GameState, data: dict) -> GameState:
    card_id = data.get("card")
    if card_id is None:
        return state
    state = replace(state, loot_deck=tuple(c for c in state.loot_deck if c != card_id))
    return _queue(state, data["seat"], card_id)


@RULES.fold("AssetDrawn", {"card": string(), "seat": integer()})
def _asset_drawn(state: GameState, data: dict) -> GameState:
    state = replace(state, asset_deck=tuple(c for c in state.asset_deck if c != data["card"]))
    return _queue(state, data["seat"], data["card"])


@RULES.fold("LootDeckReshuffled", {"order": strings()})
def _loot_reshuffled(state: GameState, data: dict) -> GameState:
    return replace(state, loot_deck=tuple(data["order"]), loot_discard=())


@RULES.fold("AssetDeckReshuffled", {"order": strings()})
def _asset_reshuffled(state: GameState, data: dict) -> GameState:
    return replace(state, asset_deck=tuple(data["order"]), asset_discard=())


@RULES.fold("UniqueGained", {"asked": string(nullable=True), "card": string(), "seat": integer()})
def _unique_gained(state: GameState, data: dict) -> GameState:
    """``card``: the unique asset gained. ``asked``: the one the result named (``unique: <card id>``), which
    ``card`` differs from when it was not available; ``None`` for ``unique: random``, which names none
    (Unique Asset Cards). Logs from before a random reward's ``None`` was declared hold none: the service
    refused to append it, so widening the schema needs no new version."""
    state = replace(state, unique_deck=tuple(c for c in state.unique_deck if c != data["card"]))
    return _queue(state, data["seat"], data["card"])


@RULES.fold("CardGained", {"card": string(), "seat": integer(), "to": string(), "unequipped": string(nullable=True)})
def _gained(state: GameState, data: dict) -> GameState:
    seat, card_id, to = data["seat"], data["card"], data["to"]
    if state.gaining and state.gaining[0] == (seat, card_id):
        state = replace(state, gaining=state.gaining[1:])
    s = state.survivor(seat)
    if to == "equipped":
        old = data.get("unequipped")
        equipped = tuple(c for c in s.equipped if c != old) + (card_id,)
        inventory = s.inventory + ((old,) if old else ())
        return state.with_survivor(seat, equipped=equipped, inventory=inventory)
    if to == "inventory":
        return state.with_survivor(seat, inventory=s.inventory + (card_id,))
    return to_pile(state, card_id)  # a one-time event, or a card for an eliminated survivor


def _held_without(state: GameState, seat: int, card_id: str) -> GameState:
    s = state.survivor(seat)
    return state.with_survivor(
        seat,
        equipped=tuple(c for c in s.equipped if c != card_id),
        inventory=tuple(c for c in s.inventory if c != card_id),
        exhausted=tuple(c for c in s.exhausted if c != card_id),
    )


def drop(state: GameState, seat: int, card_id: str) -> GameState:
    """The card leaves the survivor's hands for its discard pile."""
    return to_pile(_held_without(state, seat, card_id), card_id)


@RULES.fold("CardDiscarded", {"card": string(), "reason": string(), "seat": integer()})
def _discarded(state: GameState, data: dict) -> GameState:
    return drop(state, data["seat"], data["card"])


@RULES.fold("CardUsed", {"card": string(), "seat": integer(), "spent": string()})
def _used(state: GameState, data: dict) -> GameState:
    seat, card_id = data["seat"], data["card"]
    if data["spent"] == "exhausted":
        s = state.survivor(seat)
        return state.with_survivor(seat, exhausted=s.exhausted + (card_id,))
    return _discarded(state, data)


@RULES.fold("CardEquipped", {"card": string(), "seat": integer(), "unequipped": string(nullable=True)})
def _equipped(state: GameState, data: dict) -> GameState:
    seat, card_id, old = data["seat"], data["card"], data.get("unequipped")
    s = state.survivor(seat)
    inventory = tuple(c for c in s.inventory if c != card_id) + ((old,) if old else ())
    equipped = tuple(c for c in s.equipped if c != old) + (card_id,)
    return state.with_survivor(seat, equipped=equipped, inventory=inventory)


@RULES.fold(
    "CardsUnexhausted",
    {"cards": strings(), "hp": integer(optional=True), "paid": integer(), "rads": integer(optional=True),
     "seat": integer()},
)
def _unexhausted(state: GameState, data: dict) -> GameState:
    seat = data["seat"]
    s = state.survivor(seat)
    back = set(data["cards"])
    return state.with_survivor(
        seat, exhausted=tuple(c for c in s.exhausted if c not in back), caps=max(0, s.caps - data["paid"]),
        hp=clamp_hp(s.hp - data.get("hp", 0)), rads=clamp_rads(s.rads + data.get("rads", 0)),
    )
