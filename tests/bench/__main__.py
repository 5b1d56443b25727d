"""`make bench`: every figure of issues 13 and 24 with its baseline, ratio and target, printed and written to bench.json.

``python -m tests.bench`` runs the parts in order (store, play, HTTP, flat costs, the page);
``python -m tests.bench.store`` (or ``.play``, ``.http``, ``.costs``, ``.page``) runs one.
``BENCH_RUNS`` sets how many whole runs to make (``make bench``: 3), each figure then reported as its median;
``BENCH_SECONDS`` how long each timed figure runs (default 3),
``BENCH_JSON`` where the figures go, ``BENCH_CLUSTER=1`` adds appends on a
real 3-master cluster.
"""

from __future__ import annotations

from tests.bench import costs, http, page, play, store
from tests.bench.report import run


def main() -> None:
    run([store.main, play.main, http.main, costs.main, page.main])


if __name__ == "__main__":
    main()
