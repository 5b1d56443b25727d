"""Load a Zona content pack (a directory of YAML) into ``model.Pack``.

Every record is checked on its own and then against the others (areas a
border or a card names exist, a facility deck for every facility, enough
threat tokens and finds for four players, every paragraph card can end).
All problems are gathered and reported in one ``PackError``, one line each,
so an author fixes a whole pack in one round trip.

The reading is the engine kit's (``domain.engine.packs``, as Fallout's loader
reads): its ``PackReader`` parses the files, lists each kind's records with
the keys they may have, builds each record on its own, keeps ids unique per
kind and collects the problems; what the records mean and the checks that
span them are Zona's, here.
"""

from __future__ import annotations

import functools
from importlib.resources.abc import Traversable
from typing import Any

# PackError is the engine's: a broken pack of either game raises the one error (``domain.engine.packs``).
from domain.engine.packs import PackError as PackError
from domain.engine.packs import PackReader, read_folder
from domain.engine.shelf import Shelf, UnknownPack, split
from domain.zona.model import (
    ATTRIBUTES,
    COLOURS,
    DAMAGE_TYPES,
    FACES,
    ITEM_KINDS,
    REPUTATIONS,
    SECTORS,
    THREAT_KINDS,
    USES,
    Area,
    Border,
    EmissionCard,
    EventCard,
    ItemType,
    Lock,
    NewsCard,
    Pack,
    Side,
    Stalker,
    StartThreat,
    Threat,
)
from domain.zona.vocabulary import EffectChecker, damage, paths_end

#: The keys each kind of record may have: a misspelt key is a problem, not silently ignored.
KEYS = {
    "areas": {"id", "name", "sector", "action", "requires", "power_plant"},
    "items": {"id", "name", "kind", "price", "use", "colour", "durability", "copies", "small", "outfit", "extra_slot",
              "category", "unrepairable", "modifier", "reroll", "protect", "heal", "rest", "shortcut",
              "ignore_emanation", "dash", "skip_encounter", "use_at", "immune", "convert", "force_dice", "reuse", "emanation"},
    "stalkers": {"id", "name", "attributes", "stamina", "ability", "start", "equipment"},
    "threats": {"id", "name", "kind", "colour", "copies", "detect", "confront", "damage", "fatigue", "loot", "ability"},
    "green": {"id", "name", "sections", "reputation"},
    "yellow": {"id", "name", "sections", "reputation"},
    "news": {"id", "name", "arrows", "effects", "timed"},
    "emissions": {"id", "name", "type", "damage", "place"},
    "locks": {"id", "name", "fatigue", "damage", "roubles", "trophy"},
}

#: Where each kind of record is read from, to name a record used twice.
ID_KINDS = ("items", "stalkers", "threats", "events", "news", "emissions", "locks")


def load(files: dict[str, Any], name: str, as_shipped: bool = False) -> Pack:
    """A Pack from the parsed YAML ``files`` (by stem), or PackError with every problem. ``as_shipped``:
    a frozen copy, read as the games played with it read it: the checks added after it shipped are
    skipped (every stalker's ability its own, since rules zona/2)."""
    p = PackReader()
    board = files.get("board") or {}
    areas: dict[str, Area] = {}
    for r in p.records(board, "areas", "board.yaml", KEYS["areas"]):
        at = f"board.yaml area {r.get('id')}"
        if r.get("sector") not in SECTORS:
            p.problem(at, f"sector must be one of {SECTORS}")
        requires = tuple(r.get("requires", ()))
        if not set(requires) <= set(REPUTATIONS):
            p.problem(at, "requires lists reputations")
        area = p.build(at, _area, r, requires)
        if area is not None:
            if area.id in areas:
                p.problem(at, "area id used twice")
            areas[area.id] = area
    checker = EffectChecker(areas, p)
    for area in areas.values():
        checker.check(area.action, f"board.yaml area {area.id} action")
    borders = []
    for r in board.get("borders", []):
        spec = {"between": r} if isinstance(r, list) else r
        pair = spec.get("between") if isinstance(spec, dict) else None
        at = f"board.yaml border {pair}"
        if not isinstance(pair, list) or len(pair) != 2 or not all(a in areas for a in pair):
            p.problem(at, "a border joins two known areas")
            continue
        kind = "entrance" if spec.get("entrance") else "power_plant" if spec.get("power_plant") else (
            "shortcut" if spec.get("shortcut") else "border")
        if spec.get("shortcut") is not None and spec["shortcut"] not in DAMAGE_TYPES:
            p.problem(at, "a shortcut names a damage type")
        shortcut = spec.get("shortcut")
        borders.append(Border(pair[0], pair[1], kind, str(shortcut) if shortcut else None,
                              tuple(spec.get("blockade_on", ()))))
    sides = {}
    for sid, r in (board.get("sides") or {}).items():
        side = p.build(f"board.yaml side {sid}", _side, sid, r)
        if side is not None:
            sides[sid] = side
    if sorted(n for s in sides.values() for n in s.players) != [1, 2, 3, 4]:
        p.problem("board.yaml sides", "each player count 1-4 needs exactly one board side")
    for side in sides:
        for b in borders:
            if not set(b.blockade_on) <= set(sides):
                p.problem(f"board.yaml border {b.a}-{b.b}", "blockade_on names unknown board sides")
        _connected(areas, borders, side, p)
    facilities = dict(board.get("facilities") or {})
    facility_areas = [a.id for a in areas.values() if a.sector == "facility"]
    if len(facility_areas) != 4 or sorted(facilities.values()) != sorted(facility_areas):
        p.problem("board.yaml facilities", "four facility areas, each holding one facility deck")
    for f in facility_areas:
        if not any(b.kind == "entrance" and f in (b.a, b.b) for b in borders):
            p.problem(f"board.yaml area {f}", "a facility needs entrance areas")
    if sum(1 for a in areas.values() if a.sector == "sarcophagus") != 1:
        p.problem("board.yaml", "exactly one sarcophagus")
    if sum(1 for a in areas.values() if a.power_plant) != 1:
        p.problem("board.yaml", "exactly one power-plant area")

    faces = tuple((files.get("dice") or {}).get("faces", ()))
    if not faces or not set(faces) <= set(FACES):
        p.problem("dice.yaml", f"faces must list faces of {FACES}")

    items: dict[str, ItemType] = {}
    for r in p.records(files.get("items"), "items", "items.yaml", KEYS["items"]):
        at = f"items.yaml item {r.get('id')}"
        p.once("items", r.get("id"), at)
        item = p.build(at, _item, r)
        if item is None:
            continue
        _check_item(item, at, p)
        items[item.id] = item
    for item in items.values():
        if item.use_at is not None:
            where = item.use_at.get("area")
            if where not in ("any", "bunker") and where not in areas:
                p.problem(f"items.yaml item {item.id}", f"use_at names an area, bunker or any, not {where!r}")
            checker.check(item.use_at.get("effects"), f"items.yaml item {item.id} use_at")
    stalkers: dict[str, Stalker] = {}
    for r in p.records(files.get("stalkers"), "stalkers", "stalkers.yaml", KEYS["stalkers"]):
        at = f"stalkers.yaml stalker {r.get('id')}"
        p.once("stalkers", r.get("id"), at)
        stalker = p.build(at, _stalker, r)
        if stalker is None:
            continue
        _check_stalker(stalker, at, areas, items, p)
        if not as_shipped:
            _ability_unique(stalker, stalkers, at, p)
        stalkers[stalker.id] = stalker
    if len(stalkers) < 9:
        p.problem("stalkers.yaml", "at least 9 stalkers: two to draft for each of 4 players, and one to replace the dead")
    threats: dict[str, Threat] = {}
    for r in p.records(files.get("threats"), "threats", "threats.yaml", KEYS["threats"]):
        at = f"threats.yaml threat {r.get('id')}"
        p.once("threats", r.get("id"), at)
        threat = p.build(at, _threat, r, at, p)
        if threat is not None:
            threats[threat.id] = threat
    for queue_kind in THREAT_KINDS:
        for colour in COLOURS:
            if sum(t.copies for t in threats.values() if t.kind == queue_kind and t.colour == colour) < 3:
                p.problem("threats.yaml", f"the {colour} {queue_kind} queue needs at least 3 tokens")

    events: dict[str, EventCard] = {}
    raw_events = files.get("events") or {}
    for deck in ("green", "yellow"):
        for r in p.records(raw_events, deck, "events.yaml", KEYS[deck]):
            at = f"events.yaml {deck} card {r.get('id')}"
            p.once("events", r.get("id"), at)
            keyed = "reputation" in r
            sections = r.get("reputation") if keyed else r.get("sections")
            if not isinstance(sections, dict):
                p.problem(at, "a sector card has sections (by area) or reputation sections")
                continue
            if keyed and set(sections) != set(REPUTATIONS):
                p.problem(at, "reputation sections are good, neutral and bad")
            if not keyed and ("other" not in sections or len(sections) != 3 or not all(
                    s == "other" or areas.get(s, Area("", "", "")).sector == deck for s in sections)):
                p.problem(at, f"sections: two {deck} areas and other")
            for key, effects in sections.items():
                checker.check(effects, f"{at}.{key}")
            if isinstance(r.get("id"), str):
                events[r["id"]] = EventCard(r["id"], r.get("name", r["id"]), deck, dict(sections), keyed)
    decks = dict(raw_events.get("facilities") or {})
    endings: dict[str, bool] = {}
    if sorted(decks) != sorted(facilities):
        p.problem("events.yaml facilities", "one deck per facility")
    for deck, cards in [*decks.items(), ("sarcophagus", raw_events.get("sarcophagus"))]:
        for r in cards or []:
            if not isinstance(r, dict):
                p.problem(f"events.yaml {deck}", f"not a mapping: {r!r}")
                continue
            at = f"events.yaml {deck} card {r.get('id')}"
            p.once("events", r.get("id"), at)
            unknown = sorted(set(r) - {"id", "name", "paragraphs"})
            if unknown:
                p.problem(at, f"unknown keys {unknown}")
            paragraphs = r.get("paragraphs")
            if not isinstance(paragraphs, list) or not paragraphs:
                p.problem(at, "a paragraph card has paragraphs")
                continue
            found: set[str] = set()
            for i, para in enumerate(paragraphs):
                here: set[str] = set()
                checker.check(para, f"{at} paragraph {i + 1}", here)
                found |= here
                if isinstance(para, list) and not paths_end(para):
                    p.problem(f"{at} paragraph {i + 1}", "every way through a paragraph ends in next, failed, secret or win")
                if i == len(paragraphs) - 1 and "next" in here:
                    p.problem(f"{at} paragraph {i + 1}", "next in the last paragraph leads to no paragraph")
            ending = "win" if deck == "sarcophagus" else "secret"
            if (found & {"win", "secret"}) - {ending}:
                p.problem(at, f"a {deck} card ends in {ending}, not {sorted((found & {'win', 'secret'}) - {ending})}")
            endings[deck] = endings.get(deck, False) or ending in found
            if isinstance(r.get("id"), str):
                events[r["id"]] = EventCard(r["id"], str(r.get("name", r["id"])), deck, paragraphs=tuple(paragraphs))
    if not any(c.deck == "sarcophagus" for c in events.values()):
        p.problem("events.yaml", "a sarcophagus deck")
    for deck, reachable in endings.items():
        if not reachable:
            p.problem(f"events.yaml {deck}", "no card of the deck can end in its secret (or the win)")

    raw_news = files.get("news") or {}
    news: dict[str, NewsCard] = {}
    for r in p.records(raw_news, "news", "news.yaml", KEYS["news"]):
        at = f"news.yaml news {r.get('id')}"
        p.once("news", r.get("id"), at)
        card = p.build(at, _news, r)
        if card is None:
            continue
        checker.check(card.effects, at)
        if card.timed is not None and not (set(card.timed) <= {"toxic", "closed", "blocked"} and len(card.timed) == 1):
            p.problem(at, "timed is toxic (damage on an area), closed (an area's action) or blocked (a border)")
        news[card.id] = card
    emissions: dict[str, EmissionCard] = {}
    for r in p.records(raw_news, "emissions", "news.yaml", KEYS["emissions"]):
        at = f"news.yaml emission {r.get('id')}"
        p.once("emissions", r.get("id"), at)
        emission = p.build(at, _emission, r)
        if emission is None:
            continue
        if emission.type not in DAMAGE_TYPES:
            p.problem(at, "emission type is a damage type")
        for t in emission.place:
            _threat_kind(t, at, p)
            if areas.get(t.area, Area("", "", "bunker")).sector not in ("green", "yellow", "red"):
                p.problem(at, f"threats go on open ground, not {t.area!r}")
        emissions[emission.id] = emission
    if len(emissions) < 2:
        p.problem("news.yaml", "at least two emission cards")
    # Lock tokens are read from locks.yaml when the pack has one (the base pack), else from news.yaml.
    lock_file = "locks" if "locks" in files else "news"
    if lock_file == "locks" and "locks" in raw_news:
        p.problem("news.yaml", "lock tokens are in locks.yaml: none in news.yaml")
    locks = {}
    for r in p.records(files.get(lock_file), "locks", f"{lock_file}.yaml", KEYS["locks"]):
        p.once("locks", r.get("id"), f"{lock_file}.yaml lock {r.get('id')}")
        lock = p.build(f"{lock_file}.yaml lock {r.get('id')}", _lock, r, p)
        if lock is not None:
            locks[lock.id] = lock
    if len(locks) < 4:
        p.problem(f"{lock_file}.yaml", "at least four lock tokens")
    _decks_hold_cards(checker.decks, threats, items, p)
    finds = sum(i.copies for i in items.values() if i.kind == "find")
    if finds < 16:
        p.problem("items.yaml", f"16 finds are dealt to four players, the pack has {finds}")
    track = raw_news.get("track")
    if not isinstance(track, int) or track < 1:
        p.problem("news.yaml", "track: the last space of the emission track")
    set_aside = raw_news.get("set_aside") or {}
    if not (isinstance(set_aside, dict) and all(k in (1, 2, 3, 4) and isinstance(v, int) and 0 <= v < len(news)
                                                for k, v in set_aside.items())):
        p.problem("news.yaml", "set_aside: news cards set aside at a player count (1-4), fewer than the deck holds")
        set_aside = {}
    p.finish(name)
    return Pack(name, areas, tuple(borders), sides, facilities, faces, stalkers, items, threats, events, news,
                emissions, locks, int(track or 0), dict(set_aside))


def _threat_kind(t: StartThreat, at: str, p: PackReader) -> None:
    if t.kind not in THREAT_KINDS or t.colour not in COLOURS:
        p.problem(at, f"a threat placed on {t.area!r} is a mutant or anomaly, green or yellow")


def _decks_hold_cards(named: dict[str, str], threats: dict[str, Threat], items: dict[str, ItemType],
                      p: PackReader) -> None:
    """Every item deck a card, area or threat's loot draws from holds cards (an effect list is named by
    the first place that draws from the deck, a threat by its loot)."""
    wanted = sorted(named.items()) + [(f"{t.loot['artifact']}_artifact", f"threats.yaml threat {t.id} loot")
                                      for t in threats.values() if "artifact" in t.loot]
    held = {item.deck for item in items.values()}
    for deck, where in wanted:
        if deck not in held:
            p.problem(where, f"draws from the {deck} deck, which holds no cards")


def _connected(areas: dict[str, Area], borders: list[Border], side: str, p: PackReader) -> None:
    """Every area reachable on this side the way stalkers get about: on foot over borders that are no
    blockade here, never through a facility (one is entered, not crossed), and into the power plant
    and the sarcophagus only by the actions that lead there."""
    links: dict[str, set[str]] = {a: set() for a in areas}
    gates: dict[str, set[str]] = {a: set() for a in areas}
    for b in borders:
        if side in b.blockade_on:
            continue
        (gates if b.kind == "power_plant" else links)[b.a].add(b.b)
        (gates if b.kind == "power_plant" else links)[b.b].add(b.a)
    start = next((a.id for a in areas.values() if a.sector == "bunker"), next(iter(areas), None))
    seen, todo = set(), [start] if start else []
    while todo:
        here = todo.pop()
        if here in seen:
            continue
        seen.add(here)
        area = areas[here]
        if area.sector != "facility":
            todo.extend(links[here] - seen)
        if _leads(area, "to_power_plant"):
            todo.extend(gates[here] - seen)
        if _leads(area, "to_sarcophagus"):
            todo.extend(a.id for a in areas.values() if a.sector == "sarcophagus" and a.id not in seen)
    lost = sorted(a for a in areas if a not in seen)
    if lost:
        p.problem(f"board.yaml side {side}", f"areas cut off: {lost}")


def _leads(area: Area, key: str) -> bool:
    return any(isinstance(e, dict) and key in e for e in area.action)


def _area(r: dict[str, Any], requires: tuple[str, ...]) -> Area:
    return Area(r["id"], r["name"], r["sector"], list(r.get("action", [])), requires, bool(r.get("power_plant", False)))


def _side(sid: str, r: dict[str, Any]) -> Side:
    return Side(sid, tuple(r["players"]), int(r["facility_spaces"]))


def _news(r: dict[str, Any]) -> NewsCard:
    return NewsCard(r["id"], r["name"], int(r["arrows"]), list(r.get("effects", [])), r.get("timed"))


def _emission(r: dict[str, Any]) -> EmissionCard:
    return EmissionCard(r["id"], r["name"], r["type"], {c: int(r["damage"][c]) for c in ("green", "yellow", "red")},
                        tuple(StartThreat(x["area"], x["kind"], x["colour"]) for x in r["place"]))


def _lock(r: dict[str, Any], p: PackReader) -> Lock:
    hurt = damage(r["damage"], r["id"], p) if r.get("damage") else {}
    return Lock(r["id"], r["name"], int(r.get("fatigue", 0)), hurt, int(r.get("roubles", 0)), int(r.get("trophy", 0)))


def _item(r: dict[str, Any]) -> ItemType:
    return ItemType(
        id=r["id"], name=r["name"], kind=r["kind"], price=int(r["price"]), use=r["use"], colour=r.get("colour"),
        durability=int(r.get("durability", 1)), copies=int(r.get("copies", 1)), small=bool(r.get("small", False)),
        outfit=tuple(r.get("outfit", ())), extra_slot=bool(r.get("extra_slot", False)), category=r.get("category"),
        unrepairable=bool(r.get("unrepairable", False)), modifier=r.get("modifier"), reroll=r.get("reroll"),
        protect=r.get("protect"), heal=int(r.get("heal", 0)), rest=int(r.get("rest", 0)),
        shortcut=bool(r.get("shortcut", False)), ignore_emanation=bool(r.get("ignore_emanation", False)),
        dash=bool(r.get("dash", False)), skip_encounter=r.get("skip_encounter"), use_at=r.get("use_at"),
        immune=r.get("immune"), convert=bool(r.get("convert", False)),
        force_dice=bool(r.get("force_dice", False)), reuse=bool(r.get("reuse", False)),
        emanation=r.get("emanation"),
    )


def _check_item(item: ItemType, at: str, p: PackReader) -> None:
    if item.kind not in ITEM_KINDS:
        p.problem(at, f"kind must be one of {ITEM_KINDS}")
    if item.use not in USES:
        p.problem(at, f"use must be one of {USES}")
    if item.kind == "artifact" and item.colour not in COLOURS:
        p.problem(at, "an artifact is green or yellow")
    if item.price % 100:
        p.problem(at, "prices are multiples of 100 roubles")
    if item.small and item.outfit:
        p.problem(at, "a small item is not an outfit")
    if item.modifier is not None:
        if item.modifier.get("attribute") not in (*ATTRIBUTES, "any"):
            p.problem(at, "modifier names an attribute (or any)")
        if item.modifier.get("against") not in (None, *THREAT_KINDS):
            p.problem(at, "modifier against must be mutant or anomaly")
    if item.protect is not None:
        damage(item.protect, at, p)
    if not any((item.modifier, item.reroll, item.protect, item.heal, item.rest, item.shortcut, item.extra_slot,
                item.dash, item.skip_encounter, item.use_at, item.immune, item.convert, item.force_dice, item.reuse)):
        p.problem(at, "an item does something: modifier, reroll, protect, heal, rest, shortcut, extra_slot, dash, "
                  "skip_encounter, use_at, immune, convert, force_dice or reuse")
    for kind in (item.skip_encounter, item.immune):
        if kind not in (None, *THREAT_KINDS):
            p.problem(at, "skip_encounter and immune name mutant or anomaly")
    for power in (item.modifier, item.reroll):
        if power is not None and power.get("stage") not in (None, "detect", "confront"):
            p.problem(at, "stage is detect or confront")
    if item.emanation is not None and not set(item.emanation) <= {"fatigue", "damage", "discard", "per_artifact",
                                                                   "over_max"}:
        p.problem(at, "emanation is fatigue, damage or discard (per_artifact, over_max)")


def _stalker(r: dict[str, Any]) -> Stalker:
    start = r["start"]
    return Stalker(
        id=r["id"], name=r["name"], attributes={a: int(r["attributes"][a]) for a in ATTRIBUTES},
        stamina=int(r["stamina"]), ability=dict(r.get("ability") or {}), area=start["area"],
        damage=int(start["damage"]), roubles=int(start["roubles"]), reputation=start["reputation"],
        threats=tuple(StartThreat(t["area"], t["kind"], t["colour"]) for t in start["threats"]),
        equipment=tuple(r["equipment"]),
    )


def _check_stalker(s: Stalker, at: str, areas: dict[str, Area], items: dict[str, ItemType], p: PackReader) -> None:
    if not all(1 <= v <= 4 for v in s.attributes.values()):
        p.problem(at, "printed attributes are 1-4")
    if s.reputation not in REPUTATIONS:
        p.problem(at, "starting reputation is good, neutral or bad")
    if s.area not in areas or s.damage >= s.stamina:
        p.problem(at, "starts in a known area with fewer damage than stamina")
    if len(s.threats) != 2:
        p.problem(at, "two starting threat areas")
    for t in s.threats:
        _threat_kind(t, at, p)
        if areas.get(t.area, Area("", "", "bunker")).sector not in ("green", "yellow", "red"):
            p.problem(at, f"a starting threat goes on open ground, not {t.area!r}")
    if len(s.equipment) != 4 or not all(items.get(e, None) and items[e].kind == "starting" for e in s.equipment):
        p.problem(at, "four starting items of kind starting")
    if len(s.ability) != 1 or not _ability_reads(*next(iter(s.ability.items()))):
        p.problem(at, "ability is one of reroll: <attribute>, protect: <damage type>, camp, mend or haggle: <a number>")


#: The stalkers' abilities (Zona §"ZDOLNOŚĆ"; docs/zona-engine.md): a free reroll of one attribute per
#: test, one damage of a type stopped once a round; and by a number: fatigue rested more (``camp``) and
#: damage healed free (``mend``) when camping, roubles more for each sale (``haggle``).
NAMED_ABILITIES: dict[str, tuple[str, ...]] = {"reroll": ATTRIBUTES, "protect": DAMAGE_TYPES}
COUNTED_ABILITIES = ("camp", "mend", "haggle")


def _ability_reads(kind: str, value: Any) -> bool:
    if kind in COUNTED_ABILITIES:
        return isinstance(value, int) and not isinstance(value, bool) and value > 0
    return value in NAMED_ABILITIES.get(kind, ())


def _ability_unique(s: Stalker, before: dict[str, Stalker], at: str, p: PackReader) -> None:
    """Zona §"ZDOLNOŚĆ": each stalker has a unique ability."""
    for other in before.values():
        if other.ability == s.ability:
            p.problem(at, f"ability {s.ability} is {other.id}'s too: each stalker's is its own")


def _threat(r: dict[str, Any], at: str, p: PackReader) -> Threat:
    kind = r["kind"]
    allowed = ("intellect", "willpower") if kind == "anomaly" else ("agility", "willpower")
    if kind not in THREAT_KINDS or r["colour"] not in COLOURS:
        p.problem(at, "kind mutant/anomaly, colour green/yellow")
    if r["confront"]["attribute"] not in allowed:
        p.problem(at, f"a {kind} is confronted with {' or '.join(allowed)}")
    loot = r.get("loot")
    loot = {} if loot in (None, "none") else loot
    if not (loot == {} or set(loot) in ({"trophy"}, {"artifact"}, {"artifact", "count"})):
        p.problem(at, "loot is a trophy (its price), artifacts (colour, count) or none")
    return Threat(r["id"], r["name"], kind, r["colour"], int(r["detect"]), r["confront"]["attribute"],
                  int(r["confront"]["difficulty"]), damage(r["damage"], at, p), int(r.get("fatigue", 0)), loot,
                  dict(r.get("ability") or {}), int(r.get("copies", 1)))


def read_directory(root: Traversable) -> dict[str, Any]:
    """A pack folder's files parsed, by stem (``PackError`` naming every file that is not YAML)."""
    return read_folder(root, str(root))


#: The packs that ship: the box at its size (the lobby's default) and the small test pack (fast tests).
PACKS = ("base", "test")
#: Those packs, and every frozen copy of them (``domain.engine.shelf``).
SHELF = Shelf("domain.zona.packs", PACKS)


@functools.cache
def pack_named(name: str) -> Pack:
    """A bundled pack by name (as it is now), or the frozen copy a game's address names."""
    try:
        folder = SHELF.open(name)
    except UnknownPack:
        raise KeyError(f"no content pack {name!r}") from None
    bare, digest = split(name)
    as_shipped = digest is not None and (bare not in PACKS or SHELF.address(bare) != name)
    return load(read_directory(folder), name, as_shipped)
