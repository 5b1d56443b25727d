"""Every event of every golden log has its words, made from the log alone, and reads the same in every channel.

The log is put in a real store exactly as it was stored (the same envelopes,
hashes and all: an operator's restore), then read back as a client would,
through the pages and the export, by the spectator and by seat 0; and worded
from the export's lines alone, with nothing but the log. A release may reword
a sentence; it may not make one depend on when or where it is read
(docs/versioning.md, DESIGN.md invariant 8). The games are over, so every
reader reads every event unredacted.
"""

from __future__ import annotations

import pytest

from events.envelope import Envelope
from events.snapshots import Loaded, fold_onto
from service.usecases.record import Record, RecordFolder
from service.usecases.words import Telling
from tests.golden.goldens import ENDED, golden, restore

PAGE = 500


def _alone(envelopes: list[Envelope], seat: int | None) -> list[str]:
    """The words of every event from the log alone: folded from its first event, nothing read from anywhere else."""
    folder = RecordFolder(lambda _game, version: at(version))

    def at(version: int) -> Record:
        return fold_onto(folder, Loaded(Record(), 0, 0), envelopes[:version]).state

    end = at(len(envelopes))
    return [told["text"] for told in Telling(Record(), end, at).tell(envelopes, seat)]


@pytest.mark.parametrize("name", ENDED)
def test_every_event_reads_alike_from_the_log_alone_the_pages_and_the_export(name: str, redis_client, services) -> None:
    log = golden(name)
    envelopes = log.envelopes
    restore(redis_client, envelopes)
    queries = services.queries
    game_id = envelopes[0].game_id
    for seat in (None, 0):
        alone = _alone(envelopes, seat)
        missing = [(e.version, e.type) for e, text in zip(envelopes, alone, strict=True) if not text or text == e.type]
        assert not missing, f"{name}: events without words: {missing[:5]}"
        paged: list[str] = []
        after = 0
        while after < len(envelopes):
            page = queries.events(game_id, seat, after, PAGE)
            paged += [e["text"] for e in page["events"]]
            after = page["events"][-1]["version"]
        assert paged == alone, f"{name}: seat {seat}'s pages word an event otherwise than its log does"
        exported = [line["text"] for line in queries.export(game_id, seat)[1]]
        assert exported == alone, f"{name}: seat {seat}'s export words an event otherwise than its log does"
