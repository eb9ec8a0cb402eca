"""A run's failed calls, said first and plainly: how many, of which kind, and what would help.

Takes plain data (failure kinds and counts, as ``ReplayResult.failure_counts`` gives them) and translates
it here, in the view; the core only names kinds.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from memory_demos.i18n import t
from memory_demos.providers.errors import OWN_SENTENCE_KINDS

# The kinds whose help needs the error's own words (they are in the turn, not in the summary).
_HELP_IN_THE_TURN = {"rejected": "failures.rejected_help", "injected": "failures.injected_help"}


def kind_words(kind: str | None) -> str:
    """A failure kind in a few words of the session's language ("server unreachable")."""
    return t(f"failure_kind.{kind or 'other'}")


def kind_help(kind: str | None) -> str:
    """What would help with a failure of ``kind``: the catalogue's sentence for it."""
    kind = kind or "other"
    if kind in OWN_SENTENCE_KINDS:
        return t(f"error.{kind}")
    return t(_HELP_IN_THE_TURN.get(kind, "failures.other_help"))


def failure_lines(counts: Mapping[str, int]) -> str:
    """One Markdown bullet per kind: count, the kind in words, and what would help."""
    return "\n".join(
        "- " + t("failures.line", count=count, kind=kind_words(kind), help=kind_help(kind))
        for kind, count in counts.items()
    )


def render_stopped(kind: str, failed_turns: int, detail: str = "") -> None:
    """A run that gave up at once (an unreachable server, a refused key): the kind, and what helps."""
    key = "failures.stopped_after" if failed_turns else "failures.stopped_before"
    st.error(
        t(key, kind=kind_words(kind), n=failed_turns) + "\n\n" + kind_help(kind), icon=":material/cloud_off:"
    )
    if detail:
        st.code(detail, language=None, wrap_lines=True)


def render_failure_summary(counts: Mapping[str, int], total: int) -> None:
    """Some turns of a run failed: how many, of which kinds, each with its remedy (nothing if none did)."""
    failed = sum(counts.values())
    if not failed:
        return
    st.warning(
        t("failures.some", failed=failed, total=total) + "\n\n" + failure_lines(counts),
        icon=":material/error:",
    )
