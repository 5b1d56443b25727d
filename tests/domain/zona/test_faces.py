"""Cards you can read: a Zona view's ``faces`` give every stalker, item, threat and news card it shows a face,
and nothing it hides one.

Zona §"ZNALEZISKA": a find another stalker holds is hidden ("find"); the event
card being read is heard, not seen, except by its reader (Zona §"KARTY
WYDARZEŃ", the read-aloud split). Faces are read off the view, so both ways
are checked on random play.
"""

from __future__ import annotations

import json

import pytest

from domain.zona.faces import strings
from domain.zona.game import ZONA
from domain.zona.state import is_find, owned_items
from domain.zona.view import _NAMED
from tests.contract.driver import Play, leaves, option_sets, play


@pytest.fixture(scope="module")
def game() -> Play:
    # A seed whose stalkers hold finds in the states sampled, so the check of hidden finds bites.
    return play(ZONA, option_sets(ZONA)[0], 2, "faces-9", 300)


def _strings(value: object) -> set[str]:
    """Every string of a view, keys included (``cards`` is keyed by item type)."""
    return leaves(value) | (set().union(*(_strings(v) | {k} for k, v in value.items())) if isinstance(value, dict) and value
                            else set().union(*map(_strings, value)) if isinstance(value, list) and value else set())


def _states(game: Play) -> list:
    return [s for s in game.sampled(30) if not ZONA.is_over(s) and s.phase != "setup"]


def test_every_stalker_item_and_threat_a_seat_sees_has_a_face(game: Play) -> None:
    """Every stalker at the table, the seat's own items, the other stalkers' items but their finds, the market
    and the threats on the board (their reverse is public, Zona §"ŻETONY ZAGROŻEŃ NA PLANSZY") have a face, by the
    id as the view shows it; and only ids the view shows have one."""
    checked = 0
    for state in _states(game):
        for seat in range(state.players):
            view = ZONA.view(state, seat)
            faces = view["faces"]
            shown = _strings({k: v for k, v in view.items() if k != "faces"})
            reading = (view.get("reading") or {}).get("card")
            assert set(faces) - {reading} <= shown
            expected = {s["character"] for s in state.stalkers if s["character"]}
            for s in state.stalkers:
                expected |= {c for c in owned_items(s) if s["seat"] == seat or not is_find(c)}
            expected |= {c for row in state.market.values() for c in row if c}
            expected |= {t for tokens in state.threats.values() for t in tokens}
            missing = sorted(expected - set(faces))
            assert not missing, f"seat {seat} sees {missing} without a face"
            for key, face in faces.items():
                assert set(face) == {"name", "kind", "cost", "text"} and face["name"] and face["text"].strip(), key
            checked += len(expected)
    assert checked > 50


def test_no_find_another_stalker_holds_and_no_unread_event_card_has_a_face(game: Play) -> None:
    """Zona §"ZNALEZISKA": another stalker's finds show as "find", with no face; the event card being read has a
    face only for a seat whose view carries its text (the reader); no deck's cards have one."""
    finds_seen = 0
    for state in _states(game):
        decks = {c for deck in state.decks.values() for c in deck}
        for seat in range(state.players):
            view = ZONA.view(state, seat)
            faces = set(view["faces"])
            others = {c for s in state.stalkers if s["seat"] != seat for c in owned_items(s) if is_find(c)}
            finds_seen += len(others)
            assert not faces & others, f"seat {seat} reads another stalker's find {sorted(faces & others)}"
            assert not faces & decks, f"seat {seat} reads a deck's card {sorted(faces & decks)}"
            reading = view.get("reading")
            if reading is not None:
                assert (reading["card"] in faces) == (reading["text"] is not None), reading
    assert finds_seen

def test_the_bots_scoring_view_carries_no_faces(game: Play) -> None:
    """Bots score thousands of positions a decision: faces are for people, never in the scoring view."""
    assert ZONA.ai is not None
    state = _states(game)[-1]
    scored = ZONA.ai.scoring_view(state, 0)
    assert scored is not None and "faces" not in scored and "faces" in ZONA.view(state, 0)


def test_the_cards_a_view_names_are_the_strings_of_its_text_with_an_id_mark(game: Play) -> None:
    """A view reads every string of its JSON text once, for its faces and its cards: where the text has no
    escape, the strings holding ``#`` or ``@`` are exactly what the cards' narrower expression finds there,
    in order (with an escape the view still asks the expression)."""
    compared = 0
    for state in _states(game):
        for seat in [*range(state.players), None]:
            view = ZONA.view(state, seat)
            text = json.dumps({k: v for k, v in view.items() if k not in ("cards", "board", "faces")})
            if "\\" in text:
                continue
            assert [v for v in strings(text) if "#" in v or "@" in v] == _NAMED.findall(text)
            compared += 1
    assert compared > 20
