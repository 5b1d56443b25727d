"""A game declares every code its rules refuse with (``Game.refusals``), and only those.

The API document lists a game's codes from that declaration, each under its
kind's status (``service.api.errordocs``), so a code raised but not declared
would reach clients undocumented. Two readings check it: the game's source
(``tests.contract.refusals`` reads every refusal its package can build, and
fails one whose code it cannot read) and its play (every refusal the suite's
plays and probes meet, ``driver.probes_of``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from domain.game import Game, Refusal, RuleViolation
from tests.contract.driver import Play, Probe
from tests.contract.refusals import declared, of_the_contract, raised_by, scan

CODE = re.compile(r"^[a-z][a-z0-9_]*$")


def _listed(found: set[tuple[Refusal, str]]) -> list[str]:
    return sorted(f"{kind.name} {code}" for kind, code in found)


def test_the_declaration_names_each_code_under_its_kind_with_a_meaning(game: Game):
    assert isinstance(game.refusals, Mapping), "refusals: {Refusal: {code: meaning}}"
    for kind, by_code in game.refusals.items():
        assert isinstance(kind, Refusal) and isinstance(by_code, Mapping), (kind, by_code)
        for code, meaning in by_code.items():
            assert isinstance(code, str) and CODE.match(code), f"{game.name}: {code!r} is not a snake_case code"
            assert isinstance(meaning, str) and meaning.strip(), f"{game.name}: {code} has no meaning for the document"


def test_every_code_the_rules_raise_is_declared_with_its_kind(game: Game):
    found = raised_by(game)
    assert found.unread == [], (
        f"{game.name}: refusals whose code the suite cannot read; write the code out, or look it up in a "
        f"module-level dict of literal codes: {found.unread}"
    )
    assert found.codes, f"{game.name}: the scan found no refusal at all"
    assert _listed(found.codes - declared(game)) == [], f"{game.name} raises codes its refusals do not declare"


def test_every_declared_code_is_raised_somewhere(game: Game):
    assert _listed(declared(game) - raised_by(game, with_kit=True).codes) == [], f"{game.name} declares codes nothing raises"


def _met(game: Game, plays: list[Play], probes: list[Probe]) -> list[tuple[str, RuleViolation]]:
    """Every refusal the suite meets: its probes, a refused legal action, bad commands and options."""
    met = [(str(probe), probe.refused) for probe in probes if probe.refused is not None]
    met += [(f"{play.name}: legal {play.refused_legal[1]}", play.refused_legal[2]) for play in plays if play.refused_legal]
    sent = [step.command for play in plays for step in play.steps[:3]] + list(game.examples.get("actions", []))
    for bad in [*({**command, "no_such_field": 1} for command in sent), {"type": "no_such_command"}]:
        try:
            game.check_command(bad)
        except RuleViolation as refused:
            met.append((f"check_command({bad})", refused))
    try:
        game.resolve_options({"no_such_option": 1})
    except RuleViolation as refused:
        met.append(("resolve_options({'no_such_option': 1})", refused))
    return met


def test_every_refusal_met_in_play_is_declared_with_its_kind(game: Game, plays: list[Play], probes: list[Probe]):
    """The codes the contract's own methods build (``check_command``…) need no declaration: the service lists them."""
    allowed = declared(game) | of_the_contract()
    met = _met(game, plays, probes)
    assert met, f"{game.name}: the suite met no refusal"
    wrong = sorted({f"{where}: {refused.kind.name} {refused.code}" for where, refused in met
                    if (refused.kind, refused.code) not in allowed})  # fmt: skip
    assert wrong == [], f"{game.name} refused with codes it does not declare under that kind: {wrong[:10]}"


def test_the_scan_reads_literals_helpers_and_lookups(tmp_path: Path):
    source = tmp_path / "rules.py"
    source.write_text(
        "CANNOT = {'move': 'cannot_move', 'rest': 'cannot_rest'}\n"
        "def _bad(code, message):\n    return malformed(code, message, rule='Setup')\n"
        "def check(kind, state):\n"
        "    if state: raise RuleViolation('not_now', 'later')\n"
        "    if kind: raise RuleViolation(CANNOT[kind], 'no', kind=Refusal.NOT_NOW)\n"
        "    raise _bad('bad_setup', 'no')\n"
        "def sloppy(kind):\n    raise RuleViolation(f'cannot_{kind}', 'no')\n"
    )
    found = scan([source])
    assert found.codes == {
        (Refusal.NOT_NOW, "not_now"), (Refusal.NOT_NOW, "cannot_move"), (Refusal.NOT_NOW, "cannot_rest"),
        (Refusal.MALFORMED, "bad_setup"),
    }  # fmt: skip
    assert len(found.unread) == 1 and "cannot_{kind}" in found.unread[0]
