"""The audit: is this log intact, and was every random outcome fairly derived?

Two checks, both from the log alone (docs/audit.md states the algorithm so a
client can run it without us):

1. the hash chain: versions contiguous from 1, each ``prev_hash`` the hash
   before it, each ``hash`` the sha256 of the event's canonical JSON;
2. once the server's secret is revealed (the game is over): its sha256 is
   the ``seed_commitment`` of ``GameCreated``; the seed is derived from it
   and the seats' contributions given before the start
   (``genesis.effective_seed``); and every batch of rules events is exactly
   what the rules decide again from the seed: the setup (in the start's
   batch; in older games, the creation's) with ``Rng.for_position(seed, 0)``,
   and each command (``CommandAccepted`` at version v) with the state after
   v-1 and ``Rng.for_position(seed, v - 1)``. A contribution changed in the
   log gives another seed, and so another setup: the replay catches it.

A fork's first state (``ForkedFrom``) must be its origin's: the origin's
event at that version has the named hash, and folding the origin's log to it
gives that state (``fork_origin_ok``; None for a game that is no fork).

Every age of log is audited (docs/versioning.md): a batch recorded under
this release's rules must be decided again exactly; a batch recorded under
rules this release does not have (an older ``GameCreated.rules``, or none: a
game from before rules versions) is decided again as far as these rules can,
and the verdict says so: ``fair`` when every batch was reproduced, otherwise
``partial``, with ``decisions`` saying in words what was and was not
re-decided. Never an error for an old log.

While the game runs the seed is secret, so only the chain (and a fork's
origin) is checked and the verdict is ``pending``. The verdict holds counts and hashes, never event
data, so it shows no seat anything hidden.

The replay folds the events it reads itself, never a snapshot: a snapshot is
a cache, and the audit must not trust a cache.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from events.envelope import Envelope, canonical_json
from events.log import ChainReport, EventLog
from events.snapshots import fold
from service.usecases import genesis
from service.usecases.record import Record, RecordFolder, apply
from service.usecases.replay import Replay, replay, rules_here

FAIR, PENDING, BROKEN, UNFAIR = "fair", "pending", "chain_broken", "unfair"
#: Chain and seed hold and every event folds, but some batches were recorded
#: under rules this release does not have and these rules decide them otherwise.
PARTIAL = "partial"


@dataclass(frozen=True)
class Verdict:
    game_id: str
    verdict: str  # FAIR, PARTIAL, PENDING (seed not revealed yet), BROKEN or UNFAIR
    version: int
    head_hash: str
    chain_ok: bool
    chain_broken_at: int | None
    fork_origin_ok: bool | None
    seed_source: str  # "server", or "creator": a seed chosen at creation, known to its chooser
    #: How the seed comes from the secret: "contributions", "secret" (a chosen
    #: seed, a fork), or None (a game from before seats contributed).
    seed_mix: str | None
    contributed_seats: list[int]  # the seats whose contribution is in the seed (fixed at the start)
    seed_revealed: bool
    seed_matches_commitment: bool | None
    effective_seed: str | None  # once the secret is revealed: the seed the replay drew from
    decisions_checked: int  # batches recorded under these rules, decided again and equal
    first_mismatch: int | None  # the version of the first such batch the rules do not reproduce
    reason: str | None
    rules: str | None  # the rules the game was created under (None: before rules versions)
    rules_here: str  # the rules this release plays the game under
    upgrades: list[dict[str, Any]]  # each RulesUpgraded: version, from, to, diverged_at
    #: Batches recorded under other rules: how many, and how many these rules reproduce anyway.
    decisions_other_rules: int
    decisions_reproduced: int
    #: Every event folded by this release (False: ``reason`` names the first it could not).
    refolded: bool
    decisions: str  # what was and was not decided again, in words

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def audit(store: EventLog, game_id: str) -> Verdict:
    """The verdict on a stored game: its chain as the store walks it, a fork's origin against the origin's log."""
    envelopes = store.read(game_id)
    forked = envelopes[1].data if len(envelopes) > 1 and envelopes[1].type == "ForkedFrom" else None
    origin_ok = None if forked is None else _origin_matches(store, forked)
    return judge(game_id, envelopes, store.verify(game_id), origin_ok)


def judge(
    game_id: str, envelopes: Sequence[Envelope], chain: ChainReport, origin_ok: bool | None,
    replayed: Replay | None = None,
) -> Verdict:
    """The verdict on a whole log (``envelopes``, as stored) whose chain walked as ``chain`` says.

    ``origin_ok``: whether a fork's first state is its origin's (None: not a
    fork, or not checked, as offline, where the origin's log is not at hand).
    ``replayed``: the replay of ``envelopes`` from their revealed secret, when
    the caller has made it already (the verifier reads its end too).
    """
    envelopes = list(envelopes)
    seeding = _seeding(envelopes)
    created = envelopes[0].data if envelopes else {}
    game = created.get("game", "")
    here = rules_here(game)
    base: dict[str, Any] = {
        "game_id": game_id,
        "version": envelopes[-1].version if envelopes else 0,
        "head_hash": envelopes[-1].hash if envelopes else "",
        "chain_ok": chain.ok,
        "chain_broken_at": chain.broken_at,
        "fork_origin_ok": origin_ok,
        "seed_source": seeding.seed_source,
        "seed_mix": seeding.seed_mix,
        "contributed_seats": sorted(seeding.contributions),
        "rules": created.get("rules"),
        "rules_here": here,
        "upgrades": [
            {"version": e.version, **{k: e.data.get(k) for k in ("from", "to", "diverged_at")}}
            for e in envelopes if e.type == "RulesUpgraded"
        ],
    }
    revealed = [e for e in envelopes if e.type == "SeedRevealed"]
    unchecked: dict[str, Any] = {"seed_matches_commitment": None, "effective_seed": None, "decisions_checked": 0,
                 "decisions_other_rules": 0, "decisions_reproduced": 0, "refolded": False}  # fmt: skip
    if not chain.ok:
        return Verdict(**base, **unchecked, verdict=BROKEN, seed_revealed=bool(revealed), first_mismatch=None,
                       reason=chain.reason, decisions="nothing decided again: the chain is broken")  # fmt: skip
    if origin_ok is False:
        return Verdict(**base, **unchecked, verdict=UNFAIR, seed_revealed=bool(revealed), first_mismatch=2,
                       reason="the fork's first state is not its origin's at that version",
                       decisions="nothing decided again: the fork's origin does not match")  # fmt: skip
    if not revealed:
        return Verdict(**base, **unchecked, verdict=PENDING, seed_revealed=False, first_mismatch=None,
                       reason="the seed is revealed when the game ends",
                       decisions="nothing decided yet: the seed is revealed when the game ends")  # fmt: skip
    secret = revealed[-1].data["seed"]
    matches = genesis.commitment(secret) == created.get("seed_commitment")
    replayed = replayed if replayed is not None else replay(envelopes, secret)
    strict = [b for b in replayed.batches if b.rules == here]
    other = [b for b in replayed.batches if b.rules != here]
    mismatch = next((b for b in strict if not b.matched), None)
    first, reason = (mismatch.version, mismatch.reason) if mismatch else (None, None)
    if not matches:
        first, reason = revealed[-1].version, "the revealed secret does not match the commitment"
    if replayed.fold_error is not None and reason is None:
        reason = f"this release cannot fold version {replayed.fold_error[0]}: {replayed.fold_error[1]}"
    reproduced = sum(b.matched for b in other)
    if not matches or mismatch is not None:
        verdict = UNFAIR
    elif replayed.fold_error is not None or reproduced < len(other):
        verdict = PARTIAL
    else:
        verdict = FAIR
    return Verdict(**base, verdict=verdict, seed_revealed=True, seed_matches_commitment=matches,
                   effective_seed=genesis.effective_seed(secret, seeding.seed_mix, seeding.contributions),
                   decisions_checked=sum(b.matched for b in strict), first_mismatch=first, reason=reason,
                   decisions_other_rules=len(other), decisions_reproduced=reproduced,
                   refolded=replayed.fold_error is None,
                   decisions=_in_words(game, here, strict, other, replayed))  # fmt: skip


def _in_words(game: str, here: str, strict: list[Any], other: list[Any], replayed: Replay) -> str:
    """What was and was not decided again, as the verdict's ``decisions`` says it."""
    parts = []
    if strict:
        parts.append(f"{len(strict)} batches recorded under {here}, decided again by {here}")
    if other:
        recorded = sorted({b.rules or f"{game} before rules versions" for b in other})
        kept = sum(b.matched for b in other)
        if kept == len(other):
            parts.append(f"{len(other)} recorded under {', '.join(recorded)}, every one reproduced by {here}")
        else:
            parts.append(
                f"{len(other)} recorded under {', '.join(recorded)}, not re-decided by {here} "
                f"({kept} of them reproduced anyway)"
            )
    if replayed.fold_error is not None:
        parts.append(f"folded up to version {replayed.fold_error[0] - 1} only")
    return "; ".join(parts) if parts else "no batch decides anything"


def _seeding(envelopes: list[Envelope]) -> Record:
    """The game's seeding as the log records it: its source, its mix and the contributions fixed at the start."""
    record = Record()
    for envelope in envelopes:
        if envelope.type in ("GameCreated", "ContributionGiven", "SeatLeft", "SeatHandedToBot", "GameStarted"):
            record = apply(record, envelope.type, envelope.data, envelope.version)
        if record.started:
            break
    return record


def _origin_matches(store: EventLog, forked: dict[str, Any]) -> bool:
    found = store.read(forked["game_id"], forked["version"], forked["version"])
    if not found or found[0].hash != forked["hash"]:
        return False
    # Folded from the origin's events alone, like the replay: no snapshot.
    folder = RecordFolder(lambda game_id, version: fold(store, None, folder, game_id, version).state)
    origin = fold(store, None, folder, forked["game_id"], forked["version"]).state
    return canonical_json(origin.module.dump_state(origin.state)) == canonical_json(forked["state"])
