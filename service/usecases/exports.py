"""A game's export checked on its own: ``holotape verify``, with no Redis and no server (docs/audit.md).

An export (``GET /games/{id}/export``) is the log as stored, one envelope a
line, plus fields that are readings, not facts (``redacted``, ``text``),
which the hash does not cover and the verifier ignores. From it alone the
verifier walks the hash chain, checks the revealed secret against the
commitment, derives the seed from the secret and the seats' contributions,
decides the setup and every command again under the recorded rules when this
install has them (and says how far it got when it does not), and folds the
game to its end: the same ``judge`` as the server's audit, so the two cannot
disagree. A fork's origin is another game's log, not at hand offline: its
check is left to the server's audit (``fork_origin_ok`` is null).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

from domain import registry
from events.envelope import Envelope
from events.log import walk_chain
from service.usecases.audit import FAIR, PARTIAL, Verdict, judge
from service.usecases.replay import replay

#: What a line carries besides the stored envelope.
READINGS = ("redacted", "text")
_STORED = {f.name for f in fields(Envelope)}


class BadExport(ValueError):
    """Not an export this verifier can read; the message says why."""


@dataclass(frozen=True)
class Verification:
    verdict: Verdict
    #: How the game ended as the fold of the export finds it (None: it did not fold to its end).
    over: bool | None
    winners: list[int] | None

    @property
    def ok(self) -> bool:
        """Everything re-derived and equal (a partial verdict is not a mismatch, and not ok either)."""
        return self.verdict.verdict == FAIR and bool(self.over)

    def as_dict(self) -> dict[str, Any]:
        return {**self.verdict.as_dict(), "over": self.over, "winners": self.winners}


def envelopes(lines: Iterable[str]) -> list[Envelope]:
    """The stored envelopes of an export's NDJSON lines."""
    found = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            body = json.loads(line)
        except ValueError as error:
            raise BadExport(f"line {number} is not JSON: {error}") from None
        if not isinstance(body, dict):
            raise BadExport(f"line {number} is not an event object")
        if body.get("redacted"):
            raise BadExport(f"line {number} is redacted: export the game after it has ended")
        missing = _STORED - set(body)
        if missing:
            raise BadExport(f"line {number} lacks {', '.join(sorted(missing))}")
        found.append(Envelope(**{k: v for k, v in body.items() if k in _STORED}))
    if not found:
        raise BadExport("the export holds no event")
    if found[0].type != "GameCreated":
        raise BadExport("the export does not begin with GameCreated")
    if found[0].data.get("game") not in registry.names():
        raise BadExport(f"this install has no game {found[0].data.get('game')!r}")
    return found


def verify(lines: Iterable[str]) -> Verification:
    """Check an export (its NDJSON lines) as ``holotape verify`` does."""
    log = envelopes(lines)
    game_id = log[0].game_id
    revealed = [e for e in log if e.type == "SeedRevealed"]
    # One replay, for the verdict and for the end the game folds to.
    replayed = replay(log, revealed[-1].data["seed"]) if revealed else None
    verdict = judge(game_id, log, walk_chain(game_id, log), None, replayed)
    over = winners = None
    if replayed is not None and verdict.verdict in (FAIR, PARTIAL) and verdict.refolded:
        result = replayed.record.module.outcome(replayed.record.state)
        over, winners = result.over, list(result.winners)
    return Verification(verdict, over, winners)
