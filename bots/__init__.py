"""Bots: pure policies that play a seat from its own view (no Flask, no Redis).

``make_bot(level, options)`` gives a ``random``, ``greedy`` or ``planner``
bot; see ``bots.policies`` for how each one chooses.
"""

from bots.lookahead import sub
from bots.policies import LEVELS, Bot, UnknownBot, decide, make_bot

__all__ = ["LEVELS", "Bot", "UnknownBot", "decide", "make_bot", "sub"]
