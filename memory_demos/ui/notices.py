"""One-shot notices (queued by callbacks, shown once on the next render)."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from memory_demos.i18n import translate
from memory_demos.session import LabSession, Notice

_ICONS = {
    "info": ":material/info:",
    "success": ":material/check_circle:",
    "warning": ":material/warning:",
    "error": ":material/error:",
}


def show_notices(notices: Sequence[Notice]) -> None:
    """Draw notices where the caller is (``with`` a container); details are plain text."""
    for notice in notices:
        show = {"success": st.success, "warning": st.warning, "error": st.error}.get(notice.kind, st.info)
        show(translate(notice.message), icon=_ICONS.get(notice.kind, ":material/info:"))
        if notice.detail:
            st.text(translate(notice.detail))


def show_flashes(session: LabSession) -> None:
    """Show and forget the queued notices; details (which may quote a provider) are plain text.

    Notices meant for the chat box are taken there first; any still queued show here, never lost.
    """
    show_notices(session.take_flashes())
