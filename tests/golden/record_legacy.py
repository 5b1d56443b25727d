"""Record golden logs with OLD releases of the server, and leave one release's Redis behind as an RDB.

    python -m tests.golden.record_legacy                 # every commit below
    python -m tests.golden.record_legacy --commit 197f728

For each commit: check it out into a scratch worktree (``git worktree add
--detach /tmp/holotape-<sha> <sha>``), run that tree's ``holotape run`` on
this venv's packages against an embedded Valkey started here (old trees may
not start one the same way), play its specs over HTTP with the same client
as tests/golden/record.py (``play.api_style`` adapts to the older create
body), save ``legacy-<sha>-<name>.ndjson.gz`` and ``.json`` in tests/golden/logs,
and remove the worktree.

With ``RDB_COMMIT`` the first specs (``RDB_SPECS``: one ended game, one left
running with its plaintext tokens) are played on a Redis that holds nothing
else; then Valkey is made to SAVE and its RDB is copied to
tests/golden/legacy/<sha>.rdb, described by tests/golden/legacy/<sha>.json,
for the upgrade-in-place test (load it, run today's service on it).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import redis

from tests.golden.play import Spec, api_style, record
from tests.golden.record import LOGS, ROOT
from tests.golden.server import Api, Server, git_commit

LEGACY = Path(__file__).resolve().parent / "legacy"
RDB_COMMIT = "197f728"


def fallout(name: str, seats: int, options: dict[str, Any], **kw: Any) -> Spec:
    return Spec(f"fallout-{name}", "fallout", seats, options, cap=kw.pop("cap", 2500), **kw)


def zona(name: str, seats: int, options: dict[str, Any], **kw: Any) -> Spec:
    return Spec(f"zona-{name}", "zona", seats, {"pack": "base", **options}, cap=kw.pop("cap", 1000), **kw)


#: The games left in 197f728's Redis for the RDB: one ended, one running (a few moves in, tokens kept).
RDB_SPECS = [
    fallout("solo", 1, {}, seeding="creator"),
    fallout("2p-running", 2, {"survivors": ["tamsin_reed", "obadiah_lowe"]}, stop_after=15),
]
#: 197f728 hosts Fallout only, one scenario; its create body is flat (scenario, survivors) and it
#: has no contributions.
LEGACY_SPECS: dict[str, list[Spec]] = {
    "197f728": RDB_SPECS + [
        fallout("3p-bot", 3, {"scenario": "saltmarsh_reach"}, bots={2: "random"}),
        fallout("2p-rewind", 2, {}, rewind_at=40, seeding="creator"),
        fallout("2p-fork", 2, {}, fork_at=50),
    ],
    "82876c8": [
        fallout("solo-sulphur-flats", 1, {"scenario": "sulphur_flats"}, seeding="contributions"),
        zona("2p-win", 2, {"draft": "free"}, bots={1: "greedy"}, want="won", tries=6),
        zona("solo", 1, {}, seeding="creator"),
        zona("3p-running", 3, {"random_facilities": True}, seeding="contributions", stop_after=20),
    ],
}


def named(sha: str, spec: Spec) -> Spec:
    from dataclasses import replace

    return replace(spec, name=f"legacy-{sha}-{spec.name}")


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def checkout(sha: str) -> Path:
    tree = Path(f"/tmp/holotape-{sha}")
    if tree.exists():
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)
        shutil.rmtree(tree, ignore_errors=True)
        git("worktree", "prune")
    git("worktree", "add", "--detach", str(tree), sha)
    return tree


def remove(tree: Path) -> None:
    git("worktree", "remove", "--force", str(tree))


def record_commit(sha: str, out: Path, legacy_dir: Path, log=print) -> dict[str, Any]:
    tree = checkout(sha)
    saved: list[dict[str, Any]] = []
    failed: dict[str, str] = {}
    try:
        recorded_by = {"commit": git_commit(tree), "dirty": False, "legacy": True}
        with tempfile.TemporaryDirectory(prefix=f"holotape-legacy-{sha}-") as scratch, \
                Server(tree, Path(scratch)) as server:  # fmt: skip
            api = Api(server.url)
            style = api_style(api)
            log(f"{sha}: server on {server.url}, API style {style!r}")
            specs = [named(sha, s) for s in LEGACY_SPECS[sha]]
            if sha == RDB_COMMIT:
                # Alone in the Redis that the RDB is taken of; any failure here is fatal.
                for spec in specs[: len(RDB_SPECS)]:
                    saved += record(api, spec, out, recorded_by, style, log)
                save_rdb(server, sha, saved, legacy_dir, log)
                specs = specs[len(RDB_SPECS) :]
            for spec in specs:
                try:
                    saved += record(api, spec, out, recorded_by, style, log)
                except Exception as error:  # noqa: BLE001 - an old server may fail anything: report it and go on
                    failed[spec.name] = f"{type(error).__name__}: {error}"
                    log(f"FAILED {spec.name}: {failed[spec.name]}")
    finally:
        remove(tree)
    return {"saved": saved, "failed": failed}


def save_rdb(server: Server, sha: str, saved: list[dict[str, Any]], legacy_dir: Path, log=print) -> None:
    """Valkey's RDB now (it holds the games ``saved`` so far and nothing else), and what is in it."""
    path = server.save_rdb()
    client = redis.Redis.from_url(server.redis_url)
    info = client.info("server")
    keys = client.dbsize()  # those with a time to live (rq's results) may be gone when it is loaded
    client.close()
    legacy_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, legacy_dir / f"{sha}.rdb")
    games = []
    for meta in saved:
        entry = {"name": meta["name"], "game_id": meta["game_id"], "game": meta["game"], "seats": meta["seats"],
                 "ended": meta["ending"]["over"], "version": meta["version"], "log": f"logs/{meta['name']}.ndjson.gz"}  # fmt: skip
        if not meta["ending"]["over"]:
            entry["tokens"] = meta["tokens"]
            entry["waiting_for"] = meta["final_states"]["spectator"]["waiting_for"]
        games.append(entry)
    description = {
        "commit": git("rev-parse", sha).strip(),
        "made_by": "python -m tests.golden.record_legacy (tests/golden/record_legacy.py)",
        "saved_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "server": {k: info.get(k) for k in ("redis_version", "valkey_version", "server_name", "rdb_version")
                   if k in info},  # fmt: skip
        "keys": keys,
        "note": "Seat and creator tokens are kept in Redis only as their sha256; these are the plaintext "
                "tokens the server returned. The RDB also holds that release's rq keys (its scheduled sweep). "
                "Load it by copying it as dump.rdb into the dir of a Valkey started without AOF.",
        "games": games,
    }
    (legacy_dir / f"{sha}.json").write_text(json.dumps(description, indent=1, sort_keys=True) + "\n")
    log(f"{sha}: RDB of {keys} keys saved to {legacy_dir / f'{sha}.rdb'} ({len(games)} games)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden.record_legacy", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--commit", action="append", choices=sorted(LEGACY_SPECS), default=[])
    parser.add_argument("--out", type=Path, default=LOGS)
    parser.add_argument("--legacy-dir", type=Path, default=LEGACY)
    args = parser.parse_args(argv)
    started = time.monotonic()
    failed: dict[str, str] = {}
    count = 0
    for sha in args.commit or list(LEGACY_SPECS):
        result = record_commit(sha, args.out, args.legacy_dir)
        failed.update(result["failed"])
        count += len(result["saved"])
    print(f"{count} legacy logs in {time.monotonic() - started:.0f} s; failed: {sorted(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
