"""Download the Compare page's conversation as a runnable script (same strategies, same messages)."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from memory_demos.export import (
    CONVERSATION_SCRIPT_NAME,
    conversation_markdown,
    export_conversation_script,
    result_json,
)
from memory_demos.i18n import current_language, t
from memory_demos.panes import Pane, conversation_messages
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.replay import ReplayResult, StrategyRun


def conversation_result(panes: Sequence[Pane], provider: ProviderConfig) -> ReplayResult:
    """The panes' turns in the replay's shape (``replay --json``): one run per pane, no recall probes."""
    runs = [
        StrategyRun(pane.strategy_id, dict(pane.params), list(pane.turns), [None] * len(pane.turns))
        for pane in panes
    ]
    return ReplayResult(scenario="compare", provider=provider.display_name, runs=runs)


def render_conversation_export(panes: Sequence[Pane], provider: ProviderConfig) -> None:
    """A download button for the script; nothing when no message has been sent yet.

    The script never carries an API key: it reads ``OPENAI_API_KEY`` when a real provider is chosen.
    """
    messages = conversation_messages(panes)
    if not messages:
        return
    script = export_conversation_script(
        [(pane.strategy_id, dict(pane.params)) for pane in panes],
        messages,
        provider=provider,
        language=current_language(),  # the panes were built in it: an auto embedding model follows it
    )
    result = conversation_result(panes, provider)
    with st.container(horizontal=True, gap="small"):
        st.download_button(
            t("compare.export_script"),
            data=script,
            file_name=CONVERSATION_SCRIPT_NAME,
            mime="text/x-python",
            icon=":material/download:",
            help=t("compare.export_script_help"),
        )
        st.download_button(
            t("compare.export_json"),
            data=result_json(result),
            file_name="memory_lab_conversation.json",
            mime="application/json",
            icon=":material/data_object:",
        )
        st.download_button(
            t("compare.export_markdown"),
            data=conversation_markdown(result, current_language()),
            file_name="memory_lab_conversation.md",
            mime="text/markdown",
            icon=":material/description:",
        )
