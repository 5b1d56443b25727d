"""Every news card and every emission card of the base pack, resolved in a news phase.

Zona §"WIEŚCI": the Voice of the Zone draws the top news card, moves the
emission marker by its arrows and resolves it (a timed card stays in force
where the Voice marks it); §"EMISJA": when the marker reaches the last space,
the top emission card strikes (damage by sector on open ground, the board's
threats cleared and the card's placed) before the news card is resolved.
"""

from __future__ import annotations

from collections import Counter

import pytest

from domain.rng import Rng
from domain.zona import flow, news
from domain.zona.pack import pack_named
from domain.zona.resolution import ZonaResolution
from tests.domain.zona.fixtures import all_items, all_tokens, edit, new_game, put, send, with_stalker

PACK = pack_named("base")
#: Answers that keep an arranged position readable: no protection, no dash, the roll as it is.
PLAIN = ("take_damage", "stay", "accept")


@pytest.fixture(scope="module")
def game():
    return new_game(2, seed="base-news", pack="base", first_voice=0)


def _news_phase(state, seed):
    """Run one news phase from ``state`` to its end, decisions plain where possible, else at random."""
    res = ZonaResolution(state, Rng(seed))
    news.start_phase(res)
    flow.run(res)
    state, pick = res.state, Rng(f"pick-{seed}")
    for n in range(100):
        if state.over or not any(f["kind"] in ("news", "emission") for f in state.frames):
            return state
        choices = state.pending["choices"]
        plain = [c for c in choices if c["type"] in PLAIN]
        state = send(state, state.pending["seat"], plain[0] if plain else pick.choice(choices), f"{seed}-{n}")
    raise AssertionError("the news phase never ended")


def test_the_base_news_and_emission_decks_at_the_box_size():
    """Zona §"SPIS ELEMENTÓW": 21 news cards and 20 emission cards."""
    assert len(PACK.news) == 21 and len(PACK.emissions) == 20
    arrows = sum(c.arrows for c in PACK.news.values())
    # Three or four emissions in a full game: the clock and the storms keep pace.
    assert 3 * PACK.track <= arrows < 4 * PACK.track + PACK.track


@pytest.mark.parametrize("card", sorted(PACK.news))
def test_every_base_news_card_resolves(game, card):
    """Zona §"WIEŚCI": each news card, drawn with the marker at 0, resolves; a timed card stays in force
    on what the Voice marked, any other leaves the game; cards and tokens are conserved."""
    state = edit(put(game, card, "deck:news"), emission=0)
    items, tokens = sorted(all_items(state)), sorted(all_tokens(state))
    after = _news_phase(state, card)
    spec = PACK.news[card]
    assert after.emission == spec.arrows
    if spec.timed:
        assert after.timed_slot == [card] and after.timed["target"], after.timed
    else:
        assert card in after.removed
    assert sorted(all_items(after)) == items and sorted(all_tokens(after)) == tokens
    placed = sum(len(v) for v in after.threats.values()) - sum(len(v) for v in state.threats.values())
    wanted = sum(2 if t.get("spread") else 1 for e in spec.effects for t in e.get("place_threats", []))
    assert placed == wanted


@pytest.mark.parametrize("card", sorted(PACK.emissions))
def test_every_base_emission_card_strikes(game, card):
    """Zona §"EMISJA": the marker reaching the last space sets off the top emission card: a stalker in the
    yellow sector takes its green and yellow damage, the board's threats are replaced by the card's, the
    marker goes back to 0 and the news card that set it off is then resolved."""
    trigger = "nb_plume"  # one arrow, timed: it places no threat of its own
    state = put(put(game, trigger, "deck:news"), card, "deck:emission")
    state = edit(state, emission=PACK.track - 1)
    state = with_stalker(state, 0, area="tankyard", damage=0)  # yellow, next to no bunker
    state = with_stalker(state, 1, area="canteen")  # a bunker: safe
    before = {s: state.stalkers[s]["damage"] for s in (0, 1)}
    after = _news_phase(state, card)
    spec = PACK.emissions[card]
    assert card in after.discards["emission"]
    assert after.emission == 0 and after.timed_slot == [trigger]
    assert after.stalkers[0]["damage"] == before[0] + spec.damage["green"] + spec.damage["yellow"]
    assert after.stalkers[1]["damage"] == before[1]
    on_board = Counter((area, PACK.threat(t).queue) for area, ts in after.threats.items() for t in ts)
    assert on_board == Counter((p.area, f"{p.colour}_{p.kind}") for p in spec.place)
