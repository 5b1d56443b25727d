"""Positions of seeded games for the bot tests: every seat plays at random."""

from __future__ import annotations

from domain.game import SYSTEM
from domain.rng import Rng


def random_play(module, options: dict, players: int, seed: str, steps: int):
    """Yields (n, seat about to choose or SYSTEM, state) before each of the first ``steps`` commands."""
    state = module.initial_state()
    for event in module.setup({**options, "players": players}, Rng(seed)):
        state = module.evolve(state, event)
    pick = Rng(f"{seed}-pick")
    for n in range(steps):
        if module.is_over(state):
            return
        command = module.system_command(state)
        seat = SYSTEM if command is not None else module.waiting_for(state)[0]
        yield n, seat, state
        if command is None:
            command = pick.choice(module.legal_actions(state, seat))
        for event in module.decide(state, seat, command, Rng(seed, f"v{n}")):
            state = module.evolve(state, event)
