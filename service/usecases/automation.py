"""Automatic work: the round end, bots' moves, and lapsed turns played out.

Run by rq jobs (``workers.jobs``), each named after the game and the version
it is for. Every step goes through ``Games.act`` with the version it was
decided on, so a duplicate or stale run appends nothing; and a run steps on
from the record its own last append left, without loading the game again.
"""

from __future__ import annotations

import time

from bots import decide, make_bot
from domain.game import SYSTEM, RuleViolation
from domain.rng import Rng
from events.log import ConcurrencyError
from events.snapshots import Loaded
from service.usecases import clock, due
from service.usecases.games import Acted, Games
from service.usecases.record import Record

#: How often a system step retries after losing a race.
SYSTEM_RETRIES = 5
#: A bots job hands on to a new job (the same work, a later version) after this
#: long, so one game of bots never holds a worker for long.
BOT_SLICE_SECONDS = 2.0


def bot_rng(game_id: str, seat: int, version: int) -> Rng:
    """A bot's randomness for the decision on top of ``version``: replaying the job picks the same move.

    Not the game's seed: a bot must not share its dice.
    """
    return Rng(f"bot:{game_id}", f"s{seat}-v{version}")


class Automation:
    def __init__(self, games: Games):
        self.games = games

    def run_system(self, game_id: str, *, pause: float = 0.0) -> list[Acted]:
        """Carry out automatic work (the round end) until a seat must decide.

        Safe to run twice or concurrently: each step appends with the version
        it was decided on, and a step that is no longer due decides nothing.
        """
        done: list[Acted] = []
        retries = 0
        loaded = self.games.load(game_id)
        while True:
            record = loaded.state
            if not record.started:
                return done
            command = record.module.system_command(record.state)
            if command is None:
                if done:
                    # The round end is over or waits on a seat: whatever is due next.
                    due.follow_up(self.games.follow_ups, game_id, loaded.version, record)
                return done
            try:
                # No follow-up: this loop is the follow-up, and carries on itself.
                acted = self.games.act(
                    game_id, SYSTEM, command, expected_version=loaded.version, follow_up=False, loaded=loaded
                )
            except ConcurrencyError:
                retries += 1
                if retries > SYSTEM_RETRIES:
                    raise
                loaded = self.games.load(game_id)
                continue
            except RuleViolation:
                return done
            done.append(acted)
            loaded = _after(acted)
            if pause:
                time.sleep(pause)

    def run_bots(
        self, game_id: str, version: int | None = None, *, slice_seconds: float = BOT_SLICE_SECONDS, pause: float = 0.0
    ) -> list[Acted]:
        """Let bots play while the game waits on seats they hold.

        Each bot gets its seat's view and legal actions only, and its command
        goes through ``act`` with the version it was decided on, like a
        player's. ``version``: the version the job was enqueued for; if the
        game has moved on since, the job is stale and does nothing (the move
        that moved it enqueued what is due now). A lost race also ends the
        run: whoever won it follows up. After ``slice_seconds`` the run hands
        on to a new job at the version reached.
        """
        loaded = self.games.load(game_id)
        if version is not None and loaded.version != version:
            return []
        done: list[Acted] = []
        started = time.monotonic()
        while True:
            record = loaded.state
            if not record.started or record.over or record.module.system_command(record.state) is not None:
                break
            playing = due.autoplayed(record)
            if playing is None or (done and time.monotonic() - started >= slice_seconds):
                break
            seat, level = playing
            module = record.module
            if level == clock.PASS:
                # A lapsed deadline under "pass": the turn's rest skipped, decisions at their defaults.
                command = module.timeout_command(record.state, seat)
                actor = "deadline"
            else:
                command = decide(
                    make_bot(level, record.options, module.ai),
                    module,
                    record.state,
                    module.legal_actions(record.state, seat),
                    seat,
                    bot_rng(game_id, seat, loaded.version),
                )
                actor = f"bot:{level}"
            if command is None:
                break
            try:
                acted = self.games.act(
                    game_id, seat, command, expected_version=loaded.version, follow_up=False, actor=actor,
                    loaded=loaded,
                )  # fmt: skip
            except ConcurrencyError:
                return done  # a duplicate run (or a player) got there first and follows up itself
            done.append(acted)
            loaded = _after(acted)
            if pause:
                time.sleep(pause)
        if done:
            due.follow_up(self.games.follow_ups, game_id, loaded.version, loaded.state)
        return done


def _after(acted: Acted) -> Loaded[Record]:
    if acted.after is None:  # every act answers with the game after it
        raise AssertionError("act returned no record")
    return acted.after
