"""Every command a seat may send now, each complete as ``decide`` takes it."""

from __future__ import annotations

from typing import Any

from domain.fallout import camp, encounter, explore, fight, items, loyalty, movement, perks, quest, trade
from domain.fallout.state import GameState


def legal_actions(state: GameState, seat: int) -> list[dict[str, Any]]:
    if state.phase in ("new", "over"):
        return []
    if state.pending is not None:
        return [dict(c) for c in state.pending.choices] if state.pending.seat == seat else []
    if state.phase != "playing" or state.round_end_due or state.round_end is not None:
        return []
    turn = state.turn
    if turn is None or turn.seat != seat:
        return []
    if state.trade is not None:
        return trade.choices(state, seat)
    out: list[dict[str, Any]] = []
    out += loyalty.choices(state, seat)
    out += items.equip_choices(state, seat)
    if turn.actions > 0:
        out.append({"type": "move"})
        out += [{"type": "explore", "place": p} for p in explore.explorable(state, seat)]
        out += [{"type": "fight", "enemy": e} for e, _ in fight.targets(state, seat)]
        if camp.allowed(state, seat):
            out.append({"type": "camp"})
        if encounter.allowed(state, seat):
            out.append({"type": "encounter"})
        out += [{"type": "quest", "quest": q, "objective": i} for q, i in quest.objectives(state, seat)]
    out += [{"type": "step", "to": s} for s in movement.steps(state, seat)]
    out += [{"type": "use", "card": c} for c in items.usable(state, seat)]
    out += [{"type": "use_perk", "perk": p} for p in perks.usable(state, seat)]
    out += trade.choices(state, seat)
    out.append({"type": "end_turn"})
    return out
