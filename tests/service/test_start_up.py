"""A server process leaves what it built at its start out of later garbage collections, and collects its young
objects less often (``wiring.freeze_start_up``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from service import wiring

ROOT = Path(__file__).resolve().parents[2]
#: What a process has tracked by the end of its start is some 110,000 objects; an unfrozen one freezes none.
FROZEN_AT_LEAST = 50_000


def test_the_wsgi_app_freezes_its_start_up_and_collects_young_objects_less_often(redis_url):
    probe = "import gc, service.wsgi; print(gc.get_freeze_count(), gc.get_threshold()[0])"
    answer = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env={**os.environ, "REDIS_URL": redis_url},
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    # How long a collection then takes is the machine's business (30 ms on a loaded CI run against a
    # few microseconds here); how much of the start is left out of it is the app's.
    frozen, young = (int(n) for n in answer.stdout.split())
    assert frozen >= FROZEN_AT_LEAST, answer.stdout
    assert young == wiring.YOUNG_COLLECTION > 700, answer.stdout
