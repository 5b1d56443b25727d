"""Playing one game spec over HTTP, as a third-party client would, and saving what it produced.

A spec names a game, its seats (some held by the server's bots), its options
and how its seed is made (the server's secret, the seats' contributions or
a seed the creator chose). The client creates the game, plays the seats it
holds with random legal actions (``GET …/actions``, one picked by a seeded
``random.Random``, ``POST …/actions`` with ``If-Match``), waits while the
game waits on nobody it holds (a round end, a bot: the worker's), and on the
way may propose a rewind or a fork that the other seats accept. A game that
does not end within the spec's cap of decisions, or ends otherwise than the
spec wants, is played again from a new game (another attempt).

What is saved for a game: the export as served (``<name>.ndjson.gz``) and its
metadata (``<name>.json``, described in tests/golden/README.md).

Old servers speak an older API: ``flat`` (before games had ``options``) takes
a Fallout game's scenario and survivors at the top of the create body and
has no contributions.
"""

from __future__ import annotations

import gzip
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.golden.server import Api, ApiError

#: Seconds the game may wait on the worker (round ends, bots) without moving before the recording gives up.
STALL_SECONDS = 120.0


@dataclass(frozen=True)
class Spec:
    name: str
    game: str
    seats: int
    options: dict[str, Any] = field(default_factory=dict)
    bots: dict[int, str] = field(default_factory=dict)
    seeding: str = "server"  # "server" (its secret), "creator" (a chosen seed), "contributions" (each seat's)
    want: str | None = None  # the ending wanted: "won", "lost" (any loss), "takeover", "eliminated"; None: any
    tries: int = 3  # attempts (new games) before giving up
    cap: int = 2500  # decisions of ours in one game before it counts as endless
    rewind_at: int | None = None  # after this many decisions, rewind ten of ours back by agreement
    fork_at: int | None = None  # after this many decisions, fork the game by agreement (and record the fork too)
    stop_after: int | None = None  # leave the game running after this many decisions (not over)


@dataclass
class Table:
    """A game as its client holds it: the tokens it was given and what it did."""

    game_id: str
    tokens: dict[int, str]
    creator: str
    body: dict[str, Any]
    contributions: dict[int, str] = field(default_factory=dict)
    decisions: int = 0
    versions: list[int] = field(default_factory=list)  # the version after each of our moves
    proposals: list[dict[str, Any]] = field(default_factory=list)
    fork: Table | None = None
    forked_from: dict[str, Any] | None = None


class Unfinished(Exception):
    """The game did not end as the spec wants (or at all): try another."""


class Stalled(RuntimeError):
    """The game waited on the server's worker and nothing moved: a server bug, worth a look in its log."""


def api_style(api: Api) -> str:
    schemas = api.document()["components"]["schemas"]
    created = schemas["CreateGame"]
    if "oneOf" in created:
        # Today's document has one create body per game, told apart by `game`: any of them says.
        created = schemas[created["oneOf"][0]["$ref"].rsplit("/", 1)[1]]
    return "options" if "options" in created["properties"] else "flat"


def create_body(spec: Spec, attempt: int, style: str) -> dict[str, Any]:
    body: dict[str, Any] = {"game": spec.game, "seats": spec.seats}
    if style == "flat":
        if spec.seeding == "contributions" or set(spec.options) - {"scenario", "survivors"}:
            raise ValueError(f"{spec.name}: the old API has no contributions and only scenario/survivors")
        body.update(spec.options)
    else:
        body["options"] = spec.options
    if spec.bots:
        body["bots"] = [{"seat": seat, "level": level} for seat, level in sorted(spec.bots.items())]
    if spec.seeding == "creator":
        body["seed"] = f"golden/{spec.name}/{attempt}"
    elif spec.seeding == "contributions":
        body["start"] = False
    return body


def create(api: Api, spec: Spec, attempt: int, rnd: random.Random, style: str) -> Table:
    body = create_body(spec, attempt, style)
    created = api.post("/games", body)
    table = Table(created["game_id"], {s["seat"]: s["token"] for s in created["seats"]}, created["creator_token"], body)
    if spec.seeding == "contributions":
        for seat, token in sorted(table.tokens.items()):
            contribution = rnd.randbytes(32).hex()
            api.call("PUT", f"/games/{table.game_id}/seats/{seat}/contribution", token=token,
                     body={"contribution": contribution})  # fmt: skip
            table.contributions[seat] = contribution
        api.post(f"/games/{table.game_id}/start", None, token=table.creator)
    return table


def spectator(api: Api, game_id: str) -> dict[str, Any]:
    return api.get(f"/games/{game_id}/state")


def wait_for_move(api: Api, table: Table, version: int) -> dict[str, Any]:
    """The state once the game has moved on from ``version`` (the worker's turn), or waits on one of our seats."""
    deadline = time.monotonic() + STALL_SECONDS
    state: dict[str, Any] = {"waiting_for": None}
    while time.monotonic() < deadline:
        time.sleep(0.03)
        state = spectator(api, table.game_id)
        if state["over"] or state["version"] != version or set(state["waiting_for"]) & set(table.tokens):
            return state
    raise Stalled(f"{table.game_id}: nothing moved for {STALL_SECONDS:.0f} s at version {version}, "
                  f"waiting for {state['waiting_for']}")


def propose(api: Api, table: Table, seat: int, kind: str, to_version: int) -> dict[str, Any]:
    """Propose ``kind`` at ``to_version`` from ``seat``; every other seat of ours accepts."""
    path = f"/games/{table.game_id}/proposals"
    made = api.post(path, {"kind": kind, "to_version": to_version}, token=table.tokens[seat])
    pid = made["proposal"]["id"]
    outcome = made
    for other, token in sorted(table.tokens.items()):
        if other != seat and outcome["outcome"] == "pending":
            outcome = api.post(f"{path}/{pid}/accept", None, token=token)
    done = {"kind": kind, "to_version": to_version, "by": seat, "proposal_id": pid, "at_decision": table.decisions,
            "outcome": outcome["outcome"], "fork_game_id": outcome.get("fork_game_id")}  # fmt: skip
    table.proposals.append(done)
    return done


def _hooks(api: Api, spec: Spec, table: Table, seat: int) -> None:
    if spec.rewind_at is not None and table.decisions == spec.rewind_at:
        propose(api, table, seat, "rewind", table.versions[-10])
    if spec.fork_at is not None and table.decisions == spec.fork_at:
        done = propose(api, table, seat, "fork", table.versions[-1])
        table.fork = Table(done["fork_game_id"], dict(table.tokens), table.creator, {})
        table.fork.forked_from = {"game_id": table.game_id, "version": done["to_version"]}


def play(api: Api, spec: Spec, table: Table, rnd: random.Random, *, hooks: bool = True) -> dict[str, Any]:
    """Plays our seats to the end (or to ``spec.stop_after``); returns the last spectator state."""
    game = f"/games/{table.game_id}"
    seat: int | None = None
    while True:
        if seat is not None:
            listed = api.get(f"{game}/actions", token=table.tokens[seat])
            if listed["actions"]:
                command = rnd.choice(listed["actions"])
                answer = api.call("POST", f"{game}/actions", token=table.tokens[seat], body=command,
                                  headers={"If-Match": f'"{listed["version"]}"'}, ok=(200, 409, 412))  # fmt: skip
                if answer.status_code == 200:
                    table.decisions += 1
                    table.versions.append(answer.json()["version"])
                    if hooks:
                        _hooks(api, spec, table, seat)
                    if spec.stop_after is not None and table.decisions >= spec.stop_after:
                        return settle(api, table)
                    if table.decisions >= spec.cap:
                        raise Unfinished(f"no end in {spec.cap} decisions")
                    continue
        state = spectator(api, table.game_id)
        if state["over"]:
            return state
        ours = [s for s in state["waiting_for"] if s in table.tokens]
        if not ours:
            state = wait_for_move(api, table, state["version"])
            if state["over"]:
                return state
            ours = [s for s in state["waiting_for"] if s in table.tokens]
        seat = ours[0] if ours else None


def settle(api: Api, table: Table) -> dict[str, Any]:
    """The state once the game rests on a decision of one of our seats (no round end or bot move under way)."""
    state = spectator(api, table.game_id)
    while not state["over"] and not set(state["waiting_for"]) & set(table.tokens):
        state = wait_for_move(api, table, state["version"])
    return state


def last_events(api: Api, table: Table, version: int, token: str | None) -> list[dict[str, Any]]:
    return api.get(f"/games/{table.game_id}/events?after={max(0, version - 8)}&limit=8", token=token)["events"]


def ending_of(api: Api, table: Table, state: dict[str, Any]) -> dict[str, Any]:
    """How the game ended, as its final state and its last rules event say."""
    view = state["view"]
    token = next(iter(table.tokens.values()), None)
    events = [e for e in last_events(api, table, state["version"], token) if e["type"] != "SeedRevealed"]
    last = events[-1] if events else None
    winners = view.get("winners")
    if winners is None:
        winners = [] if view.get("winner") is None else [view["winner"]]
    ending: dict[str, Any] = {"over": state["over"], "winners": winners}
    for key in ("result", "lost", "reason"):
        if view.get(key) is not None:
            ending[key] = view[key]
    if last is not None and state["over"]:
        ending["event"] = {"version": last["version"], "type": last["type"], "data": last["data"]}
        ending["kind"] = kind_of(last)
    return ending


def kind_of(event: dict[str, Any]) -> str:
    data = event["data"] if isinstance(event["data"], dict) else {}
    reason = str(data.get("reason") or "")
    if event["type"].endswith("Won") or data.get("result") == "won":
        return "won"
    if "took over" in reason:
        return "takeover"
    if "eliminated" in reason:
        return "eliminated"
    return "lost"


def wanted(want: str | None, kind: str | None) -> bool:
    return want is None or kind == want or (want == "lost" and kind not in (None, "won"))


def save(api: Api, out: Path, name: str, spec: Spec, table: Table, state: dict[str, Any],
         recorded_by: dict[str, Any], attempt: int) -> dict[str, Any]:  # fmt: skip
    """Writes ``<name>.ndjson.gz`` (the export, as served, gzipped) and ``<name>.json`` (its metadata); returns the metadata."""
    game = f"/games/{table.game_id}"
    token = next(iter(sorted(table.tokens.items())), (None, None))[1]
    export = api.call("GET", f"{game}/export", token=token)
    seat_states = [
        api.get(f"{game}/state", token=table.tokens[seat]) if seat in table.tokens else None
        for seat in range(len(state["seats"]))
    ]
    meta = {
        "name": name,
        "recorded_by": recorded_by,
        "recorded_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "game": spec.game,
        "game_id": table.game_id,
        "seats": len(state["seats"]),
        "options": spec.options,
        "create": table.body,
        "bots": {str(seat): level for seat, level in sorted(spec.bots.items())},
        "seeding": "fork" if table.forked_from else spec.seeding,
        "contributions": {str(seat): c for seat, c in sorted(table.contributions.items())},
        "attempt": attempt,
        "decisions": table.decisions,
        "version": state["version"],
        "ending": ending_of(api, table, state),
        "proposals": table.proposals,
        "forked_from": table.forked_from,
        "fork": None if table.fork is None else {"game_id": table.fork.game_id, "name": f"{name}-child"},
        "exported_as_seat": next(iter(sorted(table.tokens)), None),
        "final_states": {"spectator": spectator(api, table.game_id), "seats": seat_states},
        "audit": api.get(f"{game}/audit"),
    }
    if not state["over"]:  # a game left running: whoever picks it up again needs its tokens
        meta["tokens"] = {"creator": table.creator, "seats": {str(s): t for s, t in sorted(table.tokens.items())}}
    out.mkdir(parents=True, exist_ok=True)
    # Compressed (a whole game is megabytes of JSON), without a timestamp so the same export gives the same file.
    (out / f"{name}.ndjson.gz").write_bytes(gzip.compress(export.content, mtime=0))
    (out / f"{name}.json").write_text(json.dumps(meta, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    return meta


def record(api: Api, spec: Spec, out: Path, recorded_by: dict[str, Any], style: str,
           log: Callable[[str], None] = print) -> list[dict[str, Any]]:  # fmt: skip
    """Plays ``spec`` until an attempt ends as wanted (or ``spec.stop_after``) and saves it; the fork's game too."""
    seen = []
    for attempt in range(spec.tries):
        started = time.monotonic()
        rnd = random.Random(f"golden/{spec.name}/{attempt}")
        table = create(api, spec, attempt, rnd, style)
        try:
            state = play(api, spec, table, rnd)
            if table.fork is not None:
                fork_state = play(api, spec, table.fork, random.Random(f"golden/{spec.name}/{attempt}/fork"),
                                  hooks=False)  # fmt: skip
        except (Unfinished, ApiError, Stalled) as failed:
            log(f"{'STALLED ' if isinstance(failed, Stalled) else ''}{spec.name}: attempt {attempt} "
                f"({table.game_id}): {failed}")
            seen.append(str(failed)[:80])
            continue
        kind = ending_of(api, table, state).get("kind") if state["over"] else None
        if spec.stop_after is None and not wanted(spec.want, kind):
            log(f"{spec.name}: attempt {attempt} ended {kind}, not {spec.want}; again")
            seen.append(kind)
            continue
        saved = [save(api, out, spec.name, spec, table, state, recorded_by, attempt)]
        if table.fork is not None:
            saved.append(save(api, out, f"{spec.name}-child", spec, table.fork, fork_state, recorded_by, attempt))
        for meta in saved:
            log(f"{meta['name']}: {meta['game_id']} v{meta['version']} {meta['decisions']} decisions, "
                f"{meta['ending'].get('kind', 'running')} {meta['ending']['winners']}, audit "
                f"{meta['audit']['verdict']}, {time.monotonic() - started:.0f} s")  # fmt: skip
        return saved
    raise Unfinished(f"{spec.name}: no attempt in {spec.tries} ended as wanted ({spec.want}); seen {seen}")
