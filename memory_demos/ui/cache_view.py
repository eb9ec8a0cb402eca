"""The prompt-cache lesson on screen: what a cache could serve, what it saves, and where a strategy breaks it.

The numbers come from the core (``providers.prompt_cache``, ``scorecard``); this module only words them,
in the language it is handed by the page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from memory_demos.i18n import t
from memory_demos.providers.prompt_cache import CacheRule, cache_break_note, cache_totals
from memory_demos.scorecard import (
    DEFAULT_PRICE_MODEL,
    DEFAULT_PRICES,
    PRICE_DATE,
    PRICE_SOURCE,
    Price,
    ScorecardRow,
)
from memory_demos.turn import Turn

MONEY = "~$%.6f"
# The cache note ("cache broken every turn from turn 2") is the column's point. A data frame sizes each
# column to its content and scrolls sideways when they add up to more than the page: at 1440 px Compare's
# long pane titles pushed the note, the last column, out of view with no hint. The title column is
# capped instead (the pane's number starts it; the charts above name each pane in full).
NOTE_WIDTH = 270
PANE_WIDTH = 300


def price_source_text() -> str:
    """Where the prices come from, in the session's language: the address as it is, the tier translated
    (the Chinese captions said "standard tier")."""
    address, _, tier = PRICE_SOURCE.partition(", ")
    if tier != "standard tier":
        return PRICE_SOURCE
    return t("price.source", address=address, tier=t("price.tier.standard"))


def rule_text(rule: CacheRule) -> str:
    """The provider's caching rule in words: any prefix, or from N tokens in steps of M."""
    if rule.raw:
        return t("cache.rule.raw")
    return t("cache.rule.steps", min=f"{rule.min_tokens:,}", step=rule.step)


def break_text(key: str, args: Mapping[str, Any]) -> str:
    """A cache-break note of the core (a catalogue key and its values) in the session's language."""
    return t(key, **dict(args))


def strategy_label(strategy_id: str, params: Mapping[str, Any]) -> str:
    """``window k=3``: the strategy and the parameters that decide where its prompt is cut."""
    numbers = {name: value for name, value in params.items() if not isinstance(value, bool)}
    shown = " ".join(f"{name}={value}" for name, value in numbers.items() if isinstance(value, int | float))
    return f"{strategy_id} {shown}".strip()


def price_for(model: str) -> Price:
    """The default table's price of ``model``, else of the default price model."""
    by_model = {price.model: price for price in DEFAULT_PRICES}
    return by_model.get(model) or by_model[DEFAULT_PRICE_MODEL]


def scorecard_cache_table(rows: Sequence[ScorecardRow], labels: Sequence[str], rule: CacheRule) -> None:
    """Per strategy: cached input tokens, the cost without and with caching, and where the cache broke."""
    frame = pd.DataFrame(
        {
            t("scorecard.col.strategy"): list(labels),
            t("scorecard.col.cached_input"): [
                f"{row.cached_input_tokens:,}"
                + (f" ({t('scorecard.cached_reported')})" if row.cached_reported else "")
                for row in rows
            ],
            t("scorecard.col.cost_no_cache"): [
                None if row.all_failed else row.estimated_cost_usd for row in rows
            ],
            t("scorecard.col.cost_cached"): [
                None if row.all_failed else row.cost_with_cache_usd for row in rows
            ],
            t("scorecard.col.cache"): [
                break_text(row.cache_note_key, dict(row.cache_note_args)) for row in rows
            ],
        }
    )
    st.dataframe(
        frame,
        hide_index=True,
        width="stretch",
        column_config={
            t("scorecard.col.cost_no_cache"): st.column_config.NumberColumn(format=MONEY),
            t("scorecard.col.cost_cached"): st.column_config.NumberColumn(format=MONEY),
            t("scorecard.col.cache"): st.column_config.TextColumn(width=NOTE_WIDTH),
        },
    )
    st.caption(":material/cached: " + t("scorecard.cache_caption", rule=rule_text(rule)))


def pane_cache_rows(panes: Sequence[tuple[str, Sequence[Turn]]], price: Price) -> list[dict[str, Any]]:
    """Compare's cost rows, one per pane (label, turns): the cacheable share, both costs, the cache note."""
    rows = []
    for label, turns in panes:
        answered = [turn for turn in turns if turn.ok]
        if not answered:
            continue
        calls = [call for turn in answered for call in turn.calls]
        input_tokens = sum(call.prompt_tokens for call in calls)
        output_tokens = sum(call.completion_tokens for call in calls)
        cached = sum(call.cached_input_tokens for call in calls)
        totals = cache_totals(answered)
        key, args = cache_break_note(turns)
        rows.append(
            {
                "pane": label,
                "share": totals.cacheable_share if totals.reported_share is None else totals.reported_share,
                "no_cache": price.cost(input_tokens, output_tokens),
                "with_cache": price.cost(input_tokens, output_tokens, cached),
                "cache": break_text(key, args),
            }
        )
    return rows


def render_pane_cache_costs(panes: Sequence[tuple[str, Sequence[Turn]]], model: str, rule: CacheRule) -> None:
    """Compare's table of each pane's cost with and without prompt caching, priced as ``model``."""
    price = price_for(model)
    rows = pane_cache_rows(panes, price)
    if not rows:
        return
    st.markdown(f"**{t('cost.cache_title')}**")
    frame = pd.DataFrame(rows).rename(
        columns={
            "pane": t("cost.col.pane"),
            "share": t("cost.col.cached_share"),
            "no_cache": t("cost.col.no_cache"),
            "with_cache": t("cost.col.with_cache"),
            "cache": t("cost.col.cache"),
        }
    )
    st.dataframe(
        frame,
        hide_index=True,
        width="stretch",
        column_config={
            t("cost.col.pane"): st.column_config.TextColumn(width=PANE_WIDTH),
            t("cost.col.cached_share"): st.column_config.NumberColumn(format="percent"),
            t("cost.col.no_cache"): st.column_config.NumberColumn(format=MONEY),
            t("cost.col.with_cache"): st.column_config.NumberColumn(format=MONEY),
            t("cost.col.cache"): st.column_config.TextColumn(width=NOTE_WIDTH),
        },
    )
    cached_rate = (
        price.input_per_million if price.cached_input_per_million is None else price.cached_input_per_million
    )
    st.caption(
        ":material/cached: "
        + t(
            "cost.cache_caption",
            model=price.model,
            source=price_source_text(),
            date=PRICE_DATE,
            input=f"{price.input_per_million:g}",
            cached=f"{cached_rate:g}",
            output=f"{price.output_per_million:g}",
            rule=rule_text(rule),
        )
    )


def pane_cache_line(turns: Sequence[Turn]) -> str | None:
    """The line under a pane's gauge: the share of its prompt tokens a cache could serve, and the breaks."""
    answered = [turn for turn in turns if turn.ok]
    if not answered:
        return None
    totals = cache_totals(answered)
    key, args = cache_break_note(turns)
    line = t(
        "pane.cached_share",
        share=f"{totals.cacheable_share:.0%}",
        cacheable=f"{totals.cacheable_tokens:,}",
        total=f"{totals.prompt_tokens:,}",
        breaks=break_text(key, args),
    )
    if totals.reported_tokens is not None and totals.reported_share is not None:
        line += " " + t(
            "pane.cached_reported",
            reported=f"{totals.reported_tokens:,}",
            share=f"{totals.reported_share:.0%}",
        )
    return line
