"""Run every page inside the frame (``app.py``), even when Streamlit starts the page on its own.

Streamlit treats an app with a ``pages/`` folder as an old-style multipage app until its main script
has called ``st.navigation`` once in the process (``AppTest`` resets that before every run). In that
mode a deep link such as ``/compare`` runs ``pages/compare.py`` alone: no page config, no sidebar,
and an auto-generated page list. A page that finds itself started that way runs the frame instead,
which then runs the page through the real navigation, in the same script run (no rerun, so a
submitted message or a click is not lost).
"""

from __future__ import annotations

import runpy
from collections.abc import Callable
from pathlib import Path

APP_PATH = Path(__file__).resolve().parents[2] / "app.py"


def _started_without_frame() -> bool:
    """True (once) if Streamlit ran this page in its pages-folder mode, which it then leaves."""
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:  # pragma: no cover - a Streamlit without this internal: nothing to fix
        return False
    if getattr(PagesManager, "uses_pages_directory", False):
        PagesManager.uses_pages_directory = False
        return True
    return False


def run_in_frame(render: Callable[[], None]) -> None:
    """Call ``render`` (the page body) inside the frame; see the module docstring."""
    if _started_without_frame():
        runpy.run_path(str(APP_PATH), run_name="__main__")
        return
    render()


def ensure_frame() -> None:
    """For pages written as top-level scripts: if started alone, run the frame and stop here.

    The frame runs this page again through the real navigation; ``st.stop`` then ends the outer,
    frameless run so nothing renders twice.
    """
    if _started_without_frame():
        import streamlit as st

        runpy.run_path(str(APP_PATH), run_name="__main__")
        st.stop()
