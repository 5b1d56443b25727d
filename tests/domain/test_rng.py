"""The game's dice are the published function (``domain.rng``): anyone recomputes them from the seed.

``Rng`` hashes a short prefix (seed and label) whole at every draw and copies a longer one's hashed state;
both must give ``sha256(seed || 0x00 || label || 0x00 || counter)`` read as a big-endian integer.
"""

from __future__ import annotations

import hashlib

import pytest

from domain.rng import Rng


def _published(seed: str, label: str, counter: int) -> int:
    message = seed.encode() + b"\x00" + label.encode() + b"\x00" + str(counter).encode()
    return int.from_bytes(hashlib.sha256(message).digest(), "big")


@pytest.mark.parametrize(("seed", "label"), [
    ("bench-3", "v17"),  # hashed whole at every draw
    ("a" * 64, "bot-s1-v1234"),  # a game's 64-digit seed: the hashed prefix copied
    ("b" * 40, "x" * 6),  # the longest prefix hashed whole (48 bytes)
    ("b" * 40, "x" * 7),  # one byte longer
])
def test_each_draw_is_sha256_of_the_seed_the_label_and_the_counter(seed, label):
    rng = Rng(seed, label)
    assert [rng._next() for _ in range(1200)] == [_published(seed, label, n) for n in range(1200)]


def test_below_keeps_a_draw_under_the_largest_multiple_of_its_bound_and_takes_it_modulo():
    rng, limit = Rng("fair", "v3"), (1 << 256) - (1 << 256) % 6
    faces = [rng.below(6) for _ in range(200)]
    assert faces == [_published("fair", "v3", n) % 6 for n in range(200) if _published("fair", "v3", n) < limit]
