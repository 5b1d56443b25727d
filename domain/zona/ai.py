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
trophies (a lock's price), roubles and a good reputation. Which facility is
worth going to, and which stalker worth drafting, is the stalker's odds at
the tests its cards ask for (``domain.zona.odds``); threats on the way in cost
a step; and the best other stalker's progress counts against a seat, since
the game is a race. Determinizing a view lives in ``domain.zona.determinize``.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable
from typing import Any, Final

from mypy_extensions import mypyc_attr

from domain.game import Command, GameAI, Seat
from domain.rng import Rng
from domain.zona import determinize as hidden
from domain.zona import odds
from domain.zona.board import board_for
from domain.zona.pack import pack_named
from domain.zona.state import MAX_FATIGUE, State
from domain.zona.view import scoring_view, search_view

#: The score of a won game, and of a lost one (far beyond any position).
WON: Final = 1000.0
LOST: Final = -200.0

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
    score = _way(view, me) + _aptitude(view, me)
    # Zona §"PRZEGRANA": the news deck is the clock. With few cards left, getting on counts, sparing oneself less.
    care = min(1.0, (view["decks"]["news"] + 1) / 4)
    stamina = me["stamina"] or 0
    left = stamina - me["damage"]
    body = 2.5 * left - (8.0 if left <= 1 else 0.0) - 7.0 * len(me["injuries"])
    body -= 2.0 * me["fatigue"] + (4.0 if me["fatigue"] >= MAX_FATIGUE else 0.0)
    kept: int = len(me["backpack"]) + len(me["worn"]) + len(me["small"]) + len(me["sixth"])
    body += 3.0 * kept + 2.5 * len(me["trophies"]) + me["roubles"] / 100.0
    body += REPUTATION.get(me["reputation"], 0.0)
    score += care * body
    if me["dead"]:
        score -= 40.0
    return score


#: What a stalker's reputation is worth (``standing``).
REPUTATION: Final = {"good": 3.0, "neutral": 0.0, "bad": -3.0}


def _way(view: dict[str, Any], stalker: dict[str, Any]) -> float:
    """The secrets a stalker holds and how far it stands from the next step (Zona §"CEL GRY"): with fewer than
    two, the facility worth going to, by the way there and its odds for this stalker; with two, the way to
    the power plant and the sarcophagus."""
    table = view["table"]
    pack_name = table["pack"]
    distances, entrances, gates = _paths(pack_name, view["side"])
    secrets = stalker["secrets"]
    held = len(set(secrets)) if len(secrets) > 1 else len(secrets)
    score = 60.0 * min(held, 2)
    here = stalker["area"]
    near = distances.get(here, {})
    threats = view.get("threats") or {}
    if held >= 2:
        area = pack_named(pack_name).areas[here]
        if area.sector == "sarcophagus":
            return score + 130.0
        if area.power_plant:
            return score + 90.0
        return score + 50.0 - 6.0 * _nearest(near, gates, threats, here)
    # Facilities whose secret is still to learn: inside one the event phase reads its deck, and whether a
    # card yields the secret is mostly the stalker's attributes against that deck's tests.
    decks = _decks_at(table.get("facility_of") or {})
    chances = odds.chances(pack_name, stalker)
    steps_in = _steps_to(pack_name, view["side"], here, threats)
    best = 0.0
    for f, info in view["facilities"].items():
        if f in secrets or info["looted"]:
            continue
        chance = chances.get(decks[f], ODDS) if f in decks else ODDS
        if here == f:
            value = 12.0 + 30.0 * chance
        else:
            steps = steps_in.get(f, 20)
            value = max(0.0, 20.0 - 4.0 * (steps + 1 + _hindrance(view, stalker, info, f))) * (0.5 + 1.25 * chance)
        if value > best:
            best = value
    return score + best


def _steps_to(pack_name: str, side: str, here: str, threats: dict[str, Any]) -> dict[str, int]:
    """The steps from ``here`` into each facility (``_way``; 20 where it has no entrance): the moves to its
    nearest entrance area, one more through an entrance where threats wait (Zona §"ŻETONY ZAGROŻEŃ NA PLANSZY":
    a fight on the way in; ``_threatened``). Worked out once per area with no threat on the board, and looked up
    while the same threats are (the scoring view shares them from position to position: held, so their ids are
    not reused)."""
    if not threats:
        return _steps_in(pack_name, side, here)
    key = (id(threats), here, pack_name, side)
    found = _STEPS.get(key)
    if found is not None and found[0] is threats:
        return found[1]
    distances, entrances, _ = _paths(pack_name, side)
    near = distances.get(here, {})
    steps = {f: _nearest(near, areas, threats, here) for f, areas in entrances.items()}
    if len(_STEPS) >= 256:
        _STEPS.clear()
    _STEPS[key] = (threats, steps)
    return steps


_STEPS: Final[dict[tuple[int, str, str, str], tuple[dict[str, Any], dict[str, int]]]] = {}


@functools.cache
def _steps_in(pack_name: str, side: str, here: str) -> dict[str, int]:
    """``_steps_to`` with no threat on the board, once per pack, side and area."""
    distances, entrances, _ = _paths(pack_name, side)
    near = distances.get(here, {})
    return {f: min((near.get(g, 20) for g in areas), default=20) for f, areas in entrances.items()}


#: The last map of facilities to decks read (``table.facility_of``, held) and the decks by area it gives.
_DECKS_AT: Final[list[Any]] = [None, {}]


def _decks_at(facility_of: dict[str, str]) -> dict[str, str]:
    """Which deck each facility area holds, from the table's map of decks to areas (looked up while the
    same map is read: the AI's scoring view hands on the state's own, which no fold rewrites in play)."""
    if _DECKS_AT[0] is not facility_of:
        _DECKS_AT[:] = [facility_of, {area: name for name, area in facility_of.items()}]
    decks: dict[str, str] = _DECKS_AT[1]
    return decks


#: A facility's odds when the view does not say which deck it holds: about the base pack's middling odds.
ODDS: Final = 0.4


def _nearest(near: dict[str, int], areas: tuple[str, ...], threats: dict[str, Any], here: str) -> int:
    """The fewest steps from ``here`` (``near``: its moves to each area, 20 where none) to one of ``areas``, one more
    through an area where threats wait (``_threatened``); 20 with no area. A loop, where ``min`` over a generator
    went through Python's calling convention in the compiled build: 2,400 instructions a call."""
    best = -1
    for area in areas:
        steps = near.get(area, 20) + _threatened(threats, area, here)
        if best < 0 or steps < best:
            best = steps
    return 20 if best < 0 else best


def _threatened(threats: dict[str, Any], area: str, here: str) -> int:
    """A step more to go through ``area`` when threats wait there (Zona §"ŻETONY ZAGROŻEŃ NA PLANSZY": moving
    in means meeting one), none where the stalker already stands."""
    return 1 if area != here and threats.get(area) else 0


def _aptitude(view: dict[str, Any], stalker: dict[str, Any]) -> float:
    """What the stalker's attributes are worth for the tests ahead: its odds at its two best facilities and at
    the sarcophagus (``domain.zona.odds``). Constant but for injuries once drafted, it is what a bot
    drafts by (Zona §"WYBÓR I PRZYGOTOWANIE SZPERACZY") and what an injury to a tested attribute costs more."""
    table = view["table"]
    facility_of = table.get("facility_of") or {}
    if not facility_of:
        return 0.0
    chances = odds.chances(table["pack"], stalker)
    # The odds are one cached map per stalker and injuries (``odds.chances``) and the table's map is the same
    # from state to state: while both are, so is the worth (both held, so their ids are not reused).
    key = (id(chances), id(facility_of))
    found = _APTITUDE.get(key)
    if found is not None and found[0] is chances and found[1] is facility_of:
        worth: float = found[2]
        return worth
    best = sorted(chances.get(deck, ODDS) for deck in facility_of)[-2:]
    worth = 60.0 * sum(best) / 2 + 30.0 * chances.get("sarcophagus", 0.0)
    if len(_APTITUDE) >= 256:
        _APTITUDE.clear()
    _APTITUDE[key] = (chances, facility_of, worth)
    return worth


_APTITUDE: Final[dict[tuple[int, int], tuple[dict[str, float], dict[str, str], float]]] = {}


def _hindrance(view: dict[str, Any], me: dict[str, Any], info: dict[str, Any], facility: str) -> int:
    """Steps' worth of trouble getting into a facility (its view, its area) besides walking there: a lock the
    stalker cannot pay yet, or no room inside (Zona §"OTWARCIE TAJNEGO OBIEKTU")."""
    if info["open"]:
        inside = 0
        for s in view["stalkers"]:
            if s["area"] == facility and not s["dead"]:
                inside += 1
        spaces: int = view["board"]["facility_spaces"]
        return 2 if inside >= spaces else 0
    lock = info["lock"]
    # Typed, so the sums below are machine integers in the compiled build.
    price: int = lock["roubles"]
    trophies: int = lock["trophies"]
    tiring: int = lock["fatigue"]
    roubles: int = me["roubles"]
    fatigue: int = me["fatigue"]
    wounds: int = me["damage"]
    stamina: int = me["stamina"]
    for n in lock["damage"].values():
        wounds += n
    # Roubles to earn (a step a 200), trophies to take (two steps each), rests to take, wounds to heal.
    short = -(-max(0, price - roubles) // 200) + 2 * max(0, trophies - len(me["trophies"]))
    short += max(0, fatigue + tiring - MAX_FATIGUE)
    short += 2 if wounds > stamina else 0
    return min(short, 4)


def scoring_key(state: State, seat: Seat) -> tuple[Any, ...] | None:
    """What ``evaluate`` reads of ``seat``'s view of ``state``, as a key (``GameAI.scoring_key``): the game's end,
    the news left, the areas where threats wait, the facilities' locks and loot and the table's map (by identity:
    a fold copies what it writes, and whoever keeps the key keeps the state), and each stalker's numbers
    (``_stalker_key``). Not the dice of a test, the rules' frames or the pending decision: the choices a search
    weighs side by side mostly differ there only. None in the setup, whose view the score reads otherwise."""
    phase = state.phase
    if phase == "new" or phase == "setup":
        return None
    return (seat, phase, state.over, state.winner, state.side, state.pack, id(state.facility_of), id(state.locks),
            id(state.looted), len(state.decks["news"]), _threat_areas(state.threats),
            *[_stalker_key(s) for s in state.stalkers])


def _threat_areas(threats: dict[str, list[str]]) -> tuple[str, ...]:
    """The areas where threats wait: all of the threats ``evaluate`` reads (``_threatened``). Looked up while the
    state's threats are the same object as the last asked about (held, so its id is not reused): a fold copies
    the threats it writes, and a search's positions mostly share them."""
    last = _THREATS_READ
    if last[0] is not threats:
        last[:] = [threats, tuple([area for area, tokens in threats.items() if tokens])]
    areas: tuple[str, ...] = last[1]
    return areas


#: The threats ``_threat_areas`` read last, and the areas where they wait.
_THREATS_READ: Final[list[Any]] = [None, ()]


def _stalker_key(s: dict[str, Any]) -> tuple[Any, ...]:
    """What ``evaluate`` reads of a stalker (``standing``, ``_way``, ``_aptitude``, ``_hindrance``, ``rivals``): its
    numbers, injuries and secrets, and how many things it keeps, not which. Looked up while the state's stalker
    is the same object (a fold copies a stalker it writes: a search's positions mostly change one, or none)."""
    found = _STALKER_KEYS.get(id(s))
    if found is not None and found[0] is s:
        return found[1]
    key = (s["seat"], s["character"], s["area"], s["damage"], s["fatigue"], s["reputation"], s["roubles"], s["dead"],
           tuple(s["injuries"]), len(s["backpack"]) + len(s["worn"]) + len(s["small"]) + len(s["sixth"]),
           len(s["trophies"]), tuple(s["secrets"]))
    if len(_STALKER_KEYS) >= 256:
        _STALKER_KEYS.clear()
    _STALKER_KEYS[id(s)] = (s, key)  # the stalker held too: its id is not reused while the entry stands
    return key


#: Stalkers' keys (``_stalker_key``) by the id of the state's stalker: (that stalker, its key).
_STALKER_KEYS: Final[dict[int, tuple[dict[str, Any], tuple[Any, ...]]]] = {}


#: How much the best other stalker's progress (its secrets and its way on) takes off a seat's score.
RIVAL: Final = 0.25


def evaluate(view: dict[str, Any], seat: Seat) -> float:
    """``standing``, less a share of the best other stalker's progress (the game is a race: Zona §"CEL GRY";
    as the Voice of the Zone a bot so lays its threats across the leader's way); a game over is won
    (``WON``) or lost (``LOST``) and nothing else."""
    if view.get("over"):
        return WON if view.get("winner") == seat else LOST
    return standing(view, seat) - RIVAL * rivals(view, seat)


def rivals(view: dict[str, Any], seat: Seat) -> float:
    """The best progress (``_way``) of a stalker in play other than ``seat``'s."""
    if view.get("phase", "new") == "new":
        return 0.0
    stalkers = view.get("stalkers") or ()
    others = [s for s in stalkers
              if s["seat"] != seat and s["character"] is not None and s["area"] is not None and not s["dead"]]
    if not others:
        return 0.0
    if "faces" in view:  # a whole view (the API's, a test's): its parts are its own, so worked out afresh
        return max(_way(view, s) for s in others)
    # What ``_way`` reads besides the stalker: the facilities, the threats, the table's map, where everyone
    # stands (room inside an open facility), the board. In a search the other stalkers' views and these parts
    # are mostly the same objects from position to position (the scoring view shares what no event touched):
    # each rival's way is looked up while they are (all held, so their ids are not reused).
    facilities, threats, table = view["facilities"], view.get("threats"), view["table"]
    facility_of = table.get("facility_of")
    board = view.get("board")
    around = (view["side"], table["pack"], board.get("facility_spaces") if board is not None else None,
              *[(s["area"], s["dead"]) for s in stalkers])
    best = 0.0
    for n, s in enumerate(others):
        key = (id(s), id(facilities), id(threats), id(facility_of), around)
        found = _RIVALS.get(key)
        if found is not None and found[0] is s and found[1] is facilities and found[2] is threats \
                and found[3] is facility_of:
            way: float = found[4]
        else:
            way = _way(view, s)
            if len(_RIVALS) >= 256:
                _RIVALS.clear()
            _RIVALS[key] = (s, facilities, threats, facility_of, way)
        if n == 0 or way > best:
            best = way
    return best


#: Rivals' ways (``rivals``) by the objects they were worked out from: (stalker, facilities, threats, map, way).
_RIVALS: Final[dict[tuple[Any, ...], tuple[Any, Any, Any, Any, float]]] = {}


def _chooses_freely(turn: dict[str, Any] | None, pending: dict[str, Any] | None, over: bool, seat: Seat) -> bool:
    """``ZonaAI.free_choice``, of a view's or a state's turn, pending decision and end (the view shows the state's)."""
    return pending is None and not over and turn is not None and turn["seat"] == seat


#: Decisions a searching bot answers as a lapsed deadline would (``candidates``). Weighed in a look-ahead (four
#: greedy games, 2026-12-02), the best answer to 1,894 of these and the Voice's area was the lapsed default in all
#: but 3% (the Voice's area 5%, fleeing 3%, the rest 0-2%), at a fifth of the look-ahead's commands; as the bot's
#: own decision greedy took another answer mostly by breaking ties at random, and answering these at the default
#: there too played as well (docs/bots.md).
LAPSED: Final = frozenset({
    "gain_item", "flee", "find", "repair", "trophy", "threat_met", "skip_encounter", "damage_item", "dash",
})
#: And in a look-ahead only: the Voice's area (Zona §"SZPERACZE I GŁOS ZONY"), where as its own decision the
#: bot lays a threat across the leader's way; answered at the default there too, greedy trailed (311 to 352).
LAPSED_AHEAD: Final = LAPSED | {"voice_area"}
#: What a die's face does to a test's total, for the die a reroll is weighed on (``_worst_die``).
_FACE_RANK: Final = {"minus": 0, "triangle": 1, "blank": 2, "plus": 3}


def _candidates(pending: dict[str, Any] | None, seat: Seat, actions: list[Command], ahead: bool) -> list[Command]:
    """``ZonaAI.candidates`` of a view's or a state's pending decision (the view shows its seat the state's).

    Zona §"WYKONYWANIE TESTÓW" (and §"FORSOWANIE TESTU", §"PRZERZUCANIE KOŚCI"): a roll that passes
    already is kept (a reroll or an item can only lower it or cost something); a roll that fails is weighed
    rerolling its worst die only, each way to reroll it (forcing, the ability, an item) and every item that
    adds or cancels, against keeping it. Without this a search blind to the dice (the score reads no die)
    rerolled the first die whatever it showed.
    """
    if pending is None or pending["seat"] != seat:
        return actions
    kind = pending["kind"]
    if kind in (LAPSED_AHEAD if ahead else LAPSED):
        return []
    if kind != "test_options":
        return actions
    context = pending["context"]
    if context["total"] >= context["difficulty"]:
        return [a for a in actions if a["type"] == "accept"] or actions
    worst = _worst_die(context["dice"])
    return [a for a in actions if a.get("die", worst) == worst]


def _worst_die(dice: list[str]) -> int:
    """The die whose reroll can gain most (Zona §"WYKONYWANIE TESTÓW": a minus takes 1 off, two triangles 1
    between them, a blank or a lone triangle nothing, a plus adds 1); the first of equals."""
    pair = dice.count("triangle") >= 2
    worst, lowest = 0, len(_FACE_RANK)
    for i, face in enumerate(dice):
        rank = _FACE_RANK[face] if face != "triangle" or pair else _FACE_RANK["blank"]
        if rank < lowest:
            worst, lowest = i, rank
    return worst


# Compiled in the compiled build (mypyc_build.py), where the bots' tests still turn its knobs in Python subclasses.
@mypyc_attr(allow_interpreted_subclasses=True)
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
    #: Greedy's second world answers an action's follow-ups as its first did (``bots.lookahead.Shared``): with
    #: it and ``candidates``, greedy took 55.4% of 513 decisive games from greedy weighing every choice in both
    #: worlds, at twice its speed (docs/bots.md, "Greedy's choices worth weighing").
    follow_ups_shared = True

    def search_view(self, state: State, seat: Seat) -> dict[str, Any]:
        return search_view(state, seat)

    def determinize(self, view: dict[str, Any], seat: Seat, rng: Rng) -> State:
        return hidden.determinize(view, seat, rng)

    def dealer(self, view: dict[str, Any], seat: Seat) -> Callable[[Rng], State]:
        return hidden.dealer(view, seat)

    def evaluate(self, view: dict[str, Any], seat: Seat) -> float:
        return evaluate(view, seat)

    def standing(self, view: dict[str, Any], seat: Seat) -> float:
        return standing(view, seat)

    def free_choice(self, view: dict[str, Any], seat: Seat) -> bool:
        """The seat's own turn of the action phase, no decision pending (Zona §"AKCJE")."""
        return _chooses_freely(view.get("turn"), view.get("pending"), bool(view.get("over")), seat)

    def free_choice_at(self, state: State, seat: Seat) -> bool:
        return _chooses_freely(state.turn, state.pending, state.over, seat)

    def candidates(self, view: dict[str, Any], seat: Seat, actions: list[Command], ahead: bool) -> list[Command]:
        return _candidates(view.get("pending"), seat, actions, ahead)

    def candidates_at(self, state: State, seat: Seat, actions: list[Command], ahead: bool) -> list[Command]:
        return _candidates(state.pending, seat, actions, ahead)

    #: Decisions whose worth shows at once, weighed by their result right after rather than by a round's
    #: playouts (whose later dice drown the difference): a rolled test (Zona §"WYKONYWANIE TESTÓW": force a
    #: die, reroll one, use an item, or keep the roll), and an encounter's answers, each of which rolls a
    #: test at once or ends the encounter (§"2. WYKRYCIE": confront or flee; §"3. KONFRONTACJA": a trophy
    #: given up to lower the test; an item that skips the encounter, §"OBJAŚNIENIE KART PRZEDMIOTÓW").
    #: Not the trades (§"OBOZOWANIE"): an item bought shows its worth in later tests, which only the
    #: playouts reach; weighed at once the planner lost 28-32 in 65 games (docs/bots.md).
    CHANCE_KINDS = frozenset({"test_options", "flee", "trophy", "skip_encounter"})

    def chance_decision(self, view: dict[str, Any], seat: Seat) -> bool:
        """The seat owes one of ``CHANCE_KINDS``: the planner weighs each answer over the faces of the first
        die it rolls or rerolls, and by what it brings at once, settled by greedy's follow-ups
        (``bots.policies``)."""
        pending = view.get("pending")
        return pending is not None and pending["seat"] == seat and pending["kind"] in self.CHANCE_KINDS

    def scoring_key(self, state: State, seat: Seat) -> tuple[Any, ...] | None:
        return scoring_key(state, seat)

    def scoring_view(self, state: State, seat: Seat) -> dict[str, Any]:
        """What ``evaluate`` and ``free_choice`` read of the seat's view, quicker to build than all of it, with
        the table's public map of which facility holds which deck (the odds at each: ``domain.zona.odds``)."""
        shown = scoring_view(state, seat)
        if "table" in shown:
            shown["table"]["facility_of"] = state.facility_of  # only read, and the same map from state to state
        return shown


ZONA_AI = ZonaAI()
