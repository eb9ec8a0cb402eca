"""Short full garbage collections on a long-running server: freeze what the imports built.

LangChain, LangGraph, Streamlit and Chroma leave about 200,000 long-lived objects (modules, classes,
schemas) that Python's cyclic collector re-scans on every full (generation 2) collection: about 100 ms
of CPU each on these machines, paid by whichever message happens to trigger it. ``gc.freeze`` moves
every object alive now into a permanent generation the collector skips; objects made later are
collected as before.
"""

from __future__ import annotations

import gc
import math
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

# A frozen cycle that becomes garbage (a session that ended) is only freed once thawed: re-freezing at
# least this often bounds how long it stays, for one full collection per period.
REFREEZE_SECONDS = 600.0


@dataclass
class FreezeMark:
    """When the heap was last frozen, and how many modules were loaded then (process-wide, no user data)."""

    modules: int = 0
    at: float = -math.inf


_lock = threading.Lock()
_last = FreezeMark()


def freeze_imported_objects(clock: Callable[[], float] = time.monotonic) -> bool:
    """Freeze the heap if modules were imported since the last freeze, or it is ``REFREEZE_SECONDS`` old.

    True if it froze. Cheap otherwise (a length and a clock comparison), so it can run on every script
    run. Freezing thaws first and collects: garbage cycles frozen last time (sessions that have ended
    since) are freed, and only what is alive now is frozen.
    """
    with _lock:
        loaded, now = len(sys.modules), clock()
        if loaded <= _last.modules and now - _last.at < REFREEZE_SECONDS:
            return False
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        _last.modules, _last.at = loaded, now
        return True
