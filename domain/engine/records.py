"""Frozen state records, replaced fast, and drafted copy-on-write.

A game folds tens of thousands of events, each replacing a few fields of a
state with some fifty. ``dataclasses.replace`` runs ``__init__`` every time;
copying the instance dict is several times faster and, for plain frozen
records (no ``__post_init__``, no init-only fields), means the same.
"""

from __future__ import annotations

import dataclasses
import marshal
from collections.abc import Callable
from typing import Any, Final, Generic, TypeVar

T = TypeVar("T")


#: The one record ``replace`` writes in place, while a resolution folds an event into it
#: (``domain.engine.resolution``): a record that resolution's own earlier folds made, that no one else holds
#: yet, so copying its fifty-odd fields for every fold after its first bought nothing. Any other record is
#: copied as ever; a slot, not a flag, so a record another resolution (or thread) holds is never the one.
IN_PLACE: Final[list[Any]] = [None]


#: The classes ``replace`` has met that are plain frozen records (data classes): checked once a class.
_RECORDS: Final[set[type]] = set()
#: The compiled (native) records ``replace`` has met, with their fields: the compiled build (mypyc_build.py)
#: makes a record a C struct without an instance dict, so its fields are copied one by one.
_NATIVE: Final[dict[type, tuple[str, ...]]] = {}
#: The compiled records that copy themselves (``COPY``), with that copy and their fields' names.
_COPIED: Final[dict[type, tuple[Callable[[Any], Any], frozenset[str]]]] = {}
#: The method a record may define to copy itself in the compiled build, every field written by name
#: (``made.field = self.field``): mypyc compiles that to a store in the struct, where copying by a name
#: held in a variable looks each field up twice (some 300 instructions a field). Only ever called compiled:
#: in plain Python a frozen record refuses such writes, and ``replace`` copies its instance dict instead.
COPY: Final = "copied"


def compiled(cls: type) -> bool:
    """Whether ``cls`` is a native class of the compiled build (mypyc_build.py): no instance dict, and bare
    classes for annotations."""
    return hasattr(cls, "__mypyc_attrs__")


def replace(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace`` for plain frozen records, without running ``__init__``."""
    return replaced(obj, changes)


def replaced(obj: T, changes: dict[str, Any]) -> T:
    """``replace(obj, **changes)`` for changes already in a dict, which it only reads: the compiled build calls this
    directly, where a call spelled ``replace(obj, **changes)`` goes through Python's calling convention."""
    cls = type(obj)
    if cls in _RECORDS:
        fields: dict[str, Any] = obj.__dict__
        if obj is IN_PLACE[0] and changes.keys() <= fields.keys():
            fields.update(changes)
            return obj
        # A fold replaces some fifty thousand records a second: a name the record lacks shows as a copy with a
        # field too many (no set built of the names each time). The instance dict copied whole and set, not
        # filled name by name: half the cost.
        state = fields.copy()
        state.update(changes)
        if len(state) == len(fields):
            new = object.__new__(cls)
            object.__setattr__(new, "__dict__", state)
            return new
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]  # the standard error for a wrong name
    copying = _COPIED.get(cls)
    if copying is not None and obj is not IN_PLACE[0] and changes.keys() <= copying[1]:
        made = copying[0](obj)
        for name, value in changes.items():
            object.__setattr__(made, name, value)
        return made
    names = _NATIVE.get(cls)
    if names is not None:
        # A frozen record refuses its own ``__setattr__``; object's sets the field (and mypyc calls it directly,
        # where a reference to it kept aside is a generic call through a slot wrapper: 40% dearer a decision).
        if obj is IN_PLACE[0]:
            for name, value in changes.items():
                object.__setattr__(obj, name, value)
            return obj
        made = cls.__new__(cls)
        found = 0
        for name in names:
            if name in changes:
                object.__setattr__(made, name, changes[name])
                found += 1
            else:
                object.__setattr__(made, name, getattr(obj, name))
        if found == len(changes):
            return made
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]  # the standard error for a wrong name
    if hasattr(cls, "__dataclass_fields__"):
        if compiled(cls):
            _NATIVE[cls] = tuple(cls.__mypyc_attrs__)  # type: ignore[attr-defined]  # a compiled class's fields
            copy = getattr(cls, COPY, None)
            if copy is not None:
                _COPIED[cls] = (copy, frozenset(_NATIVE[cls]))
        else:
            _RECORDS.add(cls)
        return replaced(obj, changes)
    return dataclasses.replace(obj, **changes)  # type: ignore[type-var]  # the standard error for a wrong name


#: Each record class ``built`` has met: its fields' names and defaults (``_REQUIRED`` for none; a default factory
#: as ``_Factory``, called for each record).
_BUILDS: Final[dict[type, tuple[tuple[str, ...], tuple[Any, ...]]]] = {}
_REQUIRED: Final = object()


class _Factory:
    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def _shape(cls: type) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    fields = dataclasses.fields(cls)
    defaults = []
    for f in fields:
        if f.default is not dataclasses.MISSING:
            defaults.append(f.default)
        elif f.default_factory is not dataclasses.MISSING:
            defaults.append(_Factory(f.default_factory))
        else:
            defaults.append(_REQUIRED)
    return tuple(f.name for f in fields), tuple(defaults)


def built(cls: type[T], values: dict[str, Any]) -> T:
    """``cls(**values)`` for a plain frozen record (``values`` only read), without the data class's ``__init__``:
    that is Python's even in the compiled build (a guarded setattr per field, some 10,000 instructions for a
    Fallout enemy), where each field set as ``replace`` sets one costs a few hundred. A field ``values`` lacks
    takes its default; a missing or unknown one gets the constructor's own error."""
    shape = _BUILDS.get(cls)
    if shape is None:
        shape = _BUILDS[cls] = _shape(cls)
    made = cls.__new__(cls)
    found = 0
    for name, default in zip(shape[0], shape[1], strict=True):
        if name in values:
            value = values[name]
            found += 1
        elif default is _REQUIRED:
            return cls(**values)
        elif isinstance(default, _Factory):
            value = default.make()
        else:
            value = default
        object.__setattr__(made, name, value)
    if found != len(values):
        return cls(**values)
    return made


def clone(value: Any) -> Any:
    """A deep copy of plain data (dicts, lists, strings, numbers, None): marshal round-trips it several
    times faster than ``copy.deepcopy``."""
    return marshal.loads(marshal.dumps(value))


class Draft(Generic[T]):
    """A writable view of a frozen record whose fields hold plain data (lists, dicts): copy-on-write.

    A fold reads a field through ``draft[name]`` to change it: the field's value is copied on first
    use (``clone``), so the record it came from is never touched, and ``new`` is the record with the
    changed fields. Only what a fold writes is copied, not the whole state. Fields in ``owned`` are
    already the draft's own (a resolution's earlier folds copied them, and no other state holds
    them), so they are written in place.
    """

    def __init__(self, record: T, owned: set[Any] | frozenset[Any] = frozenset()):
        self.base = record
        self.changes: dict[str, Any] = {}
        #: The fields this draft may write in place: copied by it, or owned from the start (by name; a game's
        #: draft that copies part by part marks its parts its own way).
        self.copied: set[Any] = set(owned)

    def __getitem__(self, name: str) -> Any:
        if name in self.changes:
            return self.changes[name]
        value = getattr(self.base, name)
        if name not in self.copied:
            value = clone(value)
            self.copied.add(name)
        self.changes[name] = value
        return value

    def __setitem__(self, name: str, value: Any) -> None:
        self.changes[name] = value
        self.copied.add(name)

    def read(self, name: str) -> Any:
        """A field as the draft has it now, without copying it (to read, never to change)."""
        return self.changes[name] if name in self.changes else getattr(self.base, name)

    @property
    def new(self) -> T:
        return replaced(self.base, self.changes) if self.changes else self.base
