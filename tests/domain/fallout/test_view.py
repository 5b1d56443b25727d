"""Hidden information: views and redacted events (Agenda Cards, Enemies, Map Tiles), and snapshots."""

from __future__ import annotations

import json
from dataclasses import replace

from bots.policies import GreedyBot
from domain.fallout.ai import FALLOUT_AI
from domain.fallout.content import catalog
from domain.fallout.game import FALLOUT
from domain.fallout.view import scoring_view
from domain.game import SYSTEM
from domain.rng import Rng
from tests.domain.fallout.fixtures import add_enemy, fold, quiet_game


def strings(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values()), *(strings(k) for k in value)) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def random_game(seed: str, players: int = 3, commands: int = 300, pack: str = "mini", scenario: str = "test"):
    log = FALLOUT.setup({"pack": pack, "scenario": scenario, "players": players}, Rng(seed))
    state = fold(FALLOUT.initial_state(), log)
    pick = Rng("pick" + seed)
    for n in range(commands):
        if FALLOUT.is_over(state):
            break
        command = FALLOUT.system_command(state)
        seat = SYSTEM if command else FALLOUT.waiting_for(state)[0]
        command = command or pick.choice(FALLOUT.legal_actions(state, seat))
        events = FALLOUT.decide(state, seat, command, Rng(seed, str(n)))
        state = fold(state, events)
        log += events
        yield state, events


def test_agenda_cards_no_view_or_event_shows_another_seats_agenda() -> None:
    """Agenda Cards, Loyalty, Camp Action: the cards in a hand are hidden (but one revealed for loyalty, even
    once hidden again since everyone saw it, or one a seat once held itself and traded away); their number is
    public."""
    held: dict[int, set[str]] = {}
    revealed: set[str] = set()
    for state, events in random_game("hidden"):
        revealed |= {s.loyalty for s in state.survivors if s.loyalty is not None}
        for a in range(state.players):
            held.setdefault(a, set()).update(state.survivor(a).agendas)
            seen = strings(FALLOUT.view(state, a))
            for event in events:
                seen |= strings(FALLOUT.redact(event, a).data)
            json.dumps(FALLOUT.view(state, a))
            for b in range(state.players):
                if a != b and not FALLOUT.is_over(state):
                    secret = set(state.survivor(b).agendas) - revealed - held[a]
                    assert not secret & seen
        if FALLOUT.is_over(state):
            break
        view = FALLOUT.view(state, 0)
        assert view["survivors"][1]["agendas"] is None
        assert view["survivors"][1]["agenda_count"] == len(state.survivor(1).agendas)
        assert view["survivors"][0]["agendas"] == list(state.survivor(0).agendas)


def pack_names(state) -> dict[str, str]:
    """Every name the pack gives, by id, read off the pack's own tables (not through domain.fallout.names)."""
    c = catalog(state.pack)
    pack = c.pack
    out = {f.key: f.name for f in pack.scenarios[state.scenario].factions}
    for table in (pack.survivors, pack.tiles, pack.cards, c.agendas, c.perks, c.enemies, pack.scenarios):
        out.update({key: thing.name for key, thing in table.items()})
    out.update({key: space.name for key, space in pack.spaces.items() if space.name})
    out.update({key: card.title for key, card in {**pack.quests, **pack.encounters}.items() if card.title})
    return out


def test_agenda_cards_map_tiles_enemies_a_view_names_exactly_the_ids_it_shows() -> None:
    """Agenda Cards, Map Tiles, Enemies: a view carries the pack's name for every id it shows (the board labels
    cards with them, as the log's words do) and for no other id, so a name tells a seat or a spectator nothing
    its view hides: another seat's agenda cards, a face-down tile, an inactive enemy's token."""
    named: set[str] = set()
    secrets = 0
    for state, _ in random_game("names", players=3, commands=120, pack="base", scenario="saltmarsh_reach"):
        known = pack_names(state)
        for seat in (*range(state.players), None):
            shown = FALLOUT.view(state, seat)
            names = shown.pop("names")
            shown.pop("faces")  # tests/domain/fallout/test_faces.py
            # The view without its names and faces is the module's scoring view, which ``view`` builds on.
            assert scoring_view(state, seat) == shown
            ids = strings(shown)
            assert set(names) <= ids, ("names an id the view does not show", set(names) - ids)
            assert names == {key: known[key] for key in ids if key in known}
            hidden = {a for s in state.survivors if s.seat != seat for a in s.agendas} - ids
            assert not {known[a] for a in hidden} & set(names.values()), "another seat's agenda, by name"
            secrets += len(hidden)
            named |= set(names)
    c = catalog("base")
    for kind, table in (("survivor", c.pack.survivors), ("tile", c.pack.tiles), ("named space", c.pack.spaces),
                        ("card", c.cards), ("agenda", c.agendas), ("perk", c.perks), ("quest", c.quests)):
        assert named & set(table), f"no {kind} was named: nothing checked"
    assert secrets, "no seat held an agenda card another could not see: nothing checked"
    assert known["agenda_wardens_ledger"] == "The Quartermaster's Ledger", "the pack's name, not the id's"


def test_map_tiles_face_down_tiles_and_deck_orders_stay_hidden() -> None:
    """Map Tiles, Agenda Cards, Enemies: face-down tiles show only their back; no deck order is shown."""
    log = FALLOUT.setup({"pack": "mini", "scenario": "test", "players": 2}, Rng("s"))
    state = fold(FALLOUT.initial_state(), log)
    setup = FALLOUT.redact(log[0], 0).data
    assert all(p["tile"] is None for p in setup["places"] if not p["faceup"])
    assert all(t is None for ids in setup["enemy_stacks"].values() for t in ids)
    assert all(t is None for t in setup["agenda_deck"])
    assert setup["agendas"][0] == log[0].data["agendas"][0] and setup["agendas"][1] == [None]
    view = FALLOUT.view(state, None)
    assert {m["place"] for m in view["map"] if m["tile"] is None} == {"ne", "se", "w"}
    seen = strings(view)
    assert not seen & set(state.agenda_deck)
    assert not seen & {t for ids in state.enemy_stacks.values() for t in ids}


def test_enemies_inactive_faces_are_hidden_from_everyone() -> None:
    """Enemies: nobody may look at the face of an inactive enemy; its type shows."""
    state, sleeper = add_enemy(quiet_game(1), "beetle", "camp.c", active=False)
    for seat in (0, None):
        entry = next(e for e in FALLOUT.view(state, seat)["enemies"] if e["enemy"] == sleeper)
        assert entry == {"enemy": sleeper, "type": "critter", "space": "camp.c", "active": False}
    from domain.game import Event

    placed = Event("EnemyPlaced", {"enemy": "e9", "type": "critter", "token": "beetle", "space": "x", "active": False})
    assert FALLOUT.redact(placed, 0).data["token"] is None


def test_view_reveals_everything_once_the_game_is_over() -> None:
    """Influence / Faction Power Track: after the game ends nothing is hidden."""
    state = replace(quiet_game(2), phase="over", result="lost")
    state, sleeper = add_enemy(state, "beetle", "camp.c", active=False)
    view = FALLOUT.view(state, 0)
    assert view["survivors"][1]["agendas"] == list(state.survivor(1).agendas)
    assert all(m["tile"] for m in view["map"])
    assert next(e for e in view["enemies"] if e["enemy"] == sleeper)["token"] == "beetle"
    assert view["names"]["beetle"] == catalog(state.pack).enemies["beetle"].name


def test_snapshots_round_trip_along_a_game() -> None:
    """Snapshots: load_state(dump_state(s)) == s at every step, and the dump is JSON."""
    for state, _ in random_game("snap", players=2, commands=150):
        dumped = FALLOUT.dump_state(state)
        assert FALLOUT.load_state(json.loads(json.dumps(dumped))) == state


def test_events_are_json_ready() -> None:
    """Events: data holds only JSON types, so the store can keep them as they are."""
    for _, events in random_game("json", players=4, commands=150):
        for event in events:
            assert json.loads(json.dumps(event.data)) == event.data
            assert event.type[0].isupper()


def test_replay_reproduces_the_game() -> None:
    """Randomness lives in events: folding the log again reproduces the state exactly."""
    log = []
    state = None
    setup = FALLOUT.setup({"pack": "mini", "scenario": "test", "players": 2}, Rng("replay"))
    log += setup
    for reached, events in random_game("replay", players=2, commands=200):
        log += events
        state = reached
    assert fold(FALLOUT.initial_state(), log) == state


def test_the_bots_score_the_parts_of_a_view_they_read_as_the_whole_view_shows_them() -> None:
    """The bots score a seat's scored parts (``FalloutAI.scoring_view``: quicker): each part is as the seat's
    view shows it (of the pending decision, whose it is and its kind), and ``evaluate`` and ``free_choice``
    read the same from it as from the whole view."""
    checked = 0
    for seed, players in (("parts-a", 2), ("parts-b", 4)):
        for n, (state, _) in enumerate(random_game(seed, players=players, commands=400)):
            if n % 4:
                continue
            for seat in range(state.players):
                whole, quick = FALLOUT.view(state, seat), FALLOUT_AI.scoring_view(state, seat)
                assert FALLOUT_AI.evaluate(quick, seat) == FALLOUT_AI.evaluate(whole, seat)
                assert FALLOUT_AI.free_choice(quick, seat) == FALLOUT_AI.free_choice(whole, seat)
                assert {k: v for k, v in quick.items() if k not in ("survivors", "pending")} == {
                    k: whole[k] for k in quick if k not in ("survivors", "pending")}
                if quick.get("pending") is not None:  # whose decision and its kind, not its choices
                    assert quick["pending"] == {k: whole["pending"][k] for k in ("seat", "kind")}
                else:
                    assert whole.get("pending") is None
                if "survivors" in quick:
                    mine = quick["survivors"][seat]
                    assert mine == {k: whole["survivors"][seat][k] for k in mine}
                    assert [s for i, s in enumerate(quick["survivors"]) if i != seat] == [None] * (players - 1)
                checked += 1
    assert checked > 100


def test_a_searching_bot_is_handed_the_view_without_names_and_faces_and_deals_and_chooses_as_from_the_whole() -> None:
    """The bots' search view (``FalloutAI.search_view``, what ``bots.policies.decide`` hands a greedy or
    planner bot) is the seat's view less its names and card faces; the worlds dealt from it and a greedy
    bot's choice are those of the whole view."""
    checked = 0
    for n, (state, _) in enumerate(random_game("search-view", players=3, commands=240, pack="base",
                                               scenario="saltmarsh_reach")):
        if n % 12 or FALLOUT.is_over(state):
            continue
        for seat in FALLOUT.waiting_for(state):
            whole, searched = FALLOUT.view(state, seat), FALLOUT_AI.search_view(state, seat)
            assert searched == {k: v for k, v in whole.items() if k not in ("names", "faces")}
            dealt = [FALLOUT.dump_state(FALLOUT_AI.determinize(v, seat, Rng("search-view", str(n)))) for v in (whole, searched)]
            assert dealt[0] == dealt[1]
            actions = FALLOUT.legal_actions(state, seat)
            if len(actions) > 1:
                chosen = [GreedyBot().choose(FALLOUT, v, actions, seat, Rng("search-view", f"c{n}")) for v in (whole, searched)]
                assert chosen[0] == chosen[1]
            checked += 1
    assert checked >= 10
