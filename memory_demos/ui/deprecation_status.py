"""A memory's deprecation status, from the warnings LangChain raised while it was built."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from memory_demos.deprecations import Deprecation
from memory_demos.i18n import t


def render_deprecation_status(deprecations: Sequence[Deprecation], *, full_text: bool = False) -> None:
    """A short badge under a pane or guide header, then who raised the warning (text, which wraps), the
    warnings themselves in its tooltip; with ``full_text`` each subject and version instead, and an
    expander with the warnings' texts. (No popover: a pane header's popover is its parameter editor.)

    The badge says only "Deprecated": a badge does not wrap, and a longer one was cut in a pane four to a
    row. Every warning stays whole in the tooltip, as LangChain raised it.
    """
    if not deprecations:
        st.caption(":green-badge[:material/verified: " + t("deprecation.none") + "]")
        return
    versions = sorted({item.since for item in deprecations if item.since})
    since = t("deprecation.since", versions=", ".join(versions)) if versions else ""
    labels = t("deprecation.label_separator").join(item.label for item in deprecations)
    subjects = ", ".join(dict.fromkeys(f"`{item.subject}`" for item in deprecations))
    badge = f":orange-badge[:material/warning: {t('deprecation.raised')}]"
    raised_by = t("deprecation.raised_by", subjects=subjects, since=since)
    st.caption(f"{badge} {labels}" if full_text else f"{badge} {raised_by}", help=_explained(deprecations))
    if full_text:
        with st.expander(t("deprecation.details")):
            for item in deprecations:
                st.caption(f"{item.category} · {item.subject}")
                st.text(item.message)


def deprecation_help(deprecations: Sequence[Deprecation]) -> str:
    """The tooltip of a pane's small "Deprecated" badge: which classes raised it, since which versions,
    then each warning whole, as LangChain raised it (the details open on demand)."""
    versions = sorted({item.since for item in deprecations if item.since})
    since = t("deprecation.since", versions=", ".join(versions)) if versions else ""
    subjects = ", ".join(dict.fromkeys(f"`{item.subject}`" for item in deprecations))
    return t("deprecation.raised_by", subjects=subjects, since=since) + "\n\n" + _explained(deprecations)


def raised_by_text(item: Deprecation) -> str:
    """Which class raised the warning and what this memory uses it for (helper classes such as
    ``InMemoryChatMessageHistory`` make a modern memory carry a warning)."""
    role_key = f"deprecation.role.{item.subject}"
    role = t(role_key)
    return t("deprecation.raised_by_help", subject=item.subject, role="" if role == role_key else role)


def _explained(deprecations: Sequence[Deprecation]) -> str:
    return "\n\n".join(f"{raised_by_text(item)}\n\n{item.category}: {item.message}" for item in deprecations)
