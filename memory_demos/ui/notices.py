"""One-shot notices (queued by callbacks, shown once on the next render)."""

from __future__ import annotations

import streamlit as st

from memory_demos.session import LabSession

_ICONS = {
    "info": ":material/info:",
    "success": ":material/check_circle:",
    "warning": ":material/warning:",
    "error": ":material/error:",
}


def show_flashes(session: LabSession) -> None:
    """Show and forget the queued notices; details (which may quote a provider) are plain text."""
    for notice in session.take_flashes():
        show = {"success": st.success, "warning": st.warning, "error": st.error}.get(notice.kind, st.info)
        show(notice.message, icon=_ICONS.get(notice.kind, ":material/info:"))
        if notice.detail:
            st.text(notice.detail)
