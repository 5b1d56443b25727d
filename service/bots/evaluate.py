"""How good a seat's position looks, from that seat's own view only.

One number per view, higher is better, used by the greedy bot (one step
ahead) and at the leaves of the planner's search. A game without an
evaluation here scores every view 0, so its bots play at random.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

SPECIAL = "SPECIAL"

#: The score of a won game, and of a lost one (far beyond any position).
WON, LOST = 1000.0, -100.0


def fallout(view: dict[str, Any], seat: int) -> float:
    """Influence first, then levels and XP, HP, items, caps and perks; winning above all.

    Everything read here is on the seat's own view: its survivor (influence
    shows to its own seat only), the result and the winners.
    """
    if view.get("phase") == "new" or not view.get("survivors"):
        return 0.0
    if view.get("phase") == "over":
        return WON if seat in (view.get("winners") or []) else LOST
    me = view["survivors"][seat]
    if me["eliminated"]:
        return LOST
    if me["survivor"] is None:
        return 0.0
    letters = me["letters"]
    owned = [letter for letter in SPECIAL if letter in letters]
    progress = (owned.index(me["xp"]) + 1) / (len(owned) + 1) if me["xp"] in owned else 0.0
    hp = me["remaining_hp"]
    score = 12.0 * (me.get("influence") or 0)
    score += 6.0 * (len(letters) + len(me["perks"]) + progress)
    score += 0.6 * hp - (4.0 if hp <= 4 else 0.0)
    score += 2.0 * len(me["equipped"]) + 1.0 * len(me["inventory"]) + 0.4 * me["caps"]
    score += 0.5 * len(me["traits"])
    if me["space"] is None:
        score -= 6.0  # killed, waiting to respawn
    return score


EVALUATIONS: dict[str, Callable[[dict[str, Any], int], float]] = {"fallout": fallout}

#: Commands the searching bots never send of their own accord (outside a
#: pending decision). Fallout: opening a trade (putting one together and
#: cancelling it scores nothing and can go round for ever), taking back a
#: declared loyalty, and swapping equipment at the start of a turn (free, so a
#: search that sees no difference could swap back and forth). A bot still
#: answers trades that players propose and equips the cards it gains.
NEVER_TAKEN: dict[str, frozenset[str]] = {"fallout": frozenset({"trade", "withdraw_loyalty", "equip"})}


def never_taken(game: str) -> frozenset[str]:
    return NEVER_TAKEN.get(game, frozenset())


def evaluation(game: str) -> Callable[[dict[str, Any], int], float]:
    return EVALUATIONS.get(game, lambda view, seat: 0.0)
