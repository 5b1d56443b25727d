"""docs/writing-a-game.md is tested: its code is the counter's, and every name it cites exists.

Each ``python`` block in the guide either opens with ``# <path>`` naming a
file of the repository, and is then an excerpt of that file (``...`` lines
stand for what is left out; indentation is compared after dedenting), or is
run as it stands, asserts and all. Every ``Owner.attribute`` the prose cites
in backticks must exist, and the guide must name every abstract method and
every declared attribute of the contract, so a change to either shows here.
"""

from __future__ import annotations

import inspect
import re
import textwrap
from pathlib import Path

import pytest

from domain import registry
from domain.engine.dispatch import RulebookGame
from domain.engine.effects import Effects
from domain.engine.frames import Frames
from domain.engine.packs import PackReader
from domain.engine.records import Draft, compiled
from domain.engine.resolution import Resolution
from domain.engine.rulebook import Rulebook
from domain.fallout.snapshot import written_hints
from domain.game import EventSchema, Game, GameAI, Outcome, Refusal, RuleViolation, SeatRange
from domain.rng import Rng
from tests.games.counter import COUNTER, Counter, CounterAI

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "writing-a-game.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
CITED = re.compile(r"`([A-Za-z_]\w*)\.([A-Za-z_]\w*)(?:\(\))?`")
OWNERS: dict[str, object] = {
    "Game": Game, "Counter": Counter, "COUNTER": COUNTER, "CounterAI": CounterAI, "GameAI": GameAI,
    "Rulebook": Rulebook, "Resolution": Resolution(COUNTER.initial_state(), Rng("guide"), COUNTER.evolve), "Outcome": Outcome, "SeatRange": SeatRange,
    "EventSchema": EventSchema, "RuleViolation": RuleViolation("code", "message"), "Refusal": Refusal,
    "registry": registry, "RulebookGame": RulebookGame, "Effects": Effects, "Frames": Frames, "PackReader": PackReader, "Draft": Draft,
}  # fmt: skip
#: What every game declares (besides its methods), as domain.game.Game names it.
DECLARED = ("name", "title", "seats", "state_format", "rules_version", "listed_options", "options_schema", "view_schema", "command_schemas",
            "event_schemas", "out_of_turn", "refusals", "examples", "ai")  # fmt: skip


def _has(owner: object, name: str) -> bool:
    # Declared fields (a dataclass's, a Protocol's) are annotations, not attributes, on the class.
    kinds = owner.__mro__ if isinstance(owner, type) else type(owner).__mro__
    return hasattr(owner, name) or any(name in _declared(kind) for kind in kinds)


def _declared(kind: type) -> set[str]:
    """The names ``kind``'s body annotates. A compiled class (the compiled build, mypyc_build.py) keeps no
    annotations of its class variables: its source's are read."""
    return set(written_hints(kind) if compiled(kind) else inspect.get_annotations(kind))


def _blocks() -> list[str]:
    return BLOCK.findall(GUIDE.read_text())


def _excerpt_of(lines: list[str], source: list[str]) -> bool:
    """The lines, split at ``...``, appear in ``source`` in order, each part as a contiguous run."""
    parts, part = [], []
    for line in lines:
        if line.strip() == "...":
            parts.append(part)
            part = []
        else:
            part.append(line)
    parts.append(part)
    at = 0
    for wanted in filter(None, parts):
        text = textwrap.dedent("\n".join(wanted))
        found = next(
            (i for i in range(at, len(source) - len(wanted) + 1)
             if textwrap.dedent("\n".join(source[i : i + len(wanted)])) == text),
            None,
        )  # fmt: skip
        if found is None:
            return False
        at = found + len(wanted)
    return True


def test_the_guide_has_code_to_check():
    blocks = _blocks()
    assert len(blocks) >= 5 and any(not b.startswith("# ") for b in blocks), "excerpts and a runnable example"


@pytest.mark.parametrize("n", range(len(_blocks())))
def test_each_python_block_is_an_excerpt_or_runs(n: int):
    block = _blocks()[n]
    first, *rest = block.splitlines()
    path = ROOT / first[2:].strip() if first.startswith("# ") else None
    if path is not None and path.is_file():
        assert _excerpt_of(rest, path.read_text().splitlines()), f"block {n} is not an excerpt of {path.name}:\n{block}"
    else:
        exec(compile(block, f"{GUIDE.name} block {n}", "exec"), {"__name__": f"guide_block_{n}"})


def test_every_name_the_guide_cites_exists():
    cited = CITED.findall(GUIDE.read_text())
    checked = [(owner, name) for owner, name in cited if owner in OWNERS]
    assert len(checked) >= 20, "the guide cites the contract by name"
    missing = [f"{owner}.{name}" for owner, name in checked if not _has(OWNERS[owner], name)]
    assert not missing, f"the guide cites names that do not exist: {missing}"


def test_the_guide_covers_the_whole_contract():
    text = GUIDE.read_text()
    names = {*Game.__abstractmethods__, *DECLARED, "decide_and_fold", "resolve_options", "check_command"}
    absent = sorted(name for name in names if f"`{name}`" not in text and f"`Game.{name}`" not in text)
    assert not absent, f"the guide never explains {absent}"


def test_an_altered_excerpt_is_not_an_excerpt():
    source = (ROOT / "tests" / "games" / "counter.py").read_text().splitlines()
    excerpt = ["    def decide_and_fold(", "...", "        return res.events, res.state"]
    assert _excerpt_of(excerpt, source)
    assert not _excerpt_of([*excerpt[:2], "        return res.events, state"], source)
    assert not _excerpt_of(list(reversed(excerpt)), source), "the parts must come in the file's order"
