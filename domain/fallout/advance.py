"""What happens next after a command: the engine carries a resolution on
until it needs a seat's decision or has nothing left to do.

The order of the checks is the order of the rules: finish the dice on the
table, then the fight they belong to, then what it left behind: a card gained
is placed (equip or stow) and an overfull hand discards down, a killed
survivor picks a new space, a killed enemy is replaced, levels are gained,
the next enemy an aggressive space makes the survivor fight. Then a shop in
progress asks for its next interaction; the results bar on top of the stack
resolves its next result; an attempt starts its next task; an encounter or a
quest action moves on; triggered quest objectives complete. Once all that is
settled, a survivor with enough influence wins, the shop is reset to four,
and the turn moves on. The round end moves on only for ``SYSTEM``: after a
seat answers a decision in the middle of it, the worker carries it on.

The loop is the engine's (``domain.engine.frames.settle``, as Zona's frames
run): Fallout's pending work is typed fields of the state, not frames, so its
step is this ordered chain.
"""

from __future__ import annotations

from typing import Final

from domain.engine.frames import settle
from domain.fallout import (
    encounter,
    enemies,
    explore,
    fight,
    influence,
    items,
    killed,
    perks,
    quest,
    results,
    rounds,
    shop,
    tasks,
    trade,
    turns,
    vats,
    xp,
)
from domain.fallout.rulebook import Resolution
from domain.fallout.state import GameState
from domain.game import SYSTEM

MAX_STEPS: Final = 10_000


def free_to_do(state: GameState, seat: int) -> bool:
    """Something the survivor may still do with no action left: use a card or a perk, trade."""
    return bool(items.usable(state, seat) or perks.usable(state, seat) or trade.choices(state, seat))


def advance(res: Resolution, actor: int | str) -> None:
    settle(res, _waits, lambda res: _next(res, actor), MAX_STEPS)


def _waits(res: Resolution) -> bool:
    return res.state.over or res.state.pending is not None


def _next(res: Resolution, actor: int | str) -> bool:
    """Do the first piece of work due, in the rules' order; False when there is none (or it waits)."""
    s = res.state
    if s.roll is not None and not s.roll.kept:
        vats.request_reroll(res)
    elif s.fight is not None:
        fight.resolve(res)
    elif s.roll is not None:
        vats.finish_test(res)
    elif s.gaining:
        items.gain_next(res)
    elif (over := items.over_limit(s)) is not None:
        items.request_discard(res, *over)
    elif s.respawning:
        killed.request_respawn(res)
    elif s.replacing:
        enemies.replace_next(res)
    elif s.level_ups:
        xp.level_up(res)
    elif s.leveling is not None:
        return False  # a level-up waiting for its choice is always pending; nothing to push
    elif s.placing is not None:
        explore.request_placement(res)
    elif s.attackers is not None:
        fight.next_attacker(res)
    elif s.trade is not None and s.trade.proposed:
        trade.request_answer(res)
    elif s.shopping is not None:
        shop.step(res)
    elif s.resolving:
        results.step(res)
    elif s.attempt is not None and s.attempt.outcome is None:
        tasks.step(res)
    elif s.encounter is not None:
        encounter.step(res)
    elif s.questing is not None:
        quest.step(res)
    elif s.triggered:
        quest.next_triggered(res)
    elif s.phase == "playing" and influence.check_victory(res):
        return False
    elif s.phase == "playing" and shop.needs_reset(s):
        shop.reset(res)
    elif s.turn is not None and s.turn.ending:
        turns.end_turn(res)
    elif s.round_end_due or s.round_end is not None:
        if actor != SYSTEM:
            return False
        rounds.step(res)
    elif s.turn is not None and s.turn.actions <= 0 and s.turn.movement <= 0 and not free_to_do(s, s.turn.seat):
        turns.end_turn(res)
    else:
        return False
    return True
