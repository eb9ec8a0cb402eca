"""The server freezes the objects its imports built, after new imports or once a period."""

from __future__ import annotations

import gc
import sys
import types
import weakref

import pytest

from memory_demos import heap
from memory_demos.heap import REFREEZE_SECONDS, FreezeMark, freeze_imported_objects


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Cycle:
    """An object that only the cyclic collector can free."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch):
    """A heap with nothing frozen and a freezer that has never run; thawed again afterwards."""
    gc.unfreeze()
    monkeypatch.setattr(heap, "_last", FreezeMark())
    yield Clock()
    gc.unfreeze()


def test_freezes_after_new_imports_or_a_period_only(clock: Clock) -> None:
    assert freeze_imported_objects(clock) is True
    frozen = gc.get_freeze_count()
    assert frozen > 0
    clock.now += REFREEZE_SECONDS / 2
    assert freeze_imported_objects(clock) is False  # nothing imported, period not over: no new freeze
    assert gc.get_freeze_count() == frozen

    module = types.ModuleType("memory_lab_heap_probe")
    module.payload = [object() for _ in range(100)]
    sys.modules[module.__name__] = module
    try:
        assert freeze_imported_objects(clock) is True
        assert not any(obj is module.payload for obj in gc.get_objects())  # frozen with the module
    finally:
        del sys.modules[module.__name__]
    clock.now += REFREEZE_SECONDS
    assert freeze_imported_objects(clock) is True


def test_frozen_objects_are_left_out_of_full_collections(clock: Clock) -> None:
    payload = [[] for _ in range(5000)]
    freeze_imported_objects(clock)
    assert not any(obj is payload for obj in gc.get_objects(generation=2))


def test_a_frozen_cycle_that_became_garbage_is_freed_at_the_next_freeze(clock: Clock) -> None:
    cycle = Cycle()
    ref = weakref.ref(cycle)
    freeze_imported_objects(clock)
    del cycle
    gc.collect()
    assert ref() is not None  # frozen: the collector skips it
    clock.now += REFREEZE_SECONDS
    freeze_imported_objects(clock)
    assert ref() is None
