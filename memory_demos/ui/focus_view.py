"""The focus view: one pane's turn at full width, the inspector a pane four to a row is too narrow for.

From the top: the prompt as one stacked bar of its sections against the context window (and the same
bar against the prompt itself, each section's tokens printed), as the Letta context viewer draws it;
then every message of the prompt in full with its tokens and what changed this turn, beside every
hidden call memory made, each with its own prompt and reply; then the turn's tokens and the memory's
state. Plain data in (a ``PaneView`` and its turns), nothing run.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from memory_demos.i18n import current_language, purpose_label, t
from memory_demos.prompt_sections import diff_prompts, section_totals, turn_prompt_parts
from memory_demos.session import widget_key
from memory_demos.turn import ModelCall, Turn
from memory_demos.ui.charts import render_context_gauge
from memory_demos.ui.pane import PaneView
from memory_demos.ui.prompt_view import (
    render_changes,
    render_prompt,
    render_tool_gloss,
    role_label,
    tool_call_line,
)
from memory_demos.ui.state_view import render_state
from memory_demos.ui.token_view import render_turn_tokens


def pick_turn(view: PaneView, turns: Sequence[Turn]) -> int:
    """The index of the turn to show: the newest, or the one picked (labels in the session's language)."""
    index = len(turns) - 1
    if len(turns) < 2:
        return index
    turn_label = t("pane.turn_n", n="{n}")  # translated once, filled per option
    # The key carries the turn count (a new turn brings the picker back to the newest) and the language
    # (a live switch redraws the labels instead of keeping the old language's).
    return int(
        st.selectbox(
            t("pane.inspect_turn"),
            list(range(len(turns))),
            index=index,
            format_func=lambda i: turn_label.format(n=i + 1),
            key=widget_key("focus", view.pane_id, "turn", current_language(), str(len(turns))),
        )
    )


def _call_block(call: ModelCall) -> None:
    """One hidden model call: what it was for and cost, every message it sent in full, and its reply."""
    heading = t(
        "focus.call_heading",
        purpose=purpose_label(call.purpose),
        prompt=f"{call.prompt_tokens:,}",
        completion=f"{call.completion_tokens:,}",
    )
    with st.container(border=True):
        st.markdown(f"**:material/call_split: {heading}**")
        for message in call.messages:
            st.caption(t("prompt.message_heading", role=role_label(message.role), tokens=message.tokens))
            st.code(message.content or " ", language=None, wrap_lines=True)
            render_tool_gloss(message.role, message.content)
        if call.error is None and not call.output.strip() and call.reply_tool_calls:
            # No text: the call answered by calling tools (a memory manager's writes, an agent's round).
            calls = call.reply_tool_calls
            st.caption(":material/build: " + t("focus.call_reply_tool_calls", n=len(calls)))
            st.code("\n".join(tool_call_line(c) for c in calls), language=None, wrap_lines=True)
        else:
            st.caption(":material/reply: " + t("focus.call_reply"))
            st.code(call.error or call.output or " ", language=None, wrap_lines=True)


def render_hidden_calls(turn: Turn) -> None:
    """Every call the turn made besides the reply: tool rounds first, then memory's own calls."""
    calls = [*turn.tool_round_calls, *turn.memory_calls]
    st.markdown(f"**:material/visibility_off: {t('focus.hidden_calls', n=len(calls))}**")
    if not calls:
        st.caption(t("tokens.no_hidden_calls"))
    for call in calls:
        _call_block(call)


def render_focus(view: PaneView, turns: Sequence[Turn]) -> None:
    """The focus view of one pane (its turns as the pane shows them)."""
    if not turns:
        st.caption(t("pane.empty"))
        return
    index = pick_turn(view, turns)
    turn = turns[index]
    previous = turns[index - 1] if index > 0 else None
    parts = turn_prompt_parts(turn, view.system_prompt, view.count_tokens)
    totals = section_totals(parts)
    st.markdown(f"**:material/stacked_bar_chart: {t('focus.section_bar')}**")
    window_key = widget_key("focus", view.pane_id, "window", str(index))
    # The offline model has no window: its caption says what the bar is scaled to, as the pane's does.
    render_context_gauge(
        totals,
        view.context_window,
        False,
        key=window_key,
        no_window=view.no_context_window,
        sent=turn.prompt_tokens if not turn.unconfirmed_tool_tokens else 0,
    )
    st.caption(t("focus.section_bar_prompt"))
    render_context_gauge(
        totals, view.context_window, True, key=widget_key("focus", view.pane_id, "zoom", str(index))
    )
    prompt_column, calls_column = st.columns([3, 2], gap="medium")
    with prompt_column:
        heading = t("focus.prompt", messages=len(turn.injected_prompt), tokens=f"{turn.prompt_tokens:,}")
        st.markdown(f"**:material/input: {heading}**")
        tool_calls = {
            i: [dict(call) for call in message.tool_calls]
            for i, message in enumerate(turn.injected_prompt)
            if message.tool_calls
        }
        render_prompt(parts, tool_calls)
        st.markdown(f"**:material/difference: {t('pane.what_changed')}**")
        render_changes(
            diff_prompts(previous, turn, view.system_prompt, view.count_tokens), first_turn=previous is None
        )
    with calls_column:
        render_hidden_calls(turn)
        st.markdown(f"**:material/toll: {t('pane.tokens')}**")
        render_turn_tokens(turn, view.approximate, view.cache_rule)
    render_conversation_scope(view)
    # Full width, cells wrapped: a summary or an id in a table is read whole, not cut at the column's edge.
    st.markdown(f"**:material/memory: {t('pane.memory_state')}**")
    render_state(turn.state, static=True)


def render_conversation_scope(view: PaneView) -> None:
    """Which of the user's conversations this is, and whom each part of the memory belongs to: why a new
    conversation answers from a store and not from its thread (``StrategyInfo.keeps``)."""
    st.markdown(f"**:material/forum: {t('focus.conversation', n=view.conversation_number)}**")
    earlier = max(len(view.conversations) - 1, 0)
    st.caption(t("focus.conversation_caption", id=view.conversation_id or "—", earlier=earlier))
    rows = [
        {
            "part": t(f"memory.part.{part.name}"),
            "scope": t(f"memory.scope.{part.scope}"),
            "in_new_conversation": t(
                "state.value.carried_over" if part.scope == "user" else "state.value.starts_empty"
            ),
        }
        for part in view.info.keeps
    ]
    render_state({"memory_parts": rows}, static=True)
