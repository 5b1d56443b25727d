"""What Fallout's bots need besides the contract's core (``domain.game.GameAI``).

The evaluation reads one seat's own view only: influence first, then levels
and XP, HP, items, Caps and perks, winning above all. Determinizing a view and
what a lapsed turn sends live in ``domain.fallout.determinize``.
"""

from __future__ import annotations

from typing import Any, Final

from domain.fallout import determinize as hidden
from domain.fallout.model import SPECIAL
from domain.fallout.state import GameState
from domain.fallout.view import scored_parts, scoring_view
from domain.game import GameAI, Seat
from domain.rng import Rng

#: The score of a won game, and of a lost one (far beyond any position).
WON: Final = 1000.0
LOST: Final = -100.0


def standing(view: dict[str, Any], seat: Seat) -> float:
    """How well ``seat`` stands in ``view``, whether or not the game has ended."""
    if view.get("phase") == "new" or not view.get("survivors"):
        return 0.0
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


def evaluate(view: dict[str, Any], seat: Seat) -> float:
    """``standing``, but a game over is won (``WON``) or lost (``LOST``) and nothing else."""
    if view.get("phase") == "over" and view.get("survivors"):
        return WON if seat in (view.get("winners") or []) else LOST
    return standing(view, seat)


#: ``FalloutAI.scoring_view``'s last answer: (the state, the seat, the scored parts); read, never changed.
_LAST_SCORED: Final[list[tuple[GameState, Seat, dict[str, Any]]]] = []


class FalloutAI(GameAI):
    #: Opening a trade (putting one together and cancelling it scores nothing
    #: and can go round for ever), taking back a declared loyalty, and swapping
    #: equipment at the start of a turn (free, so a search that sees no
    #: difference could swap back and forth). A bot still answers trades that
    #: players propose and equips the cards it gains.
    never_taken = frozenset({"trade", "withdraw_loyalty", "equip"})
    #: Moving on rather than ending the turn where it stands.
    wander = frozenset({"move", "step", "explore"})
    end_turn: str | None = "end_turn"

    def scoring_view(self, state: GameState, seat: Seat) -> dict[str, Any]:
        """What ``evaluate`` and ``free_choice`` read of the seat's view, and nothing else.

        The last answer is kept, by the very state it was read from (a state is frozen): a bot asks
        whether a position is its free choice and then scores that same position.
        """
        if _LAST_SCORED:
            seen, seen_seat, found = _LAST_SCORED[0]
            if seen is state and seen_seat == seat:
                return found
        found = scored_parts(state, seat)
        _LAST_SCORED[:] = [(state, seat, found)]
        return found

    def search_view(self, state: GameState, seat: Seat) -> dict[str, Any]:
        """The view without its names and card faces (``view.scoring_view``): a greedy bot's every decision
        built them, a twelfth of its time, and neither its sampling nor its scoring reads them."""
        return scoring_view(state, seat)

    def determinize(self, view: dict[str, Any], seat: Seat, rng: Rng) -> GameState:
        return hidden.determinize(view, seat, rng)

    def evaluate(self, view: dict[str, Any], seat: Seat) -> float:
        return evaluate(view, seat)

    def standing(self, view: dict[str, Any], seat: Seat) -> float:
        return standing(view, seat)

    def free_choice(self, view: dict[str, Any], seat: Seat) -> bool:
        return view.get("pending") is None



FALLOUT_AI = FalloutAI()
