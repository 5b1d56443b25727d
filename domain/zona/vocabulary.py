"""The effects vocabulary's checker: an effect list read the way the engine will read it.

The pack loader runs it over every card, area action and news card and
collects what it cannot read; ``effects.py`` is the interpreter of the same
vocabulary (docs/zona-engine.md lists it).
"""

from __future__ import annotations

from typing import Any

from domain.engine.packs import PackReader
from domain.zona.model import ATTRIBUTES, COLOURS, DAMAGE_TYPES, ITEM_DECKS, REPUTATIONS, THREAT_KINDS, Area

#: Paragraph endings: continue, mission failed, the secret, the sarcophagus ending.
CONTROL = ("next", "failed", "secret", "win")


def damage(raw: Any, where: str, p: PackReader) -> dict[str, int]:
    if not isinstance(raw, dict) or not raw:
        p.problem(where, "damage must map damage types to amounts")
        return {}
    out = {}
    for kind, amount in raw.items():
        if kind not in DAMAGE_TYPES:
            p.problem(where, f"unknown damage type {kind!r}")
        elif not isinstance(amount, int) or amount < 0:
            p.problem(where, f"damage {kind} must be a whole number of at least 0")
        else:
            out[kind] = amount
    return out


class EffectChecker:
    """Reads an effect list the way the engine will, reporting what it cannot."""

    def __init__(self, areas: dict[str, Area], problems: PackReader):
        self.areas = areas
        self.p = problems
        #: The item decks named by ``take`` effects, each with the first place that names it.
        self.decks: dict[str, str] = {}

    def check(self, effects: Any, where: str, controls: set[str] | None = None) -> None:
        if not isinstance(effects, list):
            self.p.problem(where, "effects must be a list")
            return
        for i, effect in enumerate(effects):
            at = f"{where}[{i}]"
            if not isinstance(effect, dict) or not effect:
                self.p.problem(at, "an effect is a mapping with one keyword")
                continue
            key = next(iter(effect))
            check = getattr(self, f"_{key}", None)
            if check is None:
                self.p.problem(at, f"unknown effect {key!r}")
                continue
            if key in CONTROL:
                if controls is None:
                    self.p.problem(at, f"{key} ends a paragraph: only on facility and sarcophagus cards")
                    continue
                controls.add(key)
            check(effect, at, controls)

    def _attribute(self, value: Any, at: str, also_any: bool = False) -> None:
        if value not in ATTRIBUTES and not (also_any and value == "any"):
            self.p.problem(at, f"unknown attribute {value!r}")

    def _area(self, value: Any, at: str) -> None:
        if value != "here" and value not in self.areas:
            self.p.problem(at, f"unknown area {value!r}")

    def _threat_spec(self, spec: Any, at: str) -> None:
        if not isinstance(spec, dict) or spec.get("kind") not in THREAT_KINDS or spec.get("colour") not in COLOURS:
            self.p.problem(at, "a threat names kind (mutant/anomaly) and colour (green/yellow)")

    def _number(self, e: dict[str, Any], at: str, c: set[str] | None) -> None:
        value = next(iter(e.values()))
        if not isinstance(value, int) or isinstance(value, bool):
            self.p.problem(at, f"{next(iter(e))} takes a whole number")

    _fatigue = _reputation = _heal = _heal_injury = _roubles = _damage_item = _repair = _sell_artifact = _number

    def _flag(self, e: dict[str, Any], at: str, c: set[str] | None) -> None:
        if next(iter(e.values())) is not True:
            self.p.problem(at, f"{next(iter(e))} takes true")

    _fatigue_max = _flag
    _next = _failed = _secret = _win = _camp = _to_power_plant = _to_sarcophagus = _market = _market_refill = _flag

    def _damage(self, e: dict[str, Any], at: str, c: set[str] | None) -> None:
        damage(e["damage"], at, self.p)

    def _take(self, e: dict[str, Any], at: str, c: set[str] | None) -> None:
        spec = e["take"]
        if not isinstance(spec, dict) or spec.get("deck") not in ITEM_DECKS:
            self.p.problem(at, f"take names a deck of {ITEM_DECKS}")
            return
        self.decks.setdefault(spec["deck"], at)
        count, keep = spec.get("count", 1), spec.get("keep", spec.get("count", 1))
        if not (isinstance(count, int) and isinstance(keep, int) and 1 <= keep <= count):
            self.p.problem(at, "take: 1 <= keep <= count")

    def _test(self, e: dict[str, Any], at: str, c: set[str] | None) -> None:
        spec = e["test"]
        if not isinstance(spec, dict):
            self.p.problem(at, "test names attribute and difficulty")
            return
        self._attribute(spec.get("attribute"), at)
        if not isinstance(spec.get("difficulty"), int):
            self.p.problem(at, "test difficulty must be a whole number")
        if spec.get("against") not in (None, *THREAT_KINDS):
            self.p.problem(at, "test against must be mutant or anomaly")
        self.check(e.get("pass", []), f"{at}.pass", c)
        self.check(e.get("fail", []), f"{at}.fail", c)

    def _choose(self, e: dict[str, Any], at: str, c: set[str] | None) -> None:
        options = e["choose"]
        if e.get("by") not in (None, "voice"):
            self.p.problem(at, "choose by is voice (or left out: the stalker)")
        if not isinstance(options, list) or len(options) < 2:
            self.p.problem(at, "choose offers at least two options")
            return
        for i, option in enumerate(options):
            if not isinstance(option, dict) or not isinstance(option.get("label"), str):
                self.p.problem(f"{at}.choose[{i}]", "an option has a label and effects")
                continue
            self.check(option.get("effects", []), f"{at}.choose[{i}]", c)

    def _may(self, e: dict[str, Any], at: str, c: set[str] | None) -> None:
        option = e["may"]
        if not isinstance(option, dict) or not isinstance(option.get("label"), str):
            self.p.problem(at, "may has a label and effects")
            return
        self.check(option.get("effects", []), f"{at}.may", c)

    def _category(self, e: dict[str, Any], at: str, c: set[str] | None) -> None:
        spec = e["category"]
        if not isinstance(spec, dict) or not isinstance(spec.get("name"), str):
            self.p.problem(at, "category names the item category")
            return
        self.check(spec.get("effects", []), f"{at}.category", c)

    def _reputation_sections(self, e: dict[str, Any], at: str, c: set[str] | None) -> None:
        spec = e["reputation_sections"]
        if not isinstance(spec, dict) or set(spec) != set(REPUTATIONS):
            self.p.problem(at, "reputation_sections has good, neutral and bad")
            return
        for rep, effects in spec.items():
            self.check(effects, f"{at}.{rep}", c)

    def _encounter(self, e: dict[str, Any], at: str, c: set[str] | None) -> None:
        self._threat_spec(e["encounter"], at)

    def _threat_encounter(self, e: dict[str, Any], at: str, c: set[str] | None) -> None:
        self._threat_spec(e["threat_encounter"], at)

    def _threat_pair(self, e: dict[str, Any], at: str, c: set[str] | None) -> None:
        spec = e["threat_pair"]
        if not isinstance(spec, dict) or spec.get("colour") not in COLOURS:
            self.p.problem(at, "threat_pair names a colour")

    def _place_threat(self, e: dict[str, Any], at: str, c: set[str] | None) -> None:
        self._threat_spec(e["place_threat"], at)
        if isinstance(e["place_threat"], dict):
            self._area(e["place_threat"].get("area"), at)

    def _place_threats(self, e: dict[str, Any], at: str, c: set[str] | None) -> None:
        for spec in e["place_threats"] if isinstance(e["place_threats"], list) else [None]:
            self._threat_spec(spec, at)
            if isinstance(spec, dict) and not set(spec) <= {"kind", "colour", "spread"}:
                self.p.problem(at, "a news threat has kind, colour and maybe spread (and one next to it)")

    def _relocate(self, e: dict[str, Any], at: str, c: set[str] | None) -> None:
        self._area(e["relocate"], at)

    def _sell(self, e: dict[str, Any], at: str, c: set[str] | None) -> None:
        if not isinstance(e["sell"], dict) or set(e["sell"]) != set(COLOURS):
            self.p.problem(at, "sell gives the bonus per colour")

    def _discard_one(self, e: dict[str, Any], at: str, c: set[str] | None) -> None:
        if not set(e["discard_one"] or []) <= {"trophy", "artifact"}:
            self.p.problem(at, "discard_one lists trophy and/or artifact")
        self.check(e.get("then", []), f"{at}.then", c)

    def _pay(self, e: dict[str, Any], at: str, c: set[str] | None) -> None:
        if not isinstance(e["pay"], int):
            self.p.problem(at, "pay takes roubles")
        self.check(e.get("effects", []), f"{at}.effects", c)

    def _all(self, e: dict[str, Any], at: str, c: set[str] | None) -> None:
        self.check(e["all"], f"{at}.all", c)


def paths_end(effects: list[dict[str, Any]]) -> bool:
    """Whether every way through ``effects`` ends with a paragraph control."""
    for effect in reversed(effects):
        key = next(iter(effect))
        if key in CONTROL:
            return True
        if key == "test":
            return paths_end(effect.get("pass", [])) and paths_end(effect.get("fail", []))
        if key == "choose":
            return all(paths_end(o.get("effects", [])) for o in effect["choose"])
        if key == "reputation_sections":
            return all(paths_end(v) for v in effect["reputation_sections"].values())
    return False
