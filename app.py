"""Memory Lab: the frame. Page set-up, the workshop gate, navigation, and the sidebar (provider, language)."""

from __future__ import annotations

import streamlit as st

from memory_demos.heap import freeze_imported_objects
from memory_demos.i18n import LANGUAGE_NAMES, language_scope, t
from memory_demos.session import LANGUAGES, get_session, widget_key
from memory_demos.ui.frame import frame_scope, keep_language_in_url
from memory_demos.ui.nav import declared_pages, favicon, listed_pages
from memory_demos.ui.styles import apply_page_styles
from memory_demos.ui.text import provider_label
from memory_demos.ui.workshop import (
    admitted,
    attendee_budget,
    capture_resume_token,
    instructor_unlocked,
    load_config_or_stop,
    open_instructor_view_now,
    open_resume_link,
    recognise_attendee,
    remember_attendee,
    render_access_gate,
    track_session,
)

freeze_imported_objects()  # full garbage collections then skip the libraries' objects (see heap.py)


def _language_changed() -> None:
    session.language = session.widgets[widget_key("language_sidebar")]


session = get_session()
keep_language_in_url(session)  # before the access gate, which is drawn in the session's language
# The language of this run, decided once here: every view below translates in it.
with language_scope(session.language):
    # A drawn favicon: Material-icon favicons would be fetched from fonts.gstatic.com.
    st.set_page_config(page_title=t("app.name"), page_icon=favicon(), layout="wide")
    config = load_config_or_stop()
    workshop = config.workshop
    if workshop.enabled:
        # A returning attendee's signed cookie admits them and finds their budget; the attendee is the
        # user whose long-term memory the stores keep (the browser session, outside a workshop).
        session.adopt_user(recognise_attendee(workshop))
    session.configure(config, *attendee_budget(session, workshop))
    pages = {
        spec.path: st.Page(spec.path, title=t(spec.title_key), icon=spec.icon, default=spec.default)
        for spec in declared_pages()
    }
    if not admitted(workshop):
        # The navigation is declared (so a deep link stays valid) but hidden: nothing but the gate runs.
        st.navigation(list(pages.values()), position="hidden")
        render_access_gate(workshop)
        st.stop()

    # Hidden: the sidebar draws its own links, so that ``client.showSidebarNavigation = false`` can hide
    # the automatic page list Streamlit shows for a ``pages/`` folder before this frame first runs.
    navigation = st.navigation(list(pages.values()), position="hidden")
    if workshop.enabled:
        remember_attendee(workshop)
        if open_instructor_view_now():  # the host code was given at the gate
            st.switch_page(pages["pages/instructor.py"])
    track_session(session, workshop)
    resume_token = capture_resume_token(session)
    if resume_token is not None and open_resume_link(session, workshop, resume_token):
        st.switch_page("pages/compare.py")

    with st.sidebar:
        # The host's pages are linked only once this session gave the host code; attendees never see them.
        for spec in listed_pages(workshop.enabled, host=instructor_unlocked()):
            st.page_link(pages[spec.path])
        st.divider()
        st.markdown(f"**:material/psychology: {t('app.name')}**")
        st.caption(t("sidebar.provider"))
        st.text(provider_label(session.provider))
        counter = session.provider.tokenizer
        counted_with = "sidebar.tokenizer_approximate" if counter.approximate else "sidebar.tokenizer"
        st.caption(t(counted_with, encoding=counter.encoding_name))
        # On Settings itself the shortcut would be a second link to the current page, drawn highlighted
        # beside the Settings entry above: one page, two current marks.
        if navigation.url_path != pages["pages/settings.py"].url_path:
            st.page_link("pages/settings.py", label=t("sidebar.change_provider"), icon=":material/settings:")
        st.divider()
        # The widget mirrors the session's language; a callback writes the choice back.
        session.widgets[widget_key("language_sidebar")] = session.language
        st.segmented_control(
            t("sidebar.language"),
            LANGUAGES,
            format_func=LANGUAGE_NAMES.__getitem__,
            key=widget_key("language_sidebar"),
            on_change=_language_changed,
            required=True,
        )

    apply_page_styles()
    with frame_scope():
        navigation.run()
