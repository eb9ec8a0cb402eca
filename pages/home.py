"""Home: what Memory Lab teaches, which model is answering, and where each lesson lives."""

from __future__ import annotations

import streamlit as st

from memory_demos.i18n import t
from memory_demos.session import get_session
from memory_demos.ui.frame import run_in_frame
from memory_demos.ui.nav import listed_pages
from memory_demos.ui.text import provider_label
from memory_demos.ui.workshop import instructor_unlocked, lab_config


def render() -> None:
    """The page: the lesson in a few lines, the active model, and links to every page."""
    session = get_session()

    st.title(t("home.title"), anchor=False)
    st.markdown(t("home.lead"))
    for key in ("home.point_prompt", "home.point_tokens", "home.point_state"):
        st.markdown("- " + t(key))

    with st.container(border=True):
        st.caption(t("home.provider_label"))
        st.text(provider_label(session.provider))
        if session.provider.kind == "offline":
            st.caption(t("home.offline_note"))

    st.subheader(t("home.pages"), anchor=False)
    for spec in listed_pages(lab_config().workshop.enabled, host=instructor_unlocked()):
        if spec.default:
            continue
        with st.container(border=True):
            st.page_link(spec.path, label=t(spec.title_key), icon=spec.icon)
            st.caption(t(spec.blurb_key))


run_in_frame(render)
