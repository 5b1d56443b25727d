"""The card library and its two results: ADD # and STAGE # (Card Library, Results).

Library cards are retrieved by number only: nothing else about the library is
in any event or view. Add shuffles the card with as many cards from the top
of its deck as there are players (fewer if the deck is shorter; a vault card
with no vault deck starts one) and puts them on top; the order is carried in
the event and hidden from every seat. Stage puts a quest card face up in the
play area and resolves its top section. A card already retrieved is not in
the library any more: retrieving it again does nothing.
"""

from __future__ import annotations

from domain.engine.shapes import integer, string, strings
from domain.fallout import conditions, results
from domain.fallout import effects as fx
from domain.fallout.rulebook import RULES, Resolution
from domain.fallout.state import GameState, Resolving, replace

RULE = "Card Library"


def add(res: Resolution, number: int) -> None:
    cat = res.catalog
    card_id = cat.library.get(number)
    if card_id is None or card_id not in cat.encounters or card_id in res.state.library_out:
        res.emit("LibraryCardUnavailable", number=number)
        return
    kind = cat.encounters[card_id].deck
    deck = res.state.encounter_decks.get(kind, ())
    taken = list(deck[: res.state.players])
    res.emit("CardAdded", number=number, card=card_id, deck=kind, order=res.rng.shuffled([card_id, *taken]))


def stage(res: Resolution, number: int, seat: int | None) -> None:
    cat = res.catalog
    quest_id = cat.library.get(number)
    if quest_id is None or quest_id not in cat.quests or quest_id in res.state.library_out:
        res.emit("LibraryCardUnavailable", number=number)
        return
    res.emit("QuestStaged", number=number, quest=quest_id)
    quest = cat.quests[quest_id]
    if quest.on_stage:
        space = res.state.survivor(seat).space if seat is not None else None
        results.push(res, seat, quest_id, "quest", conditions.level_at(res.state, space), quest.on_stage)


@results.about_game(fx.Add)
def _add_result(res: Resolution, entry: Resolving, r: fx.Add) -> None:
    add(res, r.number)


@results.about_game(fx.Stage)
def _stage_result(res: Resolution, entry: Resolving, r: fx.Stage) -> None:
    stage(res, r.number, results.resolver(res, entry))


@RULES.fold("LibraryCardUnavailable", {"number": integer()})
def _unavailable(state: GameState, data: dict) -> GameState:
    """The log shows the retrieval came to nothing; the state does not change."""
    return state


@RULES.fold(
    "CardAdded",
    {"card": string(nullable=True), "deck": string(), "number": integer(), "order": strings(hidden=True)},
)
def _added(state: GameState, data: dict) -> GameState:
    kind = data["deck"]
    deck = state.encounter_decks.get(kind, ())
    order = tuple(data["order"])
    rest = deck[len(order) - 1:]
    return replace(
        state,
        encounter_decks={**state.encounter_decks, kind: order + rest},
        library_out=state.library_out + (data["card"],),
    )


@RULES.fold("QuestStaged", {"number": integer(), "quest": string()})
def _staged(state: GameState, data: dict) -> GameState:
    return replace(state, quests=state.quests + (data["quest"],), library_out=state.library_out + (data["quest"],))
