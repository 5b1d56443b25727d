"""Zona's copy-on-write drafts of the state, part by part, and the one fold that moves a card or token.

A fold writes the state through a ``Draft`` (``domain.engine.records``):
the first write of a field copies it, so the state it came from is never
touched. The kit copies a whole field deeply (marshal), which was a quarter
of a random game's time and a fifth of greedy's: one card drawn copied every
deck, one stalker's roubles every stalker, one frame's update the whole stack.
Zona's state is plain data of known shapes (``FLAT``, ``PARTS``), so its
draft copies less, and only what it can prove is not shared:

- a field of plain scalars (strings, numbers, None) is copied shallowly,
  which copies it whole (``FLAT``);
- a field that holds parts (each deck, each stalker, each frame: ``PARTS``)
  is copied one part at a time: ``part(name, key)`` copies the container
  shallowly (``container``) and then only that part, as ``PARTS`` says;
  ``put`` and ``add`` store a part the caller made and alone holds,
  ``lend`` and ``lend_all`` what an event's data keeps, shared until a
  fold writes it;
- ``d[name]`` still hands out the whole field as the draft's own (every part
  copied that was not yet), for folds that walk it.

Rule code reads a stalker or a frame it is about to change again after the
event that changes it (``res.stalker(seat)``, ``res.frame``): the first write
of a part replaces it with the draft's copy, so a reference held from before
sees the part as it was. (That was already so for the first write of a whole
field; it now holds for each part, which a rule that held a part across its
own write would notice. None does: the events of 300 seeded random games and
8 greedy ones read the same as with whole-field copies.)

Which fields and parts the draft has made its own is recorded in
``copied``: a field's name, ``name/`` for its container, the pair
``(name, key)`` for a part (a pair, not a string: a fold marks or looks up
a part some five times a decision, and formatting the key cost more). Every part a fold reads to change goes through ``part`` (or ``d[name]``);
``read`` is for reading only. ``tests/domain/zona/test_drafts.py`` checks the
shapes on whole games, so a field that starts holding something deeper
fails there rather than being shared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from domain.engine import records
from domain.engine.records import clone

#: Fields whose values hold only strings, numbers, booleans or None: a shallow copy copies them whole.
FLAT: Final[dict[str, Callable[[Any], Any]]] = {
    **dict.fromkeys(("turns_taken", "box", "hand", "in_play", "reading", "removed", "timed_slot", "looted",
                     "deactivated", "used_characters"), list),
    "wear": dict, "facility_of": dict,
}


def fresh(value: Any) -> Any:
    """``clone(value)`` for an event's data a fold keeps: a string, number or None as it is (nothing can
    change one), a mapping of those and of lists of those copied a level down, anything else deep (``clone``).
    Most of what the folds keep is such a value or mapping (a result, a decision's context), and a deep copy of it was a
    tenth of a random game's time."""
    kind = type(value)
    if kind is str or kind is int or value is None or kind is bool or kind is float:
        return value
    if kind is dict:
        out = {}
        for k, v in value.items():
            inner = type(v)
            if inner is str or inner is int or v is None or inner is bool or inner is float:
                out[k] = v
            elif inner is list and _plain(v):
                out[k] = v[:]
            else:
                return clone(value)
        return out
    if kind is list and _plain(value):
        return value[:]
    return clone(value)


def _plain(values: list[Any]) -> bool:
    """Whether a list holds only strings, numbers, booleans and None."""
    for v in values:
        inner = type(v)
        if not (inner is str or inner is int or v is None or inner is bool or inner is float):
            return False
    return True


#: Fields that hold parts a fold writes one at a time (a list by index, a dict by key), and how one part is
#: copied: a deck, a pile, a row or a queue is a list of strings, a lock a mapping of scalars; a stalker and a
#: frame shallowly. The folds write a frame's entries whole (an update's values as its event has them, a result
#: and the dice rolled as copies) and change no list or mapping inside one in place (a rerolled die copies the
#: dice), so its values stay shared with the state and the events they came from: copying them a level down
#: (``fresh``) was most of a frame's first write, some 5,000 instructions. A stalker's numbers and words are
#: written whole too (``folds._stalker_set``); of its lists (cards, tokens, injuries, each of scalars) only the
#: one a card moves in or out of is copied, when it moves (``_container``): copying all seven at a stalker's
#: first write was a fortieth of a greedy decision.
PARTS: Final[dict[str, Callable[[Any], Any]]] = {
    **dict.fromkeys(("decks", "discards", "dispenser", "finds", "threats", "market", "draft"), list),
    "locks": dict, "stalkers": dict, "frames": dict,
}


#: Each field's container mark (``name/``), made once rather than at each look.
_CONTAINER: Final[dict[str, str]] = {name: name + "/" for name in (*PARTS, *FLAT)}


class Draft(records.Draft[Any]):
    """The kit's ``Draft`` (changes beside the record it started from), copying part by part."""

    def _get(self, name: str) -> Any:
        return self.changes[name] if name in self.changes else getattr(self.base, name)

    def _put(self, name: str, value: Any) -> None:
        self.changes[name] = value

    def __getitem__(self, name: str) -> Any:
        value = self._get(name)
        if name in self.copied:
            return value
        copy = PARTS.get(name)
        if copy is None:
            value = FLAT.get(name, fresh)(value)
        else:
            if _CONTAINER[name] not in self.copied:
                value = list(value) if type(value) is list else dict(value)
            for key in range(len(value)) if type(value) is list else list(value):
                if (name, key) not in self.copied:
                    value[key] = copy(value[key])
        self._put(name, value)
        self.copied.add(name)
        return value

    def __setitem__(self, name: str, value: Any) -> None:
        self._put(name, value)
        self.copied.add(name)

    def read(self, name: str) -> Any:
        return self._get(name)

    def container(self, name: str) -> Any:
        """The field as the draft's own list or dict, whose parts may still be shared: to add or remove parts
        (``add``, ``put``, ``shrink``) or to reach one (``part``), never to change one in place."""
        value = self._get(name)
        copied = self.copied
        mark = _CONTAINER.get(name) or name + "/"
        if name in copied or mark in copied:
            return value
        value = list(value) if type(value) is list else dict(value)
        self._put(name, value)
        copied.add(mark)
        return value

    def part(self, name: str, key: Any, default: Callable[[], Any] | None = None) -> Any:
        """The part ``key`` of field ``name`` as the draft's own, to change in place (a list's index may count
        from the end); a dict's missing part is ``default()`` when given (else ``KeyError``)."""
        container = self.container(name)
        if type(container) is list:
            if key < 0:
                key += len(container)
        elif key not in container and default is not None:
            container[key] = value = default()
            self.copied.add((name, key))
            return value
        if name in self.copied:
            return container[key]
        mark = (name, key)
        if mark in self.copied:
            return container[key]
        value = container[key] = PARTS[name](container[key])
        self.copied.add(mark)
        return value

    def put(self, name: str, key: Any, value: Any) -> None:
        """Part ``key`` of ``name`` becomes ``value``, which the caller made and no one else holds."""
        self.container(name)[key] = value
        self.copied.add((name, key))

    def add(self, name: str, value: Any) -> None:
        """``value`` (made by the caller, held by no one else) goes at the end of the list ``name``."""
        container = self.container(name)
        container.append(value)
        self.copied.add((name, len(container) - 1))

    def lend_all(self, values: dict[str, Any]) -> None:
        """Each field becomes its value in ``values`` (a ``GameSetUp``'s state, which the event keeps), and all
        stay shared: the draft owns nothing after, so the first fold to write a field or a part copies it."""
        for name, value in values.items():
            self._put(name, value)
        self.copied.clear()

    def lend(self, name: str, value: Any) -> None:
        """``value`` (an event's data, which keeps it) goes at the end of the list ``name`` still shared, not the
        draft's own: the first fold to write it copies it (``part``). Most frames are pushed and popped unwritten,
        and copying each as it was pushed was a tenth of a random game."""
        if name in self.copied:  # the whole field is the draft's own, every part in it written in place
            value = PARTS[name](value)
        self.container(name).append(value)

    def shrink(self, name: str, length: int) -> None:
        """The list ``name`` keeps its first ``length`` parts (those after are dropped, and with them any
        record that the draft owned them: a part added later at that place is a new one)."""
        container = self.container(name)
        for key in range(length, len(container)):
            self.copied.discard((name, key))
        del container[length:]


def _container(d: Draft, location: str) -> tuple[list[Any], int | None, bool]:
    """The list a location names, the slot index if it is a slot, and whether it is a queue's top."""
    kind, _, key = location.partition(":")
    if kind in ("deck", "deck_bottom"):
        return d.part("decks", key), None, kind == "deck_bottom"
    if kind == "discard":
        return d.part("discards", key, list), None, True
    if kind in ("box", "hand", "in_play", "reading", "removed", "timed_slot"):
        return d[kind], None, True
    if kind == "market":
        row, _, slot = key.partition(":")
        return d.part("market", row), int(slot), False
    if kind in ("backpack", "worn", "small", "sixth", "trophies", "secrets"):
        # The stalker is the draft's own, its lists maybe still shared (``PARTS``): the one that changes is copied.
        stalker = d.part("stalkers", int(key))
        items = stalker[kind] = stalker[kind][:]
        return items, None, True
    if kind == "finds":
        return d.part("finds", key), None, True
    if kind in ("dispenser", "dispenser_top"):
        return d.part("dispenser", key), None, kind == "dispenser_top"
    if kind == "area":
        return d.part("threats", key, list), None, True
    raise ValueError(f"unknown location {location!r}")


def move(d: Draft, thing: str, source: str, target: str) -> None:
    """Take ``thing`` out of ``source`` and put it into ``target`` (one fold for every move)."""
    items, slot, _ = _container(d, source)
    if slot is not None:
        items[slot] = None
    else:
        items.remove(thing)
    items, slot, at_end = _container(d, target)
    if slot is not None:
        items[slot] = thing
    elif target.startswith("deck:"):
        items.insert(0, thing)
    elif at_end:
        items.append(thing)
    else:
        items.insert(0, thing)
