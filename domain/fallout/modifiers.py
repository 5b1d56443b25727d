"""Modifiers in play (Fight, Tests, Character Cards, Perk Cards, Scenario).

The passive modifiers of the cards a survivor holds (equipped items and
companions, character cards beside the board) and of the scenario sheet add rerolls to fights and
tests, hits to fights and armor against enemy hits, while their condition
holds. A card or perk with a timing is used in its holder's fight: "before a
fight" ones once the fight has started and before the dice are rolled,
"during a fight" ones then or while the dice are on the table. Using one
exhausts the card (a perk goes back to the perk deck) and gives that one
fight its modifiers (``FightBoosted``).
"""

from __future__ import annotations

from typing import Any, Final

from domain.engine.shapes import boolean, integer, string
from domain.fallout import conditions
from domain.fallout import effects as fx
from domain.fallout.content import catalog
from domain.fallout.model import Card
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import GameState, replace

RULE = "Fight"
#: Each card's passive modifiers parsed once (see ``fx.Memo``).
_passive: Final = fx.Memo(fx.parse_modifiers)
BEFORE, DURING = fx.TIMINGS


def held(state: GameState, seat: int) -> list[Card]:
    """The cards whose passive modifiers hold: equipped ones and character cards beside the board."""
    cards = catalog(state.pack).cards
    s = state.survivor(seat)
    return [cards[c] for c in s.equipped + s.abilities if c in cards]


def bonus(state: GameState, seat: int, key: str) -> int:
    """The sum of one modifier over the survivor's held cards and the scenario sheet's
    ``passive`` rules (Scenario), where its condition holds."""
    pack = catalog(state.pack).pack
    sheet = pack.scenarios[state.scenario].passive if state.scenario in pack.scenarios else ()
    return sum(
        m.amount
        for raw in [*(card.passive for card in held(state, seat)), sheet]
        for m in _passive(raw)
        if m.key == key and conditions.holds(state, seat, m.condition)
    )


def abilities(state: GameState, seat: int, timings: tuple[str, ...]) -> list[dict[str, Any]]:
    """The fight abilities the survivor may use now: unexhausted timed cards held, and timed perks."""
    s = state.survivor(seat)
    perks = catalog(state.pack).perks
    out = [
        {"type": "use_in_fight", "card": card.id}
        for card in held(state, seat)
        if card.timing in timings and card.id not in s.exhausted
    ]
    out += [{"type": "use_in_fight", "card": p} for p in s.perks if p in perks and perks[p].timing in timings]
    return out


def use(res: Resolution, seat: int, card_id: str, timings: tuple[str, ...]) -> None:
    """Spend the card or perk, then give the fight its modifiers."""
    cat = res.catalog
    if card_id in cat.perks:
        res.emit("PerkUsed", seat=seat, perk=card_id)
        effects = cat.perks[card_id].effects
    else:
        res.emit("CardUsed", seat=seat, card=card_id, spent="exhausted")
        effects = cat.cards[card_id].effects
    gained = {key: 0 for key in fx.MODIFIER_KEYS}
    for m in fx.parse_modifiers(effects):
        if conditions.holds(res.state, seat, m.condition):
            gained[m.key] += m.amount
    res.emit(
        "FightBoosted", seat=seat, card=card_id, rerolls=gained["fight_rerolls"], hits=gained["fight_hits"],
        armor=gained["armor"], more=bool(abilities(res.state, seat, timings)),
    )


@RULES.fold(
    "FightBoosted",
    {
        "armor": integer(),
        "card": string(),
        "hits": integer(),
        "more": boolean(),
        "rerolls": integer(),
        "seat": integer(),
    },
)
def _boosted(state: GameState, data: dict) -> GameState:
    f, r = state.fight, state.roll
    if f is None:
        return state
    f = replace(f, hits=f.hits + data["hits"], armor=f.armor + data["armor"])
    if r is None:  # before the roll: the rerolls wait for it
        return replace(state, fight=replace(f, rerolls=f.rerolls + data["rerolls"]))
    rerolls = r.rerolls + data["rerolls"]
    kept = rerolls <= 0 and not r.well_rested and not data["more"]
    return replace(state, fight=f, roll=replace(r, rerolls=rerolls, abilities=data["more"], kept=kept))
