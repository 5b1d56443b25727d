"""Zona's drafts copy the state part by part (``domain.zona.drafts``): what they leave shared must never change.

A draft copies a ``FLAT`` field shallowly and a ``PARTS`` field one part at a
time, shallowly where ``PARTS`` says so: that is a whole copy only while the
fields hold the shapes the module names. A frame is the exception: it is
copied shallowly whatever it holds, as no fold changes a list or mapping
inside one in place (each writes an entry whole), so what it shares stays
as it was; a stalker is copied shallowly too, and a list of its copied
when a card moves in or out of it. These tests play seeded games of random bots and check, at every
position, that the fields hold those shapes, and that deciding a command
never changes the state it started from (the state is compared with a deep
copy taken before: a fold that changed a frame's shared list would fail it).
"""

from __future__ import annotations

import marshal
from typing import Any

from domain.game import SYSTEM
from domain.rng import Rng
from domain.zona.drafts import FLAT, PARTS
from domain.zona.game import ZONA
from domain.zona.resolution import WRITERS
from domain.zona.state import FIELDS
from tests.compiled.plays import set_up

SCALARS = (str, int, float, bool, type(None))


def _scalars(values: Any) -> bool:
    return all(isinstance(v, SCALARS) for v in values)


def shapes(state: Any) -> list[str]:
    """Every field of ``state`` whose value is deeper than its draft copies it (empty: all as named)."""
    wrong = []
    for name in FIELDS:
        value = getattr(state, name)
        if name in FLAT and not _scalars(value.values() if isinstance(value, dict) else value):
            wrong.append(name)
        parts = value if isinstance(value, list) else list(value.values()) if isinstance(value, dict) else None
        copy = PARTS.get(name)
        if copy is list and not all(isinstance(p, list) and _scalars(p) for p in parts):
            wrong.append(name)
        if name == "frames":  # copied shallowly on purpose (above): each a mapping, whatever it holds
            if not all(isinstance(p, dict) for p in parts):
                wrong.append(name)
        elif name != "stalkers" and copy is dict and not all(isinstance(p, dict) and _scalars(p.values()) for p in parts):
            wrong.append(name)
        if name == "stalkers" and not all(  # scalars and lists of scalars: a list copied is copied whole
            _scalars(v for v in s.values() if not isinstance(v, list)) and all(_scalars(v) for v in s.values() if isinstance(v, list))
            for s in parts
        ):  # fmt: skip
            wrong.append(name)
    return wrong


def test_drafts_copy_what_the_state_holds_and_never_write_a_state_they_started_from():
    """Whole games of random play at 2 and 4 seats on both packs: every position's fields hold what the
    drafts assume, and no command changes the state it was decided on."""
    for players, seed, options in ((2, "drafts-a", {}), (4, "drafts-b", {}), (3, "drafts-c", {"pack": "test"})):
        module, _, state = set_up("zona", ["random"] * players, seed, options)
        for version in range(1, 3000):
            if module.is_over(state):
                break
            assert shapes(state) == [], f"{seed} v{version}"
            command = module.system_command(state)
            seat: int | str = SYSTEM
            if command is None:
                seat = module.waiting_for(state)[0]
                command = Rng(seed, f"pick-{version}").choice(module.legal_actions(state, seat))
            before = marshal.loads(marshal.dumps([getattr(state, name) for name in FIELDS]))  # a deep copy
            after = module.decide_and_fold(state, seat, command, Rng.for_position(seed, version))[1]
            assert [getattr(state, name) for name in FIELDS] == before, f"{seed} v{version} wrote its state"
            state = after
        assert module is ZONA and state.over


def test_no_fold_ever_changes_an_events_data(monkeypatch):
    """The folds keep parts of an event's data as they are, shared (a pushed frame until a fold writes it, a
    decision's choices, the table a game is set up with): the log is forever, so nothing after may change them. Whole games of random play at 2
    and 4 seats on both packs; each event's data is copied as its fold meets it and compared at the game's end."""
    met: list[tuple[str, Any, Any]] = []

    def watching(name: str, write: Any) -> Any:
        def fold(d: Any, data: dict[str, Any]) -> None:
            met.append((name, data, marshal.loads(marshal.dumps(data))))  # a deep copy
            write(d, data)

        return fold

    for name, write in list(WRITERS.items()):
        monkeypatch.setitem(WRITERS, name, watching(name, write))
    kinds: set[str] = set()
    for players, seed, options in ((2, "shared-a", {}), (4, "shared-b", {}), (3, "shared-c", {"pack": "test"})):
        module, setup, state = set_up("zona", ["random"] * players, seed, options)
        met[:] = [(e.type, e.data, marshal.loads(marshal.dumps(e.data))) for e in setup]  # folded by ``evolve``
        for version in range(1, 3000):
            if module.is_over(state):
                break
            command = module.system_command(state)
            seat: int | str = SYSTEM
            if command is None:
                seat = module.waiting_for(state)[0]
                command = Rng(seed, f"pick-{version}").choice(module.legal_actions(state, seat))
            state = module.decide_and_fold(state, seat, command, Rng.for_position(seed, version))[1]
        assert state.over and len(met) > 500
        changed = [(name, then, data) for name, data, then in met if data != then]
        assert changed == [], f"{seed}: {changed[:3]}"
        kinds.update(name for name, _, _ in met)
    assert {"GameSetUp", "FramePushed", "FrameUpdated", "DecisionRequested", "DieRerolled", "TurnStarted"} <= kinds
