"""A compiled copy of ``domain/`` and ``bots/`` beside the sources, for ``make test``'s equality test.

``make compiled`` builds in place, and every process started from the tree
then runs compiled code: right for a deployment, wrong for the suite, which
must test the pure build, the reference. So ``make test`` starts
``python -m tests.compiled.tree`` in the background before pytest: it copies
the compiled packages into ``build/compiled-tree/`` and builds them there
with mypyc while the other tests run (gcc at ``-O0``: the C's meaning is the
same at any level, and the build costs half the CPU; ``make compiled``
keeps ``-O3``). ``tests/compiled/test_same_events.py`` waits for it and
plays the same games in a child process that imports ``domain`` and ``bots``
from the copy.

The copy records a fingerprint of the sources it was built from, so a tree
built from older sources is never mistaken for this one; its ``state`` file
says ``building``, ``built`` or ``failed``, and ``build.log`` what mypyc and
gcc printed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from tests.compiled.pure import COMPILED_PACKAGES, ROOT

TREE = ROOT / "build" / "compiled-tree"
STATE = TREE / "state"
LOG = TREE / "build.log"
FINGERPRINT = TREE / "fingerprint"
#: Copied beside the packages: the build script, and the mypy settings it compiles under.
BESIDE = ("mypyc_build.py", "pyproject.toml")
#: ``make test`` sets it: a build is on its way, and the equality test must wait for it rather than skip.
EXPECTED = "HOLOTAPE_COMPILED_TREE"


def _sources() -> list[Path]:
    files = [ROOT / name for name in BESIDE]
    for package in COMPILED_PACKAGES:
        files += [p for p in sorted((ROOT / package).rglob("*")) if p.is_file() and _kept(p)]
    return files


def _kept(path: Path) -> bool:
    return path.suffix not in (".so", ".pyc") and "__pycache__" not in path.parts


def fingerprint() -> str:
    """SHA-256 over the names and bytes of everything the copy is made from."""
    digest = hashlib.sha256()
    for path in _sources():
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def state() -> str | None:
    """``building``, ``built`` or ``failed`` for a copy of the sources as they are now; None if there is none."""
    if not STATE.is_file() or not FINGERPRINT.is_file() or FINGERPRINT.read_text() != fingerprint():
        return None
    return STATE.read_text().strip()


def wait(timeout: float) -> str | None:
    """The state of a build on its way once it has ended (or what it is after ``timeout`` seconds): none
    yet means it has not started."""
    deadline = time.monotonic() + timeout
    found = state()
    while found in (None, "building") and time.monotonic() < deadline:
        time.sleep(1)
        found = state()
    return found


def build() -> int:
    """Copies the compiled packages into the tree and builds them there; mypyc's exit status."""
    shutil.rmtree(TREE, ignore_errors=True)
    TREE.mkdir(parents=True)
    FINGERPRINT.write_text(fingerprint())
    STATE.write_text("building")
    for package in COMPILED_PACKAGES:
        shutil.copytree(ROOT / package, TREE / package, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc"))
    for name in BESIDE:
        shutil.copy2(ROOT / name, TREE / name)
    settings = {"MYPYC_OPT_LEVEL": "0", **os.environ}
    with LOG.open("w") as log:
        done = subprocess.run([sys.executable, "mypyc_build.py"], cwd=TREE, env=settings, stdout=log, stderr=subprocess.STDOUT)
    STATE.write_text("built" if done.returncode == 0 else "failed")
    return done.returncode


if __name__ == "__main__":
    sys.exit(build())
