"""A look-ahead: a command played in a sampled world, the seat's follow-up decisions after it, the score where it
stops (``bots.policies``' searching bots).

``settle`` plays a command and then the seat's own follow-up decisions, each answered by ``follow_up`` (the
choice whose result scores best at once, among those the game's AI says are worth weighing) or by another
``Answer`` (``lapsed``: what a lapsed deadline sends; ``Weighed`` and ``Shared``: an action's first world
weighed, its later worlds answered alike), until the seat chooses freely again or the game waits on someone
else. Scores and the views they read are looked up while a search meets the same position again.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final

from domain.game import Command, Game, GameAI
from domain.rng import Imagined, Rng


def sub(rng: Rng, label: str) -> Rng:
    """An independent source for one part of a decision's look-ahead (what the bot imagines: ``Imagined``)."""
    return Imagined(rng.seed, f"{rng.label}/{label}")


def play(module: Game, state: Any, seat: int | str, command: Command, rng: Rng) -> Any:
    return module.after(state, seat, command, rng)


#: The scoring views looked at last, by (the state's id, the seat): (the state, the AI, the view). A search
#: looks at one position twice (a follow-up's best answer scored, then asked whether the seat chooses
#: freely there; a settled position asked, then scored): a state never changes, so its view is looked up.
_LOOKED: Final[dict[tuple[int, int], tuple[Any, GameAI, dict[str, Any]]]] = {}
#: How many views ``_LOOKED`` keeps (a follow-up's best is among its last ``FOLLOW_UP_WIDTH`` looked at).
LOOKED: Final = 16


def look(ai: GameAI, module: Game, state: Any, seat: int) -> dict[str, Any]:
    """What the seat's scoring reads of its view: the AI's ``scoring_view`` where it offers one (quicker)."""
    key = (id(state), seat)
    found = _LOOKED.get(key)
    if found is not None and found[0] is state and found[1] is ai:
        return found[2]
    scoring = ai.scoring_view(state, seat)
    view = scoring if scoring is not None else module.view(state, seat)
    if len(_LOOKED) >= LOOKED:
        del _LOOKED[next(iter(_LOOKED))]
    _LOOKED[key] = (state, ai, view)  # the state held too: its id is not reused while the entry stands
    return view


#: Scores by the AI's ``scoring_key``: (the AI, the state, its score). The choices a search weighs side by side
#: mostly score alike (a test's dice, a frame of the rules' bookkeeping), and seven in ten positions of a
#: Zona search had a key scored a moment before. The state is held: a key may name its parts by identity.
_SCORES: Final[dict[Any, tuple[GameAI, Any, float]]] = {}
#: How many scores ``_SCORES`` keeps (a search finds nearly all it can within its last eight).
SCORES: Final = 64


def score(ai: GameAI, module: Game, state: Any, seat: int) -> float:
    key = ai.scoring_key(state, seat)
    if key is None:
        return ai.evaluate(look(ai, module, state, seat), seat)
    found = _SCORES.get(key)
    if found is not None and found[0] is ai:
        return found[2]
    value = ai.evaluate(look(ai, module, state, seat), seat)
    if len(_SCORES) >= SCORES:
        del _SCORES[next(iter(_SCORES))]
    _SCORES[key] = (ai, state, value)
    return value


def chooses_freely(ai: GameAI, module: Game, state: Any, seat: int) -> bool:
    """The seat chooses freely now (its turn, no decision pending), as its view shows it."""
    free = ai.free_choice_at(state, seat)
    return ai.free_choice(look(ai, module, state, seat), seat) if free is None else free


#: A follow-up decision with more choices than this is weighed on a sample of them (the default always in).
FOLLOW_UP_WIDTH: Final = 8


Answer = Callable[[GameAI, Game, Any, int, Rng], "tuple[Command, Any] | None"]


def settle(
    ai: GameAI, module: Game, state: Any, seat: int, command: Command, rng: Rng, limit: int = 12,
    answer: Answer | None = None,
) -> Any:
    """``command``, then ``seat``'s follow-up decisions (``follow_up``, or ``answer``), until it chooses
    freely again."""
    return follow(ai, module, play(module, state, seat, command, sub(rng, "0")), seat, rng, limit, answer)


def follow(ai: GameAI, module: Game, state: Any, seat: int, rng: Rng, limit: int = 12,
            answer: Answer | None = None) -> Any:
    """``seat``'s follow-up decisions from ``state`` on (``settle`` after its command)."""
    answer = answer or follow_up
    for step in range(limit):
        if module.is_over(state) or module.system_command(state) is not None:
            return state
        if seat not in module.waiting_for(state) or chooses_freely(ai, module, state, seat):
            return state
        answered = answer(ai, module, state, seat, sub(rng, str(step + 1)))
        if answered is None:
            return state
        state = answered[1]
    return state


def lapsed(ai: GameAI, module: Game, state: Any, seat: int, rng: Rng) -> tuple[Command, Any] | None:
    """What a lapsed deadline would answer, and the state after it: the planner's rollouts answer so, for
    speed (weighing every answer there made a playout several times dearer)."""
    command = module.timeout_command(state, seat)
    return None if command is None else (command, play(module, state, seat, command, rng))


def worth_weighing(ai: GameAI, module: Game, state: Any, seat: int, actions: list[Command], ahead: bool) -> list[Command]:
    """Of ``actions``, those the game's AI says are worth weighing (``GameAI.candidates_at``); none: what a lapsed
    deadline sends."""
    weighed = ai.candidates_at(state, seat, actions, ahead)
    if weighed:
        return weighed
    timeout = module.timeout_command(state, seat)
    return actions if timeout is None else [timeout]


def follow_up(ai: GameAI, module: Game, state: Any, seat: int, rng: Rng) -> tuple[Command, Any] | None:
    """``seat``'s best answer to the decision it owes, one step ahead, and the state after it, weighing the
    choices the game's AI says are worth it (``worth_weighing``): greedy's follow-ups."""
    return _best_answer(ai, module, state, seat, rng, True)


def weigh_every(ai: GameAI, module: Game, state: Any, seat: int, rng: Rng) -> tuple[Command, Any] | None:
    """``follow_up`` weighing every choice: the planner's, which weighs a chance decision's answers over
    their outcomes and settles each with these."""
    return _best_answer(ai, module, state, seat, rng, False)


def _best_answer(
    ai: GameAI, module: Game, state: Any, seat: int, rng: Rng, prune: bool
) -> tuple[Command, Any] | None:
    """The best answer, one step ahead: each choice is played once and the seat's view after it scored; ties
    (a choice that changes nothing now) go to what a lapsed deadline would send, so a bot does not reroll or
    run for no reason. None: nothing to answer."""
    actions = module.legal_actions(state, seat)
    if not actions:
        return None
    if prune and len(actions) > 1:
        actions = worth_weighing(ai, module, state, seat, actions, True)
    if len(actions) == 1:
        return actions[0], play(module, state, seat, actions[0], sub(rng, "f0"))
    default = module.timeout_command(state, seat)
    if len(actions) > FOLLOW_UP_WIDTH:
        others = [a for a in actions if a != default]
        actions = ([default] if default in actions else []) + rng.shuffled(others)[: FOLLOW_UP_WIDTH - 1]
    best: tuple[Command, Any] | None = None
    best_value, best_default = -math.inf, False
    for i, action in enumerate(actions):
        try:
            after = play(module, state, seat, action, sub(rng, f"f{i}"))
            value = score(ai, module, after, seat)
        except Exception:  # noqa: BLE001 - a choice the sampled world cannot take
            continue
        is_default = action == default
        if best is None or value > best_value + 1e-9 or (is_default and abs(value - best_value) <= 1e-9 and not best_default):
            best, best_value, best_default = (action, after), value, is_default
    return best


class Weighed:
    """``follow_up``, keeping the answers it chose: an action's follow-ups in its first world
    (``GameAI.follow_ups_shared``)."""

    def __init__(self) -> None:
        self.answers: list[Command] = []

    def __call__(self, ai: GameAI, module: Game, state: Any, seat: int, rng: Rng) -> tuple[Command, Any] | None:
        found = follow_up(ai, module, state, seat, rng)
        if found is not None:
            self.answers.append(found[0])
        return found


class Shared:
    """The answers an action's first world chose, given again in a later world one by one, each where it is
    legal there; a follow-up the first world did not meet, or whose answer is not legal here, is weighed."""

    def __init__(self, answers: list[Command]) -> None:
        self.answers = answers
        self.at = 0

    def __call__(self, ai: GameAI, module: Game, state: Any, seat: int, rng: Rng) -> tuple[Command, Any] | None:
        at = self.at
        self.at = at + 1
        if at < len(self.answers):
            command = self.answers[at]
            if command in module.legal_actions(state, seat):
                return command, play(module, state, seat, command, rng)
        return follow_up(ai, module, state, seat, rng)
