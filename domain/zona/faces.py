"""Zona's card faces (``view["faces"]``): each stalker, item, threat and news card a view shows, and the
event card being read to its reader, as a player reads them.

Faces are written once per pack (``pack_faces``) and a view takes those of the
ids it shows, by the id as the view shows it (``rusty_pipe#2``,
``old_crowbar@bogdan``, ``gm_rats#1``, ``bogdan``): a find another seat holds
shows as ``find`` and so has no face. An event card is left out of that
matching (its id is public, its text is not) and given only to a seat whose
view carries its text (``reading.text``: the Voice who reads it, or everyone
once the game is over).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from domain.engine.faces import face
from domain.zona.model import ItemType, NewsCard, Pack, Stalker, Threat
from domain.zona.pack import pack_named
from domain.zona.words import effects as effects_in_words

#: Every string of a JSON text (no id holds an escape).
_STRING = re.compile(r'"([^"\\]*)"')

_USE = {"durable": "use it once a round", "single": "discard it after one use"}


#: Each string views showed, and the id it names the type of (``type#n``, ``type@stalker``: ``type``): the same
#: few hundred strings come back view after view. Emptied past ``_KINDS_KEPT``, as a view may show any text.
_KINDS: dict[str, str] = {}
_KINDS_KEPT = 50_000


def kind_of(value: str) -> str:
    """The type a card or token id names (``rusty_pipe#2``, ``old_crowbar@bogdan``: the part before)."""
    found = _KINDS.get(value)
    if found is None:
        if len(_KINDS) >= _KINDS_KEPT:
            _KINDS.clear()
        found = _KINDS[value] = value.split("#")[0].split("@")[0]
    return found


def strings(text: str) -> list[str]:
    """Every string of a JSON text (keys too), in order (no id holds an escape)."""
    return _STRING.findall(text)


def shown(view: dict[str, Any], pack_name: str, found: list[str]) -> dict[str, dict[str, Any]]:
    """The faces of the ids ``view`` shows, and of the event card it lets its seat read. ``found`` is every
    string (``strings``) of the JSON of the view's parts that may name a card, which the view's cards were read
    from too: all but the board (areas and borders, no card), ``cards`` (only the types the rest shows) and the
    faces."""
    faces = pack_faces(pack_name)
    out: dict[str, dict[str, Any]] = {}
    for value in dict.fromkeys(found):
        found_face = faces.get(kind_of(value))
        if found_face is not None:
            out[value] = dict(found_face)  # a copy: the pack's faces are cached, a view is the caller's to change
    reading = view.get("reading") or {}
    if reading.get("text"):
        out[reading["card"]] = face(str(reading.get("name")), "event", None,
                                    " ".join(f"{k}: {v}." for k, v in reading["text"].items()))  # fmt: skip
    return out


@functools.cache
def pack_faces(pack_name: str) -> dict[str, dict[str, Any]]:
    """Every face of a pack but the event cards', by id."""
    pack = pack_named(pack_name)
    out = {item.id: _item(item) for item in pack.items.values()}
    out.update((s.id, _stalker(pack, s)) for s in pack.stalkers.values())
    out.update((t.id, _threat(t)) for t in pack.threats.values())
    out.update((n.id, _news(n)) for n in pack.news.values())
    return out


def _plain(key: object) -> str:
    return str(key).replace("_", " ")


def _sentences(parts: list[str]) -> str:
    return " ".join(p[:1].upper() + p[1:] + ("" if p.endswith(".") else ".") for p in parts if p)


def _harm(damage: dict[str, int], fatigue: int = 0) -> str:
    parts = [f"{n} {_plain(kind)}" for kind, n in damage.items()] + [f"{fatigue} fatigue"] * bool(fatigue)
    return ", ".join(parts) or "nothing"


def _modifier(m: dict[str, Any]) -> str:
    attribute = "any attribute" if m.get("attribute") == "any" else str(m.get("attribute"))
    said = ([f"+{m['plus']} {attribute}"] if m.get("plus") else []) + ([f"cancel {m['cancel']} harm"] if m.get("cancel") else [])
    against = f" against {'an' if str(m['against'])[:1] in 'aeiou' else 'a'} {m['against']}" if m.get("against") else ""
    stage = f" when you {m['stage']} it" if m.get("stage") else ""
    return f"{' and '.join(said) or attribute}{against}{stage}"


def _item(t: ItemType) -> dict[str, Any]:
    parts = [f"{t.colour + ' ' if t.colour else ''}{_plain(t.kind)} item"]
    parts.append(_USE.get(t.use) or f"{t.durability} use{'s' if t.durability != 1 else ''}, then discard it")
    if t.small:
        parts.append("small: fits a small slot")
    if t.outfit:
        parts.append(f"worn on the {' and '.join(t.outfit)}")
    if t.extra_slot:
        parts.append("gives one more slot")
    if t.modifier:
        parts.append(_modifier(t.modifier))
    if t.reroll:
        attribute = t.reroll.get("attribute")
        parts.append(f"reroll a die in a test of {'any attribute' if attribute == 'any' else attribute}")
    if t.protect:
        parts.append(f"protects from {_harm(t.protect)}")
    if t.heal:
        parts.append(f"heal {t.heal} damage")
    if t.rest:
        parts.append(f"rest {t.rest} more fatigue")
    if t.use_at:
        where = "anywhere" if t.use_at.get("area") == "any" else f"in {_plain(t.use_at.get('area'))}"
        parts.append(f"use it {where}: {effects_in_words(t.use_at.get('effects') or [])}")
    if t.immune:
        parts.append(f"no {t.immune} can harm you")
    for flag, said in (("shortcut", "take shortcuts"), ("ignore_emanation", "ignore emanations"),
                       ("dash", "dash to a bunker"), ("convert", "turn a die to another face"),
                       ("force_dice", "force dice"), ("reuse", "use it again the same round")):  # fmt: skip
        if getattr(t, flag):
            parts.append(said)
    if t.skip_encounter:
        parts.append("skip an encounter")
    if t.emanation:
        parts.append(f"it emanates: {_harm({}, int(t.emanation.get('fatigue', 0)))} a round")
    if t.category:
        parts.append(f"counts as {_plain(t.category)}")
    if t.unrepairable:
        parts.append("cannot be repaired")
    return face(t.name, _plain(t.kind), t.price, _sentences(parts))


#: A stalker's ability in words (Zona §"ZDOLNOŚĆ"), by its key in the pack.
_ABILITY = {
    "reroll": "once per test of {}, reroll a die", "protect": "once a round, stop one {} harm",
    "camp": "resting, shed {} more fatigue", "mend": "resting, heal {} damage free",
    "haggle": "sell for {} roubles more",
}  # fmt: skip
#: A threat's ability in words, by its key in the pack.
_THREAT = {"spawn": "when beaten, {} more like it appear in the area", "trophy_lowers": "a trophy given up lowers its test by {}"}


def _ability(words: dict[str, str], ability: dict[str, Any]) -> str:
    return "; ".join(words[k].format(_plain(v)) if k in words else f"{_plain(k)} {_plain(v)}" for k, v in ability.items())


def _stalker(pack: Pack, s: Stalker) -> dict[str, Any]:
    area = pack.areas.get(s.area)
    items = [pack.items[i].name if i in pack.items else _plain(i) for i in s.equipment]
    ability = _ability(_ABILITY, s.ability)
    parts = [", ".join(f"{a} {n}" for a, n in s.attributes.items()), f"stamina {s.stamina}",
             f"starts at {area.name if area else _plain(s.area)} with {s.roubles} roubles, "
             f"{_plain(s.reputation)} reputation and {', '.join(items) or 'nothing'}",
             f"ability: {ability}" if ability else ""]  # fmt: skip
    return face(s.name, "stalker", None, _sentences(parts))


def _threat(t: Threat) -> dict[str, Any]:
    loot = _loot(t.loot)
    ability = _ability(_THREAT, t.ability)
    parts = [f"{t.colour} {t.kind}", f"detects at {t.detect}", f"test of {t.attribute} {t.difficulty}",
             f"harm: {_harm(t.damage, t.fatigue)}", f"loot: {loot}" if loot else "",
             f"ability: {ability}" if ability else ""]  # fmt: skip
    return face(t.name, t.kind, None, _sentences(parts))


def _loot(loot: dict[str, Any]) -> str:
    if "trophy" in loot:
        return f"a trophy worth {loot['trophy']} roubles"
    if "artifact" in loot:
        count = int(loot.get("count", 1))
        return f"{count} {loot['artifact']} artifact{'s' if count != 1 else ''}"
    return ", ".join(f"{_plain(k)} {v}" for k, v in loot.items())


def _news(n: NewsCard) -> dict[str, Any]:
    timed = "; ".join(f"{_plain(k)}: {_harm(v) if isinstance(v, dict) else _plain(v)}" for k, v in (n.timed or {}).items())
    parts = [effects_in_words(n.effects) if n.effects else "", f"while it holds, {timed}" if timed else ""]
    return face(n.name, "news", None, _sentences(parts) or "News from the Zone.")
