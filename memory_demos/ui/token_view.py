"""Token counts of a turn, and a prompt's tokens as coloured chips (a styled table, never HTML)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from memory_demos.i18n import purpose_label, t
from memory_demos.turn import Turn

# Soft background colours cycled over tokens, dark enough text on every one of them.
CHIP_COLOURS: tuple[str, ...] = ("#dbe9f6", "#fde2c8", "#d9f0dc", "#f3d9ea", "#e6e0f5", "#fff2b3")
VISIBLE_WHITESPACE = {" ": "\u2423", "\n": "\u21b5\n", "\t": "\u21e5"}


def source_label(token_source: str, approximate: bool) -> str:
    """Where a count came from, translated; a count made for a foreign model is marked approximate."""
    if token_source.startswith("reported"):
        return t("tokens.source_reported")
    counted, _, tools_note = token_source.partition(";")
    encoding = counted.rsplit(" ", 1)[-1] if counted.startswith("counted") else counted
    label = t("tokens.source_counted", encoding=encoding)
    if approximate:
        label += " " + t("tokens.approximate")
    return label + " " + t("tokens.tools_estimated") if tools_note else label


def render_turn_tokens(turn: Turn, approximate: bool) -> None:
    """Prompt, completion, the hidden memory calls and the turn's total, with where the numbers came from."""
    rows = [
        (t("tokens.prompt"), turn.prompt_tokens),
        (t("tokens.completion"), turn.completion_tokens),
        (t("tokens.memory_calls"), turn.memory_tokens),
    ]
    tool_rounds = sum(call.total_tokens for call in turn.tool_round_calls)
    if tool_rounds:
        rows.append((t("tokens.tool_rounds"), tool_rounds))
    rows.append((t("tokens.total"), turn.total_tokens))
    table = pd.DataFrame(rows, columns=[t("tokens.column_what"), t("tokens.column_tokens")])
    st.dataframe(table, hide_index=True, width="stretch")
    if turn.memory_calls:
        st.caption(t("tokens.hidden_calls", n=len(turn.memory_calls)))
        calls = pd.DataFrame(
            [
                {
                    t("tokens.column_purpose"): purpose_label(call.purpose),
                    t("tokens.prompt"): call.prompt_tokens,
                    t("tokens.completion"): call.completion_tokens,
                }
                for call in turn.memory_calls
            ]
        )
        st.dataframe(calls, hide_index=True, width="stretch")
    else:
        st.caption(t("tokens.no_hidden_calls"))
    if turn.failed_calls:
        spent = sum(call.total_tokens for call in turn.failed_calls)
        st.caption(":material/error: " + t("tokens.failed_calls", n=len(turn.failed_calls), tokens=spent))
    sources = {call.token_source for call in turn.calls if call.error is None}
    for source in sorted(sources):
        st.caption(":material/calculate: " + source_label(source, approximate))
    st.caption(t("tokens.seconds", seconds=f"{turn.seconds:.2f}"))


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
