"""A memory's deprecation status, from the warnings LangChain raised while it was built."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from memory_demos.deprecations import Deprecation
from memory_demos.i18n import t


def render_deprecation_status(deprecations: Sequence[Deprecation], *, full_text: bool = False) -> None:
    """A badge line under a pane or guide header; the warnings' own texts in its tooltip, and also in an
    expander when ``full_text`` (no popover: a pane header's popover is its parameter editor)."""
    if not deprecations:
        st.caption(":green-badge[:material/verified: " + t("deprecation.none") + "]")
        return
    labels = "; ".join(item.label for item in deprecations)
    messages = "\n\n".join(f"{item.category}: {item.message}" for item in deprecations)
    st.caption(f":orange-badge[:material/warning: {t('deprecation.raised')}] {labels}", help=messages)
    if full_text:
        with st.expander(t("deprecation.details")):
            for item in deprecations:
                st.caption(f"{item.category} · {item.subject}")
                st.text(item.message)
