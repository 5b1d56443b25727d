"""The snapshot codec reads the same hints from a record's source as Python reads from the record.

The compiled build compiles the state records, which then keep only bare classes as
annotations, so there the codec reads their hints from the source (``written_hints``).
This test holds the reader to Python's own reading, which only the pure build has; on
the compiled build, the equality test (tests/compiled) plays greedy bots, whose worlds
are rebuilt through the codec.
"""

from __future__ import annotations

import dataclasses
import typing

import pytest

from domain.engine.records import compiled
from domain.fallout import state
from domain.fallout.snapshot import written_hints

RECORDS = [v for v in vars(state).values() if isinstance(v, type) and dataclasses.is_dataclass(v) and v.__module__ == state.__name__]


@pytest.mark.skipif(compiled(state.GameState), reason="compiled records keep bare annotations")
def test_every_state_record_reads_the_same_hints_from_its_source():
    assert len(RECORDS) >= 15
    for record in RECORDS:
        assert written_hints(record) == typing.get_type_hints(record), record.__name__
