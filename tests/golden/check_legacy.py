"""What this tree's code makes of the legacy recordings: a report, nothing written.

    python -m tests.golden.check_legacy [--json]

1. **Fold** each ``logs/legacy-*.ndjson`` (an export: its events upcast as the
   store upcasts them, then ``RecordFolder``), compare the outcome with the
   one the old server reported (``ending`` in its ``.json``) and each seat's
   view with the one it served, and re-run the audit's replay
   (``service.usecases.audit.replay``) from the revealed secret.
2. **Upgrade in place**: load each ``legacy/<sha>.rdb`` into an embedded
   Valkey, run this tree's server (API and worker) on it, and read each game
   in it over HTTP (lobby entry, state, audit, export); the game left running
   is played one move by the seat it waits on.
3. **Store**: this tree's ``EventStore`` reads each game of the RDB: which
   entry encoding it holds, whether the chain verifies, whether the
   envelopes are those of the export.

Every failure is reported with its exception (or HTTP status and problem
code) and where it was raised; nothing stops at the first one.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import traceback
from dataclasses import replace
from pathlib import Path
from typing import Any

import redis

from events.envelope import GENESIS, Envelope
from events.schemas import SchemaRegistry
from events.snapshots import batches
from service.adapters.embedded_redis import EmbeddedRedis
from service.usecases import audit
from service.usecases.record import RecordFolder, declare_events
from tests.golden.server import Api, ApiError, Server

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def failure(error: BaseException) -> str:
    where = traceback.extract_tb(error.__traceback__)[-1] if error.__traceback__ else None
    at = f" at {Path(where.filename).relative_to(ROOT) if where.filename.startswith(str(ROOT)) else where.filename}" \
         f":{where.lineno}" if where else ""  # fmt: skip
    return f"{type(error).__name__}: {str(error)[:300]}{at}"


def read_export(path: Path) -> tuple[list[Envelope], list[int]]:
    """The export's envelopes, and the versions redacted for the seat it was exported as (a running game's)."""
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    envelopes = [Envelope(**{k: v for k, v in r.items() if k != "redacted"}) for r in rows]
    return envelopes, [r["version"] for r in rows if r["redacted"]]


def chain_ok(envelopes: list[Envelope], redacted: list[int]) -> str:
    """Step 1 of docs/audit.md; a redacted event's hash cannot be recomputed, only its links checked."""
    prev, hidden = GENESIS, set(redacted)
    for number, e in enumerate(envelopes, start=1):
        if e.version != number or e.prev_hash != prev or (number not in hidden and e.computed_hash() != e.hash):
            return f"broken at {number}"
        prev = e.hash
    return f"ok ({len(hidden)} redacted events' hashes not recomputed)" if hidden else "ok"


def upcast_meta(envelopes: list[Envelope]) -> list[Envelope]:
    """As ``EventStore.read`` hands them to the folder: the service's own events brought to their current version."""
    registry = declare_events(SchemaRegistry())
    out = []
    for e in envelopes:
        version, data = registry.upcast(e.type, e.schema_version, e.data)
        out.append(e if version == e.schema_version else replace(e, schema_version=version, data=data))
    return out


def fold(envelopes: list[Envelope], at: int | None = None) -> Any:
    folder = RecordFolder(lambda _game_id, version: fold(envelopes, version))
    record = folder.initial()
    for batch in batches(folder, (e for e in envelopes if at is None or e.version <= at)):
        record = folder.apply_batch(record, batch)
    return record


def replayed(envelopes: list[Envelope], secret: str) -> dict[str, Any]:
    result = audit.replay(envelopes, secret)
    if isinstance(result, tuple):  # (batches checked, first mismatch, why)
        return {"checked": result[0], "first_mismatch": result[1], "reason": result[2]}
    bad = [b for b in getattr(result, "batches", []) if not b.matched]
    return {"checked": len(getattr(result, "batches", [])), "first_mismatch": bad[0].version if bad else None,
            "reason": bad[0].reason if bad else getattr(result, "fold_error", None)}  # fmt: skip


def check_log(path: Path) -> dict[str, Any]:
    meta = json.loads(path.with_suffix(".json").read_text())
    found: dict[str, Any] = {"name": meta["name"], "commit": meta["recorded_by"]["commit"][:7]}
    envelopes, redacted = read_export(path)
    found["events"] = len(envelopes)
    found["chain"] = chain_ok(envelopes, redacted)
    if redacted:
        found["fold"] = "skipped: the export of a running game is redacted"
        return found
    try:
        envelopes = upcast_meta(envelopes)
    except Exception as error:
        found["upcast"] = failure(error)
        return found
    try:
        record = fold(envelopes)
        outcome = record.module.outcome(record.state)
        found["fold"] = "ok"
        was = meta["ending"]
        found["outcome"] = "same" if (outcome.over, list(outcome.winners)) == (was["over"], was["winners"]) else \
            f"differs: now over={outcome.over} winners={list(outcome.winners)}, was {was['over']} {was['winners']}"  # fmt: skip
        views = []
        for seat, state in enumerate(meta["final_states"]["seats"]):
            if state is None:
                continue
            now = json.loads(json.dumps(record.module.view(record.state, seat)))
            if now != state["view"]:
                keys = sorted(k for k in set(now) | set(state["view"]) if now.get(k) != state["view"].get(k))
                views.append(f"seat {seat}: {keys}")
        found["views"] = "same" if not views else "differ: " + "; ".join(views)
    except Exception as error:
        found["fold"] = failure(error)
    secret = envelopes[-1].data.get("seed") if envelopes[-1].type == "SeedRevealed" else None
    if secret:
        try:
            found["audit_replay"] = replayed(envelopes, secret)
        except Exception as error:
            found["audit_replay"] = failure(error)
    return found


def http(api: Api, method: str, path: str, token: str | None = None, body: Any = None,
         headers: dict[str, str] | None = None) -> tuple[int, Any]:  # fmt: skip
    try:
        answer = api.call(method, path, token=token, body=body, headers=headers, ok=tuple(range(200, 300)))
        kind = answer.headers.get("Content-Type", "").split(";")[0]
        return answer.status_code, (answer.json() if kind.endswith("/json") else answer.text)
    except ApiError as error:
        try:
            problem = json.loads(error.body)
        except ValueError:
            problem = error.body[:300]
        return error.status, problem


def short(status: int, body: Any) -> Any:
    if status >= 400:
        return {"status": status, "problem": body}
    return status


def check_rdb(rdb: Path) -> dict[str, Any]:
    described = json.loads(rdb.with_suffix(".json").read_text())
    found: dict[str, Any] = {"rdb": rdb.name, "games": []}
    with tempfile.TemporaryDirectory(prefix="holotape-rdb-") as scratch:
        data = Path(scratch) / "redis"
        data.mkdir()
        shutil.copyfile(rdb, data / "dump.rdb")
        try:
            with EmbeddedRedis(data, durable=False) as valkey:
                found["loaded_keys"] = redis.Redis.from_url(valkey.url).dbsize()
        except Exception as error:
            found["load"] = failure(error)
            return found
        found["load"] = "ok" if found["loaded_keys"] == described["keys"] else \
            f"{found['loaded_keys']} keys, {described['keys']} saved"  # fmt: skip
        with Server(ROOT, Path(scratch), redis_dir=data) as server:
            api = Api(server.url)
            client = redis.Redis.from_url(server.redis_url)
            status, listing = http(api, "GET", "/games?limit=100")
            listed = {g["game_id"] for g in listing.get("games", [])} if status == 200 else set()
            found["listing"] = short(status, listing) if status >= 400 else \
                f"lists {len(listed & {g['game_id'] for g in described['games']})} of {len(described['games'])}"  # fmt: skip
            for game in described["games"]:
                found["games"].append(check_game(api, client, game))
            client.close()
    return found


def check_game(api: Api, client: redis.Redis, game: dict[str, Any]) -> dict[str, Any]:
    gid = game["game_id"]
    log = HERE / game["log"]
    out: dict[str, Any] = {"name": game["name"], "ended": game["ended"]}
    tokens = game.get("tokens", {}).get("seats", {})
    token = next(iter(tokens.values()), None)
    out["lobby_entry"] = short(*http(api, "GET", f"/games/{gid}"))
    status, state = http(api, "GET", f"/games/{gid}/state")
    out["state"] = short(status, state) if status >= 400 else \
        {"version": state["version"], "over": state["over"], "waiting_for": state["waiting_for"]}  # fmt: skip
    for seat, seat_token in sorted(tokens.items()):
        out[f"state_seat_{seat}"] = short(*http(api, "GET", f"/games/{gid}/state", seat_token))
    status, verdict = http(api, "GET", f"/games/{gid}/audit")
    out["audit"] = short(status, verdict) if status >= 400 else \
        {k: verdict.get(k) for k in ("verdict", "decisions_checked", "first_mismatch", "reason")}  # fmt: skip
    status, export = http(api, "GET", f"/games/{gid}/export", token)
    if status >= 400:
        out["export"] = short(status, export)
    else:
        now = [json.loads(line)["hash"] for line in export.splitlines()]
        was = [json.loads(line)["hash"] for line in log.read_text().splitlines()]
        out["export"] = "same events" if now == was else f"differs: {len(now)} events, {len(was)} recorded"
    out["store"] = check_store(client, gid, log)
    if not game["ended"]:
        out["move"] = play_one(api, gid, tokens)
    return out


def play_one(api: Api, gid: str, tokens: dict[str, str]) -> Any:
    status, state = http(api, "GET", f"/games/{gid}/state")
    if status >= 400:
        return short(status, state)
    seat = str(state["waiting_for"][0]) if state["waiting_for"] else None
    if seat not in tokens:
        return f"waits on {state['waiting_for']}"
    status, listed = http(api, "GET", f"/games/{gid}/actions", tokens[seat])
    if status >= 400 or not listed["actions"]:
        return {"actions": short(status, listed)}
    status, acted = http(api, "POST", f"/games/{gid}/actions", tokens[seat], listed["actions"][0],
                         {"If-Match": f'"{listed["version"]}"'})  # fmt: skip
    return {"posted": listed["actions"][0], "answer": short(status, acted) if status >= 400 else
            {"version": acted["version"], "events": [e["type"] for e in acted["events"]]}}  # fmt: skip


def check_store(client: redis.Redis, gid: str, log: Path) -> dict[str, Any]:
    from service.wiring import event_store

    out: dict[str, Any] = {}
    first = client.xrange(f"game:{{{gid}}}:events", count=1) or []
    out["encoding"] = sorted(k.decode() for k in first[0][1]) if first else "no stream at game:{id}:events"
    store = event_store(client)
    try:
        envelopes = store.read(gid, upcast=False)
        recorded = [json.loads(line) for line in log.read_text().splitlines()]
        same = [e.hash for e in envelopes] == [r["hash"] for r in recorded]
        whole = all(not r["redacted"] for r in recorded)
        if whole:
            same = same and [e.as_dict() | {"redacted": False} for e in envelopes] == recorded
        out["read"] = f"{len(envelopes)} events, " + ("as exported" if same else "NOT as exported")
        out["verify"] = store.verify(gid).ok
    except Exception as error:
        out["read"] = failure(error)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden.check_legacy", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--logs", type=Path, default=HERE / "logs")
    parser.add_argument("--legacy", type=Path, default=HERE / "legacy")
    args = parser.parse_args(argv)
    report = {
        "logs": [check_log(p) for p in sorted(args.logs.glob("legacy-*.ndjson"))],
        "rdbs": [check_rdb(p) for p in sorted(args.legacy.glob("*.rdb"))],
    }
    if args.json:
        print(json.dumps(report, indent=1, default=str))
    else:
        for item in report["logs"]:
            print(json.dumps(item, default=str))
        for rdb in report["rdbs"]:
            print(json.dumps({k: v for k, v in rdb.items() if k != "games"}, default=str))
            for game in rdb["games"]:
                print("  " + json.dumps(game, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
