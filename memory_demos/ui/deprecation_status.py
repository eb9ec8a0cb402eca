"""A memory's deprecation status, from the warnings LangChain raised while it was built."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from memory_demos.deprecations import Deprecation
from memory_demos.i18n import t


def render_deprecation_status(deprecations: Sequence[Deprecation], *, full_text: bool = False) -> None:
    """One badge line under a pane or guide header, the warnings themselves in its tooltip; with
    ``full_text`` also each subject and version, and an expander with the warnings' texts. (No popover:
    a pane header's popover is its parameter editor.)"""
    if not deprecations:
        st.caption(":green-badge[:material/verified: " + t("deprecation.none") + "]")
        return
    versions = sorted({item.since for item in deprecations if item.since})
    since = t("deprecation.since", versions=", ".join(versions)) if versions else ""
    labels = "; ".join(item.label for item in deprecations)
    messages = "\n\n".join(f"{item.category}: {item.message}" for item in deprecations)
    badge = f":orange-badge[:material/warning: {t('deprecation.raised')}{since}]"
    st.caption(f"{badge} {labels}" if full_text else badge, help=f"{labels}\n\n{messages}")
    if full_text:
        with st.expander(t("deprecation.details")):
            for item in deprecations:
                st.caption(f"{item.category} · {item.subject}")
                st.text(item.message)
