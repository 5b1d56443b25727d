"""Cards in words: what the reader of an event card sees, one sentence per section.

The reader's view carries a card as prose rather than its effect data, so the
card's outcomes are whole sentences that no event of the log ever holds: the
stalker, who hears only the options, cannot learn them from the log either.
"""

from __future__ import annotations

from typing import Any

from domain.zona.model import EventCard

_SIMPLE = {
    "heal": "heal {}",
    "heal_injury": "heal an injury",
    "fatigue_max": "fatigue to the maximum",
    "damage_item": "damage an item",
    "repair": "repair {} item damage",
    "sell_artifact": "sell an artifact for {} over its price",
    "relocate": "go to {} (no encounter)",
    "next": "continue",
    "failed": "mission failed",
    "secret": "you discover the secret",
    "win": "the Source is reached: victory",
    "camp": "camp",
    "to_power_plant": "with two secrets, go to the power plant",
    "to_sarcophagus": "enter the sarcophagus",
    "market": "buy from the market",
    "market_refill": "the market is restocked",
}


def _signed(value: int, noun: str) -> str:
    return f"{'+' if value >= 0 else ''}{value} {noun}"


def effect(e: dict[str, Any]) -> str:
    key = next(iter(e))
    value = e[key]
    if key in _SIMPLE:
        return _SIMPLE[key].format(value)
    if key == "damage":
        return "suffer " + ", ".join(f"{n} {kind}" for kind, n in value.items())
    if key == "fatigue":
        return _signed(value, "fatigue")
    if key == "roubles":
        return _signed(value, "roubles")
    if key == "reputation":
        return "improve reputation" if value > 0 else "worsen reputation"
    if key == "take":
        count, keep = value.get("count", 1), value.get("keep", value.get("count", 1))
        deck = value["deck"].replace("_", " ")
        return f"take {count} {deck}" + (f", keep {keep}" if keep < count else "")
    if key == "test":
        spec = value
        against = f" ({spec['against']})" if spec.get("against") else ""
        return (f"test {spec['attribute']} {spec['difficulty']}{against}: pass → {effects(e.get('pass', []))}; "
                f"fail → {effects(e.get('fail', []))}")
    if key == "choose":
        who = "the Voice chooses" if e.get("by") == "voice" else "choose"
        return f"{who}: " + " OR ".join(f"{o['label']} → {effects(o.get('effects', []))}" for o in value)
    if key == "may":
        return f"you may: {value['label']} → {effects(value.get('effects', []))}"
    if key == "category":
        return f"with a {value['name']}: {effects(value.get('effects', []))}"
    if key == "reputation_sections":
        return "; ".join(f"{rep}: {effects(v)}" for rep, v in value.items())
    if key in ("encounter", "threat_encounter"):
        return f"encounter a {value['colour']} {value['kind']}"
    if key == "place_threat":
        return f"place a {value['colour']} {value['kind']} in {value['area']}"
    if key == "pay":
        return f"you may pay {value}: {effects(e.get('effects', []))}"
    if key == "discard_one":
        return f"give up a {' or '.join(value)}: {effects(e.get('then', []))}"
    return key.replace("_", " ")


def effects(items: list[dict[str, Any]]) -> str:
    return "; ".join(effect(e) for e in items) or "nothing"


def card_text(card: EventCard) -> dict[str, str]:
    """Each section (or paragraph, numbered from 1) of a card as one sentence."""
    if card.paragraphs:
        return {str(n + 1): effects(p) for n, p in enumerate(card.paragraphs)}
    return {key: effects(v) for key, v in card.sections.items()}
