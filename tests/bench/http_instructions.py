"""`make profile-http-instructions`: the CPU instructions an action over HTTP costs the API process, counted.

This VM's pace moves by a third between hours and its timings by more between
runs, so a change worth a few per cent cannot be seen in seconds. Callgrind
(valgrind) counts the instructions the process executes, which do not move
with the machine's load or pace: the same code gives the same count within a
fraction of a per cent. Counted here are the instructions of
``http_profile``'s request (the bench's own-game ``redraw`` with
``If-Match``, the app called as gunicorn calls it, without gunicorn),
between two toggles so that neither the start-up nor the warm-up is counted:
once for ``FEW`` actions and once for ``MANY``, and the difference divided by
``MANY - FEW``, so what the toggles cost cancels out. Redis runs apart and
is not counted. Needs valgrind (Debian's package); about a minute.

Compare the count before and after a change in the same way; it is no
time, and a change that waits rather than computes does not show in it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.bench.http_profile import acting

FEW, MANY = 100, 300


def _toggle(on: bool) -> None:
    """Start or stop callgrind's counting in this process (it runs under valgrind, told to count nothing yet)."""
    subprocess.run(["callgrind_control", "-i", "on" if on else "off", str(os.getpid())], check=True, capture_output=True)


def count(actions: int) -> None:
    """Under callgrind: ``actions`` actions, counted."""
    with acting() as act:
        _toggle(True)
        for _ in range(actions):
            act()
        _toggle(False)


def instructions(actions: int) -> int:
    """The instructions ``count(actions)`` executes between its toggles, as callgrind totals them."""
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(
            [
                "valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}/callgrind.%p",
                sys.executable, "-m", "tests.bench.http_instructions", "--count", str(actions),
            ],
            check=True, capture_output=True,
        )  # fmt: skip
        (written,) = Path(out).glob("callgrind.*")
        totals = [line for line in written.read_text().splitlines() if line.startswith("totals:")]
        return int(totals[0].split()[1])


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--count":
        count(int(sys.argv[2]))
        return
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        sys.exit("this needs valgrind (apt-get install valgrind)")
    few, many = instructions(FEW), instructions(MANY)
    print(f"an action over WSGI, in-process: {(many - few) / (MANY - FEW):,.0f} instructions "
          f"({MANY} actions {many:,}, {FEW} actions {few:,})")  # fmt: skip


if __name__ == "__main__":
    main()
