"""What Zona's bots need besides the contract's core (``domain.game.GameAI``).

The evaluation reads one seat's own view only. Zona §"CEL GRY": a stalker
wins by learning the secrets of two different facilities, reaching the power
plant (a red area's action, with both secrets), going into the sarcophagus
(the power plant's action) and reading a sarcophagus card to its winning
ending. So a position is worth, in this order: the game won (or lost, by
anyone's win or the Zone's clock); the secrets held; where the stalker
stands on the way to the next step (inside a facility it has no secret of,
next to one, in the red sector or the sarcophagus with both secrets); then
staying alive (stamina left, injuries, fatigue), and what helps later: items,
trophies (a lock's price), roubles and a good reputation. Determinizing a
view lives in ``domain.zona.determinize``.
"""

from __future__ import annotations

import functools
from collections import deque
from typing import Any

from domain.game import GameAI, Seat
from domain.rng import Rng
from domain.zona import determinize as hidden
from domain.zona.board import board_for
from domain.zona.pack import pack_named
from domain.zona.state import MAX_FATIGUE, State
from domain.zona.view import scoring_view

#: The score of a won game, and of a lost one (far beyond any position).
WON, LOST = 1000.0, -200.0

#: Pending decisions' defaults when a deadline lapses (and a bot's own follow-ups when it looks ahead),
#: in order of preference: end the turn, keep the roll, keep what is gained, stop trading, stay put.
TIMEOUT_DEFAULTS = ("pass", "accept", "stow", "wear", "take_damage", "done", "stay", "face", "confront", "rest")


@functools.cache
def _paths(pack_name: str, side: str) -> tuple[dict[str, dict[str, int]], dict[str, tuple[str, ...]], tuple[str, ...]]:
    """Moves between every two areas of a side (facilities entered from their entrance areas), the entrance
    areas of each facility, and the areas whose action leads to the power plant."""
    pack = pack_named(pack_name)
    board = board_for(pack_name, side)
    links = {a: [b for b, border in board.neighbours(a).items()
                 if pack.areas[b].sector != "facility" or border.kind == "entrance"] for a in pack.areas}
    distances = {}
    for start in pack.areas:
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in links[here]:
                if there not in seen:
                    seen[there] = seen[here] + 1
                    queue.append(there)
        distances[start] = seen
    gates = tuple(a.id for a in pack.areas.values() if any("to_power_plant" in e for e in a.action))
    return distances, dict(board.entrances), gates


def standing(view: dict[str, Any], seat: Seat) -> float:
    """How well ``seat`` stands in ``view``, whether or not the game has ended."""
    if view.get("phase", "new") == "new" or not view.get("stalkers"):
        return 0.0
    me = view["stalkers"][seat]
    if me["character"] is None or me["area"] is None:
        return -20.0 if me["dead"] else 0.0
    table = view["table"]
    pack = pack_named(table["pack"])
    distances, entrances, gates = _paths(table["pack"], view["side"])
    secrets = set(me["secrets"])
    score = 60.0 * min(len(secrets), 2)
    here = me["area"]
    sector = pack.areas[here].sector
    near = distances.get(here, {})
    if len(secrets) >= 2:
        if sector == "sarcophagus":
            score += 130.0
        elif pack.areas[here].power_plant:
            score += 90.0
        else:
            score += 50.0 - 6.0 * min((near.get(g, 20) for g in gates), default=20)
    else:
        # Facilities whose secret is still to learn: inside one the event phase reads its deck.
        targets = [f for f, info in view["facilities"].items() if f not in secrets and not info["looted"]]
        if here in targets:
            score += 24.0
        elif targets:
            steps = min(min((near.get(g, 20) for g in entrances.get(f, ())), default=20) + 1 + _hindrance(view, me, f)
                        for f in targets)
            score += max(0.0, 20.0 - 4.0 * steps)
    # Zona §"PRZEGRANA": the news deck is the clock. With few cards left, getting on counts, sparing oneself less.
    care = min(1.0, (view["decks"]["news"] + 1) / 4)
    stamina = me["stamina"] or 0
    left = stamina - me["damage"]
    body = 2.5 * left - (8.0 if left <= 1 else 0.0) - 7.0 * len(me["injuries"])
    body -= 2.0 * me["fatigue"] + (4.0 if me["fatigue"] >= MAX_FATIGUE else 0.0)
    kept = [c for kind in ("backpack", "worn", "small", "sixth") for c in me[kind]]
    body += 3.0 * len(kept) + 2.5 * len(me["trophies"]) + me["roubles"] / 100.0
    body += {"good": 3.0, "neutral": 0.0, "bad": -3.0}.get(me["reputation"], 0.0)
    score += care * body
    if me["dead"]:
        score -= 40.0
    return score


def _hindrance(view: dict[str, Any], me: dict[str, Any], facility: str) -> int:
    """Steps' worth of trouble getting into a facility besides walking there: a lock the stalker cannot pay
    yet, or no room inside (Zona §"OTWARCIE TAJNEGO OBIEKTU")."""
    info = view["facilities"][facility]
    if info["open"]:
        inside = sum(1 for s in view["stalkers"] if s["area"] == facility and not s["dead"])
        return 2 if inside >= view["board"]["facility_spaces"] else 0
    lock = info["lock"]
    # Roubles to earn (a step a 200), trophies to take (two steps each), rests to take, wounds to heal.
    short = -(-max(0, lock["roubles"] - me["roubles"]) // 200) + 2 * max(0, lock["trophies"] - len(me["trophies"]))
    short += max(0, me["fatigue"] + lock["fatigue"] - MAX_FATIGUE)
    short += 2 if me["damage"] + sum(lock["damage"].values()) > me["stamina"] else 0
    return min(short, 4)


def evaluate(view: dict[str, Any], seat: Seat) -> float:
    """``standing``, but a game over is won (``WON``) or lost (``LOST``) and nothing else."""
    if view.get("over"):
        return WON if view.get("winner") == seat else LOST
    return standing(view, seat)


class ZonaAI(GameAI):
    #: Dropping an item, putting on or taking off an outfit: free steps that score nothing by themselves and
    #: that a search seeing no difference could repeat for ever. A bot still drops to make room for a gain
    #: (a decision) and wears what it gains.
    never_taken = frozenset({"drop", "put_on", "take_off"})
    #: Moving on rather than passing where it stands.
    wander = frozenset({"move"})
    end_turn: str | None = "pass"
    #: The planner plays each candidate through the round's end (the event phase, where secrets are read)
    #: to the next round, whichever seat it holds (``bots.policies``).
    whole_round_playouts = True
    #: The planner's time per decision when a game's settings name none. A playout of a whole round is mostly
    #: its dice: at the service's 50 ms the planner dealt a world or two a decision and tied greedy over
    #: 200 games, and it needs several worlds to tell its candidates apart (docs/bots.md, "Zona").
    planner_budget_ms = 200

    def determinize(self, view: dict[str, Any], seat: Seat, rng: Rng) -> State:
        return hidden.determinize(view, seat, rng)

    def evaluate(self, view: dict[str, Any], seat: Seat) -> float:
        return evaluate(view, seat)

    def standing(self, view: dict[str, Any], seat: Seat) -> float:
        return standing(view, seat)

    def free_choice(self, view: dict[str, Any], seat: Seat) -> bool:
        """The seat's own turn of the action phase, no decision pending (Zona §"AKCJE")."""
        turn = view.get("turn")
        return view.get("pending") is None and not view.get("over") and turn is not None and turn["seat"] == seat

    def scoring_view(self, state: State, seat: Seat) -> dict[str, Any]:
        """What ``evaluate`` and ``free_choice`` read of the seat's view, quicker to build than all of it."""
        return scoring_view(state, seat)


ZONA_AI = ZonaAI()
