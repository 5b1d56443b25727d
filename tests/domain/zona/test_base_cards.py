"""Every event card of the base pack is read in play, every section of it, to its end.

Zona §"WYDARZENIA": a stalker draws the card of their area's deck and resolves
it; §"WYDARZENIA ZIEŁONEGO SEKTORA I ŻÓŁTEGO SEKTORA": the section of their area
(else "other") or of their reputation; §"WYDARZENIA TAJNEGO OBIEKTU" and
§"WYDARZENIA SARKOFAGU": paragraphs until mission failed, the secret or the win.

Each card is read from each of its sections with dice that always pass and
dice that always fail, every decision answered at random, so both branches of
every test run. The reading must end (nothing left being read or met), the
card must land where its ending sends it, and no item card or threat token may
be created or lost on the way.
"""

from __future__ import annotations

import pytest

from domain.rng import Rng
from domain.zona.pack import pack_named
from tests.domain.zona.fixtures import all_items, all_tokens, new_game, read_card, send, with_stalker

PACK = pack_named("base")
REPUTATIONS = ("good", "neutral", "bad")


def _readings():
    """(card, area, reputation) for every section a stalker can resolve."""
    out = []
    for card in PACK.events.values():
        if card.deck in ("green", "yellow"):
            if card.by_reputation:
                somewhere = next(a.id for a in PACK.areas.values() if a.sector == card.deck)
                out += [(card.id, somewhere, rep) for rep in REPUTATIONS]
            else:
                elsewhere = next(a.id for a in PACK.areas.values()
                                 if a.sector == card.deck and a.id not in card.sections)
                out += [(card.id, elsewhere if key == "other" else key, "neutral") for key in card.sections]
        else:
            area = next(a.id for a in PACK.areas.values() if a.sector == "sarcophagus") \
                if card.deck == "sarcophagus" else PACK.facilities[card.deck]
            keyed = any("reputation_sections" in repr(p) for p in card.paragraphs)
            out += [(card.id, area, rep) for rep in (REPUTATIONS if keyed else ("neutral",))]
    return out


READINGS = _readings()


@pytest.fixture(scope="module")
def games():
    """A solo base game per die: every test passes, every test fails."""
    return {face: new_game(1, seed=f"base-{face}", pack="base", die_faces=[face]) for face in ("plus", "minus")}


def _read_to_the_end(state, card, seed):
    pick = Rng(seed)
    state = read_card(state, 0, card, seed)
    for n in range(300):
        pending = state.pending
        if state.over or pending is None:
            return state
        state = send(state, pending["seat"], pick.choice(pending["choices"]), f"{seed}-{n}")
    raise AssertionError(f"{card}: the reading never ended")


def test_the_base_decks_hold_every_section():
    """Zona §"SPIS ELEMENTÓW": 25 + 25 sector cards, 4 x 10 facility cards, 14 sarcophagus cards; every
    sector card has two named areas of its own sector and "other", or three reputation sections."""
    by_deck = {}
    for card in PACK.events.values():
        by_deck[card.deck] = by_deck.get(card.deck, 0) + 1
    assert by_deck == {"green": 25, "yellow": 25, "sarcophagus": 14, **{f: 10 for f in PACK.facilities}}
    sector_sections = sum(3 for c in PACK.events.values() if c.deck in ("green", "yellow"))
    assert sum(1 for c, _, _ in READINGS if PACK.events[c].deck in ("green", "yellow")) == sector_sections


@pytest.mark.parametrize("face", ["plus", "minus"])
def test_every_base_event_card_resolves_from_every_section(games, face):
    """Zona §"WYDARZENIA": each card, from each section, resolves to its end with the tests passed
    (plus dice) and failed (minus dice), decisions at random; cards and tokens are conserved."""
    base = games[face]
    for card, area, reputation in READINGS:
        state = with_stalker(base, 0, area=area, reputation=reputation, fatigue=1, damage=0, roubles=600)
        items, tokens = sorted(all_items(state)), sorted(all_tokens(state))
        after = _read_to_the_end(state, card, f"{card}-{area}-{reputation}-{face}")
        where = f"{card} in {area} ({reputation}, {face})"
        won = after.winner is not None
        # A win stops the game with the winning card still in the stalker's hands.
        assert after.reading == ([card] if won else []), where
        assert after.in_play == [] and after.hand == [], where
        assert not any(f["kind"] in ("card", "encounter") for f in after.frames), where
        assert sorted(all_items(after)) == items, f"{where}: item cards conserved"
        assert sorted(all_tokens(after)) == tokens, f"{where}: threat tokens conserved"
        deck = PACK.events[card].deck
        if deck in ("green", "yellow"):
            assert card in after.discards[deck], where
        elif won:
            assert deck == "sarcophagus" and after.over, where
        elif card in after.stalkers[0]["secrets"]:
            assert deck != "sarcophagus", where
        else:
            assert card in after.discards[deck], where


def test_every_facility_deck_can_be_won_and_the_sarcophagus_too(games):
    """Zona §"CEL GRY" / §"ZWYCIĘSTWO": with every test passed, each facility deck gives up its secret on
    most of its cards and the sarcophagus deck has winning cards; with every test failed, no facility card
    that needs a test gives its secret."""
    secrets: dict[str, int] = {}
    wins = 0
    for card, area, reputation in READINGS:
        deck = PACK.events[card].deck
        if deck in ("green", "yellow") or reputation != "neutral":
            continue
        state = with_stalker(games["plus"], 0, area=area, reputation=reputation, fatigue=1, damage=0, roubles=600)
        after = _read_to_the_end(state, card, f"won-{card}")
        if card in after.stalkers[0]["secrets"]:
            secrets[deck] = secrets.get(deck, 0) + 1
        wins += after.winner is not None
    assert all(secrets.get(f, 0) >= 6 for f in PACK.facilities), secrets
    assert wins >= 8
