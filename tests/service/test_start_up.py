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
    probe = "import gc, service.wsgi; print(gc.get_freeze_count())"
    answer = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env={**os.environ, "REDIS_URL": redis_url},
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    # How long a collection then takes is the machine's business (30 ms on a loaded CI run against a
    # few microseconds here); how much of the start is left out of it is the app's.
    assert int(answer.stdout) >= FROZEN_AT_LEAST, answer.stdout
