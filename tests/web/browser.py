"""A real headless Chromium for the browser tests: Debian's ``chromium``, driven by Playwright.

Playwright's own browser downloads are never used (no network in CI beyond
the distribution's registry): the tests launch /usr/bin/chromium. When it is
missing, ``ensure_chromium`` installs it with apt-get (CI machines run as
root); ``python -m tests.web.browser`` does just that, for ``make browser``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.web.axe import ensure_axe

CHROMIUM = Path(os.environ.get("HOLOTAPE_CHROMIUM", "/usr/bin/chromium"))

#: Headless, and nothing that reaches out to the internet or asks a question.
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


#: Why the browser tests cannot run here, when they cannot.
MISSING = f"{CHROMIUM} is missing and only root may install it: apt-get install -y chromium"


def ensure_chromium() -> Path | None:
    """The browser's path, installed from the distribution's packages first if it is not there.

    None when it is missing and this is not root (a developer's machine:
    `make test` needs no root rights, so the browser tests are skipped there,
    saying why; CI runs as root and always has them).
    """
    if CHROMIUM.exists():
        return CHROMIUM
    apt = shutil.which("apt-get")
    if apt is None or os.geteuid() != 0:
        return None
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    if subprocess.run([apt, "install", "-y", "--no-install-recommends", "chromium"], env=env).returncode != 0:
        # A fresh machine has no package lists yet.
        subprocess.run([apt, "update"], env=env, check=True)
        subprocess.run([apt, "install", "-y", "--no-install-recommends", "chromium"], env=env, check=True)
    return CHROMIUM


if __name__ == "__main__":
    # axe-core too (tests/web/axe.py): fetched here, at setup, so the tests only read it.
    try:
        ensure_axe()
    except (RuntimeError, OSError, subprocess.CalledProcessError) as missing:
        print(f"axe-core: {missing}", file=sys.stderr)
    found = ensure_chromium()
    print(found or f"{MISSING}; the browser tests (tests/web) will be skipped", file=sys.stdout if found else sys.stderr)
    sys.exit(0)
