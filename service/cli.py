"""The ``holotape`` command: run the whole service, rebuild caches, write the API document,
verify an exported game offline, freeze the content packs."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import redis
import yaml

from bots import LEVELS
from bots.selfplay import GameResult
from domain import registry
from domain.engine.shelf import FROZEN, yaml_files
from service import wiring
from service.adapters.config import events_client, redis_client
from service.adapters.embedded_redis import EmbeddedRedis
from service.api import create_app
from service.rebuild import rebuild
from service.usecases import ladder
from service.usecases.audit import PARTIAL
from service.usecases.exports import BadExport, verify
from service.usecases.selfplay import read_results, run, summary


def main(argv: list[str] | None = None) -> int:
    wiring.host_games()  # the games the configuration adds, before a choice is checked against them
    parser = argparse.ArgumentParser(prog="holotape", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    run = commands.add_parser("run", help="start Redis (unless REDIS_URL is set), the API and a worker")
    run.add_argument("--host", default="127.0.0.1")
    run.add_argument("--port", type=int, default=8000)
    run.add_argument("--data", default=".holotape", help="where the embedded server keeps its data")

    commands.add_parser("rebuild", help="drop every projection and snapshot and rebuild them from the events")

    openapi = commands.add_parser("openapi", help="write the OpenAPI document generated from the code")
    openapi.add_argument("path", nargs="?", default="openapi.yaml")

    selfplay = commands.add_parser("selfplay", help="bots play each other in-process and report how each level did")
    selfplay.add_argument("--bots", default="greedy,random", help="levels, comma-separated, dealt round the seats")
    selfplay.add_argument("--games", type=int, default=20)
    selfplay.add_argument("--players", default="2",
                          help="seats per game; with --ladder a list, e.g. 2,3,4 or 2-4")
    selfplay.add_argument("--game", default=registry.builtin_names()[0], choices=registry.names())
    selfplay.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                          help="a game option (e.g. scenario=saltmarsh_reach, bot_budget_ms=50); JSON values")
    selfplay.add_argument("--load", action="append", default=[], metavar="MODULE",
                          help="import a module first (one that registers a content pack, say)")
    selfplay.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    selfplay.add_argument("--seed", default="selfplay")
    selfplay.add_argument("--record", metavar="PATH",
                          help="append each game's result to PATH as a JSON line as it ends")
    selfplay.add_argument("--resume", action="store_true",
                          help="with --record: play only the games after those PATH already holds, and sum up all")
    selfplay.add_argument("--summarize", metavar="PATH",
                          help="play nothing: print the summary of the results recorded in PATH")
    selfplay.add_argument("--ladder", action="store_true",
                          help="every level of --bots against every other at each player count of --players, "
                               "--games games a pair; prints a rating per level (docs/bots.md, \"The ladder\")")

    verify = commands.add_parser("verify", help="check an ended game's export offline: chain, seed, every decision")
    verify.add_argument("export", help="the game's export (GET /games/{id}/export), NDJSON; - for standard input")
    verify.add_argument("--json", action="store_true", help="print the verdict as JSON")

    packs = commands.add_parser("packs", help="list each game's content packs and their addresses")
    packs.add_argument("--freeze", action="store_true",
                       help="copy each bundled pack to its frozen folder (frozen/<name>@<hash>/) if it has none")

    args = parser.parse_args(argv)
    if args.command == "verify":
        return verify_command(args.export, args.json)
    if args.command == "packs":
        return packs_command(args.freeze)
    if args.command == "selfplay":
        return selfplay_command(args)
    if args.command == "run":
        return run_all(args.host, args.port, Path(args.data))
    if args.command == "rebuild":
        return rebuild_command()
    return write_openapi(Path(args.path))


def openapi_document(games: list[str] | None = None) -> dict[str, Any]:
    """The API document describing ``games`` (default: those this server ships, never a test's own)."""
    # Building the use cases opens no connection; nothing here talks to Redis.
    hosted = registry.builtin_names() if games is None else games
    app = create_app(wiring.build(redis.Redis.from_url("redis://127.0.0.1:1/0")), games=hosted)
    document: dict[str, Any] = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    return document


def write_openapi(path: Path) -> int:
    path.write_text(yaml.safe_dump(openapi_document(), sort_keys=True, allow_unicode=True))
    print(f"wrote {path}")
    return 0


def selfplay_command(args: argparse.Namespace) -> int:
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    unknown = [b for b in bots if b not in LEVELS]
    if unknown or not bots:
        print(f"unknown bots {unknown}; choose from {', '.join(LEVELS)}", file=sys.stderr)
        return 2
    for module in args.load:
        importlib.import_module(module)
    options: dict[str, Any] = {}
    for item in args.option:
        key, _, raw = item.partition("=")
        try:
            options[key] = json.loads(raw)
        except ValueError:
            options[key] = raw
    try:
        counts = player_counts(args.players)
    except ValueError:
        print(f"--players takes a count or a list of counts (2,3,4 or 2-4), not {args.players!r}", file=sys.stderr)
        return 2
    if len(counts) > 1 and not args.ladder:
        print("several player counts are for --ladder", file=sys.stderr)
        return 2
    if args.summarize:
        with open(args.summarize) as recorded:
            results = read_results(recorded)
        print(ladder.report(bots, results) if args.ladder else summary(results, bots))
        return 0
    if args.resume and (args.ladder or not args.record):
        print("--resume goes on from a --record, and not for --ladder", file=sys.stderr)
        return 2
    earlier: list[GameResult] = []
    if args.resume and Path(args.record).exists():
        with open(args.record) as recorded:
            earlier = read_results(recorded)
    started = time.monotonic()
    with open(args.record, "a") if args.record else contextlib.nullcontext() as record:
        if args.ladder:
            results = ladder.play(args.game, bots, args.games, counts, options, jobs=args.jobs,
                                  seed=args.seed, record=record)
            print(ladder.report(bots, results))
        else:
            results = earlier + run(args.game, bots, args.games, counts[0], options, jobs=args.jobs,
                                    seed=args.seed, record=record, first=len(earlier))
            print(summary(results, bots))
    print(f"wall time: {time.monotonic() - started:.0f} s")
    return 0


def player_counts(text: str) -> list[int]:
    """``2``, ``2,3,4`` or ``2-4`` as a list of counts."""
    counts: list[int] = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        counts += range(int(low), int(high) + 1) if dash else [int(low)]
    if not counts or min(counts) < 1:
        raise ValueError(text)
    return list(dict.fromkeys(counts))


#: ``holotape verify``'s exit codes (docs/audit.md): every decision re-derived and equal; a
#: mismatch, a broken chain or a game not over; a readable log this install cannot wholly re-decide.
VERIFIED, MISMATCH, PARTLY_VERIFIED = 0, 1, 3


def verify_command(path: str, as_json: bool) -> int:
    try:
        if path == "-":
            checked = verify(sys.stdin)
        else:
            with open(path, encoding="utf-8") as export:
                checked = verify(export)
    except (OSError, BadExport) as error:
        print(f"holotape verify: {error}", file=sys.stderr)
        return 2
    verdict = checked.verdict
    if as_json:
        print(json.dumps(checked.as_dict(), indent=2, sort_keys=True))
    else:
        print(f"game {verdict.game_id}: {verdict.verdict}")
        print(f"  chain: {'intact' if verdict.chain_ok else f'broken at version {verdict.chain_broken_at}'}"
              f" ({verdict.version} events, head {verdict.head_hash[:16]}…)")
        if verdict.seed_revealed:
            print(f"  seed: commitment {'matches' if verdict.seed_matches_commitment else 'DOES NOT match'};"
                  f" seed {verdict.effective_seed} ({verdict.seed_mix or 'secret'}, seats {verdict.contributed_seats})")
        print(f"  rules: recorded under {verdict.rules or 'no rules version'}, this install has {verdict.rules_here}")
        print(f"  decisions: {verdict.decisions}")
        if checked.over is not None:
            print(f"  end: {'over' if checked.over else 'NOT over'}, winners {checked.winners}")
        if verdict.reason:
            print(f"  reason: {verdict.reason}")
    if checked.ok:
        return VERIFIED
    if verdict.verdict == PARTIAL and checked.over:
        return PARTLY_VERIFIED
    return MISMATCH


def packs_command(freeze: bool) -> int:
    for name in registry.names():
        shelf = registry.game_module(name).shelf
        if shelf is None:
            continue
        for pack in shelf.names:
            address = shelf.address(pack)
            frozen = Path(str(shelf.root())) / FROZEN / address
            if freeze and not frozen.is_dir():
                for relative, source in yaml_files(shelf.bundled(pack)).items():
                    (frozen / relative).parent.mkdir(parents=True, exist_ok=True)
                    (frozen / relative).write_bytes(source.read_bytes())
            print(f"{name} {address} {'frozen' if frozen.is_dir() else 'NOT frozen: run holotape packs --freeze'}")
    return 0


def rebuild_command() -> int:
    report = rebuild(redis_client(), events_client())
    print(
        f"rebuilt the game index from {report.feed_entries} feed entries and "
        f"{report.snapshots} snapshots of {report.games} games"
    )
    return 0


#: Seconds a part has to stop before it is killed: gunicorn ends its open
#: streams and requests within its graceful timeout, the worker its job.
STOP_SECONDS = 15


def stop_child(child: subprocess.Popen) -> None:
    if child.poll() is None:
        os.killpg(child.pid, signal.SIGTERM)
    try:
        child.wait(timeout=STOP_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()


def run_all(host: str, port: int, data: Path) -> int:
    """Start everything in the foreground; Ctrl-C stops all of it."""
    server = None
    env = dict(os.environ)
    if not env.get("REDIS_URL"):
        server = EmbeddedRedis(data, durable=True).start()
        env["REDIS_URL"] = server.url
        print(f"Redis-compatible server on {server.url} (data in {data}/)", flush=True)
    children: list[subprocess.Popen] = []
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    try:
        children.append(
            subprocess.Popen(
                [
                    sys.executable, "-m", "gunicorn",
                    "--config", "python:service.gunicorn_conf",
                    "--bind", f"{host}:{port}",
                    "--access-logfile", "-",
                    "service.wsgi:app",
                ],
                env=env,
                start_new_session=True,
            )
        )  # fmt: skip
        children.append(
            subprocess.Popen([sys.executable, "-m", "workers.main"], env=env, start_new_session=True)
        )
        print(f"API on http://{host}:{port}  -  docs at http://{host}:{port}/docs", flush=True)
        print(f"Play in a browser: http://{host}:{port}/lobby  (a game's table: /play/<game id>)", flush=True)
        while not stopping:
            if any(child.poll() is not None for child in children):
                print("a child process exited; stopping", file=sys.stderr, flush=True)
                break
            time.sleep(0.2)
    finally:
        # In order: the API (no new work), then the worker (its jobs finish
        # with Redis still there), then Redis; each on its own, so none of them
        # meets a part already gone and logs it as a failure.
        for child in children:
            stop_child(child)
        if server is not None:
            server.stop()
        print("stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
