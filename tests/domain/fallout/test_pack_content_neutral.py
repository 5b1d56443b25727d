"""The bundled pack's shared content names no scenario's factions or region.

Every scenario deals the same agenda deck (Agenda Cards; Complete Setup, step 5), the same loot,
asset and unique decks, the same starting encounter decks and enemy supply, and shares part of the
Card Library. A text in that shared content is met in every scenario, so it may name no one
scenario's factions (they are another game's factions in the other three) nor its region ("the
Reach" is not on the Sulphur Flats). A faction-bound text says "the ★ faction" / "the ♠ faction".
A scenario's own content (its sheet and the library cards only it can bring into play) may name
its own factions, never another scenario's. The names of the dangerous and deadly tiles are not
checked: the shuffle deals every tile a scenario does not lay face up into its piles, so such a tile
is a place of every scenario. A face of a double-sided tile is never shuffled (Map Tiles): it is a
place of the scenarios whose sheet lays it, and its names count as theirs.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import pytest

from domain.fallout.model import Pack, Scenario
from domain.fallout.pack.card_checks import in_play
from tests.domain.fallout.bundled_pack import SCENARIOS

#: The fields of a component a player reads (ids and references are never shown as words).
_SHOWN = frozenset({"name", "text", "label", "intro", "title", "succeed_text", "fail_text"})


def _shown_texts(component: Any) -> Iterator[str]:
    if dataclasses.is_dataclass(component) and not isinstance(component, type):
        for field in dataclasses.fields(component):
            value = getattr(component, field.name)
            if field.name in _SHOWN and isinstance(value, str):
                yield value
            else:
                yield from _shown_texts(value)
    elif isinstance(component, (list, tuple)):
        for value in component:
            yield from _shown_texts(value)


def _words(scenario: Scenario, pack: Pack | None = None) -> set[str]:
    """What names a scenario: its factions' names, with and without "The", their last word singular
    too ("the Wardens", "a Warden") and its token enemies' names; its name and its region ("the
    Reach" of "The Saltmarsh Reach"); and (given the pack) the names of the double-sided faces its
    sheet lays face up and of their places ("Kettle Harbor")."""
    words: set[str] = set()
    for place in scenario.places if pack is not None else ():
        if place.double_sided is not None and place.tile is not None:
            face = pack.tiles[place.tile]
            words |= {face.name.removeprefix("The ")} | {s.name for s in face.spaces if s.name}
    for faction in scenario.factions:
        bare = faction.name.removeprefix("The ")
        last = bare.split()[-1]
        words |= {bare, last, last.removesuffix("s")}
        if faction.token_enemy is not None:
            words.add(faction.token_enemy.name)
    place = scenario.name.removeprefix("The ")
    words |= {place, f"the {place.split()[-1]}"}
    return words


def _naming(words: set[str], texts: list[str]) -> list[str]:
    """The texts naming one of ``words`` as a whole word, capital letters as written."""
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, sorted(words))) + r")\b")
    return [text for text in texts if pattern.search(text)]


def _split(pack: Pack) -> tuple[list[str], dict[str, list[str]]]:
    """The shown texts of the content every scenario shares, and of each scenario's own content."""
    library = [card for card in (*pack.encounters.values(), *pack.quests.values()) if card.number is not None]
    starting = [item for item in (*pack.encounters.values(), *pack.cards.values(), *pack.perks, *pack.agendas)
                if getattr(item, "number", None) is None]
    reached = {sid: in_play(library, starting, scenario) for sid, scenario in pack.scenarios.items()}
    everywhere = set.intersection(*reached.values())
    shared: list[Any] = [*pack.enemies, *pack.survivors.values(), *pack.special_tokens, *pack.trait_tokens,
                         *starting, *(card for card in library if card.number in everywhere)]
    own = {
        sid: [*_shown_texts(scenario),
              *_shown_texts([card for card in library if card.number in reached[sid] - everywhere])]
        for sid, scenario in pack.scenarios.items()
    }
    return list(_shown_texts(shared)), own


def test_the_words_found_name_each_scenario(pack: Pack) -> None:
    """The check below is only as good as its word lists: each scenario's own texts use them."""
    assert {"Weir Wardens", "Wardens", "Warden", "the Reach"} <= _words(pack.scenarios["saltmarsh_reach"])
    assert {"Kettle Harbor"} <= _words(pack.scenarios["saltmarsh_reach"], pack)
    assert {"Ventmouth", "Ventmouth Boomtown"} <= _words(pack.scenarios["sulphur_flats"], pack)
    _, own = _split(pack)
    for sid, scenario in pack.scenarios.items():
        assert _naming(_words(scenario), own[sid]), f"{sid}: none of its own texts names its factions"


def test_shared_content_names_no_scenarios_faction_or_region(pack: Pack) -> None:
    """Agenda Cards, Card Library: what every scenario deals names none of them."""
    shared, _ = _split(pack)
    assert len(shared) > 500  # the decks, the supply and the shared library were all read
    for sid, scenario in pack.scenarios.items():
        assert _naming(_words(scenario, pack), shared) == [], f"shared content names {sid}"


@pytest.mark.parametrize("sid", SCENARIOS)
def test_a_scenarios_own_content_names_no_other_scenario(pack: Pack, sid: str) -> None:
    """Card Library: the cards only one scenario brings into play speak of that scenario alone."""
    _, own = _split(pack)
    for other_id, other in pack.scenarios.items():
        if other_id != sid:
            assert _naming(_words(other, pack), own[sid]) == [], f"{sid} names {other_id}"


def test_a_faction_bound_agenda_names_its_faction_by_its_icon(pack: Pack) -> None:
    """Agenda Cards: a faction card names its faction, if at all, as the scenario's ★ or ♠ faction."""
    other_icon = {"star": "♠", "spade": "★"}
    for agenda in pack.agendas:
        if agenda.faction is not None:
            assert other_icon[agenda.faction] not in agenda.text, agenda.id
