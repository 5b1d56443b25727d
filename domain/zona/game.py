"""Zona on the game contract: ``domain.zona.game.ZONA``.

``decide`` is the engine kit's dispatch (``domain.engine.dispatch``): it
refuses an illegal command before emitting anything; otherwise it lets the
rule modules emit through a ``ZonaResolution`` and carries the game on
(``flow.run``) until a seat must act or decide; this module says what Zona's
state answers and which turn checks it adds. There is no automatic work
for a worker: event and news phases run on from the command that ends the
last turn, and in solo the automated Voice of the Zone decides inside
``decide`` (Zona §"WARIANT GRY SOLO").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final

from marshmallow import Schema

from domain.engine.decisions import Decision, normalized, requested
from domain.engine.dispatch import RulebookGame
from domain.engine.examples import Examples
from domain.game import Command, Event, EventSchema, Outcome, RuleViolation, Seat, SeatRange, malformed, strict_schema
from domain.rng import Rng
from domain.zona import actions, flow, words
from domain.zona.actions import legal_actions
from domain.zona.ai import TIMEOUT_DEFAULTS, ZONA_AI
from domain.zona.pack import SHELF, pack_named
from domain.zona.refusals import REFUSALS
from domain.zona.resolution import RULES, ZonaResolution, evolve
from domain.zona.schemas import ZonaOptions, ZonaView
from domain.zona.state import State, dump, initial_state, load
from domain.zona.view import redact, view

#: The turn actions, each with the code of its refusal when the seat is not offered it now.
_CANNOT: Final = {
    "move": "cannot_move", "search": "cannot_search", "rest": "cannot_rest", "pass": "cannot_pass",
    "area_action": "cannot_area_action", "open_facility": "cannot_open_facility",
}  # fmt: skip
TURN_ACTIONS: Final = frozenset(_CANNOT)
FREE = frozenset({"put_on", "take_off", "drop", "use_item"})


class ZonaGame(RulebookGame[State, ZonaResolution]):
    name = "zona"
    title = "Zona: The Secret of Chernobyl — reach the sarcophagus before the Zone's news runs out"
    seats = SeatRange(1, 4)
    # zona-1 still: the state became a frozen record (``state.State``), but a snapshot is its fields, the very
    # tree the dict was (``state.dump``; seeded games' snapshots digest alike before and after), so a zona-1
    # snapshot loads as it always did.
    state_format = "zona-1"
    # 1: the first release that records its rules version; every earlier game is unversioned.
    # 2: issue 23's rulings: the market refills after an event-phase purchase, the healed injury and
    #    a kept find or secret are chosen, every stalker's ability is its own (docs/zona-engine.md).
    rules_version = 2
    shelf = SHELF
    listed_options = ("side", "draft")
    options_schema: ClassVar[type[Schema]] = ZonaOptions
    view_schema: ClassVar[type[Schema]] = ZonaView
    rulebook = RULES
    command_schemas: ClassVar[dict[str, type[Schema]]] = RULES.commands
    timeout_defaults = TIMEOUT_DEFAULTS
    unknown_command = "Zona has no command {kind!r}."
    setup_rule = 'Zona §"PRZYGOTOWANIE DO GRY"'
    event_schemas: ClassVar[list[EventSchema]] = RULES.event_schemas()
    refusals = REFUSALS
    ai = ZONA_AI
    examples = Examples(lambda: {**_example(), "games": CREATE_EXAMPLES})

    def resolve_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        resolved = super().resolve_options(options)
        # The game plays these files for good, whatever later releases bundle (docs/versioning.md).
        resolved["pack"] = SHELF.address(resolved["pack"])
        return resolved

    def initial_state(self) -> State:
        return initial_state()

    def setup(self, options: dict[str, Any], rng: Rng) -> list[Event]:
        options = dict(options)
        voice = options.get("first_voice")
        if voice is not None and not 0 <= voice < options["players"]:
            raise malformed("bad_options", f"first_voice: no seat {voice} among {options['players']}")
        pack = pack_named(options.get("pack", "base"))
        if options.get("side") is not None and options["side"] not in pack.sides:
            raise malformed("bad_options", f"side: the pack's board has sides {sorted(pack.sides)}")
        if options.get("die_faces") is None:
            options["die_faces"] = list(pack.faces)
        defaults = strict_schema(ZonaOptions).load({})  # the one instance: making a schema costs more than loading
        return flow.start({**defaults, **options}, rng)

    # -- the engine's dispatch (``domain.engine.dispatch``): Zona's state and turn checks ---------

    def resolution(self, state: State, rng: Rng) -> ZonaResolution:
        return ZonaResolution(state, rng)

    def started(self, state: State) -> bool:
        return bool(state.phase != "new")

    def over(self, state: State) -> bool:
        return bool(state.over)

    def players(self, state: State) -> int:
        return int(state.players)

    def pending(self, state: State) -> Decision | None:
        pending = state.pending
        return None if pending is None else requested(pending)

    def system(self, res: ZonaResolution, kind: str) -> None:
        raise malformed("not_a_system_command", "Zona has no automatic work for the system.")

    def turn(self, res: ZonaResolution, seat: int, kind: str, command: Command) -> None:
        state = res.state
        turn = state.turn
        if state.phase != "action" or turn is None or turn["seat"] != seat:
            raise RuleViolation("not_your_turn", "It is not your turn.", rule='Zona §"AKCJE"')
        if kind in TURN_ACTIONS and normalized(command) not in actions.turn_actions(state, seat, kind):
            raise RuleViolation(_CANNOT[kind], f"You cannot {kind.replace('_', ' ')} now.", rule=_RULE.get(kind))

    def carry_on(self, res: ZonaResolution, actor: Seat | str) -> None:
        flow.run(res)

    def lapsed_choice(self, state: State, seat: Seat, actions: list[Command]) -> Command:
        pending = state.pending
        if pending is not None and pending["kind"] == "give_up":
            # Giving something up is an offer (Zona §"WYKONYWANIE AKCJI OBSZARÓW"): a lapsed player keeps everything.
            return next((a for a in actions if a["type"] != "give_up"), actions[0])
        return super().lapsed_choice(state, seat, actions)

    def legal_actions(self, state: State, seat: Seat) -> list[Command]:
        return legal_actions(state, seat)

    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        return view(state, seat)

    def redact(self, event: Event, seat: Seat | None) -> Event:
        return redact(event, seat)

    def describe_event(self, event: Event, seat: Seat | None, state: State) -> str:
        return words.event(event, seat, state)

    def describe_command(self, state: State, seat: Seat, command: Command) -> str:
        return words.command_text(state, seat, command)

    def describe_decision(self, state: State, seat: Seat | None) -> str | None:
        return words.decision(state, seat)

    def system_command(self, state: State) -> Command | None:
        return None

    def is_over(self, state: State) -> bool:
        """``outcome(state).over`` without building the outcome: the bots and the loops ask it every step."""
        return state.phase != "new" and bool(state.over)

    def waiting_for(self, state: State) -> list[Seat]:
        if state.phase == "new" or state.over:
            return []
        if state.pending is not None:
            return [state.pending["seat"]]
        if state.turn is not None:
            return [state.turn["seat"]]
        return []

    def outcome(self, state: State) -> Outcome:
        if state.phase == "new":
            return Outcome(False)
        winners = (state.winner,) if state.winner is not None else ()
        progress = {"round": state.round, "news_left": len(state.decks["news"])}
        # A stalker's win, or why everyone lost (Zona §"PRZEGRANA": "news" when the clock ran out).
        ending = None if not state.over else "won" if winners else state.lost
        roles = tuple(s["character"] for s in state.stalkers)
        return Outcome(bool(state.over), winners, progress, round=state.round, ending=ending, roles=roles)

    def dump_state(self, state: State) -> dict[str, Any]:
        return dump(state)

    def load_state(self, data: dict[str, Any]) -> State:
        return load(data)


_RULE: Final = {
    "move": 'Zona §"RUCH"', "search": 'Zona §"POSZUKIWANIE"', "rest": 'Zona §"ODPOCZYNEK"', "pass": 'Zona §"PAS"',
    "area_action": 'Zona §"WYKONYWANIE AKCJI OBSZARÓW"', "open_facility": 'Zona §"OTWARCIE TAJNEGO OBIEKTU"',
}

RULES.check()
ZONA = ZonaGame()


def _example() -> dict[str, Any]:
    """A real 2-player game just set up, for the API document."""
    options = ZONA.resolve_options({"first_voice": 0})
    state = initial_state()
    for event in ZONA.setup({**options, "players": 2}, Rng("example")):
        state = evolve(state, event)
    while state.pending is not None and state.phase == "setup":
        seat = state.pending["seat"]
        state = ZONA.decide_and_fold(state, seat, state.pending["choices"][0], Rng(f"example-{seat}"))[1]
    actions = legal_actions(state, 0)
    return {"options": options, "view": view(state, 0), "actions": actions,
            "texts": [words.command_text(state, 0, a) for a in actions],
            "prompt": words.decision(state, 0), "events": [{"type": t, "data": d} for t, d in EVENTS]}  # fmt: skip


#: Events a few hundred random decisions seldom reach, each as the log holds it, so that
#: every event type is shown described (``tests/contract/test_words.py``).
EVENTS: list[tuple[str, dict[str, Any]]] = [
    ("GameWon", {"seat": 0}),
    ("ItemStowed", {"thing": "bent_rebar#2", "source": "hand", "target": "backpack:0", "seat": 0}),
    ("MustLeaveFacility", {"seat": 1, "must_leave": True}),
    ("SecretKept", {"thing": "field_journal#1", "source": "reading", "target": "secrets:1", "seat": 1}),
    # A secret card read among the event cards: the rebalanced pack's random play met none in its sample.
    ("SecretDiscovered", {"thing": "field_journal#1", "source": "reading", "target": "secrets:0", "seat": 0}),
    # Rare in random play on the base pack (its decks seldom run out, injuries seldom heal).
    ("DeckShuffled", {"deck": "junk", "order": ["tinned_beans#3", "bent_rebar#1"]}),
    ("FacilityLooted", {"facility": "hothouse"}),
    ("InjuryHealed", {"seat": 0, "injuries": []}),
    ("ItemRepaired", {"seat": 0, "card": "bent_rebar#2", "wear": 0}),
]


#: Games a creator might set up, for the API document: solo with a free choice of stalkers, and four
#: players with the facility decks dealt at random.
CREATE_EXAMPLES: dict[str, Any] = {
    "solo": {"seats": 1, "players": ["Alice"], "options": {"pack": "base", "draft": "free", "solo_news_discard": 5}},
    "four_players": {
        "seats": 4, "players": ["Alice", "Boris"], "bots": [{"seat": 2, "level": "greedy"}, {"seat": 3, "level": "planner"}],
        "options": {"pack": "base", "draft": "draft", "random_facilities": True, "side": "large"},
    },
    "two_on_the_large_side": {"seats": 2, "players": ["Alice"], "options": {"pack": "base", "side": "large", "first_voice": 1}},
}
