"""Cards you can read: a view's ``faces`` give every card it shows a face and no card it hides one.

Hidden as the view hides it (Agenda Cards: another seat's hand; the decks'
contents; the Card Library; an encounter card while it is resolved, only read
aloud). Faces are read off the view, so this checks both ways on random play
of the bundled pack.
"""

from __future__ import annotations

import re

import pytest

from domain.fallout.content import catalog
from domain.fallout.faces import pack_faces
from domain.fallout.game import FALLOUT
from tests.contract.driver import Play, leaves, option_sets, play


@pytest.fixture(scope="module")
def game() -> Play:
    return play(FALLOUT, option_sets(FALLOUT)[0], 3, "faces", 220)


def _states(game: Play) -> list:
    return [s for s in game.sampled(25) if not FALLOUT.is_over(s)]


def test_every_card_a_seat_sees_has_a_face_with_its_rules_in_words(game: Play) -> None:
    """Survivors, their items, abilities and perks, the seat's own agendas (Agenda Cards), staged quests, the
    shop and the perk deck: each has a face (name, kind, cost, text) in the seat's view, and only ids the view
    shows have one."""
    checked = 0
    for state in _states(game):
        for seat in range(state.players):
            view = FALLOUT.view(state, seat)
            faces = view["faces"]
            shown = leaves({k: v for k, v in view.items() if k not in ("faces", "names")})
            assert set(faces) <= shown, f"faces of ids the view does not show: {sorted(set(faces) - shown)}"
            expected = set(state.shop) | set(state.quests) | set(state.perk_deck) | set(state.survivor(seat).agendas)
            for s in state.survivors:
                expected |= {s.survivor} - {None} | set(s.equipped) | set(s.inventory) | set(s.abilities) | set(s.perks)
            missing = sorted(expected - set(faces))
            assert not missing, f"seat {seat} sees {missing} without a face"
            for key, face in faces.items():
                assert set(face) == {"name", "kind", "cost", "text"} and face["name"] and face["text"].strip(), key
                assert face["cost"] is None or isinstance(face["cost"], int), key
                assert not re.search(r"\b[a-z0-9]+_[a-z0-9_]+\b", face["text"]), f"{key}: {face['text']!r}"
            checked += len(expected)
    assert checked > 50


def test_no_card_a_seat_may_not_see_has_a_face_in_its_view(game: Play) -> None:
    """Agenda Cards: another seat's hand has no face in a seat's view (unless revealed for loyalty or once held
    by the seat itself); no card of a face-down deck (agenda, loot, asset, encounter) has one."""
    held: dict[int, set[str]] = {}
    for state in _states(game):
        revealed = {s.loyalty for s in state.survivors if s.loyalty is not None}
        decks = set(state.agenda_deck) | set(state.loot_deck) | set(state.asset_deck)
        decks |= {card for deck in state.encounter_decks.values() for card in deck}
        assert decks
        for seat in range(state.players):
            held.setdefault(seat, set()).update(state.survivor(seat).agendas)
            faces = set(FALLOUT.view(state, seat)["faces"])
            others = {a for s in state.survivors if s.seat != seat for a in s.agendas} - revealed - held[seat]
            assert not faces & others, f"seat {seat} reads another seat's agenda {sorted(faces & others)}"
            assert not faces & decks, f"seat {seat} reads a face-down deck's card {sorted(faces & decks)}"
        assert not set(FALLOUT.view(state, None)["faces"]) & {a for s in state.survivors for a in s.agendas} - revealed


def test_an_encounter_cards_face_is_what_is_read_aloud_never_its_outcomes() -> None:
    """Encounters: before choosing, the seat hears the intro and the bold options; an outcome is seen only once
    chosen, so no face holds one."""
    faces = pack_faces("base", None)
    for card in catalog("base").encounters.values():
        text = faces[card.id]["text"]
        assert card.intro.strip()[:40] in text
        for option in card.options:
            for outcome in (option.text, option.succeed_text, option.fail_text):
                assert not outcome or outcome.strip() not in text, f"{card.id} shows an outcome"


def test_the_bots_scoring_view_carries_no_faces(game: Play) -> None:
    """Bots score thousands of positions a decision: faces are for people, never in the scoring view."""
    assert FALLOUT.ai is not None
    state = _states(game)[-1]
    scored = FALLOUT.ai.scoring_view(state, 0)
    assert scored is not None and "faces" not in scored and "faces" in FALLOUT.view(state, 0)
