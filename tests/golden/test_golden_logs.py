"""Golden logs: whole games recorded by real servers, today's and earlier releases' (tests/golden/README.md).

For every ended game in ``logs/`` (docs/versioning.md):

- its hash chain verifies;
- this release folds it to the end its recorder saw (over, winners), and, for a
  log of this release's rules version, to every seat's and the spectator's
  recorded final view, prompt and status exactly;
- its audit reads ``fair`` when it was recorded under this release's rules:
  every batch decided again alike, so **a rules change that forgets to bump
  ``Game.rules_version`` fails here**; a log of older rules (or of none) gets
  the documented verdict for its age (``fair`` or ``partial``), never an error;
- every event has its words, made from the log alone, and the same ones read
  from the pages and from the export of a server holding the game
  (``tests/golden/test_golden_words.py``).
"""

from __future__ import annotations

from typing import Any

import pytest

from domain import registry
from events.log import walk_chain
from service.usecases.audit import FAIR, PARTIAL, judge
from service.usecases.queries import state_body
from service.usecases.replay import replay
from tests.golden.goldens import ENDED, NAMES, golden

#: What a final state holds that depends on when it was read, not on the log.
READ_AT = ("clocks",)
#: Readings a view gained after some logs were recorded, made from the rest of the view (the cards' faces,
#: from the ids it shows): compared where the recording has them, left out where it was made before them.
VIEW_READINGS = ("faces",)

def test_there_are_enough_golden_logs_of_every_kind() -> None:
    """Issue 21: at least 20 logs, 3 or more from earlier releases, both games, solo and multi-seat, a rewind, a fork."""
    metas = [golden(name).meta for name in NAMES]
    assert len(ENDED) >= 20
    assert sum(m["recorded_by"]["legacy"] for m in metas if m["ending"]["over"]) >= 3
    assert {m["game"] for m in metas} == set(registry.builtin_names())
    assert {m["seats"] == 1 for m in metas} == {True, False}
    assert any(m["proposals"] and any(p["kind"] == "rewind" for p in m["proposals"]) for m in metas)
    assert any(m.get("forked_from") for m in metas)
    current = [golden(name) for name in ENDED if golden(name).current]
    assert {g.meta["game"] for g in current} == set(registry.builtin_names()), "record today's logs: make golden"


@pytest.mark.parametrize("name", ENDED)
def test_the_chain_verifies(name: str) -> None:
    log = golden(name)
    report = walk_chain(log.meta["game_id"], log.envelopes)
    assert report.ok, f"{name}: {report.reason} at version {report.broken_at}"


@pytest.mark.parametrize("name", ENDED)
def test_this_release_folds_it_to_its_recorded_end(name: str) -> None:
    log = golden(name)
    replayed = replay(log.envelopes, log.secret)
    assert replayed.fold_error is None, f"{name}: this release cannot fold it: {replayed.fold_error}"
    record = replayed.record
    outcome = record.module.outcome(record.state)
    assert outcome.over and list(outcome.winners) == log.meta["ending"]["winners"]
    if not log.current:
        return
    final = log.meta["final_states"]
    readers: list[tuple[int | None, dict[str, Any] | None]] = [(None, final["spectator"])]
    readers += list(enumerate(final["seats"]))
    version = log.envelopes[-1].version
    for seat, recorded in readers:
        if recorded is None:
            continue  # a bot's seat: no token could read it
        now = state_body(log.meta["game_id"], record, version, seat)
        view = recorded.get("view")
        if isinstance(view, dict) and isinstance(now.get("view"), dict):
            now = {**now, "view": {k: v for k, v in now["view"].items() if k in view or k not in VIEW_READINGS}}
        for key in recorded.keys() - set(READ_AT):
            assert now[key] == recorded[key], f"{name}: seat {seat}'s final {key} is not as recorded"


@pytest.mark.parametrize("name", ENDED)
def test_the_audit_reads_as_documented_for_its_age(name: str) -> None:
    log = golden(name)
    verdict = judge(log.meta["game_id"], log.envelopes, walk_chain(log.meta["game_id"], log.envelopes), None)
    assert verdict.chain_ok and verdict.seed_matches_commitment and verdict.refolded, verdict
    if log.current:
        assert verdict.verdict == FAIR, (
            f"{name} was recorded under {log.rules}, and this code decides {verdict.first_mismatch} otherwise: "
            f"{verdict.reason}. A rules change must bump its game's rules_version (docs/versioning.md) and record "
            f"new golden logs (make golden)"
        )
        assert verdict.decisions_other_rules == 0
        assert verdict.decisions == f"{verdict.decisions_checked} batches recorded under {log.rules}, decided again by {log.rules}"
    else:
        assert verdict.verdict in (FAIR, PARTIAL), verdict
        assert verdict.first_mismatch is None and verdict.decisions_checked + verdict.decisions_other_rules > 0
        recorded = log.rules or f"{log.meta['game']} before rules versions"
        assert f"recorded under {recorded}" in verdict.decisions
