"""``python -m tests.bench.builds``: the self-play figures of ``make bench`` on the pure and the compiled build, side by side.

Each round runs the play part's self-play figures (``tests.bench.play.selfplay``:
random and greedy bots, every hosted game, ``BENCH_SECONDS`` each) once in a
process on the pure build (``tests.compiled.pure``) and once in a process on
the compiled one (``make compiled``), one after the other, ``BENCH_ROUNDS``
times (default 3). Each process then also plays the same ``FIXED_GAMES``
games per game and level and reports them in decisions per CPU second
(``time.process_time``): the same work on both builds, which another
process on the machine slows far less than it slows a wall-clock rate. It prints each figure's median per build, the ratio of
the medians, and the load average each process met (the machine is shared:
compare the ratios of one run, not absolute rates across runs), and writes
every figure to ``bench-builds.json``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from service.usecases.selfplay import play_game
from tests.bench.play import GAMES, selfplay
from tests.bench.report import Report, build
from tests.compiled.pure import ROOT, compiled_modules

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
#: The games of the CPU-time figures, per hosted game and level (seeds ``fixed-0``...).
FIXED_GAMES = 3
OUTPUT = Path(os.environ.get("BENCH_BUILDS_JSON", "bench-builds.json"))


def measure(path: str) -> None:
    """The child: this process's self-play figures, its build and load average, as JSON into ``path``."""
    report = Report()
    for game in GAMES:
        selfplay(report, game)
    figures = {f.name: f.value for f in report.figures}
    for game in GAMES:
        for level in ("random", "greedy"):
            decisions = 0
            started = time.process_time()
            for n in range(FIXED_GAMES):
                limit = 2000 if level == "random" else 150
                decisions += play_game(game, [level] * 2, f"fixed-{n}", max_decisions=limit).decisions
            figures[f"{level} bots ({game}), {FIXED_GAMES} fixed games, per CPU s"] = decisions / (
                time.process_time() - started)
    Path(path).write_text(json.dumps({"build": build(), "load": os.getloadavg()[0], "figures": figures}))


def child(pure: bool) -> dict:
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        runner = ["-m", "tests.compiled.pure", "tests.bench.builds"] if pure else ["-m", "tests.bench.builds"]
        subprocess.run([sys.executable, *runner, "--child", out.name], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        return json.loads(Path(out.name).read_text())


def main() -> None:
    if not compiled_modules():
        sys.exit("no compiled build in place: run `make compiled` first")
    runs: dict[str, list[dict]] = {"pure": [], "compiled": []}
    for n in range(ROUNDS):
        for name in ("pure", "compiled"):
            found = child(pure=name == "pure")
            runs[name].append(found)
            print(f"round {n + 1}, {found['build']}: load {found['load']:.2f}", flush=True)
    loads = {name: ", ".join(f"{r['load']:.1f}" for r in found) for name, found in runs.items()}
    print(f"\n{'figure':<46} {'pure':>9} {'compiled':>9} {'ratio':>6}  (medians of {ROUNDS}; load averages: "
          f"pure {loads['pure']}, compiled {loads['compiled']})")
    medians = {}
    for figure in runs["pure"][0]["figures"]:
        pure = statistics.median(r["figures"][figure] for r in runs["pure"])
        compiled = statistics.median(r["figures"][figure] for r in runs["compiled"])
        medians[figure] = {"pure": pure, "compiled": compiled, "ratio": compiled / pure}
        print(f"{figure:<46} {pure:>9,.0f} {compiled:>9,.0f} {compiled / pure:>6.2f}")
    OUTPUT.write_text(json.dumps({"rounds": runs, "medians": medians}, indent=2) + "\n")


if __name__ == "__main__":
    if "--child" in sys.argv:
        measure(sys.argv[sys.argv.index("--child") + 1])
    else:
        main()
