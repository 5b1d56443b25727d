"""What `make bench` measured, printed as it goes and written to ``bench.json``.

Each figure is printed next to its baseline from the same run (a bare XADD, a
bare Flask endpoint, a raw read of the same events) and the ratio between
them, and, where the issue sets one (issue 13, "Speed and footprint"), the
target and whether this run met it. Absolute figures on a shared machine are
noise; the ratios are what to compare between runs.
"""

from __future__ import annotations

import gc
import json
import os
import platform
import statistics
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tests.compiled.pure import compiled_modules

SECONDS = float(os.environ.get("BENCH_SECONDS", "3"))
OUTPUT = Path(os.environ.get("BENCH_JSON", "bench.json"))
#: Whole runs of the parts; with more than one, each figure is reported as its median over the runs (`make bench`
#: runs three: the issue's targets are judged on the median of three, and one run on a shared machine is noise).
RUNS = int(os.environ.get("BENCH_RUNS", "1"))


def run_threads(writers: int, one_call: Callable[[int, int], Any], seconds: float = SECONDS) -> tuple[float, list[float]]:
    """Run ``one_call(writer, i)`` in ``writers`` threads for ``seconds``: calls/s and every call's latency."""
    latencies: list[list[float]] = [[] for _ in range(writers)]
    barrier = threading.Barrier(writers + 1)
    stop = [0.0]

    def loop(writer: int) -> None:
        barrier.wait()
        i = 0
        while time.perf_counter() < stop[0]:
            started = time.perf_counter()
            one_call(writer, i)
            latencies[writer].append(time.perf_counter() - started)
            i += 1

    threads = [threading.Thread(target=loop, args=(w,)) for w in range(writers)]
    for t in threads:
        t.start()
    stop[0] = time.perf_counter() + seconds
    began = time.perf_counter()
    barrier.wait()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - began
    flat = [x for per in latencies for x in per]
    return len(flat) / elapsed, flat


def build() -> str:
    """Which build this process runs: "pure", or "compiled (N modules)"."""
    found = compiled_modules()
    return f"compiled ({len(found)} modules)" if found else "pure"


def pct(values: list[float], p: float) -> float:
    """The ``p``-th percentile of ``values`` (seconds), in milliseconds."""
    if len(values) > 100:
        return statistics.quantiles(values, n=100)[int(p) - 1] * 1000
    return sorted(values)[min(len(values) - 1, int(len(values) * p / 100))] * 1000 if values else 0.0


@dataclass
class Figure:
    name: str
    value: float
    unit: str
    baseline: float | None = None
    baseline_label: str | None = None
    ratio: float | None = None
    #: The issue's target, as "ratio >= 0.5", "value <= 5" (None: printed for reference only).
    target: str | None = None
    met: bool | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _meets(target: str, value: float, ratio: float | None) -> bool:
    subject, op, bound = target.split()
    x = ratio if subject == "ratio" else value
    if x is None:
        return False
    return x >= float(bound) if op == ">=" else x <= float(bound)


class Report:
    def __init__(self, title: str = "holotape bench") -> None:
        self.figures: list[Figure] = []
        self.runs: list[Report] = []  # the runs a median report was taken from
        self.started = datetime.now(UTC)
        self.header = (
            f"{title}, {self.started:%Y-%m-%d %H:%M} UTC on {platform.node()} ({os.cpu_count()} cores, "
            f"{platform.machine()}, Python {platform.python_version()}), {SECONDS:.0f} s per timed figure, {build()} build, load average {os.getloadavg()[0]:.2f}"
        )
        print(self.header, flush=True)

    def add(
        self,
        name: str,
        value: float,
        unit: str,
        *,
        baseline: float | None = None,
        baseline_label: str | None = None,
        ratio: float | None = None,
        target: str | None = None,
        **extra: Any,
    ) -> Figure:
        """Record and print one figure; ``ratio`` defaults to value / baseline."""
        if ratio is None and baseline:
            ratio = value / baseline
        met = _meets(target, value, ratio) if target else None
        figure = Figure(name, value, unit, baseline, baseline_label, ratio, target, met, extra)
        self.figures.append(figure)
        line = f"{name:<46} {_num(value):>10} {unit:<10}"
        if baseline is not None:
            line += f" | {baseline_label or 'baseline'} {_num(baseline)} {unit}"
        if ratio is not None:
            line += f" | ratio {ratio:.2f}"
        if target:
            line += f" | target {target}: {'met' if met else 'NOT MET'}"
        if extra:
            line += "  (" + ", ".join(f"{k} {_num(v) if isinstance(v, float) else v}" for k, v in extra.items()) + ")"
        print(line, flush=True)
        return figure

    def write(self, path: Path = OUTPUT) -> None:
        body = {
            "header": self.header,
            "started": self.started.isoformat(),
            "machine": {
                "node": platform.node(),
                "cores": os.cpu_count(),
                "arch": platform.machine(),
                "python": platform.python_version(),
                "load_average": os.getloadavg(),
                "build": build(),
                "compiled_modules": compiled_modules(),
            },
            "figures": [asdict(f) for f in self.figures],
            "runs": [{"header": r.header, "figures": [asdict(f) for f in r.figures]} for r in self.runs],
        }
        path.write_text(json.dumps(body, indent=2) + "\n")
        missed = [f.name for f in self.figures if f.met is False]
        print(f"\n{len(self.figures)} figures written to {path}; targets not met: {', '.join(missed) or 'none'}")


def run(parts: Sequence[Callable[[Report], None]], runs: int = RUNS) -> Report:
    """Run every part ``runs`` times and write the report: the one run's, or each figure's median over them."""
    reports = []
    for i in range(runs):
        report = Report("holotape bench" if runs == 1 else f"holotape bench, run {i + 1} of {runs}")
        for part in parts:
            # What earlier parts left in this process (two games' content, self-play's states) out of the
            # garbage collector's walks, as a service process freezes its start: the HTTP part's clients
            # run here, and a full collection of a heap the parts before grew stalled them at random.
            gc.collect()
            gc.freeze()
            part(report)
        reports.append(report)
    final = reports[0] if runs == 1 else median_report(reports)
    final.write()
    return final


def median_report(reports: Sequence[Report]) -> Report:
    """Each figure's median over ``reports``: its value, baseline and ratio each the median of the runs' (the ratio is
    the median of each run's ratio, both sides of which were measured together), the target judged on those."""
    loads = ", ".join(r.header.rsplit("load average ", 1)[1] for r in reports)
    median = Report(f"holotape bench, median of {len(reports)} runs (load averages at their starts {loads})")
    median.runs = list(reports)
    for first in reports[0].figures:
        same = [f for r in reports for f in r.figures if f.name == first.name]
        baselines = [f.baseline for f in same if f.baseline is not None]
        ratios = [f.ratio for f in same if f.ratio is not None]
        median.add(
            first.name, statistics.median(f.value for f in same), first.unit,
            baseline=statistics.median(baselines) if baselines else None, baseline_label=first.baseline_label,
            ratio=statistics.median(ratios) if ratios else None, target=first.target,
            runs=" / ".join(_num(f.value) for f in same),
            **({"ratios": " / ".join(f"{r:.2f}" for r in ratios)} if ratios else {}),
        )  # fmt: skip
    return median


def _num(value: float) -> str:
    if isinstance(value, int) or value >= 100:
        return f"{value:,.0f}"
    return f"{value:.2f}"
