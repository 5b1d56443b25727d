"""The effects vocabulary's interpreter: running an effect list, and the table of effect handlers.

An effect list runs as an ``effects`` frame: one effect at a time, each
emitting its events or pushing what it needs (a test, an encounter, a choice)
and the frame carrying on when that is done. The vocabulary is the one the
pack loader checks (``vocabulary.EffectChecker``).

Each effect's handler is registered (``@effect``, the engine's
``Effects.handles``: ``domain.engine.effects``, as Fallout's results are) by
the rule module of its topic, where what it does is defined: ``damage`` in ``harm``, ``test`` in
``checks``, ``camp`` in ``market``... This module sits below all of them, so
any rule can run an effect list (an item's ``use_at``, a threat's loot) without
importing the rules the list names. It defines only the effects that act on
the resolution itself: paragraph endings, ``all``, ``reputation_sections``
and ``relocate``.

Frames hold an *address* of their effect list (``["card", id, "sections",
area]``, ``["area", id, "action"]``, ``["news", id, "effects"]``, then list
indexes and keys), never the effects themselves: the frames are in the log,
and an event card's unchosen outcomes must not be (the read-aloud split).
``["inline", effects]`` runs a list written in place (nothing hidden in it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from domain.engine.effects import Effects
from domain.zona.model import Pack
from domain.zona.resolution import FRAMES, ZonaResolution
from domain.zona.state import turn_order

Address = list[Any]
#: An effect's handler: ``(resolution, seat, the effect, its address)``.
Handler = Callable[[ZonaResolution, int, dict[str, Any], Address], None]


class ZonaEffects(Effects[ZonaResolution]):
    """The engine's effect interpreter over ``effects`` frames: an effect's kind is its one keyword;
    taking one moves the frame's index on (``FrameUpdated``), a spent list pops its frame."""

    def kind(self, effect: Any) -> str:
        return next(iter(effect))

    def take(self, res: ZonaResolution) -> tuple[Any, tuple[Any, ...]] | None:
        frame = res.frame
        if frame.get("test_at") is not None:
            # The test the list ran is done: its pass or fail branch runs on top, then the list carries on.
            branch = [*frame["test_at"], "pass" if frame["result"]["passed"] else "fail"]
            res.update(test_at=None, result=None)
            run(res, frame["seat"], branch)
            return None
        effects = effects_at(res.pack, frame["at"])
        index = frame["index"]
        if index >= len(effects):
            res.pop()
            return None
        seat, at = frame["seat"], [*frame["at"], index]
        res.update(index=index + 1)
        e = effects[index]
        return e, (seat, e, at)


EFFECTS: Final = ZonaEffects("zona")
#: Every effect keyword's handler, registered by the module that defines it.
HANDLERS = EFFECTS.handlers
#: Register the handler of the effect keywords ``names``.
effect = EFFECTS.handles


def effects_at(pack: Pack, at: Address) -> list[dict[str, Any]]:
    """The effect list an address names."""
    root, key, *path = at
    node: Any
    if root == "inline":
        node = key
    elif root == "card":
        card = pack.events[key]
        node = {"sections": card.sections, "paragraphs": list(card.paragraphs)}
    elif root == "area":
        node = {"action": pack.areas[key].action}
    elif root == "item":
        node = {"use_at": pack.items[key].use_at}
    else:
        node = {"effects": pack.news[key].effects}
    for step in path:
        node = node[step]
    return list(node)


def run(res: ZonaResolution, seat: int, at: Address) -> None:
    if effects_at(res.pack, at):
        res.push("effects", seat=seat, at=list(at), index=0, test_at=None)


@FRAMES.step("effects")
def step_effects(res: ZonaResolution, frame: dict[str, Any]) -> None:
    EFFECTS.step(res)


# -- effects on the resolution itself -------------------------------------------------


@effect("reputation_sections")
def _reputation_sections(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    """Zona §"REPUTACJA A WYDARZENIA": only the section of the stalker's reputation."""
    run(res, seat, [*at, "reputation_sections", res.stalker(seat)["reputation"]])


@effect("relocate")
def _relocate(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    """A "transfer" is no move: no encounter where the stalker arrives."""
    res.set("StalkerRelocated", seat, area=e["relocate"], by="effect")


@effect("next", "failed", "secret", "win")
def _control(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    """A paragraph ends: hand the ending to the card being read and drop what is left of the paragraph."""
    frames = res.state.frames
    depth = next(i for i, f in enumerate(reversed(frames)) if f["kind"] == "card")
    res.pop(count=depth)
    res.update(control=next(iter(e)))


@effect("all")
def _all(res: ZonaResolution, seat: int, e: dict[str, Any], at: Address) -> None:
    for other in reversed(turn_order(res.state)):
        if not res.stalker(other)["dead"]:
            run(res, other, [*at, "all"])
