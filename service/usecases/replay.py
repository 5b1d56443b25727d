"""A recorded game decided again: the one replay behind the audit, the rules upgrade and ``holotape verify``.

The replay folds the log batch by batch, as the service does, and before
folding each batch that decides something (the setup; each
``CommandAccepted``) asks this release's rules what they decide for it, from
the seed: the start's setup with ``Rng.for_position(seed, 0)``, a command at
version v with the state after v-1 and ``Rng.for_position(seed, v - 1)``. It
says, batch by batch, whether the rules decide the same events as the log
holds, and under which rules each batch was recorded (``GameCreated.rules``,
then each ``RulesUpgraded``'s ``to``).

What the callers make of it differs (docs/versioning.md): the audit holds a
batch recorded under this release's rules to it strictly, and reports the
others as re-drawn where they happen to match; an upgrade looks for the
first batch that differs. The rules of this release may not understand a log
of other rules at all, so nothing they raise escapes: a batch they cannot
decide is a batch that does not match, and an event they cannot fold ends
the replay with the reason (``fold_error``).

The replay folds the events it reads itself, never a snapshot: a snapshot is
a cache, and the audit must not trust a cache.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain import registry
from domain.game import Event
from domain.rng import Rng
from events.envelope import Envelope, canonical_json
from service.usecases import genesis
from service.usecases.record import META_EVENTS, Record, apply, game_event, upcast


@dataclass(frozen=True)
class Batch:
    """One batch that decides something, decided again."""

    version: int  # of the event that opens it
    rules: str | None  # the rules it was recorded under (None: before rules versions)
    matched: bool
    reason: str | None = None  # why not


@dataclass
class Replay:
    batches: list[Batch] = field(default_factory=list)
    #: The record as far as the replay folded it (the whole log unless ``fold_error``).
    record: Record = field(default_factory=Record)
    folded: int = 0  # events folded
    fold_error: tuple[int, str] | None = None  # (version, why) of the first event this release could not fold

    def first_divergence(self) -> Batch | None:
        return next((b for b in self.batches if not b.matched), None)


def replay(envelopes: list[Envelope], secret: str) -> Replay:
    """Decide every batch of ``envelopes`` (a whole log, as stored) again from ``secret`` with this release's rules."""
    targets = {e.data["to_version"] for e in envelopes if e.type in ("GameRewound", "MoveUndone")}
    kept: dict[int, Record] = {}  # the states a GameRewound returns to, kept as the fold passes them
    out = Replay()
    record = Record()
    i = 0
    while i < len(envelopes):
        header = envelopes[i]
        end = i + 1
        while end < len(envelopes) and envelopes[end].type not in META_EVENTS:
            end += 1
        run = envelopes[i + 1 : end]
        after_run = envelopes[end] if end < len(envelopes) else None
        batch = _check(record, header, run, after_run, secret)
        if batch is not None:
            out.batches.append(batch)
        for envelope in envelopes[i:end]:
            try:
                data = envelope.data if envelope.type in META_EVENTS or record.game is None else upcast(record, envelope)
                record = apply(record, envelope.type, data, envelope.version, kept.__getitem__)
            except Exception as error:  # noqa: BLE001 - another release's log: say what stopped the fold
                out.record, out.fold_error = record, (envelope.version, f"{type(error).__name__}: {error}")
                return out
            out.folded += 1
            if envelope.version in targets:
                kept[envelope.version] = record
        i = end
    out.record = record
    return out


def _check(
    record: Record, header: Envelope, run: list[Envelope], after_run: Envelope | None, secret: str
) -> Batch | None:
    rules = header.data.get("rules") if header.type == "GameCreated" else record.rules
    try:
        expected = _decided(record, header, after_run, secret)
    except Exception as error:  # noqa: BLE001 - these rules cannot decide this batch: it does not match
        return Batch(header.version, rules, False, f"the rules here cannot decide it: {type(error).__name__}: {error}")
    if expected is None:
        if run:
            return Batch(header.version, rules, False, f"{run[0].type} follows {header.type}, which decides nothing")
        return None
    game = header.data["game"] if header.type == "GameCreated" else record.game or ""
    try:
        # Both sides as the store keeps them: checked by the game's schemas, in their current versions.
        decided = [Event(e.type, game_event(game, e).data) for e in expected]
        stored = [Event(e.type, upcast(record, e) if record.game else e.data) for e in run]
    except Exception as error:  # noqa: BLE001 - an event the rules here refuse or cannot read
        return Batch(header.version, rules, False, f"{type(error).__name__}: {error}")
    if _canonical(decided) != _canonical(stored):
        return Batch(header.version, rules, False, f"the rules decide otherwise for the batch at {header.version}")
    return Batch(header.version, rules, True)


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
        return record.module.decide(record.state, data["seat"], data["command"], Rng.for_position(seed, header.version - 1))
    return None


def rules_here(game: str) -> str:
    """The rules this release plays ``game`` under."""
    return registry.game_module(game).rules


def _canonical(events: list[Event]) -> str:
    return canonical_json([[e.type, e.data] for e in events])
