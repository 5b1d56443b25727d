"""Every fact Zona's log can hold: each event's fold and schema, registered in the table.

The folds are small and all of one kind (a card or token moves, a stalker's
fields change, a frame of the resolution stack changes), so one place shows
every fact the log can hold. Each writes through a ``Draft``, so the old
state is never touched and a resolution can fold its own events in place (``resolution.InPlace``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from marshmallow import fields

from domain.zona.resolution import RULES, WRITERS
from domain.zona.state import Draft, State, clone, fresh, move

Str = fields.String
Int = fields.Integer
Raw = fields.Raw
Bool = fields.Boolean


def _fold(name: str, shape: dict[str, fields.Field]) -> Callable[[Callable[[Draft, dict[str, Any]], None]], None]:
    """Register a fold that writes through a Draft (so the old state is never touched)."""

    def register(write: Callable[[Draft, dict[str, Any]], None]) -> None:
        def fold(state: State, data: dict[str, Any]) -> State:
            d = Draft(state)
            write(d, data)
            return d.new

        RULES.fold(name, shape)(fold)
        WRITERS[name] = write

    return register


# -- the game is created -------------------------------------------------------


@_fold("GameSetUp", {"state": Raw(required=True)})
def _created(d: Draft, data: dict[str, Any]) -> None:
    # The table as the event has it, shared (cloning it was a fiftieth of a random game): the folds after copy
    # what they write.
    d.lend_all(data["state"])


# -- cards and tokens move (one fold, many names so the log reads) ---------------

MOVES = (
    "ItemDrawn", "ItemKept", "ItemDiscarded", "ItemDropped", "ItemBought", "ItemSold", "ItemStowed", "ItemWorn",
    "MarketFilled", "MarketSlid", "FindKept", "EventCardDrawn", "EventCardDiscarded", "SecretDiscovered",
    "NewsDrawn", "NewsReturned", "NewsRemoved", "EmissionRevealed", "ThreatDrawn", "ThreatPlaced",
    "ThreatDiscarded", "TrophyTaken", "SecretKept",
)
_MOVE_SHAPE: dict[str, fields.Field] = {
    "thing": Str(required=True), "source": Str(required=True), "target": Str(required=True),
    "seat": Int(allow_none=True), "reason": Str(),
}


def _moved(d: Draft, data: dict[str, Any]) -> None:
    move(d, data["thing"], data["source"], data["target"])
    if data["target"].split(":")[0] in ("discard", "box", "dispenser_top", "deck", "market", "finds"):
        # Wear marks a card in play; a card back in a pile is a fresh card.
        if data["thing"] in d.read("wear"):
            d["wear"].pop(data["thing"], None)
        if data["thing"] in d.read("deactivated"):
            d["deactivated"].remove(data["thing"])


for _name in MOVES:
    _fold(_name, _MOVE_SHAPE)(_moved)


@_fold("DeckShuffled", {"deck": Str(required=True), "order": fields.List(Str(), required=True)})
def _shuffled(d: Draft, data: dict[str, Any]) -> None:
    # The discard pile becomes the deck in the drawn order (Zona §"WYDARZENIA ZIEŁONEGO SEKTORA I ŻÓŁTEGO SEKTORA").
    d.put("discards", data["deck"], [c for c in d.read("discards")[data["deck"]] if c not in data["order"]])
    d.put("decks", data["deck"], d.read("decks")[data["deck"]] + list(data["order"]))


# -- a stalker's own numbers change ----------------------------------------------

STALKER_FIELDS: Final = ("area", "damage", "fatigue", "reputation", "roubles", "injuries", "ability_used", "dead",
                  "must_leave", "entered_by_move")
_STALKER_SHAPE: dict[str, fields.Field] = {
    "seat": Int(required=True), "area": Str(allow_none=True), "damage": Int(), "fatigue": Int(), "reputation": Str(),
    "roubles": Int(), "injuries": fields.List(Str()), "ability_used": Bool(), "dead": Bool(),
    "must_leave": Bool(), "entered_by_move": Bool(),
    # What caused it, for the log's words only.
    "by": Str(), "amounts": Raw(), "overflow": Int(), "change": Int(),
}
STALKER_EVENTS = (
    "StalkerMoved", "StalkerRelocated", "DamageSuffered", "Healed", "InjuryTaken", "InjuryHealed",
    "FatigueChanged", "ReputationChanged", "RoublesChanged", "AbilityUsed", "MustLeaveFacility", "StalkerDied",
)


def _stalker_set(d: Draft, data: dict[str, Any]) -> None:
    s = d.part("stalkers", data["seat"])
    for key in STALKER_FIELDS:
        if key in data:
            s[key] = fresh(data[key])


for _name in STALKER_EVENTS:
    _fold(_name, _STALKER_SHAPE)(_stalker_set)


@_fold("CharacterChosen", {"seat": Int(required=True), "stalker": Raw(required=True)})
def _character(d: Draft, data: dict[str, Any]) -> None:
    d.put("stalkers", data["seat"], clone(data["stalker"]))
    d["used_characters"].append(data["stalker"]["character"])


@_fold("ItemUsed", {"seat": Int(required=True), "card": Str(required=True), "wear": Int(required=True),
                    "deactivated": Bool(required=True), "purpose": Str()})
def _used(d: Draft, data: dict[str, Any]) -> None:
    d["wear"][data["card"]] = data["wear"]
    if data["deactivated"] and data["card"] not in d.read("deactivated"):
        d["deactivated"].append(data["card"])


@_fold("ItemRepaired", {"seat": Int(required=True), "card": Str(required=True), "wear": Int(required=True)})
def _repaired(d: Draft, data: dict[str, Any]) -> None:
    d["wear"][data["card"]] = data["wear"]


@_fold("ItemsRefreshed", {"cards": fields.List(Str(), required=True)})
def _refreshed(d: Draft, data: dict[str, Any]) -> None:
    d["deactivated"] = [c for c in d.read("deactivated") if c not in data["cards"]]


# -- phases, turns, the Voice ------------------------------------------------------


@_fold("PhaseStarted", {"phase": Str(required=True), "round": Int(required=True)})
def _phase(d: Draft, data: dict[str, Any]) -> None:
    d["phase"], d["round"], d["turn"] = data["phase"], data["round"], None
    d["turns_taken"] = []


@_fold("TurnStarted", {"seat": Int(required=True)})
def _turn(d: Draft, data: dict[str, Any]) -> None:
    d["turn"] = {"seat": data["seat"], "actions": 0, "area_action": False, "bought": [], "done": False}
    d["turns_taken"].append(data["seat"])


@_fold("ActionTaken", {"seat": Int(required=True), "action": Str(required=True), "ends_turn": Bool()})
def _action(d: Draft, data: dict[str, Any]) -> None:
    t = d["turn"]
    t["actions"] += 1
    t["area_action"] = t["area_action"] or data["action"] == "area_action"
    t["done"] = t["done"] or data.get("ends_turn", False) or t["actions"] >= 2


@_fold("TurnEnded", {"seat": Int(required=True)})
def _turn_ended(d: Draft, data: dict[str, Any]) -> None:
    d["turn"] = None


@_fold("VoicePassed", {"seat": Int(required=True)})
def _voice(d: Draft, data: dict[str, Any]) -> None:
    d["voice"] = data["seat"]


@_fold("EmissionAdvanced", {"marker": Int(required=True)})
def _emission(d: Draft, data: dict[str, Any]) -> None:
    d["emission"] = data["marker"]


@_fold("TimedNewsPlaced", {"card": Str(allow_none=True), "target": Str(allow_none=True)})
def _timed(d: Draft, data: dict[str, Any]) -> None:
    d["timed"] = None if data["card"] is None else {"card": data["card"], "target": data["target"]}


@_fold("FacilityOpened", {"seat": Int(required=True), "facility": Str(required=True)})
def _opened(d: Draft, data: dict[str, Any]) -> None:
    d.part("locks", data["facility"])["open"] = True


@_fold("FacilityLooted", {"facility": Str(required=True)})
def _looted(d: Draft, data: dict[str, Any]) -> None:
    d["looted"].append(data["facility"])


@_fold("GameWon", {"seat": Int(required=True)})
def _won(d: Draft, data: dict[str, Any]) -> None:
    d["over"], d["winner"], d["phase"], d["frames"], d["pending"] = True, data["seat"], "over", [], None


@_fold("GameLost", {"reason": Str(required=True)})
def _lost(d: Draft, data: dict[str, Any]) -> None:
    d["over"], d["lost"], d["phase"], d["frames"], d["pending"] = True, data["reason"], "over", [], None


# -- the resolution stack and pending decisions ------------------------------------


@_fold("FramePushed", {"frame": Raw(required=True)})
def _pushed(d: Draft, data: dict[str, Any]) -> None:
    d.lend("frames", data["frame"])


@_fold("FrameUpdated", {"changes": Raw(required=True), "depth": Int()})
def _updated(d: Draft, data: dict[str, Any]) -> None:
    d.part("frames", -1 - data.get("depth", 0)).update(data["changes"])  # shared: no fold changes one in place


@_fold("FramePopped", {"result": Raw(allow_none=True), "count": Int()})
def _popped(d: Draft, data: dict[str, Any]) -> None:
    frames = d.container("frames")
    d.shrink("frames", len(frames) - data.get("count", 1))
    if frames and data.get("result") is not None:
        d.part("frames", -1)["result"] = fresh(data["result"])


@_fold("DiceRolled", {"seat": Int(required=True), "dice": fields.List(Str(), required=True)})
def _rolled(d: Draft, data: dict[str, Any]) -> None:
    d.part("frames", -1)["dice"] = list(data["dice"])


@_fold("DieRerolled", {"seat": Int(required=True), "die": Int(required=True), "face": Str(required=True),
                       "by": Str(required=True)})
def _rerolled(d: Draft, data: dict[str, Any]) -> None:
    frame = d.part("frames", -1)
    dice = frame["dice"][:]  # the frame's own copy is shallow (``drafts.PARTS``): its dice are shared
    dice[data["die"]] = data["face"]
    frame["dice"] = dice


@_fold("DecisionRequested", {"seat": Int(required=True), "kind": Str(required=True),
                             "choices": fields.List(Raw(), required=True), "context": Raw()})
def _requested(d: Draft, data: dict[str, Any]) -> None:
    # The choices are the event's, shared: no fold writes a pending decision's choices (it is answered and
    # gone), and cloning them was a twentieth of a random game. ``tests/domain/zona/test_drafts.py`` holds
    # every event's data unchanged to the game's end.
    d["pending"] = {"seat": data["seat"], "kind": data["kind"], "choices": data["choices"],
                    "context": fresh(data.get("context") or {})}


@_fold("DecisionMade", {"seat": Int(required=True), "kind": Str(required=True), "command": Raw(required=True)})
def _made(d: Draft, data: dict[str, Any]) -> None:
    d["pending"] = None


RULES.declare_event("TestResolved", {"seat": Int(required=True), "attribute": Str(required=True),
                                     "total": Int(required=True), "difficulty": Int(required=True),
                                     "passed": Bool(required=True)})
