"""What happens next after a command: the engine carries a resolution on
until it needs a seat's decision or has nothing left to do.

The order of the checks is the order of the rules: finish the dice on the
table, then the fight they belong to, then whatever the fight left behind (a
killed survivor's new space, a killed enemy's replacement, levels gained),
then the next enemy an aggressive space makes the survivor fight, then the
turn. The round end moves on only for ``SYSTEM``: after a seat answers a
decision in the middle of it, the worker carries it on.
"""

from __future__ import annotations

from domain.fallout import enemies, explore, fight, killed, rounds, turns, vats, xp
from domain.fallout.resolution import Resolution
from domain.game import SYSTEM

MAX_STEPS = 10_000


def advance(res: Resolution, actor: int | str) -> None:
    for _ in range(MAX_STEPS):
        s = res.state
        if s.over or s.pending is not None:
            return
        if s.roll is not None and not s.roll.kept:
            vats.request_reroll(res)
        elif s.fight is not None:
            fight.resolve(res)
        elif s.roll is not None:
            vats.finish_test(res)
        elif s.respawning:
            killed.request_respawn(res)
        elif s.replacing:
            enemies.replace_next(res)
        elif s.level_ups:
            xp.level_up(res)
        elif s.leveling is not None:
            return  # a level-up waiting for its choice is always pending; nothing to push
        elif s.placing is not None:
            explore.request_placement(res)
        elif s.attackers is not None:
            fight.next_attacker(res)
        elif s.turn is not None and s.turn.ending:
            turns.end_turn(res)
        elif s.round_end_due or s.round_end is not None:
            if actor != SYSTEM:
                return
            rounds.step(res)
        elif s.turn is not None and s.turn.actions <= 0 and s.turn.movement <= 0:
            turns.end_turn(res)
        else:
            return
    raise RuntimeError("the resolution did not settle")
