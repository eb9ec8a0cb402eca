"""A memory's deprecation status, from the warnings LangChain raised while it was built."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from memory_demos.deprecations import Deprecation
from memory_demos.i18n import t


def status_text(deprecations: Sequence[Deprecation]) -> str:
    """One line: each deprecated subject with the version its warning names, or that none was raised."""
    if not deprecations:
        return t("deprecation.none")
    return t("deprecation.raised") + ": " + "; ".join(item.label for item in deprecations)


def render_deprecation_status(deprecations: Sequence[Deprecation]) -> None:
    """A badge line under a pane or guide header; the full warning texts in a collapsed popover."""
    if not deprecations:
        st.caption(":green-badge[:material/verified: " + t("deprecation.none") + "]")
        return
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        st.caption(":orange-badge[:material/warning: " + t("deprecation.raised") + "]")
        with st.popover(
            "; ".join(item.label for item in deprecations), type="tertiary", help=t("deprecation.details")
        ):
            for item in deprecations:
                st.caption(f"{item.category} · {item.subject}")
                st.text(item.message)
