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

While the game runs the seed is secret, so only the chain (and a fork's
origin) is checked and the verdict is ``pending``. The verdict holds counts and hashes, never event
data, so it shows no seat anything hidden.

The replay folds the events it reads itself, never a snapshot: a snapshot is
a cache, and the audit must not trust a cache.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from domain.game import Event, RuleViolation
from domain.rng import Rng
from events.envelope import Envelope, canonical_json
from events.log import EventLog
from events.snapshots import fold
from service.usecases import genesis
from service.usecases.record import META_EVENTS, Record, RecordFolder, apply, game_event, upcast

FAIR, PENDING, BROKEN, UNFAIR = "fair", "pending", "chain_broken", "unfair"


@dataclass(frozen=True)
class Verdict:
    game_id: str
    verdict: str  # FAIR, PENDING (seed not revealed yet), BROKEN or UNFAIR
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
    decisions_checked: int
    first_mismatch: int | None  # the version of the first batch the rules do not reproduce
    reason: str | None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def audit(store: EventLog, game_id: str) -> Verdict:
    envelopes = store.read(game_id)
    chain = store.verify(game_id)
    version, head = store.head(game_id)
    forked = envelopes[1].data if len(envelopes) > 1 and envelopes[1].type == "ForkedFrom" else None
    seeding = _seeding(envelopes)
    base = {
        "game_id": game_id,
        "version": version,
        "head_hash": head,
        "chain_ok": chain.ok,
        "chain_broken_at": chain.broken_at,
        "fork_origin_ok": None if forked is None else _origin_matches(store, forked),
        "seed_source": seeding.seed_source,
        "seed_mix": seeding.seed_mix,
        "contributed_seats": sorted(seeding.contributions),
    }
    revealed = [e for e in envelopes if e.type == "SeedRevealed"]
    if not chain.ok:
        return Verdict(**base, verdict=BROKEN, seed_revealed=bool(revealed), seed_matches_commitment=None,
                       effective_seed=None, decisions_checked=0, first_mismatch=None, reason=chain.reason)  # fmt: skip
    if base["fork_origin_ok"] is False:
        return Verdict(**base, verdict=UNFAIR, seed_revealed=bool(revealed), seed_matches_commitment=None,
                       effective_seed=None, decisions_checked=0, first_mismatch=2,
                       reason="the fork's first state is not its origin's at that version")  # fmt: skip
    if not revealed:
        return Verdict(**base, verdict=PENDING, seed_revealed=False, seed_matches_commitment=None,
                       effective_seed=None, decisions_checked=0, first_mismatch=None,
                       reason="the seed is revealed when the game ends")  # fmt: skip
    secret = revealed[-1].data["seed"]
    commitment = envelopes[0].data["seed_commitment"]
    matches = genesis.commitment(secret) == commitment
    checked, mismatch, reason = replay(envelopes, secret)
    if not matches:
        mismatch, reason = revealed[-1].version, "the revealed secret does not match the commitment"
    effective = genesis.effective_seed(secret, seeding.seed_mix, seeding.contributions)
    return Verdict(**base, verdict=FAIR if mismatch is None else UNFAIR, seed_revealed=True,
                   seed_matches_commitment=matches, effective_seed=effective, decisions_checked=checked,
                   first_mismatch=mismatch, reason=reason)  # fmt: skip


def _seeding(envelopes: list[Envelope]) -> Record:
    """The game's seeding as the log records it: its source, its mix and the contributions fixed at the start."""
    record = Record()
    for envelope in envelopes:
        if envelope.type in ("GameCreated", "ContributionGiven", "SeatLeft", "SeatHandedToBot", "GameStarted"):
            record = apply(record, envelope.type, envelope.data, envelope.version)
        if record.started:
            break
    return record


def replay(envelopes: list[Envelope], secret: str) -> tuple[int, int | None, str | None]:
    """Re-decide every batch; returns (batches checked, first mismatch, why)."""
    # The states a GameRewound returns to, kept as the fold passes them.
    targets = {e.data["to_version"] for e in envelopes if e.type == "GameRewound"}
    kept: dict[int, Record] = {}
    record = Record()
    checked = 0
    i = 0
    while i < len(envelopes):
        header = envelopes[i]
        run_end = i + 1
        while run_end < len(envelopes) and envelopes[run_end].type not in META_EVENTS:
            run_end += 1
        run = envelopes[i + 1 : run_end]
        expected = _decided(record, header, envelopes[run_end] if run_end < len(envelopes) else None, secret)
        if expected is None and run:
            return checked, run[0].version, f"{run[0].type} follows {header.type}, which decides nothing"
        if expected is not None:
            # Both sides as the store keeps them: checked by the game's schemas, in their current versions.
            game = header.data["game"] if header.type == "GameCreated" else record.game
            decided = [Event(e.type, game_event(game or "", e).data) for e in expected]
            stored = [Event(e.type, upcast(record, e) if record.game else e.data) for e in run]
            if _canonical(decided) != _canonical(stored):
                return checked, header.version, f"the rules decide otherwise for the batch at {header.version}"
            checked += 1
        for envelope in envelopes[i:run_end]:
            data = envelope.data if envelope.type in META_EVENTS or record.game is None else upcast(record, envelope)
            record = apply(record, envelope.type, data, envelope.version, kept.__getitem__)
            if envelope.version in targets:
                kept[envelope.version] = record
        i = run_end
    return checked, None, None


def _decided(record: Record, header: Envelope, after_run: Envelope | None, secret: str) -> list[Event] | None:
    """What the rules decide for the batch ``header`` opens; None: it is not a decision.

    ``record`` is the game before ``header``: at ``GameStarted``, with the
    contributions given until then.
    """
    data = header.data
    if header.type == "GameCreated":
        if after_run is not None and after_run.type == "ForkedFrom":
            return None  # a fork: its state comes from its origin, not from setup
        if genesis.dealt_at_start(data):
            return None  # nothing may be dealt before the seats have contributed
        return genesis.setup_events(data, secret)  # an older game: its secret is its seed
    if header.type == "GameStarted":
        if record.seed_mix is None or record.forked_from is not None:
            return None  # an older game, dealt at creation; a fork, whose state is its origin's
        created = {"game": record.game, "options": record.options, "seats": record.seats}
        return genesis.setup_events(created, genesis.effective_seed(secret, record.seed_mix, record.contributions))
    if header.type == "CommandAccepted":
        seed = genesis.effective_seed(secret, record.seed_mix, record.contributions)
        try:
            return record.module.decide(
                record.state, data["seat"], data["command"], Rng.for_position(seed, header.version - 1)
            )
        except RuleViolation as refused:
            return [Event("Refused", {"code": refused.code})]  # never equal to a stored batch
    return None


def _origin_matches(store: EventLog, forked: dict[str, Any]) -> bool:
    found = store.read(forked["game_id"], forked["version"], forked["version"])
    if not found or found[0].hash != forked["hash"]:
        return False
    # Folded from the origin's events alone, like the replay: no snapshot.
    folder = RecordFolder(lambda game_id, version: fold(store, None, folder, game_id, version).state)
    origin = fold(store, None, folder, forked["game_id"], forked["version"]).state
    return canonical_json(origin.module.dump_state(origin.state)) == canonical_json(forked["state"])


def _canonical(events: list[Event]) -> str:
    return canonical_json([[e.type, e.data] for e in events])
