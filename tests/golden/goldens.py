"""The golden logs as the tests read them (tests/golden/README.md): each export with its metadata, and a restore."""

from __future__ import annotations

import functools
import gzip
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain import registry
from events.encoding import encode
from events.envelope import Envelope
from events.store import head_key, stream_key
from service.usecases.exports import READINGS

LOGS = Path(__file__).resolve().parent / "logs"


@dataclass(frozen=True)
class Golden:
    name: str
    meta: dict[str, Any]
    lines: list[dict[str, Any]]  # the export as served, readings included

    @functools.cached_property
    def envelopes(self) -> list[Envelope]:
        return [Envelope(**{k: v for k, v in line.items() if k not in READINGS}) for line in self.lines]

    @property
    def rules(self) -> str | None:
        return self.lines[0]["data"].get("rules")

    @property
    def current(self) -> bool:
        """Recorded under the rules this release plays its game by."""
        return self.rules == registry.game_module(self.meta["game"]).rules

    @property
    def secret(self) -> str:
        return next(line for line in self.lines if line["type"] == "SeedRevealed")["data"]["seed"]


@functools.cache
def golden(name: str) -> Golden:
    meta = json.loads((LOGS / f"{name}.json").read_text())
    with gzip.open(LOGS / f"{name}.ndjson.gz", "rt", encoding="utf-8") as export:
        lines = [json.loads(line) for line in export if line.strip()]
    return Golden(name, meta, lines)


NAMES = sorted(p.name.removesuffix(".json") for p in LOGS.glob("*.json"))
ENDED = [name for name in NAMES if json.loads((LOGS / f"{name}.json").read_text())["ending"]["over"]]


def restore(redis_client, envelopes: list[Envelope]) -> None:
    """Write ``envelopes`` into the store as its appends wrote them (events.store: one entry per version)."""
    game_id = envelopes[0].game_id
    pipe = redis_client.pipeline(transaction=False)
    for envelope in envelopes:
        pipe.xadd(stream_key(game_id), {"c": encode(envelope)}, id=f"0-{envelope.version}")
    pipe.hset(head_key(game_id), mapping={"version": envelopes[-1].version, "hash": envelopes[-1].hash})
    pipe.execute()
