"""The event phase: sector cards, facility and sarcophagus cards, finds, winning."""

from __future__ import annotations

from domain.zona.game import ZONA
from tests.domain.zona.fixtures import (
    accept_tests,
    choose,
    clear_threats,
    edit,
    new_game,
    put,
    read_card,
    send,
    strip,
    with_stalker,
)


def _bare(faces=("blank",), character="mila", players=2, **fields):
    state = new_game(players, characters=[character, "vera", "bogdan", "zoya"][:players], die_faces=list(faces))
    state = strip(state, 0)
    state = clear_threats(state)
    fields.setdefault("fatigue", 5)
    return with_stalker(state, 0, **fields)


def test_event_phase_draws_from_the_deck_of_the_area_and_skips_bunkers_and_red():
    """Zona §"WYDARZENIA": one card each from the deck of their area, in turn order; bunkers and red
    areas draw none."""
    from tests.domain.zona.fixtures import events_of

    state = _bare(area="hayfields", players=3)
    state = with_stalker(state, 1, area="hamlet")
    state = with_stalker(state, 2, area="glasslake")
    state = send(state, 0, {"type": "pass"})
    state = send(state, 1, {"type": "pass"})
    events, state = events_of(state, 2, {"type": "pass"})
    drawn = [(e.data["seat"], e.data["source"]) for e in events if e.type == "EventCardDrawn"]
    assert drawn[0] == (0, "deck:green")
    assert all(seat != 1 for seat, _ in drawn)


def test_sector_card_section_by_area_else_other():
    """Zona §"WYDARZENIA ZIEŁONEGO SEKTORA I ŻÓŁTEGO SEKTORA": the named area's section, else "other"."""
    here = read_card(_bare(area="hayfields"), 0, "g_radio")
    assert here.pending is None or here.frames[-1]["kind"] == "test"  # the hayfields test
    other = read_card(_bare(area="outpost"), 0, "g_radio")
    assert other.pending["kind"] == "choose"
    assert other.pending["context"]["labels"] == ["Follow the signal", "Decline"]


def test_green_deck_reshuffles_when_its_last_card_is_drawn():
    """Zona §"WYDARZENIA ZIEŁONEGO SEKTORA I ŻÓŁTEGO SEKTORA": these decks never run out."""
    state = _bare(area="outpost")
    deck = list(state.decks["green"])
    for card in deck[:-1]:
        state = put(state, card, "discard:green")
    from domain.rng import Rng
    from domain.zona import cards, flow
    from domain.zona.resolution import ZonaResolution

    res = ZonaResolution(state, Rng("s"))
    cards.start_phase(res)
    flow.run(res)
    assert len(res.state.decks["green"]) >= len(deck) - 2


def test_tests_in_events_pick_the_branch():
    """Zona §"TESTY PODCZAS WYDARZEŃ": only the success or only the failure branch."""
    win = read_card(_bare(faces=("plus",), area="hayfields"), 0, "g_radio")
    win = accept_tests(win)
    lose = accept_tests(read_card(_bare(faces=("minus",), area="hayfields", character="orest"), 0, "g_radio"))
    base = _bare(area="hayfields").stalkers[0]["roubles"]
    assert win.stalkers[0]["roubles"] == base + 200
    assert lose.stalkers[0]["roubles"] == _bare(area="hayfields", character="orest").stalkers[0]["roubles"]


def test_choose_one_option_and_the_outcomes_stay_unseen():
    """Zona §"POLECENIE „WYBIERZ”": one option, the others ignored; "may" can be declined; the
    stalker sees labels, not outcomes (read-aloud split)."""
    state = read_card(_bare(area="outpost", reputation="neutral"), 0, "g_hermit")
    view = ZONA.view(state, 0)
    assert view["pending"]["context"]["labels"] == ["Share your food", "Take his stew"]
    assert view["reading"]["text"] is None
    voice = ZONA.view(state, 1)
    assert "improve reputation" in voice["reading"]["text"]["neutral"]  # the reader sees the outcomes
    assert all("fatigue" not in str(frame) for frame in state.frames)  # the log's frames hold addresses only
    state = choose(state, {"type": "choose", "option": 0})
    assert state.stalkers[0]["reputation"] == "good"


def test_voice_choice_on_a_card_is_the_voice_seats_decision():
    """Zona §"POLECENIE „WYBIERZ”": a card may give the choice to the Voice of the Zone."""
    state = _bare(area="fogridge")
    state = edit(state, voice=1)
    state = read_card(state, 0, "y_toll")
    assert state.pending["seat"] == 1 and state.pending["kind"] == "choose"


def test_event_damage_is_immediate_and_simultaneous():
    """Zona §"OBRAŻENIA": damages separated by commas come together: one protection window."""
    state = _bare(area="reedmarsh", damage=0)
    state = put(state, "gas_hood#1", "worn:0")  # radiation and disturbance 1 each
    state = read_card(state, 0, "g_storm")
    assert state.pending["kind"] == "protect"
    state = choose(state, {"type": "protect", "card": "gas_hood#1"})
    assert state.stalkers[0]["damage"] == 0


def test_event_encounter_draws_from_the_bottom_and_leaves_the_token_if_not_defeated():
    """Zona §"SPOTKANIA": the threat from the bottom of its queue; undefeated, it stays in the area."""
    state = _bare(faces=("minus",), area="quarrypit", character="orest", damage=0)
    bottom = state.dispenser["green_mutant"][0]
    state = read_card(state, 0, "g_radio")
    assert state.in_play == [bottom]
    state = accept_tests(state)
    state = accept_tests(choose(state, {"type": "confront"}))
    state = accept_tests(state)
    assert bottom in state.threats["quarrypit"]


def test_reputation_sections_only_the_matching_one():
    """Zona §"REPUTACJA A WYDARZENIA": good, neutral and bad sections; one is resolved."""
    good = read_card(_bare(area="outpost", reputation="good", damage=2), 0, "g_hermit")
    assert good.stalkers[0]["damage"] == 1
    bad = accept_tests(read_card(_bare(area="outpost", reputation="bad", damage=0, fatigue=1), 0, "g_hermit"))
    assert bad.stalkers[0]["damage"] == 1 and bad.stalkers[0]["reputation"] == "bad"


def _inside(facility, **fields):
    state = _bare(area=facility, **fields)
    state.locks[facility]["open"] = True
    return state


def test_facility_card_mission_failed_discards_and_continue_goes_on():
    """Zona §"WYDARZENIA TAJNEGO OBIEKTU": ✗ discards the card after its effects; ✓ goes to the next paragraph."""
    failed = accept_tests(read_card(_inside("greenhouse", faces=("minus",), character="orest", damage=0), 0, "f_gh1"))
    assert failed.stalkers[0]["damage"] == 1
    assert "f_gh1" in failed.discards["greenhouse"] and failed.stalkers[0]["area"] == "greenhouse"
    went_on = accept_tests(read_card(_inside("greenhouse", faces=("plus",)), 0, "f_gh1"))
    assert went_on.in_play or any(f["kind"] == "encounter" for f in went_on.frames)


def test_secret_is_tucked_and_a_find_kept():
    """Zona §"WYDARZENIA TAJNEGO OBIEKTU" / §"ZNALEZISKA": the secret card is kept, and one find of the deck."""
    state = read_card(_inside("signalstation", faces=("plus",)), 0, "f_ss1")
    state = accept_tests(state)
    assert state.stalkers[0]["secrets"] == ["f_ss1"]
    assert state.pending["kind"] == "find"
    finds = list(state.finds["signalstation"])
    state = choose(state, {"type": "keep_find", "card": finds[0]})
    assert finds[0] in state.stalkers[0]["small"] + state.stalkers[0]["backpack"] + state.stalkers[0]["worn"]
    assert state.finds["signalstation"] == finds[1:]


def test_looted_facility_forces_the_stalker_out():
    """Zona §"WYDARZENIA TAJNEGO OBIEKTU": the last card gone, the facility is looted; the first action out."""
    state = _inside("signalstation", faces=("plus",))
    for card in list(state.decks["signalstation"]):
        if card != "f_ss3":
            state = put(state, card, "discard:signalstation")
    state = accept_tests(read_card(state, 0, "f_ss3"))
    assert "signalstation" in state.looted and state.stalkers[0]["must_leave"]
    actions = ZONA.legal_actions(with_stalker(state, 0), 0)
    assert {a["type"] for a in actions} - {"put_on", "take_off", "drop", "use_item"} == {"move"}


def test_sarcophagus_ending_wins_in_the_event_phase():
    """Zona §"WYDARZENIA SARKOFAGU" / §"ZWYCIĘSTWO": reaching the ending wins at once; one winner."""
    state = _bare(area="core", damage=0)
    state = accept_tests(read_card(state, 0, "s_heart"))
    assert state.over and state.winner == 0 and ZONA.outcome(state).winners == (0,)


def test_last_sarcophagus_card_discarded_loses_for_all():
    """Zona §"WYDARZENIA SARKOFAGU": the sarcophagus deck used up is the shared loss."""
    state = _bare(area="core", damage=0)
    for card in list(state.decks["sarcophagus"]):
        if card != "s_echo":
            state = put(state, card, "discard:sarcophagus")
    state = accept_tests(read_card(state, 0, "s_echo"))
    assert state.over and state.lost == "sarcophagus" and ZONA.outcome(state).winners == ()


def test_goal_two_secrets_from_two_facilities():
    """Zona §"CEL GRY": two secrets of one facility do not open the way; of two facilities they do."""
    from domain.zona.facilities import ready_for_sarcophagus

    state = _bare()
    assert not ready_for_sarcophagus(with_stalker(state, 0, secrets=["f_gh1", "f_gh2"]), 0)
    assert ready_for_sarcophagus(with_stalker(state, 0, secrets=["f_gh1", "f_da1"]), 0)


def test_opening_a_facility_pays_the_lock_moves_in_and_keeps_a_find():
    """Zona §"OTWARCIE TAJNEGO OBIEKTU": from an entrance area, the lock's price, in at once, one find."""
    state = _bare(area="quarrypit", fatigue=1, damage=0, roubles=1000)
    state.locks["greenhouse"]["lock"] = "l_bribe"
    state = send(state, 0, {"type": "open_facility", "facility": "greenhouse"})
    assert state.locks["greenhouse"]["open"] and state.stalkers[0]["area"] == "greenhouse"
    assert state.stalkers[0]["roubles"] == 800
    assert state.pending["kind"] == "find"
    climb = _bare(area="quarrypit", fatigue=4)
    climb.locks["greenhouse"]["lock"] = "l_climb"
    assert {"type": "open_facility", "facility": "greenhouse"} not in ZONA.legal_actions(climb, 0)


def test_facility_capacity_and_known_secret_bar_entry():
    """Zona §"TAJNE OBIEKTY": one stalker inside on the small side; not again with its secret."""
    from domain.zona.facilities import entry_refusal

    state = _bare(area="quarrypit")
    state.locks["greenhouse"]["open"] = True
    assert entry_refusal(with_stalker(state, 1, area="greenhouse"), 0, "greenhouse") == "full"
    assert entry_refusal(with_stalker(state, 0, secrets=["f_gh2"]), 0, "greenhouse") == "secret_known"


def test_victory_only_in_the_event_phase_and_the_game_stops():
    """Zona §"ZWYCIĘSTWO": at most one winner, only while resolving a sarcophagus card in the event
    phase; standing in the sarcophagus in the action phase wins nothing, and after the win no seat acts."""
    state = _bare(area="core", damage=0, players=2)
    state = with_stalker(state, 1, area="core", damage=0)
    state = send(state, 0, {"type": "pass"})
    assert not state.over  # the action phase goes on
    for card in list(state.decks["sarcophagus"]):
        state = put(state, card, "discard:sarcophagus")
    state = put(state, "s_echo", "deck:sarcophagus")
    state = put(state, "s_heart", "deck:sarcophagus")  # seat 0 draws the heart, seat 1 would draw next
    state = accept_tests(send(state, 1, {"type": "pass"}))
    assert state.over and state.winner == 0
    assert ZONA.waiting_for(state) == [] and ZONA.legal_actions(state, 1) == []
    assert "s_echo" in state.decks["sarcophagus"]  # seat 1 never drew


def test_the_way_to_victory_by_commands_alone():
    """Zona §"CEL GRY": with two secrets, a red area's action leads to the power plant, its action into
    the sarcophagus, and a sarcophagus card's ending in the event phase wins."""
    state = _bare(faces=("plus",), area="rustwood", players=2, damage=0, fatigue=0, secrets=["f_gh1", "f_da1"])
    state = with_stalker(state, 1, area="hamlet")
    for card in list(state.decks["sarcophagus"]):
        state = put(state, card, "discard:sarcophagus")
    state = put(state, "s_heart", "deck:sarcophagus")

    def settle(state):
        while state.pending is not None:
            kind = state.pending["kind"]
            command = {"accept": {"type": "accept"}, "protect": {"type": "take_damage"}}.get(
                {"test_options": "accept", "protect": "protect"}.get(kind, ""), state.pending["choices"][0])
            state = send(state, state.pending["seat"], command)
        return state

    state = settle(send(state, 0, {"type": "move", "to": "ghosttown"}))
    state = settle(send(state, 0, {"type": "area_action"}))
    assert state.stalkers[0]["area"] == "reactoryard"
    state = settle(send(state, 1, {"type": "pass"}))  # red areas have no event deck; news; round 2
    assert state.voice == 1 and state.turn["seat"] == 1
    state = settle(send(state, 1, {"type": "pass"}))
    state = settle(send(state, 0, {"type": "area_action"}))
    assert state.stalkers[0]["area"] == "core" and not state.over
    state = settle(send(state, 0, {"type": "pass"}))
    assert state.over and state.winner == 0


def test_finds_keep_one_on_opening_and_nothing_when_none_are_left():
    """Zona §"ZNALEZISKA": opening a facility lets the opener look through its find deck and keep one;
    with no finds left it still opens, without the bonus; a dropped find leaves the game."""
    state = _bare(area="quarrypit", fatigue=1, roubles=1000)
    state.locks["greenhouse"]["lock"] = "l_bribe"
    finds = list(state.finds["greenhouse"])
    opened = send(state, 0, {"type": "open_facility", "facility": "greenhouse"})
    assert [c.get("card") for c in opened.pending["choices"]] == [*finds, None]
    assert ZONA.view(opened, 1)["pending"]["choices"] == []  # looked through alone
    kept = choose(opened, {"type": "keep_find", "card": finds[-1]})
    assert kept.finds["greenhouse"] == finds[:-1]
    empty = state
    for card in finds:
        empty = put(empty, card, "box")
    empty = send(empty, 0, {"type": "open_facility", "facility": "greenhouse"})
    assert empty.locks["greenhouse"]["open"] and empty.pending is None


def test_a_find_may_be_left_in_its_deck():
    """Zona §"ZNALEZISKA": the stalker "may look through the find deck and keep 1 of the cards": keeping is
    offered, not forced; left, the deck stays as it was; a lapsed turn keeps the first card offered."""
    state = _bare(area="quarrypit", fatigue=1, roubles=1000)
    state.locks["greenhouse"]["lock"] = "l_bribe"
    finds = list(state.finds["greenhouse"])
    opened = send(state, 0, {"type": "open_facility", "facility": "greenhouse"})
    assert opened.pending["kind"] == "find" and {"type": "refuse"} in opened.pending["choices"]
    assert ZONA.timeout_command(opened, 0) == {"type": "keep_find", "card": finds[0]}
    from domain.rng import Rng

    view = ZONA.view(opened, 0)  # a bot samples its world while it looks through the finds
    assert ZONA.view(ZONA.ai.determinize(view, 0, Rng("w")), 0) == view
    left = choose(opened, {"type": "refuse"})
    assert left.finds["greenhouse"] == finds and left.hand == []
    assert not any(c in finds for kind in ("backpack", "worn", "small", "sixth") for c in left.stalkers[0][kind])
