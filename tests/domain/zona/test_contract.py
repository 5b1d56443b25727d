"""Zona on the game contract: schemas, refusals, views, redaction, snapshots, hidden information."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from marshmallow import RAISE

from domain.game import SYSTEM, Event, RuleViolation
from domain.rng import Rng
from domain.zona.game import ZONA
from tests.domain.zona.fixtures import fold, new_game

DIGEST = Path(__file__).resolve().parents[3] / ".." / "shared" / "rules" / "zona-digest.md"


def _setup_events(players=2, pack="test"):
    options = ZONA.resolve_options({"pack": pack})
    options["players"] = players
    return ZONA.setup(options, Rng("contract"))


def test_every_event_matches_its_schema():
    """Zona §"PRZYGOTOWANIE DO GRY": what setup and play emit is what the schemas say."""
    schemas = {s.name: s.schema for s in ZONA.event_schemas}
    # The base pack: the box's cards and areas emit what the schemas say too.
    state = fold(_setup_events(3, "base"))
    events = _setup_events(3, "base")
    pick = Rng("pick")
    for n in range(300):
        if state.over:
            break
        seat = ZONA.waiting_for(state)[0]
        new, state = ZONA.decide_and_fold(state, seat, pick.choice(ZONA.legal_actions(state, seat)), Rng(f"c{n}"))
        events += new
    for event in events:
        assert event.type in schemas, event.type
        assert schemas[event.type](unknown=RAISE).validate(event.data) == {}, (event.type, event.data)


def test_options_are_checked_and_filled():
    options = ZONA.resolve_options({})
    assert options["draft"] == "draft" and options["news_loss"] == "after_last"
    with pytest.raises(RuleViolation) as err:
        ZONA.resolve_options({"draft": "auction"})
    assert err.value.code == "bad_options"


def test_commands_are_checked_against_their_schemas():
    assert ZONA.check_command({"type": "move", "to": "hayfields"})
    with pytest.raises(RuleViolation):
        ZONA.check_command({"type": "move", "to": "hayfields", "teleport": True})
    with pytest.raises(RuleViolation):
        ZONA.check_command({"type": "fly"})


def test_refusals_change_nothing_and_name_the_rule():
    """Zona §"AKCJE": only the seat whose turn it is acts; a refused command emits nothing."""
    state = new_game(2)
    with pytest.raises(RuleViolation) as err:
        ZONA.decide(state, 1, {"type": "rest"}, Rng("x"))
    assert err.value.code == "not_your_turn" and err.value.rule == 'Zona §"AKCJE"'
    with pytest.raises(RuleViolation):
        ZONA.decide(state, SYSTEM, {"type": "rest"}, Rng("x"))
    with pytest.raises(RuleViolation):
        ZONA.decide(state, 0, {"type": "accept"}, Rng("x"))
    assert ZONA.system_command(state) is None


def test_every_legal_action_is_accepted_and_snapshots_round_trip():
    state = new_game(3)
    pick = Rng("walk")
    for n in range(150):
        if state.over:
            break
        seat = ZONA.waiting_for(state)[0]
        actions = ZONA.legal_actions(state, seat)
        for action in actions[:6]:
            ZONA.decide(state, seat, action, Rng(f"a{n}"))
        assert ZONA.load_state(json.loads(json.dumps(ZONA.dump_state(state)))) == state
        json.dumps(ZONA.view(state, seat))
        state = ZONA.decide_and_fold(state, seat, pick.choice(actions), Rng(f"s{n}"))[1]


def test_view_fields_are_documented():
    state = new_game(2)
    view = ZONA.view(state, 0)
    assert set(view) <= set(ZONA.view_schema().fields)


def test_hidden_information_in_views_and_events():
    """Zona §"ZNALEZISKA": deck orders, find decks and other seats' draft boards and choices stay hidden."""
    events = _setup_events(2)
    created = ZONA.redact(events[0], 1).data["state"]
    assert isinstance(created["decks"]["green"], int) and isinstance(created["finds"]["greenhouse"], int)
    assert created["draft"]["0"] == [] and len(created["draft"]["1"]) == 2
    state = fold(events)
    pending = state.pending
    other = 1 - pending["seat"]
    assert ZONA.view(state, other)["pending"]["choices"] == []
    request = next(e for e in events if e.type == "DecisionRequested")
    assert ZONA.redact(request, other).data["choices"] == []
    shuffled = ZONA.redact(Event("DeckShuffled", {"deck": "junk", "order": ["a#1", "b#1"]}), 0)
    assert shuffled.data["order"] == ["hidden", "hidden"]
    kept = ZONA.redact(Event("FindKept", {"thing": "lab_notes#f1", "source": "finds:x", "target": "hand", "seat": 0}), 1)
    assert kept.data["thing"] == "hidden"
    game = new_game(2)
    game.stalkers[0]["small"].append("lab_notes#f2")
    game.finds["greenhouse"].remove("lab_notes#f2") if "lab_notes#f2" in game.finds["greenhouse"] else None
    assert "find" in ZONA.view(game, 1)["stalkers"][0]["small"]
    assert "lab_notes#f2" in ZONA.view(game, 0)["stalkers"][0]["small"]


def test_every_rule_topic_of_the_digest_is_cited_by_a_test():
    """Each of the 80 topics of the digest's section 20 is cited as Zona §"<heading>" in the docstring
    of a test here."""
    if not DIGEST.exists():
        pytest.skip("the rules digest is not next to the repository")
    text = DIGEST.read_text(encoding="utf-8")
    section = text.split("## 20. Rule topics", 1)[1].split("## 21.", 1)[0]
    headings = [m.group(1).strip() for m in re.finditer(r"^\d+\. (.+?) — ", section, re.M)]
    assert len(headings) == 80
    here = Path(__file__).parent
    cited = ""
    for path in here.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                cited += node.name + (ast.get_docstring(node) or "")
    missing = [h for h in headings if f'Zona §"{h}"' not in cited]
    assert not missing, missing


def test_the_log_replays_from_json():
    """What the store keeps is JSON: the events survive it and fold to the same state."""
    for players in (1, 4):
        options = ZONA.resolve_options({"pack": "test"})
        options["players"] = players
        events = ZONA.setup(options, Rng(f"json-{players}"))
        state = fold(events)
        pick = Rng(f"json-pick-{players}")
        n = 0
        while not state.over:
            seat = ZONA.waiting_for(state)[0]
            new, state = ZONA.decide_and_fold(state, seat, pick.choice(ZONA.legal_actions(state, seat)), Rng(f"j{n}"))
            events += new
            n += 1
        stored = [Event(e.type, json.loads(json.dumps(e.data))) for e in events]
        assert [e.data for e in stored] == [e.data for e in events]
        assert fold(stored) == state


def test_view_carries_the_board_and_what_the_cards_are():
    """Zona §"OPIS PLANSZY GŁÓWNEJ" is drawn from the view: areas with actions in words, borders by kind
    on this side (the small side's blockades), and the item cards named in the view."""
    state = new_game(2)
    view = ZONA.view(state, 0)
    borders = {tuple(b["between"]): b["kind"] for b in view["board"]["borders"]}
    assert borders[("outpost", "barracks")] == "blockade" and borders[("ghosttown", "reactoryard")] == "power_plant"
    assert view["board"]["areas"]["scrapyard"]["action"].startswith("suffer 2 radiation")
    card = state.market["junk"][0]
    assert view["cards"][card.split("#")[0]]["kind"] == "junk"
    view["board"]["areas"].clear()
    assert ZONA.view(state, 0)["board"]["areas"], "a view is a copy, never the cache"


def test_deciding_never_touches_the_state_it_is_given():
    """A resolution writes in place only the parts its own events copied (``rules.evolve_owned``): the
    state a caller passed stays as it was, and the events fold on it, one by one, to the state returned."""
    for pack in ("test", "base"):
        state = new_game(3, seed=f"untouched-{pack}", pack=pack)
        pick = Rng(f"untouched-{pack}")
        for n in range(150):
            if state.over:
                break
            before = json.dumps(ZONA.dump_state(state), sort_keys=True)
            seat = ZONA.waiting_for(state)[0]
            events, after = ZONA.decide_and_fold(state, seat, pick.choice(ZONA.legal_actions(state, seat)),
                                                 Rng(f"u{n}"))
            assert json.dumps(ZONA.dump_state(state), sort_keys=True) == before
            assert fold(events, state) == after
            state = after


def test_a_snapshot_is_the_tree_the_state_was_before_it_became_a_record():
    """The state is a frozen record (``state.State``) whose snapshot is its fields: exactly the tree
    ``GameSetUp`` carries (and the dict state was, so snapshots of state format zona-1 load as they did),
    read back into an equal record, and a tree's field kept out of the record is refused, not dropped."""
    setup = _setup_events(3)[0]
    assert setup.type == "GameSetUp"
    state = ZONA.evolve(ZONA.initial_state(), setup)
    assert ZONA.dump_state(state) == setup.data["state"]
    assert list(ZONA.dump_state(state)) == list(setup.data["state"])
    assert ZONA.load_state(setup.data["state"]) == state
    with pytest.raises(TypeError):
        ZONA.load_state({**setup.data["state"], "unknown": 1})
