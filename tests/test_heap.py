"""The server freezes the objects its imports built, once per batch of new imports."""

from __future__ import annotations

import gc
import sys
import types

import pytest

from memory_demos import heap
from memory_demos.heap import freeze_imported_objects


@pytest.fixture
def unfrozen(monkeypatch: pytest.MonkeyPatch):
    """A heap with nothing frozen and a freezer that has never run; thawed again afterwards."""
    gc.unfreeze()
    monkeypatch.setattr(heap, "_modules_at_last_freeze", [0])
    yield
    gc.unfreeze()


def test_freezes_after_new_imports_only(unfrozen: None) -> None:
    assert freeze_imported_objects() is True
    frozen = gc.get_freeze_count()
    assert frozen > 0
    assert freeze_imported_objects() is False  # nothing imported since: no new freeze
    assert gc.get_freeze_count() == frozen

    module = types.ModuleType("memory_lab_heap_probe")
    module.payload = [object() for _ in range(100)]
    sys.modules[module.__name__] = module
    try:
        assert freeze_imported_objects() is True
        assert gc.get_freeze_count() > frozen
    finally:
        del sys.modules[module.__name__]


def test_frozen_objects_are_left_out_of_full_collections(unfrozen: None) -> None:
    module = types.ModuleType("memory_lab_heap_probe_2")
    module.payload = [[] for _ in range(5000)]
    sys.modules[module.__name__] = module
    try:
        freeze_imported_objects()
        assert not any(obj is module.payload for obj in gc.get_objects(generation=2))
    finally:
        del sys.modules[module.__name__]
