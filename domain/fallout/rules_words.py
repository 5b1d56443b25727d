"""Fallout's effects vocabulary (docs/fallout-effects.md) in words: what a card does, as its face reads.

A card's own ``text`` is flavour and a reminder; what the engine plays is its
effects, so a face's rules are written from them here and can never disagree
with the game. Names come from the pack (``Rules``: a space's, a card's, a
faction's); a library card is named by its number only, as the printed card
does, since the library is hidden. Nothing here reads a game's state.
"""

from __future__ import annotations

from typing import Any

from domain.fallout.effects import results as r
from domain.fallout.effects.amounts import Amount
from domain.fallout.effects.reading import EffectError
from domain.fallout.model import Pack
from domain.fallout.names import capital, listed, plain

_SIGNS = {"star": "★", "spade": "♠"}
#: The counters of agenda influence, as one and as many (docs/fallout-effects.md, "Agenda cards").
_COUNTERS = {
    "caps": ("Cap", "Caps"), "special": ("S.P.E.C.I.A.L. token", "S.P.E.C.I.A.L. tokens"), "perks": ("perk", "perks"),
    "items": ("item held", "items held"), "traits": ("trait", "traits"), "agendas": ("agenda card", "agenda cards"),
    "xp_gained": ("XP gained", "XP gained"), "kills": ("kill", "kills"),
    "quests_done": ("quest objective done", "quest objectives done"),
    "tiles_explored": ("tile explored", "tiles explored"),
}  # fmt: skip


def amount(value: Any) -> str:
    return str(value) if isinstance(value, Amount) else str(value).replace(" ", "")


def _count(value: Any, noun: str, plural: str | None = None) -> str:
    text = amount(value)
    return f"{text} {noun if text == '1' else plural or noun + 's'}"


def _enemy(kind: str) -> str:
    return "an enemy" if kind == "any" else f"a {plain(kind)} enemy"


class Rules:
    """Effects in words, with the pack's names (and the scenario's factions) for the ids they hold."""

    def __init__(self, pack: Pack, factions: dict[str, str]):
        self.pack = pack
        self.factions = factions

    # -- names ----------------------------------------------------------------------------------

    def space(self, space_id: object) -> str:
        space = self.pack.spaces.get(str(space_id))
        if space is not None and space.name:
            return space.name
        tile_id, _, local = str(space_id).partition(".")
        tile = self.pack.tiles.get(tile_id)
        return f"the {plain(local)} of {tile.name if tile else plain(tile_id)}"

    def card(self, card_id: object) -> str:
        found = self.pack.cards.get(str(card_id))
        return found.name if found else plain(card_id)

    def faction(self, key: object) -> str:
        sign = _SIGNS.get(str(key), "")
        name = self.factions.get(str(key))
        return f"{sign} {name}" if name else sign or plain(key)

    # -- results --------------------------------------------------------------------------------

    def result(self, raw: Any) -> str:
        try:
            parsed = r.parse_result(raw)
        except EffectError:
            return plain(raw)
        return self._result(parsed)

    def _result(self, e: r.Result) -> str:
        if isinstance(e, r.Add):
            return f"shuffle library card {e.number} into its deck"
        if isinstance(e, r.Stage):
            return f"stage quest {e.number}"
        if isinstance(e, r.Become):
            return f"become {plain(e.trait)}"
        if isinstance(e, r.LoseTrait):
            return f"lose {plain(e.trait)}"
        if isinstance(e, r.GainXP):
            return f"gain {amount(e.amount)} XP"
        if isinstance(e, r.GainCaps):
            return f"gain {_count(e.amount, 'Cap')}"
        if isinstance(e, r.LoseCaps):
            return f"pay {_count(e.amount, 'Cap')}"
        if isinstance(e, r.Draw):
            return f"draw {_count(e.amount, f'{e.deck} card')}"
        if isinstance(e, r.Shop):
            return f"shop: draw an asset, then up to {amount(e.amount)} buys, sells or recruits"
        if isinstance(e, r.GainUnique):
            return f"gain the unique asset {self.card(e.card)}" if e.card else "gain a random unique asset"
        if isinstance(e, r.Power):
            way = "advances" if e.steps > 0 else "falls back"
            return f"{self.faction(e.faction)} {way} {_count(abs(e.steps), 'space')}"
        if isinstance(e, r.Trash):
            return "trash this card"
        if isinstance(e, r.SufferDamage):
            return f"suffer {amount(e.amount)} damage"
        if isinstance(e, r.SufferRads):
            return f"suffer {_count(e.amount, 'rad')}"
        if isinstance(e, r.RecoverHP):
            return f"recover {amount(e.amount)} HP"
        if isinstance(e, r.RemoveRads):
            return f"remove {_count(e.amount, 'rad')}"
        if isinstance(e, r.PlaceMarker):
            return f"place a quest marker at {self.space(e.space)}"
        if isinstance(e, r.RemoveMarker):
            return "remove this quest's markers"
        if isinstance(e, r.PlaceFactionToken):
            return f"place a {self.faction(e.faction)} token at {self.space(e.space)}"
        if isinstance(e, r.LoseItem):
            return f"discard {self.card(e.card)}"
        if isinstance(e, r.GainMovement):
            return f"gain {_count(e.points, 'movement point')}"
        if isinstance(e, r.Unexhaust):
            return "unexhaust all your cards"
        if isinstance(e, r.MoveSurvivor):
            return f"move to {self.space(e.space)}"
        if isinstance(e, r.PlaceEnemy):
            where = f" at {self.space(e.space)}" if e.space else " in your space"
            return f"place a {'' if e.active else 'face-down '}{plain(e.type)} enemy{where}"
        if isinstance(e, r.KillEnemy):
            return f"kill {_enemy(e.type)} in your space"
        if isinstance(e, r.FightEnemy):
            return f"fight {_enemy(e.type)} in your space"
        return plain(type(e).__name__)

    def results(self, items: Any) -> str:
        return "; ".join(self.result(x) for x in items or ()) or "nothing"

    # -- conditions, tasks, modifiers, influence ---------------------------------------------

    def condition(self, c: Any) -> str:
        if not isinstance(c, dict):
            return plain(c)
        parts = []
        for key, value in c.items():
            if key == "trait":
                parts.append(f"you are {plain(value)}")
            elif key == "special":
                parts.append(f"you have the {value} token")
            elif key == "space":
                parts.append(f"you are at {self.space(value)}")
            elif key == "encounter":
                parts.append(f"you are in a {plain(value)} space")
            elif key == "terrain":
                parts.append(f"you are in {plain(value)} terrain")
            elif key == "with_survivor":
                parts.append("you share a space with another survivor")
            elif key == "caps":
                parts.append(f"you have at least {_count(value, 'Cap')}")
            elif key == "item":
                parts.append(f"you have {self.card(value)}")
            elif key == "has":
                parts.append(f"you have a {plain(value)}")
            elif key == "equipped":
                parts.append(f"you have a {plain(value)} equipped")
            elif key == "marker":
                parts.append("you are at this quest's marker" if value is True else
                             "you are at a scenario marker" if value == "scenario" else f"you are at quest {value}'s marker")
            elif key == "loyal":
                parts.append(f"you are loyal to {self.faction(value)}")
            elif key == "ahead":
                faction, by = (value.get("faction"), value.get("by", 1)) if isinstance(value, dict) else (value, 1)
                parts.append(f"{self.faction(faction)} leads" + (f" by {by}" if by != 1 else ""))
            elif key in ("all", "any"):
                parts.append(listed([self.condition(x) for x in value or []], "and" if key == "all" else "or"))
            elif key == "not":
                parts.append(f"not ({self.condition(value)})")
            elif isinstance(value, dict):
                bounds = [f"at least {value['at_least']}"] * ("at_least" in value) + [f"at most {value['at_most']}"] * ("at_most" in value)
                parts.append(f"your {plain(key).replace('hp', 'HP')} is {' and '.join(bounds)}")
            else:
                parts.append(f"{plain(key)} {plain(value)}")
        return listed(parts)

    def task(self, t: Any) -> str:
        if isinstance(t, dict) and "test" in t:
            spec = t["test"] or {}
            letters = spec.get("special") or []
            letters = "".join(letters) if isinstance(letters, list) else str(letters)
            by = " (another survivor in your space rolls)" if spec.get("by") == "partner" else ""
            return f"test {letters} {amount(spec.get('difficulty'))}{by}"
        if isinstance(t, dict) and "draw_and_fight" in t:
            return f"draw and fight a {plain(t['draw_and_fight'])} enemy"
        return plain(t)

    def tasks(self, items: Any) -> str:
        return ", then ".join(self.task(t) for t in items or ()) or "nothing"

    def modifier(self, m: Any) -> str:
        if not isinstance(m, dict):
            return plain(m)
        words = {"fight_rerolls": "reroll in a fight", "test_rerolls": "reroll in a test",
                 "fight_hits": "hit in a fight", "armor": "enemy hit cancelled in a fight"}  # fmt: skip
        said = [f"+{v} {words.get(k, plain(k))}{'s' if v != 1 and k in words and k != 'armor' else ''}"
                for k, v in m.items() if k != "if"]  # fmt: skip
        when = f" while {self.condition(m['if'])}" if m.get("if") else ""
        return f"{listed(said)}{when}"

    def influence(self, entry: Any) -> str:
        if not isinstance(entry, dict):
            return plain(entry)
        gain = entry.get("gain", 1)
        if "if" in entry:
            return f"+{gain} influence if {self.condition(entry['if'])}"
        per = entry.get("per")
        if isinstance(per, dict) and "kind" in per:
            one, many = f"{plain(per['kind'])} held", f"{plain(per['kind'])}s held"
        elif isinstance(per, dict):
            ahead = f"{self.faction(per.get('lead'))} is ahead"
            one, many = f"space {ahead}", f"spaces {ahead}"
        else:
            one, many = _COUNTERS.get(str(per), (plain(per), plain(per)))
        every = entry.get("every", 1)
        most = f" (at most {entry['most']})" if entry.get("most") is not None else ""
        return f"+{gain} influence per {one if every == 1 else f'{every} {many}'}{most}"

    def trigger(self, t: Any) -> str:
        if not isinstance(t, dict) or not t:
            return plain(t)
        key, value = next(iter(t.items()))
        if key == "kill":
            if value in _SIGNS:
                return f"when you kill a {self.faction(value)} token"
            return f"when you kill {'any enemy' if value == 'any' else f'a {plain(value)} enemy'}"
        if key == "explore":
            tile = self.pack.tiles.get(str(value))
            return f"when you explore {tile.name if tile else 'a ' + plain(value) + ' tile'}"
        if key == "enter":
            return f"when you enter {self.space(value)}"
        return plain(key)


def sentence(text: str) -> str:
    text = text.strip()
    return capital(text) + ("" if text.endswith((".", "!", "?")) else ".") if text else ""
