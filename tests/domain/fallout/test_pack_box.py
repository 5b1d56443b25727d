"""The whole box: the bundled pack holds what the component list counts, and four scenarios of its own.

The counts are the component list of the Learn to Play booklet (rules/001, "Components"); the
limits are Component Limitations. Each scenario is followed through the card library on its own
(``card_checks.in_play``), as the loader does.
"""

from __future__ import annotations

from collections import Counter

from domain.fallout import effects
from domain.fallout.model import DOUBLE_SIDED, Pack
from domain.fallout.pack.card_checks import in_play, parsed_results

#: Components, as the booklet lists them.
MAP_TILES = 21
SCENARIO_SHEETS = 4
SURVIVORS = 5
ENCOUNTER_CARDS = {"wasteland": 34, "settlement": 21, "vault": 20}  # 75
QUEST_CARDS = 100
PERK_CARDS = 14
ENEMY_TOKENS = 27
TRAIT_TOKENS = 12
LOOT_CARDS = 34
ASSET_CARDS = 25
UNIQUE_ASSET_CARDS = 11
AGENDA_CARDS = 23
FACTION_TOKENS = 10
QUEST_MARKERS = 8
#: Four player boards: a survivor holds at most one token of each trait kind, so the box has a
#: copy of each kind per board, and the pack lists each kind once.
PLAYER_BOARDS = 4


def _starting(pack: Pack) -> list:
    """What is in play from the start in every scenario: the starting decks, the item decks, perks."""
    return [*(c for c in pack.encounters.values() if c.number is None), *pack.cards.values(), *pack.perks]


def _library(pack: Pack) -> list:
    return [c for c in [*pack.encounters.values(), *pack.quests.values()] if c.number is not None]


def _reached(pack: Pack) -> dict[str, set[int]]:
    return {sid: in_play(_library(pack), _starting(pack), scenario) for sid, scenario in pack.scenarios.items()}


def test_the_pack_holds_the_box(pack: Pack) -> None:
    """Components: every count of the component list."""
    # A double-sided tile is one tile with two faces in ``pack.tiles`` (Map Tiles).
    singles = Counter(t.back for t in pack.tiles.values() if t.back != DOUBLE_SIDED)
    assert singles == {"start": 1, "dangerous": 9, "deadly": 9} and len(pack.double_sided) == 2
    assert sum(singles.values()) + len(pack.double_sided) == MAP_TILES
    assert len(pack.scenarios) == SCENARIO_SHEETS
    assert len(pack.survivors) == SURVIVORS
    decks = Counter("vault" if c.deck.startswith("vault") else c.deck for c in pack.encounters.values())
    assert decks == ENCOUNTER_CARDS and sum(decks.values()) == 75
    assert Counter(c.deck for c in pack.encounters.values() if c.deck.startswith("vault")) == {
        "vault84": 10, "vault109": 10}
    assert len(pack.quests) == QUEST_CARDS
    assert len(pack.dice) == 3
    assert len(pack.perks) == PERK_CARDS
    assert len(pack.enemies) == ENEMY_TOKENS
    assert len(pack.trait_tokens) * PLAYER_BOARDS == TRAIT_TOKENS
    by_deck = Counter(card.deck for card in pack.cards.values())
    assert by_deck == {"loot": LOOT_CARDS, "asset": ASSET_CARDS, "unique": UNIQUE_ASSET_CARDS, None: SURVIVORS}
    assert len(pack.agendas) == AGENDA_CARDS


def test_faction_tokens_of_a_scenario_fit_the_box(pack: Pack) -> None:
    """Component Limitations / Faction Tokens: a substitute is allowed when the ten run out, but
    our content never needs one: all the tokens a scenario's sheet and cards can place fit the box."""
    reached = _reached(pack)
    library = _library(pack)
    for sid, scenario in pack.scenarios.items():
        in_game = [*_starting(pack), scenario, *(c for c in library if c.number in reached[sid])]
        placed = [r for item in in_game for _, r in parsed_results(item) if isinstance(r, effects.PlaceFactionToken)]
        assert 1 <= len(placed) <= FACTION_TOKENS, (sid, len(placed))


def test_quest_markers_at_setup_fit_the_box(pack: Pack) -> None:
    """Quest Markers: a marker goes on the map and its pair on the quest card, so the box's eight
    are four pairs; setup stages quests using at most that many."""
    numbers = {q.number: q for q in pack.quests.values()}
    for sid, scenario in pack.scenarios.items():
        staged = [numbers[int(ref)] for ref in scenario.staged_quests]
        pairs = sum(isinstance(r, effects.PlaceMarker) for quest in staged for _, r in parsed_results(quest))
        assert 1 <= pairs <= QUEST_MARKERS // 2, sid


def test_every_library_card_enters_play_in_some_scenario(pack: Pack) -> None:
    """Card Library: every numbered card is added or staged in at least one scenario, and each
    scenario's own cards (the ones no other scenario reaches) include its staged quests."""
    reached = _reached(pack)
    assert set().union(*reached.values()) == {c.number for c in _library(pack)}
    for sid, scenario in pack.scenarios.items():
        others = set().union(*(r for other, r in reached.items() if other != sid))
        own = reached[sid] - others
        assert {int(ref) for ref in scenario.staged_quests} <= own, sid
        assert len(own) >= 15, (sid, len(own))


def test_each_scenario_is_its_own(pack: Pack) -> None:
    """Factions / Faction Power Track / Map Tiles: each scenario has its own pair of factions,
    starting quest, setup, layout and a quest line for each faction."""
    reached = _reached(pack)
    quests = {q.number: q for q in pack.quests.values()}
    names = Counter(f.name for s in pack.scenarios.values() for f in s.factions)
    assert len(names) == 2 * SCENARIO_SHEETS and set(names.values()) == {1}
    tokens = Counter(f.token_enemy.id for s in pack.scenarios.values() for f in s.factions if f.token_enemy)
    assert len(tokens) == 2 * SCENARIO_SHEETS
    layouts = {frozenset((p.q, p.r, p.tile or p.back) for p in s.places) for s in pack.scenarios.values()}
    assert len(layouts) == SCENARIO_SHEETS
    featured = {frozenset(p.tile for p in s.places if p.tile) for s in pack.scenarios.values()}
    assert len(featured) == SCENARIO_SHEETS  # each lays its own tile face up beside the camp
    assert len({tuple(s.staged_quests) for s in pack.scenarios.values()}) == SCENARIO_SHEETS
    assert len({tuple(map(str, s.setup)) for s in pack.scenarios.values()}) == SCENARIO_SHEETS
    for sid in pack.scenarios:
        bars = [r for n in reached[sid] if n in quests for _, r in parsed_results(quests[n])]
        for faction in ("star", "spade"):
            advancing = [r for r in bars if isinstance(r, effects.Power) and r.faction == faction]
            assert len(advancing) >= 10, (sid, faction)


def test_shared_quests_name_no_scenarios_places_or_factions(pack: Pack) -> None:
    """Scenario, Quest Cards: the quests every scenario can draw (130-195) are written place-neutral: their
    texts name no scenario, no scenario's faction (they say ★ or ♠), no place that only one map shows."""
    words = set()
    for scenario in pack.scenarios.values():
        words.add(scenario.name.removeprefix("The "))
        words.update(f.name.removeprefix("The ") for f in scenario.factions)
    words.update({"Reach", "Court", "Wardens", "Guild", "Quorum", "Exchange", "Signal Corps", "Society"})
    shared = [q for q in pack.quests.values() if 130 <= q.number <= 195]
    assert len(shared) >= 9
    for quest in shared:
        texts = [quest.title, quest.text, *(o.text for o in quest.objectives)]
        named = {w for w in words for t in texts if w in t}
        assert not named, (quest.number, named)


def test_each_opening_quest_starts_both_faction_lines_whichever_objective_completes_it(pack: Pack) -> None:
    """Scenario, Quest Cards: the quest a scenario stages at setup starts both of its factions' quest lines
    by any of its objectives, so no way of finishing it leaves the factions' stories unstarted."""
    for sid, scenario in pack.scenarios.items():
        (opening,) = [q for q in pack.quests.values() if str(q.number) in scenario.staged_quests]
        staged = [
            {r.number for r in effects.parse_results(o.results) if isinstance(r, effects.Stage)}
            for o in opening.objectives
        ]
        common = set.intersection(*staged)
        assert len(common) >= 2, (sid, opening.number, staged)
