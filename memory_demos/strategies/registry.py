"""The list of strategies. Adding a strategy means adding its module and one line here; no page changes.

Each module defines ``INFO`` (a frozen ``StrategyInfo``: id, kind, titles and summaries in both languages,
parameters) and ``STRATEGY`` (the ``Strategy`` subclass, whose ``info`` is ``INFO``): that class is the
entry, listed here in one ordered tuple. Modules import their LangChain classes lazily, so listing the
strategies stays cheap.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memory_demos.strategies import (
    agent,
    agent_trim,
    background_memory,
    buffer,
    combined,
    context_editing,
    entity,
    history,
    hybrid,
    langgraph,
    long_term,
    memory_blocks,
    memory_tools,
    semantic_store,
    summarization,
    summary,
    summary_buffer,
    token_buffer,
    trim,
    turn_trim,
    vector,
    window,
)
from memory_demos.strategies.base import InputError, Strategy, StrategyContext, StrategyInfo, StrategyKind

# One line per strategy, classic first, then the LangChain 1.x forms.
STRATEGIES: tuple[type[Strategy], ...] = (
    buffer.STRATEGY,
    window.STRATEGY,
    token_buffer.STRATEGY,
    summary.STRATEGY,
    summary_buffer.STRATEGY,
    entity.STRATEGY,
    vector.STRATEGY,
    combined.STRATEGY,
    history.STRATEGY,
    trim.STRATEGY,
    turn_trim.STRATEGY,
    langgraph.STRATEGY,
    summarization.STRATEGY,
    long_term.STRATEGY,
    hybrid.STRATEGY,
    agent.STRATEGY,
    agent_trim.STRATEGY,
    semantic_store.STRATEGY,
    context_editing.STRATEGY,
    memory_blocks.STRATEGY,
    memory_tools.STRATEGY,
    background_memory.STRATEGY,
)


def _entries() -> dict[str, type[Strategy]]:
    return {cls.info.id: cls for cls in STRATEGIES}


def _entry(strategy_id: str) -> type[Strategy]:
    entries = _entries()
    cls = entries.get(strategy_id)
    if cls is None:
        raise InputError(f"Unknown strategy {strategy_id!r}; known: {', '.join(entries)}")
    return cls


def available_ids() -> tuple[str, ...]:
    """Every registered id, classic first (by ``INFO.kind``), in registry order within a kind."""
    return ids_of_kind("classic") + ids_of_kind("modern")


def ids_of_kind(kind: StrategyKind) -> tuple[str, ...]:
    """The registered ids whose ``INFO.kind`` is ``kind``, in registry order."""
    return tuple(cls.info.id for cls in STRATEGIES if cls.info.kind == kind)


def get_info(strategy_id: str) -> StrategyInfo:
    """The registry entry of one strategy."""
    return _entry(strategy_id).info


def all_infos() -> list[StrategyInfo]:
    """Every available strategy's entry, classic first."""
    return [get_info(strategy_id) for strategy_id in available_ids()]


def strategy_class(strategy_id: str) -> type[Strategy]:
    """The ``Strategy`` subclass of ``strategy_id``."""
    return _entry(strategy_id)


def parse_selection(text: str) -> list[str]:
    """``all`` or a comma-separated list of ids, validated."""
    if text.strip() == "all":
        return list(available_ids())
    ids = [part.strip() for part in text.split(",") if part.strip()]
    if not ids:
        raise InputError("No strategy given: use 'all' or ids like buffer,window")
    for strategy_id in ids:
        get_info(strategy_id)
    return ids


def server_backed_params(strategy_id: str, sql_url: str | None) -> dict[str, str]:
    """Parameter choices that put a strategy's memory on the configured SQL server.

    In a room served by several processes (``MEMORY_LAB_SQL_URL`` set), a new pane should keep its
    memory where every process can read it; on a laptop the defaults stay in memory.
    """
    if not sql_url:
        return {}
    return {
        spec.name: "postgres" for spec in get_info(strategy_id).params if "postgres" in (spec.choices or ())
    }


def parse_params(strategy_id: str, raw: Mapping[str, Any] | None, context: StrategyContext) -> dict[str, Any]:
    """The one parameter parser: defaults merged with ``raw`` (strings from the CLI or widgets, or typed
    values from YAML and code), each converted and range-checked against the strategy's ``ParamSpec``,
    then checked together against ``context`` (a token budget smaller than the system prompt).

    Raises ``InputError`` naming the parameter (``window.k must be at least 0; got -1``). Builds nothing,
    so a form can refuse bad values while its pane is untouched. Typed values parse to themselves.
    """
    cls = strategy_class(strategy_id)
    typed = cls.info.resolve_params(raw)
    cls.check_params(typed, context)
    return typed


def build_strategy(
    strategy_id: str,
    context: StrategyContext | None = None,
    params: Mapping[str, Any] | None = None,
) -> Strategy:
    """Build a strategy from raw or typed ``params`` (``InputError`` naming a bad one; nothing built)."""
    context = context or StrategyContext()
    typed = parse_params(strategy_id, params, context)
    return strategy_class(strategy_id)(context, typed)
