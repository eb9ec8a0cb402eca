"""Short full garbage collections on a long-running server: freeze what the imports built.

LangChain, LangGraph, Streamlit and Chroma leave about 200,000 long-lived objects (modules, classes,
schemas) that Python's cyclic collector re-scans on every full (generation 2) collection: about 100 ms
of CPU each on these machines, paid by whichever message happens to trigger it. ``gc.freeze`` moves
every object alive now into a permanent generation the collector skips; objects made later are
collected as before.
"""

from __future__ import annotations

import gc
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

# A frozen cycle that becomes garbage (a session that ended) is only freed once thawed: thawing and
# collecting at least this often bounds how long it stays, for one full collection per period.
REFREEZE_SECONDS = 600.0


@dataclass
class FreezeMark:
    """Process-wide (no user data): modules loaded at the last freeze, and when the heap was last thawed
    and collected (None until the first call)."""

    modules: int = 0
    collected_at: float | None = None


_lock = threading.Lock()
_last = FreezeMark()


def freeze_imported_objects(clock: Callable[[], float] = time.monotonic) -> bool:
    """Freeze the heap if modules were imported since the last freeze; True if it froze.

    Cheap when nothing new was imported (a length and a clock comparison), so it can run on every
    script run; ``gc.freeze`` itself only moves lists. Every ``REFREEZE_SECONDS`` it thaws the heap,
    collects and freezes again instead: garbage cycles frozen since (sessions that have ended) are
    freed then. Collecting on every import would cost a full collection each time a lazily imported
    module appears, which a busy room does dozens of times in its first minute.
    """
    with _lock:
        loaded, now = len(sys.modules), clock()
        if _last.collected_at is None:
            _last.collected_at = now
        if now - _last.collected_at >= REFREEZE_SECONDS:
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            _last.modules, _last.collected_at = loaded, now
            return True
        if loaded > _last.modules:
            gc.freeze()
            _last.modules = loaded
            return True
        return False
