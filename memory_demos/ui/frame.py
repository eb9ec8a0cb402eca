"""Run every page inside the frame (``app.py``), even when Streamlit starts the page on its own.

Streamlit treats an app with a ``pages/`` folder as an old-style multipage app until its main script
has called ``st.navigation`` once in the process (``AppTest`` resets that before every run). In that
mode a deep link such as ``/compare`` runs ``pages/compare.py`` alone: no page config, no sidebar.
The frame marks the pages it runs (``frame_scope``); a page that finds no mark while ``app.py`` is the
main script runs the frame instead, which then runs the page through the real navigation, in the same
script run (no rerun, so a submitted message or a click is not lost). A page that is itself the main
script (``AppTest.from_file("pages/x.py")``) runs alone, as it always did. The automatic page list of
that mode is never shown: ``client.showSidebarNavigation = false`` in ``.streamlit/config.toml`` hides
it, and the frame draws its own links to the pages it declares.

The interface language is also kept in the URL (``?lang=zh``), so a reload or a shared address keeps it.
"""

from __future__ import annotations

import contextlib
import runpy
import sys
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from pathlib import Path

import streamlit as st

from memory_demos.i18n import language_scope
from memory_demos.session import LANGUAGES, LabSession, widget_key

LANGUAGE_PARAM = "lang"
APP_PATH = Path(__file__).resolve().parents[2] / "app.py"
_IN_FRAME: ContextVar[bool] = ContextVar("memory_lab_in_frame", default=False)


@contextlib.contextmanager
def frame_scope() -> Iterator[None]:
    """Within the block, pages know the frame runs them (``app.py`` wraps ``navigation.run()`` in it)."""
    token = _IN_FRAME.set(True)
    try:
        yield
    finally:
        _IN_FRAME.reset(token)


def _started_without_frame() -> bool:
    """True when Streamlit ran this page on its own although ``app.py``, the frame, is the main script."""
    if _IN_FRAME.get():
        return False
    main_script = getattr(sys.modules.get("__main__"), "__file__", None)
    return main_script is not None and Path(main_script).resolve() == APP_PATH


def run_in_frame(render: Callable[[], None]) -> None:
    """Call ``render`` (the page body) inside the frame; see the module docstring."""
    if _started_without_frame():
        runpy.run_path(str(APP_PATH), run_name="__main__")
        return
    if _IN_FRAME.get():
        render()  # in the language the frame decided for this run
        return
    with language_scope(LabSession().language):  # a page that is its own main script is its own frame
        render()


def in_session_language(callback: Callable[..., None]) -> Callable[..., None]:
    """``callback`` run in the session's language: a widget callback runs before the frame does, so a text
    it writes (a notice) would otherwise be looked up with no language decided for the run."""

    def run(*args: object, **kwargs: object) -> None:
        with language_scope(LabSession().language):
            callback(*args, **kwargs)

    return run


def keep_language_in_url(session: LabSession) -> None:
    """A new browser session (a reload, a shared link) takes its language from ``?lang=``; from then on
    the URL follows the session's language (page changes clear query parameters, so it is set again)."""
    read_key = widget_key("language_read_from_url")
    wanted = st.query_params.get(LANGUAGE_PARAM)
    if not st.session_state.get(read_key):
        st.session_state[read_key] = True
        if wanted in LANGUAGES:
            session.language = wanted
    if wanted != session.language:
        st.query_params[LANGUAGE_PARAM] = session.language
