"""`make bench`: every figure of issue 13 with its baseline, ratio and target, printed and written to bench.json.

``python -m tests.bench`` runs the parts in order (store, play, HTTP, flat costs, the page);
``python -m tests.bench.store`` (or ``.play``, ``.http``, ``.costs``, ``.page``) runs one.
``BENCH_SECONDS`` sets how long each timed figure runs (default 3),
``BENCH_JSON`` where the figures go, ``BENCH_CLUSTER=1`` adds appends on a
real 3-master cluster.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tests.bench.report import Report


def run(parts: Sequence[Callable[[Report], None]]) -> Report:
    report = Report()
    for part in parts:
        part(report)
    report.write()
    return report


def main() -> None:
    from tests.bench import costs, http, page, play, store

    run([store.main, play.main, http.main, costs.main, page.main])


if __name__ == "__main__":
    main()
