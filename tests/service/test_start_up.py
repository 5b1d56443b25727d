"""A server process leaves what it built at its start out of later garbage collections (``wiring.freeze_start_up``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: What a process has tracked by the end of its start is some 110,000 objects; an unfrozen one freezes none.
FROZEN_AT_LEAST = 50_000


def test_the_wsgi_app_freezes_its_start_up_so_a_full_collection_walks_only_what_came_after(redis_url):
    probe = "import gc, time, service.wsgi; t = time.perf_counter(); gc.collect(); print(gc.get_freeze_count(), time.perf_counter() - t)"
    answer = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env={**os.environ, "REDIS_URL": redis_url},
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    frozen, seconds = answer.stdout.split()
    assert int(frozen) >= FROZEN_AT_LEAST, answer.stdout
    assert float(seconds) < 0.02, "a full collection after the start walked the frozen objects"
