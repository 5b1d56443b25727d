"""Record golden logs: whole games played over HTTP on a real Holotape server, exported at their end.

    python -m tests.golden.record                  # start a server of this tree, record every spec, stop it
    python -m tests.golden.record --url URL        # record on a server already running (of --tree's commit)
    python -m tests.golden.record --only zona-     # only the specs whose names start so
    python -m tests.golden.record --list           # the specs' names

``make golden`` runs the first. The logs go to tests/golden/logs/ (``--out``);
tests/golden/README.md says what each file holds and how the legacy ones
(tests/golden/record_legacy.py) were made.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from tests.golden.play import Spec, Unfinished, api_style, record
from tests.golden.server import Api, Server, git_commit, git_dirty

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LOGS = HERE / "logs"

SCENARIOS = ("saltmarsh_reach", "sulphur_flats", "thornwood_hollow", "vesper_heights")
FALLOUT_CAP = 2500
ZONA_CAP = 1000


def fallout(name: str, seats: int, options: dict[str, Any], **kw: Any) -> Spec:
    return Spec(f"fallout-{name}", "fallout", seats, options, cap=kw.pop("cap", FALLOUT_CAP), **kw)


def zona(name: str, seats: int, options: dict[str, Any], **kw: Any) -> Spec:
    return Spec(f"zona-{name}", "zona", seats, {"pack": "base", **options}, cap=kw.pop("cap", ZONA_CAP), **kw)


#: What today's code records. Names are stable: a log is replaced by the recording of the same name.
SPECS: list[Spec] = [
    # Every scenario solo, each seed made another way.
    fallout("solo-saltmarsh-reach", 1, {"scenario": "saltmarsh_reach"}, seeding="creator"),
    fallout("solo-sulphur-flats", 1, {"scenario": "sulphur_flats"}, seeding="contributions"),
    fallout("solo-thornwood-hollow", 1, {"scenario": "thornwood_hollow"}),
    fallout("solo-vesper-heights", 1, {"scenario": "vesper_heights", "survivors": ["wren_okafor"]}, seeding="creator"),
    # Every scenario with 2 to 4 seats, some held by the worker's bots.
    fallout("2p-saltmarsh-reach", 2, {"scenario": "saltmarsh_reach"}, seeding="contributions"),
    fallout("2p-sulphur-flats", 2, {"scenario": "sulphur_flats", "survivors": ["marek_sallow", "tamsin_reed"]},
            seeding="creator"),
    fallout("3p-thornwood-hollow", 3, {"scenario": "thornwood_hollow"}, bots={2: "random"}),
    fallout("4p-vesper-heights", 4, {"scenario": "vesper_heights"}, bots={2: "random", 3: "random"},
            seeding="contributions"),
    # Each kind of ending: a survivor's victory (two greedy bots win two games in three; random seats
    # seldom win), a faction's takeover, every survivor eliminated. Games with no bot and a chosen seed
    # play the same way every run of the same code, so their search ends at the same attempt.
    fallout("2p-victory", 2, {}, bots={0: "greedy", 1: "greedy"}, want="won", tries=6),
    fallout("3p-takeover", 3, {"scenario": "saltmarsh_reach"}, want="takeover", seeding="creator", tries=5),
    fallout("solo-eliminated", 1, {"scenario": "saltmarsh_reach"}, want="eliminated", seeding="creator", tries=8),
    # Rewind and fork by agreement; the fork's game is recorded too (fallout-2p-fork-child).
    fallout("2p-rewind", 2, {"scenario": "thornwood_hollow"}, rewind_at=40, seeding="creator"),
    fallout("2p-fork", 2, {"scenario": "vesper_heights"}, fork_at=60),
    # Zona: 1 to 4 seats, a win and the shared loss.
    zona("solo", 1, {"draft": "free"}, seeding="creator"),
    zona("solo-win", 1, {}, bots={0: "greedy"}, want="won", tries=8),
    zona("2p-win", 2, {"draft": "free"}, bots={1: "greedy"}, want="won", seeding="contributions", tries=6),
    zona("3p", 3, {"random_facilities": True, "read_whole_card": True}, seeding="creator"),
    zona("4p-loss", 4, {"random_facilities": True}, bots={2: "random", 3: "random"}, want="lost", tries=5),
    zona("2p-rewind", 2, {}, rewind_at=30, seeding="contributions"),
]


#: What went wrong in this run (games stalled on the worker, specs not recorded): the server's log is then kept.
TROUBLE: list[str] = []


def keep_log(server: Server) -> None:
    if TROUBLE and server.log_path.exists():
        kept = Path(tempfile.gettempdir()) / f"holotape-golden-server-{time.strftime('%Y%m%d-%H%M%S')}.log"
        shutil.copyfile(server.log_path, kept)
        print(f"{len(TROUBLE)} games stalled or specs failed; the server's log (API and worker) is kept in {kept}")


def select(specs: list[Spec], only: list[str]) -> list[Spec]:
    return [s for s in specs if not only or any(s.name.startswith(prefix) for prefix in only)]


def record_all(api: Api, specs: list[Spec], out: Path, recorded_by: dict[str, Any], jobs: int = 2) -> dict[str, Any]:
    """Records each spec (``jobs`` at a time, each on its own connection); returns what was saved and what failed."""
    style = api_style(api)
    lock = threading.Lock()

    def log(line: str) -> None:
        with lock:
            print(line, flush=True)
            if line.startswith(("STALLED", "FAILED")):
                TROUBLE.append(line)

    def one(spec: Spec) -> list[dict[str, Any]]:
        return record(Api(api.url), spec, out, recorded_by, style, log)

    saved: list[dict[str, Any]] = []
    failed: dict[str, str] = {}
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {spec.name: pool.submit(one, spec) for spec in specs}
        for name, future in futures.items():
            try:
                saved += future.result()
            except (Unfinished, RuntimeError) as error:
                failed[name] = str(error)
                log(f"FAILED {name}: {error}")
    return {"saved": saved, "failed": failed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden.record", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--url", help="a running server to record on (default: start one of --tree)")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the server's source tree (its commit is recorded)")
    parser.add_argument("--out", type=Path, default=LOGS)
    parser.add_argument("--only", action="append", default=[], metavar="PREFIX")
    parser.add_argument("--jobs", type=int, default=2, help="games recorded at once")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args(argv)
    specs = select(SPECS, args.only)
    if args.list:
        print("\n".join(s.name for s in specs))
        return 0
    recorded_by = {"commit": git_commit(args.tree), "dirty": git_dirty(args.tree), "legacy": False}
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="holotape-golden-") as scratch:
        server = None if args.url else Server(args.tree, Path(scratch)).start()
        try:
            url = args.url or server.url  # type: ignore[union-attr]
            print(f"recording {len(specs)} specs on {url} ({recorded_by['commit'][:7]}) into {args.out}", flush=True)
            result = record_all(Api(url), specs, args.out, recorded_by, args.jobs)
        finally:
            if server is not None:
                server.stop()
                keep_log(server)
    print(f"{len(result['saved'])} logs in {time.monotonic() - started:.0f} s; failed: {sorted(result['failed'])}")
    return 1 if result["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
