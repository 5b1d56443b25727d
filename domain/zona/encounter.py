"""Threat tokens and the encounter with a mutant or an anomaly.

Zona §"UŻYWANIE PODAJNIKA" (draw from the bottom, discard onto the top),
§"MUTANTY I ANOMALIE", §"ŻETONY ZAGROŻEŃ NA PLANSZY", the four steps
§"1. ZDOLNOŚĆ ZAGROŻENIA", §"2. WYKRYCIE", §"3. KONFRONTACJA", §"4. ŁUP",
§"ŻETONY ZAGROŻEŃ W TAJNYCH OBIEKTACH".
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields

from domain.zona import checks, harm, items
from domain.zona.effects import Address, effect
from domain.zona.model import queue_of
from domain.zona.pack import pack_named
from domain.zona.resolution import FRAMES, RULES, ZonaResolution
from domain.zona.state import State, owned_items

RULE_BOARD = 'Zona §"ŻETONY ZAGROŻEŃ NA PLANSZY"'


def draw(res: ZonaResolution, kind: str, colour: str, target: str) -> str | None:
    """The bottom token of a dispenser queue to ``target``; an empty queue gives nothing."""
    queue = queue_of(kind, colour)
    tokens = res.state.dispenser[queue]
    if not tokens:
        return None
    token: str = tokens[0]
    res.move("ThreatDrawn", token, f"dispenser:{queue}", target)
    return token


def can_hold_threats(res: ZonaResolution, area: str) -> bool:
    """Zona §"BUNKRY": never a threat in a bunker (nor in a facility or the sarcophagus)."""
    return res.pack.areas[area].open_ground


def place(res: ZonaResolution, kind: str, colour: str, area: str) -> None:
    if can_hold_threats(res, area):
        draw(res, kind, colour, f"area:{area}")


def discard(res: ZonaResolution, token: str, source: str) -> None:
    res.move("ThreatDiscarded", token, source, f"dispenser_top:{res.pack.threat(token).queue}")


def start(res: ZonaResolution, seat: int, token: str, no_flee: bool = False) -> None:
    """Meet ``token`` (already ``in_play``). Step 1: its ability is read first (it is on the token)."""
    area = res.stalker(seat)["area"]
    res.push("encounter", seat=seat, token=token, step="detect", no_flee=no_flee,
             facility=res.pack.areas[area].sector == "facility", lowered=0)


@FRAMES.step("encounter")
def step_encounter(res: ZonaResolution, frame: dict[str, Any]) -> None:
    seat, token = frame["seat"], frame["token"]
    threat = res.pack.threat(token)
    step = frame["step"]
    if step == "detect":
        skips = skip_items(res, seat, threat.kind)
        if skips and not frame.get("asked_skip"):
            res.ask(seat, "skip_encounter", [*({"type": "skip", "card": c} for c in skips), {"type": "face"}],
                    threat=threat.name)
            return
        res.update(step="detected")
        checks.start(res, seat, "alertness", threat.detect, against=threat.kind, stage="detect")
    elif step == "detected":
        res.update(step="flee")
        if not frame["result"]["passed"]:
            _hurt(res, seat, threat.kind, threat.damage, threat.fatigue)
    elif step == "flee":
        if frame["no_flee"]:
            res.update(step="confront")
        else:
            res.ask(seat, "flee", [{"type": "confront"}, {"type": "flee"}], threat=threat.name)
    elif step == "confront":
        lower = threat.ability.get("trophy_lowers")
        trophies = list(res.stalker(seat)["trophies"])
        if lower and trophies and not frame.get("asked"):
            res.ask(seat, "trophy", [*({"type": "discard_trophy", "token": t} for t in trophies), {"type": "confront"}],
                    lowers=lower)
            return
        res.update(step="confronted")
        checks.start(res, seat, threat.attribute, threat.difficulty - frame["lowered"], against=threat.kind,
                     stage="confront")
    elif step == "confronted":
        if frame["result"]["passed"]:
            res.pop()
            loot(res, seat, token)
        else:
            res.update(step="leave")
            _hurt(res, seat, threat.kind, threat.damage, threat.fatigue)
    else:
        res.pop()
        leave(res, seat, token, frame["facility"])


def skip_items(res: ZonaResolution, seat: int, kind: str) -> list[str]:
    """Items that let the stalker not resolve an encounter with this kind of threat (Moc-like finds)."""
    s = res.stalker(seat)
    return [c for c in owned_items(s) if res.pack.item_type(c).skip_encounter == kind
            and items.works(res.pack, res.state, s, c)]


@RULES.answer("skip_encounter", rule='Zona §"OBJAŚNIENIE KART PRZEDMIOTÓW"')
def answer_skip(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    frame = res.frame
    if choice["type"] == "face":
        res.update(asked_skip=True)
        return
    # The token is drawn, then set aside undefeated: no loot, no damage.
    res.pop()
    discard(res, frame["token"], "in_play")
    items.use(res, frame["seat"], choice["card"], "skip_encounter")


RULES.answer_command("skip", {"card": fields.String(required=True)})
RULES.answer_command("face", {})


def _hurt(res: ZonaResolution, seat: int, kind: str, damage: dict[str, int], fatigue: int) -> None:
    """A failed test's damage: ``by`` names the threat kind, so an immunity to it can be used."""
    harm.suffer(res, seat, damage, by=kind, fatigue=fatigue)


def leave(res: ZonaResolution, seat: int, token: str, facility: bool) -> None:
    """An undefeated threat stays in the stalker's area, or is discarded in a facility."""
    area = res.stalker(seat)["area"]
    if facility or not can_hold_threats(res, area):
        discard(res, token, "in_play")
    else:
        res.move("ThreatPlaced", token, "in_play", f"area:{area}", seat)


def loot(res: ZonaResolution, seat: int, token: str) -> None:
    """Zona §"4. ŁUP": a trophy (the mutant token itself), artifacts, or nothing."""
    threat = res.pack.threat(token)
    area = res.stalker(seat)["area"]
    if "trophy" in threat.loot:
        res.move("TrophyTaken", token, "in_play", f"trophies:{seat}", seat)
    else:
        discard(res, token, "in_play")
    spawn = threat.ability.get("spawn", 0)
    for _ in range(spawn):
        place(res, threat.kind, threat.colour, area)
    if "artifact" in threat.loot:
        count = int(threat.loot.get("count", 1))
        items.take(res, seat, f"{threat.loot['artifact']}_artifact", count, count)


@RULES.answer("flee", rule='Zona §"2. WYKRYCIE"')
def answer_flee(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    if choice["type"] == "flee":
        frame = res.frame
        res.pop()
        leave(res, frame["seat"], frame["token"], frame["facility"])
    else:
        res.update(step="confront")


@RULES.answer("trophy", rule='Zona §"3. KONFRONTACJA"')
def answer_trophy(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    frame = res.frame
    threat = res.pack.threat(frame["token"])
    if choice["type"] == "discard_trophy":
        res.update(lowered=threat.ability["trophy_lowers"], asked=True)
        discard(res, choice["token"], f"trophies:{frame['seat']}")
    else:
        res.update(asked=True)


RULES.answer_command("confront", {})
RULES.answer_command("flee", {})
RULES.answer_command("discard_trophy", {"token": fields.String(required=True)})


# -- the Voice picks which threat is met on arrival -------------------------------------


def highest_detection(state: State, tokens: list[str]) -> list[str]:
    """Zona §"WARIANT GRY SOLO": the automated Voice picks the hardest to detect."""
    pack = pack_named(state.pack)
    best = max(pack.threat(t).detect for t in tokens)
    return [t for t in tokens if pack.threat(t).detect == best]


def arrive(res: ZonaResolution, seat: int, area: str) -> None:
    """Zona §"ŻETONY ZAGROŻEŃ NA PLANSZY": a move into threats means one encounter; with several,
    the Voice of the Zone chooses which (in solo: the highest detection, ties to the player)."""
    tokens = list(res.state.threats.get(area, []))
    if not tokens:
        return
    if len(tokens) == 1:
        met(res, seat, tokens[0], area)
        return
    if res.state.players == 1:
        best = highest_detection(res.state, tokens)
        if len(best) == 1:
            met(res, seat, best[0], area)
            return
        res.push("arrival", seat=seat, area=area, chooser=seat, tokens=best)
        return
    res.push("arrival", seat=seat, area=area, chooser=res.state.voice, tokens=tokens)


@FRAMES.step("arrival")
def step_arrival(res: ZonaResolution, frame: dict[str, Any]) -> None:
    res.ask(frame["chooser"], "threat_met", [{"type": "meet", "token": t} for t in frame["tokens"]],
            stalker=frame["seat"], area=frame["area"])


@RULES.answer("threat_met", rule=RULE_BOARD)
def answer_met(res: ZonaResolution, choice: dict[str, Any], decision: Any) -> None:
    frame = res.frame
    res.pop()
    met(res, frame["seat"], choice["token"], frame["area"])


RULES.answer_command("meet", {"token": fields.String(required=True)})


def met(res: ZonaResolution, seat: int, token: str, area: str, no_flee: bool = False) -> None:
    res.move("ThreatDrawn", token, f"area:{area}", "in_play", seat)
    start(res, seat, token, no_flee)


# -- threats in the effects vocabulary ---------------------------------------------------


@effect("encounter")
def _encounter(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    """Zona §"SPOTKANIA": a token from the bottom of its queue, met at once."""
    token = draw(res, e["encounter"]["kind"], e["encounter"]["colour"], "in_play")
    if token is not None:
        start(res, seat, token)


@effect("threat_encounter")
def _threat_encounter(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    spec = e["threat_encounter"]
    token = draw(res, spec["kind"], spec["colour"], "in_play")
    if token is not None:
        start(res, seat, token, no_flee=spec.get("no_flee", False))


@effect("threat_pair")
def _threat_pair(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    area = res.stalker(seat)["area"]
    placed = [t for kind in ("mutant", "anomaly")
              if (t := draw(res, kind, e["threat_pair"]["colour"], f"area:{area}")) is not None]
    if len(placed) == 1:
        met(res, seat, placed[0], area)
    elif placed:
        res.push("arrival", seat=seat, area=area, chooser=seat, tokens=placed)


@effect("place_threat")
def _place_threat(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    spec = e["place_threat"]
    area = res.stalker(seat)["area"] if spec["area"] == "here" else spec["area"]
    place(res, spec["kind"], spec["colour"], area)
