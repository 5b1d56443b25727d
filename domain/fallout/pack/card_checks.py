"""Checks of cards, the card library and their effects against the whole pack."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any

from domain.fallout import effects
from domain.fallout.model import (
    AgendaCard,
    Card,
    EncounterCard,
    Perk,
    QuestCard,
    Scenario,
    Tile,
)
from domain.fallout.pack.reader import Reader
from domain.fallout.pack.schema_parts import TRAITS

# Results about the game rather than a survivor: the only ones a scenario's
# setup can resolve, since no survivor resolves it.
_SETUP_RESULTS = (effects.Add, effects.Stage, effects.Power, effects.PlaceFactionToken, effects.PlaceMarker)

# An id is never empty and a library number is at least 1: these stand in a
# known set so that it is checked even when the pack has none of that thing
# (``effects.Known`` skips a reference whose set is empty).
_NO_ID = ""
_NO_NUMBER = 0

#: Files holding the starting encounter decks and the card library.
STARTING = "encounters.yaml"
LIBRARY = "library.yaml"


def _known_ids(values: Iterable[str], checked: bool = True) -> frozenset[str]:
    return frozenset(values) | {_NO_ID} if checked else frozenset()


def _known_numbers(values: Iterable[int]) -> frozenset[int]:
    return frozenset(values) | {_NO_NUMBER}


def _bars(item: Any) -> Iterator[tuple[str, tuple]]:
    """Every list of results on a component, with where it is on the card."""
    if isinstance(item, EncounterCard):
        for i, option in enumerate(item.options, 1):
            for name in ("results", "succeed", "fail"):
                yield f"option {i}: {name}", getattr(option, name)
    elif isinstance(item, QuestCard):
        yield "on_stage", item.on_stage
        for i, objective in enumerate(item.objectives, 1):
            yield f"objective {i}: results", objective.results
    elif isinstance(item, (Card, Perk)) and item.timing is None:  # a timed card's effects are modifiers
        yield "effects", item.effects
    elif isinstance(item, Scenario):
        yield "setup", item.setup
        yield "on_deplete", item.on_deplete
        for moment in effects.MOMENTS:
            for i, rule in enumerate(getattr(item, moment)):
                if isinstance(rule, dict) and isinstance(rule.get("results"), list):
                    yield f"{moment}[{i}]: results", tuple(rule["results"])


def _conditions(item: Any) -> Iterator[tuple[str, Any]]:
    """Every condition on a component, with where it is on the card."""
    if isinstance(item, EncounterCard):
        for i, option in enumerate(item.options, 1):
            yield f"option {i}: condition", option.condition
    elif isinstance(item, QuestCard):
        for i, objective in enumerate(item.objectives, 1):
            yield f"objective {i}: requirement", objective.requirement
    elif isinstance(item, Card):
        yield "recruit", item.recruit
        yield "keep_if", item.keep_if
    elif isinstance(item, AgendaCard):
        for i, entry in enumerate(item.influence):
            yield f"influence[{i}]: if", entry.get("if") if isinstance(entry, dict) else None


def parsed_results(item: Any) -> Iterator[tuple[str, Any]]:
    """The results on a component that parse (the others are reported by ``effects.check``)."""
    for at, bar in _bars(item):
        for i, raw in enumerate(bar):
            try:
                yield f"{at}[{i}]", effects.parse_result(raw)
            except effects.EffectError:
                pass


def parsed_conditions(item: Any) -> Iterator[tuple[str, Any]]:
    """Every condition (nested ones too) on a component that parses."""
    for at, raw in _conditions(item):
        if raw is None:
            continue
        try:
            parsed = effects.parse_condition(raw)
        except effects.EffectError:
            continue
        for condition in effects.conditions_in(parsed):
            yield at, condition


def check_cards(
    reader: Reader, entries: dict[str, list[tuple[str, Any]]], scenarios: list[tuple[str, Scenario]]
) -> None:
    failed = reader.files_with_problems()
    tiles: list[Tile] = [tile for _, tile in entries["tiles"]]
    encounters: list[tuple[str, EncounterCard]] = entries["encounters"]
    quests: list[tuple[str, QuestCard]] = entries["quests"]
    cards: list[tuple[str, Card]] = entries["cards"]
    library = [(where, card) for where, card in encounters + quests if card.number is not None]
    scenario_entries = [(f"{where}: scenario {scenario.id!r}", scenario) for where, scenario in scenarios]

    # Card Library: a number finds exactly one card.
    by_number: dict[int, list[str]] = {}
    for where, card in library:
        if card.number is not None:  # always: the library is the numbered cards
            by_number.setdefault(card.number, []).append(where)
    for number, owners in sorted(by_number.items()):
        if len(owners) > 1:
            reader.problem(
                owners[0], f"library number {number} is also used by {', '.join(owners[1:])}; "
                "library numbers must be unique",
            )

    # The starting decks are the cards with a star; the library holds the numbered ones.
    for where, card in encounters:
        if where.startswith(STARTING) and card.number is not None:
            reader.problem(
                where, f"a starting encounter card (the star) has no library number; "
                f"numbered cards ({card.number}) belong in {LIBRARY}",
            )
        elif where.startswith(LIBRARY) and card.number is None:
            reader.problem(where, "a card of the card library needs its library number")

    # Encounter Icons: every icon on the map has a deck to draw from, sooner or later.
    if "tiles.yaml" not in failed:
        shown = sorted({space.encounter.kind for tile in tiles for space in tile.spaces if space.encounter})
        for kind in shown:
            if kind in ("vault84", "vault109"):
                if LIBRARY not in failed and not any(card.deck == kind for _, card in encounters):
                    reader.problem(
                        LIBRARY, f"the tiles show the {kind} icon but the library has no {kind} card: "
                        "that vault could never be encountered",
                    )
            elif STARTING not in failed and not any(c.deck == kind and c.number is None for _, c in encounters):
                reader.problem(STARTING, f"the tiles show {kind} encounter icons but there is no starting {kind} card")

    # Every effect parses and every name it uses exists.
    traits = {side for _, token in entries["trait_tokens"] for side in token.sides} or set(TRAITS)
    known = effects.Known(
        spaces=_known_ids(
            (space.id for tile in tiles for space in tile.spaces), checked="tiles.yaml" not in failed
        ),
        tiles=_known_ids(tile.id for tile in tiles) | reader.broken,
        traits=_known_ids(traits),
        cards=_known_ids(card.id for _, card in cards) | reader.broken,
        uniques=_known_ids(card.id for _, card in cards if card.deck == "unique") | reader.broken,
        encounter_numbers=_known_numbers(
            c.number for _, c in library if isinstance(c, EncounterCard) and c.number is not None
        )
        | reader.broken_numbers,
        quest_numbers=_known_numbers(q.number for _, q in quests if q.number is not None) | reader.broken_numbers,
        quests=_known_ids(q.id for _, q in quests) | reader.broken,
    )
    everything = (
        encounters + quests + cards + entries["agendas"] + entries["perks"] + scenario_entries
    )
    for where, item in everything:
        for problem in effects.check(item, known):
            reader.problem(where, problem)

    check_markers(reader, quests, everything)
    # A card that failed its schema may be the one bringing others into play:
    # what is unreachable is worth knowing only once every item loads.
    if not reader.broken:
        check_reachable(reader, library, everything, scenario_entries, tiles)

    # Complete Setup, step 9: nobody resolves the scenario's setup (nor its
    # on_deplete and on_round_end rules), so only results about the game mean
    # something there; on_turn_start rules have the survivor whose turn starts.
    for where, scenario in scenario_entries:
        for at, result in parsed_results(scenario):
            if at.startswith("on_turn_start"):
                continue
            placed = isinstance(result, effects.PlaceEnemy) and result.space is not None
            if not isinstance(result, _SETUP_RESULTS) and not placed:
                reader.problem(
                    where, f"{at}: {type(result).__name__} needs a survivor to resolve it; setup has none "
                    "(only add, stage, faction_token, place_marker, place_enemy with a space and ★+ / ♠+)",
                )

    for where, item in everything:
        for at, result in parsed_results(item):
            # TRASH: the card resolving it goes back to the box, which only an
            # encounter or quest card can (an item or perk goes to its pile).
            if isinstance(result, effects.Trash) and not isinstance(item, (EncounterCard, QuestCard)):
                reader.problem(where, f"{at}: trash means something only on an encounter or a quest card")
            # Faction Tokens: a result placing one needs the scenario to say what it is.
            if isinstance(result, effects.PlaceFactionToken):
                for scenario_where, scenario in scenario_entries:
                    faction = next((f for f in scenario.factions if f.key == result.faction), None)
                    if faction is not None and faction.token_enemy is None:
                        reader.problem(
                            where, f"{at}: places a {result.faction} faction token, but {scenario_where} "
                            "gives that faction no token_enemy",
                        )

    # Character Cards: what a survivor starts with is no card of a deck.
    by_id = {card.id: card for _, card in cards}
    for where, survivor in entries["survivors"]:
        character = by_id.get(survivor.character_card)
        if character is not None and character.deck is not None:
            reader.problem(
                where,
                f"character card {character.id!r} is a {character.deck} card; a character card belongs to no deck",
            )


def check_markers(
    reader: Reader, quests: list[tuple[str, QuestCard]], everything: list[tuple[str, Any]]
) -> None:
    """Quest Markers: a pair is one on the map and one on the quest card placing it."""
    places = {
        quest.number for _, quest in quests
        if any(isinstance(result, effects.PlaceMarker) for _, result in parsed_results(quest))
    }
    numbers = {quest.number for _, quest in quests}
    for where, item in everything:
        quest_card = isinstance(item, QuestCard)
        for at, result in parsed_results(item):
            if isinstance(result, (effects.PlaceMarker, effects.RemoveMarker)) and not quest_card:
                reader.problem(where, f"{at}: only a quest card places or removes its quest markers")
        for at, condition in parsed_conditions(item):
            if not isinstance(condition, effects.AtMarker):
                continue
            if condition.number is None:
                if not quest_card:
                    reader.problem(where, f"{at}: `marker: true` means the marker of the quest being resolved; "
                                          "elsewhere name the quest (`marker: <number>`)")
                elif item.number not in places:
                    reader.problem(where, f"{at}: `marker: true`, but this quest never places a marker")
            elif condition.number in numbers and condition.number not in places:
                reader.problem(where, f"{at}: `marker: {condition.number}`, but quest {condition.number} "
                                      "never places a marker")


def in_play(library: Iterable[Any], starting: Iterable[Any], scenario: Scenario) -> set[int]:
    """The library numbers that can enter play in one scenario: staged by its sheet, or added or
    staged by a result on something in play from the start (``starting``: the starting decks, loot,
    asset and unique decks, perks, agendas), on the scenario sheet, or on a card that can itself."""
    by_number = {card.number: card for card in library}
    ids = {card.id: card.number for card in library}
    reached: set[int] = set()
    queue: deque[Any] = deque([*starting, scenario])
    for ref in scenario.staged_quests:
        number = int(ref) if str(ref).isdigit() else ids.get(str(ref))
        if number is not None and number in by_number and number not in reached:
            reached.add(number)
            queue.append(by_number[number])
    while queue:
        for _, result in parsed_results(queue.popleft()):
            number = result.number if isinstance(result, (effects.Add, effects.Stage)) else None
            if number is not None and number in by_number and number not in reached:
                reached.add(number)
                queue.append(by_number[number])
    return reached


def named_places(item: Any) -> Iterator[tuple[str, str, bool]]:
    """The spaces a component names (``False``) and the tiles it waits to see explored (``True``); a faction
    token's space is checked on its own (its tile must be face up)."""
    for at, condition in parsed_conditions(item):
        if isinstance(condition, effects.InSpace):
            yield at, condition.space, False
    for at, result in parsed_results(item):
        if isinstance(result, (effects.PlaceMarker, effects.MoveSurvivor)) or (
            isinstance(result, effects.PlaceEnemy) and result.space is not None
        ):
            yield at, str(result.space), False
    if isinstance(item, QuestCard):
        for i, objective in enumerate(item.objectives, 1):
            try:
                trigger = effects.parse_trigger(objective.trigger) if objective.trigger is not None else None
            except effects.EffectError:
                continue
            if isinstance(trigger, effects.EnterTrigger):
                yield f"objective {i}: trigger", trigger.space, False
            elif isinstance(trigger, effects.ExploreTrigger) and trigger.tile is not None:
                yield f"objective {i}: trigger", trigger.tile, True


def _check_map(
    reader: Reader, where: str, item: Any, scenario_where: str, scenario: Scenario, tiles: dict[str, Tile]
) -> None:
    """Map Tiles: a place a card names is on the scenario's map: on a tile the sheet lays face up, or on
    one of a back it shuffles face down (the face of a double-sided tile only where a sheet lays it).
    A tile waited for to be explored is one of a back it shuffles."""
    face_up = {place.tile for place in scenario.places if place.tile}
    shuffled = {place.back for place in scenario.places if place.back}
    for at, name, explored in named_places(item):
        tile = tiles.get(name.split(".")[0])
        if tile is None:
            continue  # an unknown name: effects.check reports it
        if explored and tile.back not in shuffled:
            reader.problem(
                where, f"{at}: waits for {tile.id!r} to be explored, but {scenario_where} (where this card can "
                "enter play) never lays it face down",
            )
        elif not explored and tile.id not in face_up and tile.back not in shuffled:
            reader.problem(
                where, f"{at}: names {name!r}, but {scenario_where} (where this card can enter play) never has "
                f"its tile {tile.id!r} on the map",
            )


def check_reachable(
    reader: Reader,
    library: list[tuple[str, Any]],
    everything: list[tuple[str, Any]],
    scenarios: list[tuple[str, Scenario]],
    tiles: list[Tile],
) -> None:
    """Card Library: a library card enters play only by ADD, STAGE or the scenario sheet.

    Scenarios share the starting decks and the library, so each is followed on its own: a card
    must enter play in at least one, and a card that can enter play in a scenario must make sense
    on that scenario's map."""
    cards = [card for _, card in library]
    starting = [item for _, item in everything if getattr(item, "number", None) is None
                and not isinstance(item, Scenario)]
    where_of = {id(item): where for where, item in everything}
    by_id = {tile.id: tile for tile in tiles}
    reached_anywhere: set[int] = set()
    for scenario_where, scenario in scenarios:
        reached = in_play(cards, starting, scenario)
        reached_anywhere |= reached
        # Faction Tokens: a token is placed face up in its space, so the space's tile must be face
        # up on this scenario's map (a face-down tile, or one left in the box, cannot hold it).
        face_up = {place.tile for place in scenario.places if place.tile}
        for item in [*starting, scenario, *(card for card in cards if card.number in reached)]:
            for at, result in parsed_results(item):
                if isinstance(result, effects.PlaceFactionToken) and result.space.split(".")[0] not in face_up:
                    reader.problem(
                        where_of.get(id(item), scenario_where),
                        f"{at}: places a faction token in {result.space!r}, but {scenario_where} "
                        "(where this card can enter play) does not lay that tile face up",
                    )
            _check_map(reader, where_of.get(id(item), scenario_where), item, scenario_where, scenario, by_id)
    for where, card in library:
        if card.number not in reached_anywhere:
            reader.problem(
                where, f"library card {card.number} is never added or staged by anything in play "
                "in any scenario: it could never enter play",
            )
