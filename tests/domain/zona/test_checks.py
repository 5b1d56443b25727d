"""Attribute tests: dice, the triangle pair, injuries, forcing, rerolls and items."""

from __future__ import annotations

from tests.domain.zona.fixtures import accept_tests, choose, edit, new_game, put, resolve, strip, with_stalker


def _test(state, attribute="intellect", difficulty=3, against=None, seed="t", settle=True):
    """Start a test for seat 0 and run up to its first decision (``settle``: take the roll as it is).
    A pass is marked by 1 rouble."""
    spec = {"attribute": attribute, "difficulty": difficulty, **({"against": against} if against else {})}
    state = resolve(state, 0, [{"test": spec, "pass": [{"roubles": 1}], "fail": []}], seed=seed)
    return accept_tests(state) if settle else state


def _passed(state, before):
    return state.stalkers[0]["roubles"] == before + 1


def _bare(faces, character="yuri", **options):
    """A stalker with nothing that could change a test (only the dice)."""
    state = new_game(1, characters=[character], die_faces=faces, **options)
    state = strip(state, 0)
    return state


def test_tests_are_attribute_against_difficulty():
    """Zona §"TESTY": an attribute, a difficulty, and the result decides."""
    state = _bare(["blank"])
    before = state.stalkers[0]["roubles"]
    assert _passed(_test(state, "intellect", 4), before)  # Yuri's intellect 4 ≥ 4
    assert not _passed(_test(state, "intellect", 5), before)


def test_three_dice_plus_minus_and_result_at_least_difficulty():
    """Zona §"WYKONYWANIE TESTÓW": +1 per plus, −1 per minus, pass on result ≥ difficulty."""
    state = _bare(["plus"])
    before = state.stalkers[0]["roubles"]
    assert _passed(_test(state, "agility", 5), before)  # 2 + 3
    assert not _passed(_test(state, "agility", 6), before)
    state = _bare(["minus"])
    assert not _passed(_test(state, "intellect", 2), before)  # 4 - 3 = 1
    assert _passed(_test(state, "intellect", 1), before)


def test_triangle_pair_is_one_minus_and_a_lone_triangle_nothing():
    """Zona §"WYKONYWANIE TESTÓW": two or more triangles give one minus (our ruling on the pair)."""
    state = _bare(["triangle"])
    before = state.stalkers[0]["roubles"]
    assert _passed(_test(state, "intellect", 3), before)  # 4 - 1
    assert not _passed(_test(state, "intellect", 4), before)
    relaxed = _bare(["triangle"], triangle_pair="none")
    assert _passed(_test(relaxed, "intellect", 4), before)


def test_injured_attribute_tests_one_lower_once():
    """Zona §"URAZY" / §"WYKONYWANIE TESTÓW": an injury takes 1 off the test, not 2."""
    state = with_stalker(_bare(["blank"]), 0, injuries=["intellect"])
    before = state.stalkers[0]["roubles"]
    assert _passed(_test(state, "intellect", 3), before)
    assert not _passed(_test(state, "intellect", 4), before)


def test_forcing_costs_one_fatigue_rerolls_one_die_once_and_not_at_five():
    """Zona §"FORSOWANIE TESTU": +1 fatigue, one die again, only once per test, never at fatigue 5."""
    state = with_stalker(_bare(["minus", "plus"]), 0, fatigue=1)
    state = _test(state, "intellect", 6, seed="force", settle=False)
    pending = state.pending
    assert pending["kind"] == "test_options"
    forces = [c for c in pending["choices"] if c["type"] == "force"]
    assert len(forces) == 3
    after = choose(state, forces[0])
    assert after.stalkers[0]["fatigue"] == 2
    assert not any(c["type"] == "force" for c in (after.pending or {"choices": []})["choices"])
    tired = with_stalker(_bare(["minus", "plus"]), 0, fatigue=5)
    tired = _test(tired, "intellect", 6, settle=False)
    assert tired.pending is None  # nothing to do after the roll: the test settles


def test_rerolls_stack_and_a_die_may_be_rerolled_again():
    """Zona §"PRZERZUCANIE KOŚCI": forcing and an ability both reroll, the same die twice."""
    state = with_stalker(_bare(["minus", "plus"], character="vera"), 0, fatigue=0)
    state = _test(state, "intellect", 9, seed="stack", settle=False)
    from tests.domain.zona.fixtures import events_of

    first, state = events_of(state, 0, {"type": "force", "die": 0})
    assert {"type": "reroll", "card": "ability", "die": 0} in state.pending["choices"]
    second, state = events_of(state, 0, {"type": "reroll", "card": "ability", "die": 0}, seed="again")
    rerolls = [(e.data["die"], e.data["by"]) for e in first + second if e.type == "DieRerolled"]
    assert rerolls == [(0, "force"), (0, "ability")]


def test_items_are_declared_after_the_roll_plus_and_cancel():
    """Zona §"UŻYWANIE PRZEDMIOTÓW": an item of the tested attribute, used after seeing the dice:
    plus adds 1, cancel removes a rolled minus (the Kostia example: 2 − 1 + 1 + cancel = 3)."""
    state = _bare(["minus"], character="zoya")  # willpower 2
    state = put(state, "tin_flask@zoya", "small:0")  # plus and cancel for willpower, single use
    before = state.stalkers[0]["roubles"]
    state = _test(state, "willpower", 1, seed="kostia", settle=False)
    assert {"type": "use_item", "card": "tin_flask@zoya"} in state.pending["choices"]
    state = choose(state, {"type": "use_item", "card": "tin_flask@zoya"})
    assert "tin_flask@zoya" not in state.stalkers[0]["small"]  # single use: discarded
    # 2 - 3 minus + 1 cancel + 1 plus = 1
    assert state.frames[-1]["plus"] == 1 and state.frames[-1]["cancel"] == 1
    state = choose(state, {"type": "accept"})
    assert _passed(state, before)


def test_encounter_modifiers_only_against_their_threat():
    """Zona §"MODYFIKATORY SPOTKAŃ": a mutant-marked agility item works in an agility test against a
    mutant, not in an ordinary agility test."""
    state = _bare(["blank"], character="zoya")
    state = put(state, "hunting_knife@zoya", "backpack:0")
    plain = _test(state, "agility", 9, settle=False)
    assert plain.pending is None or {"type": "use_item", "card": "hunting_knife@zoya"} not in plain.pending[
        "choices"]
    marked = _test(state, "agility", 9, against="mutant", settle=False)
    assert {"type": "use_item", "card": "hunting_knife@zoya"} in marked.pending["choices"]
    other = _test(state, "agility", 9, against="anomaly", settle=False)
    assert other.pending is None or {"type": "use_item", "card": "hunting_knife@zoya"} not in other.pending[
        "choices"]


def _rolled(state, dice):
    """The test on top of the stack as if the dice had come up ``dice``."""
    state.frames[-1]["dice"] = list(dice)
    state.pending["context"]["dice"] = list(dice)
    return state


def test_worked_example_kostia_force_then_a_drink_with_plus_and_cancel():
    """Zona §"UŻYWANIE PRZEDMIOTÓW" (the book's Kostia): willpower 2 against 3, two triangles and a
    blank; forcing (+1 fatigue) turns a triangle into a minus (result 1); a one-use drink with a plus
    and a cancel makes it 3: a pass."""
    state = with_stalker(_bare(["minus"], character="zoya"), 0, fatigue=1)  # zoya: willpower 2
    state = put(state, "tin_flask@zoya", "small:0")
    before = state.stalkers[0]["roubles"]
    state = _rolled(_test(state, "willpower", 3, seed="kostia", settle=False), ["blank", "triangle", "triangle"])
    state = choose(state, {"type": "force", "die": 1})  # every face is a minus now
    assert state.frames[-1]["dice"] == ["blank", "minus", "triangle"]
    assert state.stalkers[0]["fatigue"] == 2
    state = accept_tests(choose(state, {"type": "use_item", "card": "tin_flask@zoya"}))
    assert _passed(state, before)


def test_worked_example_iwan_a_durable_cancel_is_enough():
    """Zona §"UŻYWANIE I USZKADZANIE PRZEDMIOTÓW" (the book's Iwan): intellect 2 against 4, plus plus
    minus is 3; a durable item that cancels a minus makes it 4, takes a token and stays."""
    state = _bare(["blank"], character="zoya")  # zoya: intellect 2
    state = put(state, "anomaly_probe#1", "backpack:0")  # intellect, plus 1 and cancel 1, against anomalies
    state = with_stalker(state, 0, fatigue=5)
    before = state.stalkers[0]["roubles"]
    state = _rolled(_test(state, "intellect", 5, against="anomaly", seed="iwan", settle=False),
                    ["plus", "plus", "minus"])
    state = choose(state, {"type": "use_item", "card": "anomaly_probe#1"})
    assert "anomaly_probe#1" in state.deactivated and "anomaly_probe#1" in state.stalkers[0]["backpack"]
    state = accept_tests(state)
    assert _passed(state, before)  # 2 + 2 - 1 + 1 (cancel) + 1 (plus) = 5


def test_item_patterns_forcing_several_dice_and_reusing_a_spent_artifact():
    """Zona §"OBJAŚNIENIE KART PRZEDMIOTÓW": forcing with the coil rerolls up to 2 dice with one injury
    (up to 3 with more), all at once; old notes let a deactivated artifact be used again, its emanation too."""
    from tests.domain.zona.fixtures import events_of

    state = with_stalker(_bare(["minus"], character="zoya"), 0, fatigue=1, injuries=["intellect"])
    state = put(state, "devil_coil#1", "backpack:0")
    state = _test(state, "agility", 9, seed="coil", settle=False)
    many = [c for c in state.pending["choices"] if c["type"] == "force_many"]
    assert {tuple(c["dice"]) for c in many} == {(0, 1), (0, 2), (1, 2)}
    events, state = events_of(state, 0, {"type": "force_many", "card": "devil_coil#1", "dice": [0, 2]})
    assert [(e.data["die"], e.data["by"]) for e in events if e.type == "DieRerolled"] == [
        (0, "devil_coil#1"), (2, "devil_coil#1")]
    assert state.stalkers[0]["fatigue"] == 2
    notes = with_stalker(_bare(["blank"], character="zoya"), 0, fatigue=1)
    notes = put(notes, "glowstone#1", "backpack:0")
    notes = put(notes, "old_notes#f1", "small:0")
    notes = edit(notes, deactivated=["glowstone#1"])
    before = notes.stalkers[0]["roubles"]
    notes = _test(notes, "agility", 3, seed="notes", settle=False)
    assert {"type": "use_item", "card": "glowstone#1", "via": "old_notes#f1"} in notes.pending["choices"]
    notes = choose(notes, {"type": "use_item", "card": "glowstone#1", "via": "old_notes#f1"})
    assert "old_notes#f1" in notes.box and notes.stalkers[0]["fatigue"] == 2  # the emanation: 1 artifact
    assert _passed(accept_tests(notes), before)  # agility 2 + 1
