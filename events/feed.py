"""The global feed, split into partitions that each live beside their games.

Every event is appended to its game's stream and to one feed partition in the
same Lua script, so the feed misses nothing and holds nothing twice. On a
Redis Cluster a script may only touch keys of one hash slot, so a feed
partition must share the slot of every game it carries. Partition ``p`` is
pinned to one slot (``slots[p]``, spread evenly over the 16,384) through the
hash tag of its key, and a new game's id is drawn until it hashes to one of
those slots (``new_game_id``): the game's keys keep their own tag
(``game:{<id>}:...``) and still land beside their partition. Drawing costs
about 16,384 / N cheap CRC16s per game (around a millisecond for N = 16).

On a standalone server (N = 1) there is one partition, the key it always had
(``holotape:feed``), and any game id will do.

A feed entry holds one append's events (a reference: the game, its first
version and how many; entries older than that hold one whole event each),
so a position may fall inside an entry (``<entry id>+<k>``). A reader's
position in the feed is one checkpoint per partition. Merging the
partitions gives (see ``FeedReader``): each game's events in exact version
order (a game lives in one partition, and a partition is one stream), each
partition in its exact commit order, and across partitions the order of
their entry ids (the milliseconds of the server that took the append, then
the sequence within the millisecond, then the partition number to break
ties). Servers' clocks differ a little, so "global" order across partitions
is commit time as each shard saw it; no consumer of ours needs more.
"""

from __future__ import annotations

import functools
import heapq
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

#: The key of the one partition of a standalone store (the key the feed always had).
STANDALONE_FEED_KEY = "holotape:feed"
#: Where a partition's checkpoint starts: before its first entry.
START = "0-0"


def slot_of_game(game_id: str) -> int:
    """The hash slot of every key of ``game_id`` (they are tagged ``{<game id>}``)."""
    return key_slot(f"{{{game_id}}}".encode())


@functools.cache
def _tag_for_slot(slot: int) -> str:
    """A short hash tag whose slot is ``slot`` (found once, by counting)."""
    n = 0
    while key_slot(f"{{feed-{n}}}".encode()) != slot:
        n += 1
    return f"feed-{n}"


@dataclass(frozen=True)
class FeedPartitions:
    """How the feed is split: ``count`` partitions, each pinned to one slot on a cluster."""

    count: int = 1
    cluster: bool = False
    #: The hash slot each partition is pinned to (a cluster only).
    slots: tuple[int, ...] = field(init=False)
    keys: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        if self.count < 1 or (not self.cluster and self.count != 1):
            raise ValueError("a standalone store has one feed partition; a cluster one or more")
        if self.cluster:
            slots = tuple(
                (p * REDIS_CLUSTER_HASH_SLOTS) // self.count + REDIS_CLUSTER_HASH_SLOTS // (2 * self.count)
                for p in range(self.count)
            )
            object.__setattr__(self, "slots", slots)
            object.__setattr__(self, "keys", tuple(f"holotape:feed:{{{_tag_for_slot(s)}}}" for s in slots))
        else:
            object.__setattr__(self, "slots", ())
            object.__setattr__(self, "keys", (STANDALONE_FEED_KEY,))

    def partition_of(self, game_id: str) -> int | None:
        """The partition that carries ``game_id``'s events; None: the id was not drawn for this cluster."""
        if not self.cluster:
            return 0
        slot = slot_of_game(game_id)
        return self.slots.index(slot) if slot in self.slots else None

    def new_game_id(self) -> str:
        """A fresh game id, placed (on a cluster) in the slot of one of the feed partitions."""
        wanted = set(self.slots)
        while True:
            candidate = uuid.uuid4().hex
            if not self.cluster or slot_of_game(candidate) in wanted:
                return candidate


# -- reading the partitions as one feed -----------------------------------------


def encode_checkpoint(positions: Sequence[str]) -> str:
    """One checkpoint for all partitions (a single stream id when there is one partition)."""
    return positions[0] if len(positions) == 1 else "|".join(positions)


def decode_checkpoint(checkpoint: str, count: int) -> list[str]:
    if count == 1:
        return [checkpoint or START]
    parts = checkpoint.split("|") if checkpoint and checkpoint != START else [START] * count
    if len(parts) != count:
        raise ValueError(f"a feed checkpoint of {len(parts)} partitions for a feed of {count}")
    return parts


def _order(entry_id: str) -> tuple[int, int]:
    millis, _, sequence = entry_id.partition("-")
    return int(millis), int(sequence or 0)


#: One event of a partition: (its entry's id, its index among the entry's
#: events, how many events the entry holds, what the store makes of it). An
#: entry may hold several events (one append's), so a position may fall
#: inside one: ``<entry id>+<k>``, the first k of its events read.
Row = tuple[str, int, int, Any]
ReadAfter = Callable[[int, str, int], list[Row]]


@dataclass(frozen=True)
class Merged:
    """One feed event with the checkpoint that stands just after it."""

    checkpoint: str
    held: Any


def split_position(position: str) -> tuple[str, int]:
    """A partition's position as (entry id, events of that entry already read: 0 for all of it)."""
    entry_id, _, consumed = position.partition("+")
    return entry_id, int(consumed or 0)


def merge(read_after: ReadAfter, partitions: int, checkpoint: str, count: int) -> list[Merged]:
    """Up to ``count`` events after ``checkpoint``, partitions merged by entry id then partition.

    ``read_after(p, position, n)`` gives partition ``p``'s events strictly
    after ``position``, from at least its next ``n`` entries (so at least
    ``n`` events when there are). Each partition is read ``count`` ahead, so
    the first ``count`` of the merge are right whatever the others hold.
    """
    positions = decode_checkpoint(checkpoint, partitions)
    heads = [read_after(p, positions[p], count) for p in range(partitions)]
    ordered = heapq.merge(
        *[[(_order(entry_id), p, k, entry_id, n, held) for entry_id, k, n, held in rows] for p, rows in enumerate(heads)]
    )
    merged: list[Merged] = []
    for _, p, k, entry_id, n, held in ordered:
        if len(merged) == count:
            break
        positions[p] = entry_id if k == n - 1 else f"{entry_id}+{k + 1}"
        merged.append(Merged(encode_checkpoint(positions), held))
    return merged
