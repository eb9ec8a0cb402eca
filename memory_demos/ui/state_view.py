"""Render a strategy's memory state (its ``snapshot()`` dict) generically, by the shape of each value.

Scalars become one settings table; lists of records become tables (messages, vector hits with
scores, checkpoints, store items); dicts of scalars become key/value tables (entities); long strings
(summaries) are shown as text; anything else falls back to ``st.json``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd
import streamlit as st

from memory_demos.i18n import t, translate_all
from memory_demos.ui.text import WRAP_POINT, embedding_model_text

_SCALARS = (str, int, float, bool, type(None))
LONG_TEXT = 80
# A run of Latin characters with no place to break (a thread id "user:conversation"): longer than this, it
# may be wider than a static table's cell (Streamlit caps it at 400 px: 57 hex digits, 44 capitals), cut.
UNBROKEN_RUN = re.compile(r"[!-~]{41,}")
# Inside such a run in a table's cell, a line may break after a separator of a URL or an id, and else
# every WRAP_EVERY characters: the cell wraps instead of cutting the value at its edge.
_AFTER_SEPARATOR = re.compile(r"(?<=[/.:_\-?&=#@,;|+])")
WRAP_EVERY = 24
# State keys holding rows of {key, ttl_seconds, read_at}, each with the caption saying where the TTLs were
# read: Redis keys (history_store.key_ttls), LangGraph store items (langgraph_store.expiry_state).
TTL_CAPTIONS = {"redis_keys": "state.ttl.caption", "store_ttls": "state.ttl.store_caption"}
# Record fields whose values are words of the interface (a message's role, a prompt section's name):
# shown in the session's language, while the snapshot keeps its own values.
TRANSLATED_FIELDS = ("role", "section", "operation", "status")
# State keys whose flat mapping is keyed by one of those fields (the hybrid's drops per section).
KEYED_BY = {"dropped": "section"}
# State keys whose text value is a name the interface words itself: a shipped embedding model is named by
# the label the pane's caption and the Failure lab use, in the session's language (离线 in Chinese).
SHOWN_AS: Mapping[str, Callable[[str], str]] = {"embedding_model": embedding_model_text}


def state_label(key: str) -> str:
    """A translated label for a known state key, else the key itself made readable."""
    label = t(f"state.key.{key}")
    return key.replace("_", " ") if label == f"state.key.{key}" else label


def column_label(field: str) -> str:
    """A translated header for a known record field, else the field's own name."""
    label = t(f"state.column.{field}")
    return field if label == f"state.column.{field}" else label


def value_label(field: str, value: Any) -> Any:
    """``value`` of record field ``field`` in the session's language if the catalogue has it, else as is."""
    if field not in TRANSLATED_FIELDS or not isinstance(value, str):
        return value
    key = f"{field}.{value.replace(' ', '_')}"
    label = t(f"state.value.{key}")
    return value if label == f"state.value.{key}" else label


def _cell(value: Any) -> Any:
    if isinstance(value, _SCALARS):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def uniform_columns(frame: pd.DataFrame) -> pd.DataFrame:
    """Columns mixing types (e.g. numbers and text) become text, so Arrow can carry them."""
    for column in frame.columns:
        kinds = {
            type(v) for v in frame[column] if v is not None and not (isinstance(v, float) and pd.isna(v))
        }
        if len(kinds - {int, float}) > 0 and len(kinds) > 1:
            frame[column] = frame[column].map(lambda v: "" if v is None else str(v))
    return frame


ABSENT = "—"  # a count a record does not have (a write no single call can be named for)


def _whole_numbers_with_gaps(rows: list[Mapping[str, Any]]) -> set[str]:
    """Fields holding whole numbers in some records and nothing in others: pandas would make them floats
    ("12.0") with NaN for the gaps."""
    fields: set[str] = set()
    for field in {str(k) for row in rows for k in row}:
        values = [row.get(field) for row in rows]
        present = [v for v in values if v is not None]
        whole = all(isinstance(v, int) and not isinstance(v, bool) for v in present)
        if present and whole and len(present) < len(values):
            fields.add(field)
    return fields


def records_frame(rows: list[Any]) -> pd.DataFrame:
    """A list of records (or plain values) as a table whose every cell is displayable; a count absent
    from some records shows as an integer where present and as ``ABSENT`` where not."""
    if all(isinstance(row, Mapping) for row in rows):
        gaps = _whole_numbers_with_gaps(rows)
        shown = [
            {
                column_label(str(k)): (ABSENT if v is None else str(v))
                if str(k) in gaps
                else _cell(value_label(str(k), v))
                for k, v in r.items()
            }
            for r in rows
        ]
        frame = pd.DataFrame(shown)
        for field in gaps:  # a record without the field at all
            frame[column_label(field)] = frame[column_label(field)].fillna(ABSENT)
        return uniform_columns(frame)
    return uniform_columns(pd.DataFrame({t("state.column_value"): [_cell(row) for row in rows]}))


def _is_flat_mapping(value: Any) -> bool:
    return isinstance(value, Mapping) and all(isinstance(v, _SCALARS) for v in value.values())


# Every ASCII punctuation character: CommonMark lets a backslash make each of them a literal.
_MARKDOWN_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")


def literal_markdown(value: Any) -> str:
    """``value`` as Markdown that renders as exactly its text: every punctuation character escaped, so no
    link, image, emphasis or HTML tag in memory contents can render (``st.table`` draws cells as Markdown)."""
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", str(value))


def wrappable_runs(text: str) -> str:
    """``text`` with a line-break opportunity (a zero-width space) inside each run too long for a cell.

    A static table's cell is at most 400 px wide and breaks only at spaces, so an id or a URL was cut at
    its edge. Broken after "://" too, the URL is no longer turned into a link: it stays text, as data."""

    def wrappable(run: re.Match[str]) -> str:
        pieces = []
        for part in filter(None, _AFTER_SEPARATOR.split(run.group(0))):
            pieces += [part[start : start + WRAP_EVERY] for start in range(0, len(part), WRAP_EVERY)]
        return WRAP_POINT.join(pieces)

    return UNBROKEN_RUN.sub(wrappable, text)


def scalar_text(value: Any) -> str:
    """A scalar as a table shows it: a yes/no in words of the session's language (``str`` gave the
    Python names, "False" on a Chinese page), a fraction to four places as a pane's table shows it (a
    similarity score read 0.8618001805159526 in the focus view, 0.8618 in the pane), anything else as its
    text."""
    if isinstance(value, bool):
        return t("state.yes" if value else "state.no")
    if isinstance(value, float) and math.isfinite(value):
        if value == 0 or abs(value) >= 0.001:
            return f"{value:.4f}".rstrip("0").rstrip(".")
        return f"{value:.3g}"  # a tiny value keeps its digits instead of reading 0
    return str(value)


def _markdown_cell(value: Any) -> str:
    """A static table's cell: empty for a missing value, else its text as literal Markdown that wraps."""
    missing = value is None or (isinstance(value, float) and pd.isna(value))
    return "" if missing else literal_markdown(wrappable_runs(scalar_text(value)))


def _table(frame: pd.DataFrame, static: bool) -> None:
    """A table: scrollable (``st.dataframe``) in a pane, or static with wrapped cells (``st.table``) where
    every value must be read whole (the focus view); a static table's cells are escaped Markdown."""
    if static:
        shown = frame.map(_markdown_cell)
        shown.columns = [literal_markdown(column) for column in frame.columns]
        st.table(shown, hide_index=True)
    else:
        st.dataframe(frame, hide_index=True, width="stretch")


def without_repeated_namespace(state: Mapping[str, Any]) -> dict[str, Any]:
    """``state`` with a records' ``namespace`` field left out where every record repeats the state's own
    ``namespace`` (shown above them): in the focus view that column took the width, and a fact's value
    (王芳) was wrapped one character to a line. Records from other namespaces keep the column."""
    namespace = state.get("namespace")
    if not isinstance(namespace, list):
        return dict(state)

    def shown(value: Any) -> Any:
        rows = value if isinstance(value, list) and value else None
        if rows is None or not all(
            isinstance(row, Mapping) and row.get("namespace") == namespace for row in rows
        ):
            return value
        return [{key: cell for key, cell in row.items() if key != "namespace"} for row in rows]

    return {key: value if key == "namespace" else shown(value) for key, value in state.items()}


def render_state(state: Mapping[str, Any], static: bool = False) -> None:
    """The memory state, one block per key; texts as text, records as tables (``static``: cells wrap)."""
    state = {
        key: SHOWN_AS[key](value) if key in SHOWN_AS and isinstance(value, str) else value
        for key, value in without_repeated_namespace(translate_all(state)).items()
    }
    if not state:
        st.caption(t("state.empty"))
        return
    if state.get("error"):
        st.error(t("state.error"), icon=":material/error:")
        st.text(str(state["error"]))
    scalars = {
        k: v
        for k, v in state.items()
        if k != "error" and isinstance(v, _SCALARS) and not _long_text(v) and not (static and _unbroken(v))
    }
    if scalars:
        _render_pairs(
            [state_label(k) for k in scalars],
            [t("state.none") if v is None or v == "" else scalar_text(v) for v in scalars.values()],
            static,
        )
    for key, value in state.items():
        if key == "error" or key in scalars:
            continue
        st.caption(f"**{state_label(key)}**")
        if key in TTL_CAPTIONS and isinstance(value, list):
            render_ttls(value, static, TTL_CAPTIONS[key])
        elif static and _unbroken(value):  # read whole, wrapped, and copied exactly (its copy button)
            st.code(value, language=None, wrap_lines=True)
        else:
            _render_value(value, keyed_by=KEYED_BY.get(key, ""), static=static)


def _render_pairs(keys: list[str], values: list[str], static: bool = False) -> None:
    """A key / value table."""
    frame = pd.DataFrame({t("state.column_key"): keys, t("state.column_value"): values})
    _table(frame, static)


def _render_value(value: Any, keyed_by: str = "", static: bool = False) -> None:
    """One state value: text as text, records and flat mappings as tables, groups as one table each."""
    if isinstance(value, list | Mapping) and not value:  # an empty mapping is a flat one
        st.caption(t("state.none"))
    elif isinstance(value, str):
        st.text(value)
    elif isinstance(value, list):
        _table(records_frame(value), static)
    elif _is_flat_mapping(value):
        keys = [str(value_label(keyed_by, str(k))) for k in value]
        _render_pairs(keys, [scalar_text(v) for v in value.values()], static)
    elif isinstance(value, Mapping) and all(isinstance(v, list | Mapping) for v in value.values()):
        # e.g. store items grouped by namespace: one table per group.
        for group, items in value.items():
            st.text(str(group))
            rows = items if isinstance(items, list) else [items]
            _table(records_frame(rows), static)
    else:
        st.json(value, expanded=False)


def _long_text(value: Any) -> bool:
    return isinstance(value, str) and (len(value) > LONG_TEXT or "\n" in value)


def _unbroken(value: Any) -> bool:
    """A short value a static table's cell would cut: a run of Latin characters without a space, too long
    for it (long texts are shown as text already)."""
    return isinstance(value, str) and not _long_text(value) and UNBROKEN_RUN.search(value) is not None


def remaining_ttl(row: Mapping[str, Any], now: float) -> str:
    """What is left of a key's TTL at ``now``: "1 h 2 min 3 s", "expired", or "never (no TTL)"."""
    ttl = int(row.get("ttl_seconds", -2))
    if ttl == -1:
        return t("state.ttl.never")
    left = int(ttl - (now - float(row.get("read_at", now)))) if ttl >= 0 else 0
    if left <= 0:
        return t("state.ttl.gone")
    hours, rest = divmod(left, 3600)
    parts = [f"{hours} h"] if hours else []
    if rest // 60 or hours:
        parts.append(f"{rest // 60} min")
    return " ".join([*parts, f"{rest % 60} s"])


def render_ttls(rows: list[Any], static: bool = False, caption_key: str = "state.ttl.caption") -> None:
    """Each key with its time to live counting down from when the turn read it (the key last: it is
    long, and a narrow pane should still show what is left); ``caption_key`` says where it was read."""
    import time

    now = time.time()
    st.caption(t(caption_key))
    if not rows:
        st.caption(t("state.none"))
        return
    frame = pd.DataFrame(
        {
            t("state.ttl.remaining"): [remaining_ttl(row, now) for row in rows],
            t("state.ttl.at_turn"): [str(row.get("ttl_seconds", "")) for row in rows],
            t("state.ttl.key"): [str(row.get("key", "")) for row in rows],
        }
    )
    _table(frame, static)
