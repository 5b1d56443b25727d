"""Helpers for Zona's tests: games set up on the test pack, commands sent, the state inspected."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.game import Event
from domain.rng import Rng
from domain.zona.game import ZONA
from domain.zona.model import Pack
from domain.zona.pack import pack_named
from domain.zona.state import State, owned_items

PACK = pack_named("test")


def fold(events: Iterable[Event], state: State | None = None) -> State:
    state = ZONA.initial_state() if state is None else state
    for event in events:
        state = ZONA.evolve(state, event)
    return state


def new_game(players: int = 2, seed: str = "zona", characters: list[str] | None = None, **options: Any) -> State:
    """A game set up and drafted: seat n takes ``characters[n]`` (free choice) or its first board."""
    opts = ZONA.resolve_options({"first_voice": 0, "pack": "test", **options})
    if characters is not None:
        opts["draft"] = "free"
    opts["players"] = players
    state = fold(ZONA.setup(opts, Rng(seed)))
    n = 0
    while state.phase == "setup":
        pending = state.pending
        seat = pending["seat"]
        wanted = characters[seat] if characters else pending["choices"][0]["character"]
        state = send(state, seat, {"type": "choose_stalker", "character": wanted}, f"{seed}-draft-{n}")
        n += 1
    return state


def send(state: State, seat: int, command: dict[str, Any], seed: str = "x") -> State:
    return ZONA.decide_and_fold(state, seat, command, Rng(seed))[1]


def events_of(state: State, seat: int, command: dict[str, Any], seed: str = "x") -> tuple[list[Event], State]:
    return ZONA.decide_and_fold(state, seat, command, Rng(seed))


def edit(state: State, **changes: Any) -> State:
    """A copy of ``state`` with fields replaced (tests arrange positions with it)."""
    from domain.zona.state import clone, dump, load, replace

    return replace(load(dump(state)), **clone(changes))


def with_stalker(state: State, seat: int, **fields: Any) -> State:
    from domain.zona.state import clone, dump, load

    out = load(dump(state))
    out.stalkers[seat].update(clone(fields))
    return out


def answer_all(state: State, pick: Any = None, limit: int = 200) -> State:
    """Answer pending decisions with the first choice (or ``pick(pending)``) until none is pending."""
    for i in range(limit):
        pending = state.pending
        if pending is None or state.over:
            return state
        choice = pick(pending) if pick else pending["choices"][0]
        state = send(state, pending["seat"], choice, f"answer-{i}")
    raise AssertionError("decisions never ended")


def all_items(state: State) -> list[str]:
    """Every item card wherever it lies (decks, market, stalkers, piles, the box, hands, finds)."""
    out: list[str] = []
    for name, cards in state.decks.items():
        if name in ("junk", "equipment", "green_artifact", "yellow_artifact"):
            out += cards
    for name, cards in state.discards.items():
        if name in ("junk", "equipment", "green_artifact", "yellow_artifact"):
            out += cards
    for slots in state.market.values():
        out += [c for c in slots if c is not None]
    for s in state.stalkers:
        out += owned_items(s)
    out += state.box + state.hand
    for cards in state.finds.values():
        out += cards
    return out


def all_tokens(state: State) -> list[str]:
    out: list[str] = []
    for tokens in state.dispenser.values():
        out += tokens
    for tokens in state.threats.values():
        out += tokens
    out += state.in_play
    for s in state.stalkers:
        out += s["trophies"]
    return out


def expected_items(pack: Pack = PACK) -> list[str]:
    out = []
    for t in pack.items.values():
        if t.kind == "starting":
            continue
        mark = "f" if t.kind == "find" else ""
        out += [f"{t.id}#{mark}{n}" for n in range(1, t.copies + 1)]
    out += [f"{e}@{s.id}" for s in pack.stalkers.values() for e in s.equipment]
    return sorted(out)


def expected_tokens(pack: Pack = PACK) -> list[str]:
    return sorted(f"{t.id}#{n}" for t in pack.threats.values() for n in range(1, t.copies + 1))


def put(state: State, thing: str, target: str) -> State:
    """``thing`` moved from wherever it is to ``target`` (arranging a position, not a rule)."""
    from domain.zona.state import Draft, move, where_is

    source = where_is(state, thing)
    assert source is not None, thing
    d = Draft(state)
    move(d, thing, source, target)
    return d.new


def resolve(state: State, seat: int, effects: list[dict[str, Any]], seed: str = "fx") -> State:
    """Run an effect list for ``seat`` as a card or area action would, and carry the game on."""
    from domain.zona import effects as vocabulary
    from domain.zona import flow
    from domain.zona.resolution import ZonaResolution

    res = ZonaResolution(state, Rng(seed))
    vocabulary.run(res, seat, ["inline", effects])
    flow.run(res)
    return res.state


def read_card(state: State, seat: int, card: str, seed: str = "card") -> State:
    """``seat`` draws ``card`` (put on top of its deck) as in the event phase, and reads it."""
    from domain.zona import flow
    from domain.zona.cards import deck_for
    from domain.zona.resolution import ZonaResolution

    deck = deck_for(state, state.stalkers[seat]["area"])
    assert deck is not None
    state = put(state, card, f"deck:{deck}")
    res = ZonaResolution(state, Rng(seed))
    res.move("EventCardDrawn", card, f"deck:{deck}", "reading", seat)
    res.push("card", seat=seat, card=card, deck=deck, paragraph=0, started=False, control=None)
    flow.run(res)
    return res.state


def pick(kind: str, **fields: Any) -> Any:
    """A chooser for ``answer_all``: the choice of ``kind`` with ``fields``, else the first."""

    def chooser(pending: dict[str, Any]) -> dict[str, Any]:
        for choice in pending["choices"]:
            if choice["type"] == kind and all(choice.get(k) == v for k, v in fields.items()):
                return choice  # type: ignore[no-any-return]
        return pending["choices"][0]  # type: ignore[no-any-return]

    return chooser


def choose(state: State, command: dict[str, Any], seed: str = "c") -> State:
    """Answer the pending decision with ``command`` (it must be one of its choices)."""
    pending = state.pending
    assert pending is not None, "nothing pending"
    assert command in pending["choices"], (command, pending["choices"])
    return send(state, pending["seat"], command, seed)


def accept_tests(state: State) -> State:
    """Take every test as rolled and every damage unprotected, while such decisions are pending."""
    while state.pending and state.pending["kind"] in ("test_options", "protect"):
        kind = "accept" if state.pending["kind"] == "test_options" else "take_damage"
        state = choose(state, {"type": kind})
    return state


def clear_threats(state: State) -> State:
    """Every threat token back on top of its dispenser queue."""
    for tokens in list(state.threats.values()):
        for token in list(tokens):
            state = put(state, token, f"dispenser_top:{PACK.threat(token).queue}")
    return state


def strip(state: State, seat: int) -> State:
    """The seat's stalker without its starting cards (back in the box), so only the dice count."""
    s = state.stalkers[seat]
    for card in s["backpack"] + s["worn"] + s["small"]:
        state = put(state, card, "box")
    return state
