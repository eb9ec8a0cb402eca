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

# Process-wide, not per user: how many modules were loaded at the last freeze.
_lock = threading.Lock()
_modules_at_last_freeze = [0]


def freeze_imported_objects() -> bool:
    """Freeze the heap if modules were imported since the last call; True if it froze.

    Cheap when nothing new was imported (one length comparison), so it can run on every script run.
    Freezing only after imports keeps what it pins to the libraries plus whatever sessions held at that
    moment: a frozen object is still freed when its last reference goes, only a frozen *cycle* that
    becomes garbage stays in memory, and imports stop after the first pages and strategies have loaded.
    """
    with _lock:
        loaded = len(sys.modules)
        if loaded <= _modules_at_last_freeze[0]:
            return False
        _modules_at_last_freeze[0] = loaded
        gc.freeze()
        return True
