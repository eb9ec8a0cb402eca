"""Token counts of a turn, and a prompt's tokens as coloured chips (a styled table, never HTML)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from memory_demos.i18n import purpose_label, t
from memory_demos.providers.prompt_cache import CacheRule
from memory_demos.turn import COUNTED_BY_NOTHING, COUNTED_BY_PROVIDER, TIKTOKEN_PREFIX, ModelCall, Turn
from memory_demos.ui.cache_view import rule_text

# Soft background colours cycled over tokens, dark enough text on every one of them.
CHIP_COLOURS: tuple[str, ...] = ("#dbe9f6", "#fde2c8", "#d9f0dc", "#f3d9ea", "#e6e0f5", "#fff2b3")
VISIBLE_WHITESPACE = {" ": "\u2423", "\n": "\u21b5\n", "\t": "\u21e5"}


# Where a figure can come from: ``tokens.short.<kind>`` labels it in the table, ``tokens.src.<kind>`` says it.
TOKEN_SOURCE_KINDS = (
    "provider",
    "exact",
    "approximate",
    "tools",
    "tools_unconfirmed",
    "none",
    "mixed",
    "no_calls",
    "cache_estimate",
    "cache_provider",
)


@dataclass(frozen=True)
class TokenSource:
    """Where a figure came from: a short label for a narrow table cell, and the full sentence."""

    short: str
    full: str


def _source(key: str, **values: str) -> TokenSource:
    return TokenSource(t(f"tokens.short.{key}"), t(f"tokens.src.{key}", **values))


def call_source(call: ModelCall, approximate: bool) -> TokenSource:
    """Where one call's counts came from, translated: the provider, tiktoken (exact or not), or nothing."""
    if call.counted_by == COUNTED_BY_PROVIDER:
        return _source("provider")
    if call.counted_by == COUNTED_BY_NOTHING:
        return _source("none")
    encoding = call.counted_by.removeprefix(TIKTOKEN_PREFIX)
    return _source("approximate" if approximate else "exact", encoding=encoding)


def combined_source(sources: Sequence[TokenSource]) -> TokenSource:
    """One source, or "mixed: a + b" when the figures added up were counted in different ways."""
    unique = list(dict.fromkeys(sources))
    if not unique:
        return _source("no_calls")
    if len(unique) == 1:
        return unique[0]
    return _source("mixed", sources=" + ".join(source.full for source in unique))


def token_rows(turn: Turn, approximate: bool) -> list[tuple[str, int, TokenSource]]:
    """The turn's token figures as (what, tokens, source) rows; the total says when its sources differ.

    Tool definitions counted by tiktoken get a row of their own (an estimate); where this server has
    not shown that it reads them, the row says they were sent and may be ignored, and they are not
    counted in the prompt or the total.
    """
    rows: list[tuple[str, int, TokenSource]] = []
    in_total: list[TokenSource] = []
    reply = turn.reply_call
    if reply is not None:
        source = call_source(reply, approximate)
        tools = turn.tool_tokens if reply.counted_by.startswith(TIKTOKEN_PREFIX) else 0
        if tools:
            rows.append((t("tokens.prompt_messages"), reply.prompt_tokens - turn.tool_tokens, source))
            tools_source = _source("tools_unconfirmed" if turn.tools_unconfirmed else "tools")
            rows.append((t("tokens.tool_definitions"), turn.tool_tokens, tools_source))
            if not turn.tools_unconfirmed:
                in_total.append(tools_source)
        else:
            rows.append((t("tokens.prompt"), turn.prompt_tokens, source))
        rows.append((t("tokens.completion"), turn.completion_tokens, source))
        in_total.append(source)
    else:
        rows.append((t("tokens.prompt"), 0, _source("none")))
    memory = [call_source(call, approximate) for call in turn.memory_calls]
    rows.append((t("tokens.memory_calls"), turn.memory_tokens, combined_source(memory)))
    in_total += memory
    tool_rounds = [call_source(call, approximate) for call in turn.tool_round_calls]
    if turn.tool_round_calls:
        tokens = sum(call.total_tokens for call in turn.tool_round_calls)
        rows.append((t("tokens.tool_rounds"), tokens, combined_source(tool_rounds)))
        in_total += tool_rounds
    rows.append((t("tokens.total"), turn.total_tokens, combined_source(in_total)))
    return rows


def cache_token_rows(turn: Turn, rule: CacheRule) -> list[tuple[str, int, TokenSource]]:
    """The reply prompt's cacheable prefix (the estimate, with the provider's rule) and, when the provider
    reported one, its own cached-token figure, each row naming where it came from."""
    call = turn.reply_call
    if call is None or not turn.ok:
        return []
    rows = [
        (t("tokens.cacheable"), call.cacheable_prompt_tokens, _source("cache_estimate", rule=rule_text(rule)))
    ]
    if call.cached_tokens is not None:
        rows.append((t("tokens.cached_reported"), call.cached_tokens, _source("cache_provider")))
    return rows


def _cell(tokens: int, source: TokenSource) -> str:
    """A figure with its source's short label: one column, so a narrow pane keeps both in view."""
    return t("tokens.cell", tokens=f"{tokens:,}", source=source.short)


def render_turn_tokens(turn: Turn, approximate: bool, cache_rule: CacheRule | None = None) -> None:
    """Prompt, completion, the hidden memory calls and the turn's total, each row with its source; with a
    ``cache_rule``, the reply prompt's cacheable prefix (and the provider's cached tokens) after them.

    The table names each row's source in a word or two, and the lines below it say what each word
    means: a pane four to a row has no room for the sentences in a column (they were cut off).
    """
    rows = token_rows(turn, approximate)
    if cache_rule is not None:
        rows += cache_token_rows(turn, cache_rule)
    table = pd.DataFrame(
        [(what, _cell(tokens, source)) for what, tokens, source in rows],
        columns=[t("tokens.column_what"), t("tokens.column_tokens_source")],
    )
    st.table(table, hide_index=True)
    sources = [source for _what, _tokens, source in rows]
    if turn.memory_calls:
        st.caption(t("tokens.hidden_calls", n=len(turn.memory_calls)))
        hidden = [(call, call_source(call, approximate)) for call in turn.memory_calls]
        calls = pd.DataFrame(
            [
                {
                    t("tokens.column_purpose"): purpose_label(call.purpose),
                    t("tokens.prompt"): call.prompt_tokens,
                    t("tokens.completion"): _cell(call.completion_tokens, source),
                }
                for call, source in hidden
            ]
        )
        st.table(calls, hide_index=True)
        sources += [source for _call, source in hidden]
    else:
        st.caption(t("tokens.no_hidden_calls"))
    for source in dict.fromkeys(sources):  # what each short label means, once
        if source.short != source.full:
            st.caption(f"**{source.short}**: {source.full}")
    if turn.failed_calls:
        spent = sum(call.total_tokens for call in turn.failed_calls)
        st.caption(":material/error: " + t("tokens.failed_calls", n=len(turn.failed_calls), tokens=spent))
    st.caption(":material/timer: " + timing_line(turn))


def timing_line(turn: Turn) -> str:
    """Where the turn's time went: waiting (the app's slot, the server's first chunk) and generating."""
    line = t(
        "tokens.timing",
        total=f"{turn.slot_wait_seconds + turn.seconds:.2f}",
        waiting=f"{turn.waiting_seconds:.2f}",
        generating=f"{turn.generating_seconds:.2f}",
    )
    if turn.unsplit_seconds >= 0.005:
        line += " " + t("tokens.timing_unsplit", seconds=f"{turn.unsplit_seconds:.2f}")
    # The rest is the memory's own work outside model calls (embedding, its store, tools): without it
    # "took 0.47 s: 0.00 s waiting, 0.00 s generating" reads as a sum that does not add up.
    total = turn.slot_wait_seconds + turn.seconds
    rest = total - turn.waiting_seconds - turn.generating_seconds - turn.unsplit_seconds
    if rest >= 0.005:
        line += " " + t("tokens.timing_rest", seconds=f"{rest:.2f}")
    return line


@dataclass(frozen=True)
class TokenPiece:
    """One token of a text: its position, id and the text it stands for."""

    position: int
    token_id: int
    text: str


def visible(text: str) -> str:
    """Whitespace made visible, so a token that is only a space still shows."""
    return "".join(VISIBLE_WHITESPACE.get(char, char) for char in text)


def render_token_chips(pieces: Sequence[TokenPiece]) -> None:
    """Tokens as a table whose token cells are coloured in turn, like chips; the token text stays text."""
    frame = pd.DataFrame(
        {
            t("tokenizer.column_position"): [p.position for p in pieces],
            t("tokenizer.column_token"): [visible(p.text) for p in pieces],
            t("tokenizer.column_id"): [p.token_id for p in pieces],
        }
    )
    token_column = t("tokenizer.column_token")

    def colour(column: pd.Series) -> list[str]:
        return [
            f"background-color: {CHIP_COLOURS[i % len(CHIP_COLOURS)]}; color: #1f2933"
            for i in range(len(column))
        ]

    styled = frame.style.apply(colour, subset=[token_column])
    st.dataframe(styled, hide_index=True, width="stretch", height=min(38 + 35 * len(pieces), 520))


def render_token_grid(pieces: Sequence[TokenPiece], per_row: int = 8) -> None:
    """The text read left to right, one coloured cell per token: where the tokenizer cuts, at a glance."""
    rows = [list(pieces[start : start + per_row]) for start in range(0, len(pieces), per_row)]
    columns = [str(i + 1) for i in range(per_row)]
    texts = pd.DataFrame(
        [[visible(p.text) for p in row] + [""] * (per_row - len(row)) for row in rows], columns=columns
    )

    def colour(frame: pd.DataFrame) -> pd.DataFrame:
        styles = pd.DataFrame("", index=frame.index, columns=frame.columns)
        for r, row in enumerate(rows):
            for c, piece in enumerate(row):
                colour_code = CHIP_COLOURS[piece.position % len(CHIP_COLOURS)]
                styles.iloc[r, c] = f"background-color: {colour_code}; color: #1f2933"
        return styles

    st.dataframe(
        texts.style.apply(colour, axis=None),
        hide_index=True,
        width="stretch",
        height=min(38 + 35 * len(rows), 420),
    )
