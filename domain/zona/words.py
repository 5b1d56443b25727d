"""Zona in words: event cards as their reader sees them, and the log and pending decisions as sentences.

The reader's view carries a card as prose rather than its effect data, so the
card's outcomes are whole sentences that no event of the log ever holds: the
stalker, who hears only the options, cannot learn them from the log either.

The log's sentences (``event``, ``decision``) are written from an event already
redacted for the reader (``domain.zona.view.redact``): a find another stalker
holds reads "hidden" there and "a find" here. The state is read for names
only (stalkers, areas, item types, threats, cards), which the pack gives
everyone; it is the game right before the event (so a seat is called by the
stalker it played then), and each name still falls back to its id.
"""

from __future__ import annotations

from typing import Any

from domain.engine.addressing import YOU, addressed
from domain.game import Event
from domain.zona.model import EventCard, Pack
from domain.zona.pack import pack_named
from domain.zona.state import State, mask

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


# -- the log in words ------------------------------------------------------------------

#: Choices a prompt lists before it says how many more there are.
LISTED = 6
#: Decisions whose choices only the deciding seat sees: ``domain.zona.view.PRIVATE``, which
#: cannot be imported here (the view imports this module for its card texts).
_PRIVATE = frozenset({"choose_stalker", "find"})


def _plain(key: object) -> str:
    return str(key).replace("_", " ")


def _listed(items: list[str], last: str = "and") -> str:
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {last} {items[-1]}"


class Names:
    """The pack's names for the ids an event carries."""

    def __init__(self, state: State, reader: int | None = None):
        self.state = state
        #: The seat the words are for: named ``YOU`` (``domain.engine.addressing``), never by its stalker.
        self.reader = reader
        try:
            self.pack: Pack | None = pack_named(state.pack) if state.pack else None
        except (KeyError, ValueError):
            self.pack = None

    def seat(self, seat: object) -> str:
        if self.reader is not None and seat == self.reader:
            return YOU
        stalkers = self.state.stalkers
        if isinstance(seat, int) and 0 <= seat < len(stalkers) and stalkers[seat].get("character"):
            return self.stalker(stalkers[seat]["character"])
        return f"Seat {seat}"

    def stalker(self, character: object) -> str:
        found = self.pack.stalkers.get(character) if self.pack and isinstance(character, str) else None
        # "Vera the Surveyor" is Vera at the table; "The Docent" stays whole.
        return found.name.split(" the ")[0] if found else _plain(character).title()

    def area(self, area: object) -> str:
        found = self.pack.areas.get(area) if self.pack and isinstance(area, str) else None
        return found.name if found else _plain(area).title()

    def thing(self, thing: object) -> str:
        """A card or token by its id (``rusty_pipe#2``, ``old_crowbar@bogdan``, ``gm_dog#1``, ``y_glow``)."""
        if not isinstance(thing, str) or thing in ("hidden", "find"):
            return "a find"
        kind = thing.split("#")[0].split("@")[0]
        p = self.pack
        for table in (p.items, p.threats, p.events, p.news, p.emissions, p.locks) if p else ():
            if kind in table:
                return str(table[kind].name)
        return _plain(kind)


def _the(name: str) -> str:
    return name if name.startswith("The ") else f"the {name}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun if count == 1 else noun + 's'}"


def _who(d: dict[str, Any], n: Names) -> str:
    return n.seat(d["seat"]) if d.get("seat") is not None else "The Zone"


_MOVES = {
    "ItemDrawn": "{who} draws {thing}.",
    "ItemKept": "{who} keeps {thing}.",
    "ItemDiscarded": "{thing} is discarded.",
    "ItemDropped": "{who} drops {thing}.",
    "ItemBought": "{who} buys {thing}.",
    "ItemSold": "{who} sells {thing}.",
    "ItemStowed": "{who} stows {thing} in the backpack.",
    "ItemWorn": "{who} puts on {thing}.",
    "MarketFilled": "{thing} comes up in the market.",
    "MarketSlid": "{thing} slides along the market.",
    "FindKept": "{who} keeps a find: {thing}.",
    "EventCardDrawn": "{who} draws the event card {thing}.",
    "EventCardDiscarded": "The event card {thing} is discarded.",
    "SecretDiscovered": "{who} discovers a secret of the Zone.",
    "SecretKept": "{who} keeps a secret of the Zone.",
    "NewsDrawn": "News from the Zone: {thing}.",
    "NewsReturned": "The news {thing} goes back into the deck.",
    "NewsRemoved": "The news {thing} is over.",
    "EmissionRevealed": "The emission is revealed: {thing}.",
    "ThreatDrawn": "{who} meets {thing}.",
    "ThreatPlaced": "{thing} appears in {area}.",
    "ThreatDiscarded": "{thing} is gone.",
    "TrophyTaken": "{who} takes {thing} as a trophy.",
}


def _moved(kind: str, d: dict[str, Any], n: Names) -> str:
    target = str(d.get("target") or "")
    area = n.area(target.partition(":")[2]) if target.startswith("area:") else "the Zone"
    template = _MOVES[kind]
    if kind == "FindKept" and n.thing(d.get("thing")) == "a find":
        template = "{who} keeps a find."
    if d.get("seat") is None and template.startswith("{who}"):
        # Nobody's doing: the Zone draws a threat for its own encounter, a card goes by itself.
        template = "{thing} comes into play."
    text = template.format(who=_who(d, n), thing=n.thing(d.get("thing")), area=area)
    return text[0].upper() + text[1:]


def _stalker(kind: str, d: dict[str, Any], n: Names) -> str:
    who = n.seat(d["seat"])
    change = d.get("change") or 0
    if kind == "StalkerMoved":
        return f"{who} moves to {n.area(d.get('area'))}."
    if kind == "StalkerRelocated":
        return f"{who} is taken to {n.area(d.get('area'))}."
    if kind == "DamageSuffered":
        amounts = _listed([f"{v} {_plain(k)}" for k, v in (d.get("amounts") or {}).items()])
        return f"{who} suffers {amounts}."
    if kind == "Healed":
        return f"{who} heals {abs(change) or ''} damage.".replace("  ", " ")
    if kind == "InjuryTaken":
        return f"{who} is injured ({_listed([_plain(i) for i in d.get('injuries') or []])})."
    if kind == "InjuryHealed":
        before = (n.state.stalkers or [{}] * (d["seat"] + 1))[d["seat"]].get("injuries") or []
        healed = [a for a in before if a not in (d.get("injuries") or [])]
        return f"{who} recovers from the injury to {healed[0]}." if healed else f"{who} recovers from an injury."
    if kind == "FatigueChanged":
        return f"{who} {'tires' if change > 0 else 'rests'}: fatigue {d.get('fatigue')}."
    if kind == "ReputationChanged":
        return f"{who}'s reputation is now {d.get('reputation')}."
    if kind == "RoublesChanged":
        return f"{who} {'gains' if change >= 0 else 'spends'} {abs(change)} roubles."
    if kind == "AbilityUsed":
        return f"{who} uses a special ability."
    if kind == "MustLeaveFacility":
        return f"{who} must leave the facility."
    return f"{who} dies in the Zone."


_STALKER = {"StalkerMoved", "StalkerRelocated", "DamageSuffered", "Healed", "InjuryTaken", "InjuryHealed",
            "FatigueChanged", "ReputationChanged", "RoublesChanged", "AbilityUsed", "MustLeaveFacility", "StalkerDied"}  # fmt: skip


def event(event: Event, seat: int | None, state: State) -> str:
    """``event`` (redacted for ``seat``) as a sentence."""
    d, n, kind = event.data, Names(state, seat), event.type
    if kind in _MOVES:
        return addressed(_moved(kind, d, n))
    if kind in _STALKER:
        return addressed(_stalker(kind, d, n))
    said = _OTHERS.get(kind)
    if said is None:
        raise KeyError(f"Zona has no words for {kind}")
    return addressed(said(d, n))


def _decision_made(d: dict[str, Any], n: Names) -> str:
    command = d.get("command") or {}
    if set(command) <= {"type"} and command.get("type") not in _PHRASES:
        return f"{n.seat(d['seat'])} decides ({_plain(d['kind'])})."
    return f"{n.seat(d['seat'])} chooses to {command_words(command, n, {})}."


_OTHERS: dict[str, Any] = {
    "GameSetUp": lambda d, n: f"A game of Zona for {_counted(d['state'].get('players') or 0, 'stalker')} is set up.",
    "DeckShuffled": lambda d, n: f"The {_plain(d['deck'])} deck is shuffled.",
    "CharacterChosen": lambda d, n: f"{n.seat(d['seat'])} plays {n.stalker((d.get('stalker') or {}).get('character'))}.",
    "ItemUsed": lambda d, n: f"{n.seat(d['seat'])} uses {n.thing(d['card'])}.",
    "ItemRepaired": lambda d, n: f"{n.seat(d['seat'])} repairs {n.thing(d['card'])}.",
    "ItemsRefreshed": lambda d, n: "Used items are ready again.",
    "PhaseStarted": lambda d, n: f"Round {d['round']}: the {d['phase']} phase begins.",
    "TurnStarted": lambda d, n: f"{n.seat(d['seat'])}'s turn begins.",
    "ActionTaken": lambda d, n: f"{n.seat(d['seat'])} takes an action: {_plain(d['action'])}.",
    "TurnEnded": lambda d, n: f"{n.seat(d['seat'])}'s turn ends.",
    "VoicePassed": lambda d, n: f"The Voice of the Zone passes to {n.seat(d['seat'])}.",
    "EmissionAdvanced": lambda d, n: f"The emission draws nearer (space {d['marker']}).",
    "TimedNewsPlaced": lambda d, n: (f"The news {n.thing(d['card'])} holds over "
                                     f"{_listed([n.area(a) for a in str(d.get('target') or '').split('|') if a])}."),
    "FacilityOpened": lambda d, n: f"{n.seat(d['seat'])} opens {_the(n.area(d['facility']))}.",
    "FacilityLooted": lambda d, n: f"{_capital(_the(n.area(d['facility'])))} is looted bare.",
    "GameWon": lambda d, n: f"{n.seat(d['seat'])} reaches the Source and wins the game.",
    "GameLost": lambda d, n: f"The game is lost: {'the news ran out' if d['reason'] == 'news' else _plain(d['reason'])}.",
    "FramePushed": lambda d, n: f"The rules take up a step: {_plain((d.get('frame') or {}).get('kind', 'a step'))}.",
    "FrameUpdated": lambda d, n: "The rules move on.",
    "FramePopped": lambda d, n: "A step of the rules is done.",
    "DiceRolled": lambda d, n: f"{n.seat(d['seat'])} rolls {_listed([_plain(f) for f in d.get('dice') or []])}.",
    "DieRerolled": lambda d, n: f"{n.seat(d['seat'])} rerolls die {d['die'] + 1}: {_plain(d['face'])}.",
    "DecisionRequested": lambda d, n: f"{n.seat(d['seat'])} must decide: {_plain(d['kind'])}.",
    "DecisionMade": _decision_made,
    "TestResolved": lambda d, n: (f"{n.seat(d['seat'])} {'passes' if d['passed'] else 'fails'} a test of "
                                  f"{d['attribute']} ({d['total']} against {d['difficulty']})."),
}


_PHRASES = {
    "stow": "stow it", "wear": "wear it", "refuse": "leave it", "take_damage": "take the damage", "accept": "accept the dice",
    "face": "face it", "confront": "confront it", "flee": "flee", "rest": "rest", "pass": "pass",
    "area_action": "take the area's action", "heal": "heal", "done": "done", "stay": "stay",
    "search": "search the area",
}  # fmt: skip
_WITH_CARD = {
    "drop": "drop", "put_on": "put on", "take_off": "take off", "use_item": "use", "protect": "protect with",
    "convert": "convert", "force_many": "force dice with", "skip": "skip", "put_back": "put back",
    "use_category": "use", "damage_item": "damage", "keep_find": "keep", "repair": "repair", "dash": "dash with",
}  # fmt: skip


def command_words(command: dict[str, Any], n: Names, context: dict[str, Any]) -> str:
    """A command as the verb phrase a prompt lists: "flee", "move to Quarry Pit"."""
    kind = command.get("type")
    labels = context.get("labels") or []
    if kind == "choose":
        option = command.get("option", 0)
        if isinstance(option, int) and option < len(labels):
            return f"“{labels[option]}”"
        return f"take option {int(option) + 1 if isinstance(option, int) else option}"
    if kind in _PHRASES:
        return _PHRASES[kind]
    if kind == "move":
        return f"move to {n.area(command.get('to'))}"
    if kind == "dash" and command.get("bunker"):
        return f"dash to the bunker at {n.area(command['bunker'])}"
    if kind == "protect" and command.get("card") == "ability":
        return "protect with the stalker's ability"
    if kind in _WITH_CARD:
        return f"{_WITH_CARD[kind]} {n.thing(command.get('card'))}"
    if kind in ("sell", "give_up"):
        return f"{'sell' if kind == 'sell' else 'give up'} {n.thing(command.get('thing'))}"
    if kind in ("meet", "discard_trophy"):
        return f"{'meet' if kind == 'meet' else 'discard the trophy'} {n.thing(command.get('token'))}"
    if kind == "injure":
        return f"take the injury to {command.get('attribute')}"
    if kind == "recover":
        return f"heal the injury to {command.get('attribute')}"
    if kind in ("force", "reroll"):
        return f"{kind} die {int(command.get('die') or 0) + 1}"
    if kind == "buy":
        return f"buy from the {command.get('row')} row"
    if kind == "mark" and command.get("border"):
        return f"mark the border of {_listed([n.area(a) for a in str(command['border']).split('|')])}"
    if kind == "mark":
        return f"mark {n.area(command.get('area'))}"
    if kind == "open_facility":
        return f"open {_the(n.area(command.get('facility')))}"
    if kind == "new_stalker" and command.get("keep"):
        return f"play {n.stalker(command.get('character'))}, keeping the secret “{n.thing(command['keep'])}”"
    if kind in ("choose_stalker", "new_stalker"):
        return f"play {n.stalker(command.get('character'))}"
    return _plain(kind)


def command_text(state: State, seat: int, command: dict[str, Any]) -> str:
    """A legal action of ``seat`` as its button says it (``Game.describe_command``)."""
    n = Names(state)
    pending = state.pending
    context = dict(pending.get("context") or {}) if pending is not None and pending["seat"] == seat else {}
    if "card" in context:
        context["item"] = n.thing(context["card"])
    kind = command.get("type")
    labels = context.get("labels") or []
    option = command.get("option")
    if kind == "choose" and isinstance(option, int) and 0 <= option < len(labels):
        return _capital(str(labels[option]).strip().rstrip("."))
    if kind in _ON_ITEM and context.get("item"):
        return _ON_ITEM[kind].format(context["item"])
    if kind == "search" and n.pack is not None and isinstance(command.get("token"), str):
        threat = n.pack.threats.get(command["token"].split("#")[0])
        if threat is not None:
            return f"Search {_the(threat.name)} {_plain(threat.kind)}"
    if kind == "buy" and n.pack is not None:
        slots = state.market.get(str(command.get("row"))) or []
        slot = command.get("slot")
        card = slots[slot] if isinstance(slot, int) and 0 <= slot < len(slots) else None
        item = n.pack.items.get(str(card).split("#")[0]) if card else None
        if item is not None:
            return f"Buy {item.name} from the {command.get('row')} row ({item.price} roubles)"
    return _capital(command_words(command, n, context))


#: What a decision about one card does with it, the card named.
_ON_ITEM = {"stow": "Stow {} in the backpack", "wear": "Wear {}", "refuse": "Leave {}", "keep_find": "Keep {}"}


def decision(state: State, seat: int | None) -> str | None:
    """What the game waits for, as ``seat`` may read it; None while it waits on nobody."""
    said = _decision(state, seat)
    return addressed(said) if said is not None else None


def _decision(state: State, seat: int | None) -> str | None:
    if state.phase == "new" or state.over:
        return None
    n = Names(state, seat)
    pending = state.pending
    if pending is not None:
        who = n.seat(pending["seat"])
        # Another seat reads the finds in the choices as its view shows them: hidden (Zona §"ZNALEZISKA").
        own = seat == pending["seat"]
        context = mask(pending.get("context") or {}, own)
        if "card" in context:
            context = {**context, "item": n.thing(context["card"])}
        asked = _asked(pending["kind"], context, n)
        if pending["kind"] in _PRIVATE and not own:
            return f"{who} must choose {asked}."
        phrases = list(dict.fromkeys(command_words(c, n, context) for c in mask(pending["choices"], own)))
        if len(phrases) > LISTED + 1:
            return f"{who} must choose {asked}: {', '.join(phrases[:LISTED])} or one of {len(phrases) - LISTED} more."
        return f"{who} must choose {asked}: {_listed(phrases, 'or')}."
    turn = state.turn
    if turn is None:
        return None
    taken = turn.get("actions", 0)
    return f"It is {n.seat(turn['seat'])}'s turn ({taken} action{'' if taken == 1 else 's'} taken)."


#: What each kind of decision asks (``{}`` fields from its context; a kind not here is named as it is).
_ASKED = {
    "choose_stalker": "which stalker to play",
    "new_stalker": "a new stalker to play",
    "test_options": "how to settle the test of {attribute} ({total} against {difficulty})",
    "flee": "whether to flee {threat}",
    "trophy": "whether to give up a trophy",
    "skip_encounter": "whether to skip the encounter",
    "threat_met": "which threat to meet",
    "protect": "how to take the harm",
    "injury": "where the injury goes",
    "heal_injury": "which injury heals",
    "find": "which find to keep",
    "keep": "which card to put back",
    "gain_item": "what to do with {item}",
    "sixth_lost": "what to drop",
    "trade": "what to do at the trading post",
    "sale": "what to sell or buy",
    "repair": "what to repair",
    "voice_area": "where the Voice of the Zone strikes",
    "dash": "whether to dash to a bunker",
    "damage_item": "which item is damaged",
    "category": "whether to use an item",
    "choose": "what to do",
}


def _asked(kind: str, context: dict[str, Any], n: Names) -> str:
    asked = _ASKED.get(kind, _plain(kind))
    try:
        return asked.format(**context)
    except (KeyError, IndexError):
        # A context without the names the phrase wants: the phrase up to them.
        return asked.split(" {")[0].split(" (")[0]
