"""The list of strategies. Adding a strategy means adding its module here; no page changes.

Each module defines ``INFO`` (a ``StrategyInfo``) and ``STRATEGY`` (the ``Strategy`` subclass).
Modules import their LangChain classes lazily, so listing strategies stays cheap.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from memory_demos.strategies.base import InputError, Strategy, StrategyContext, StrategyInfo

CLASSIC_IDS: tuple[str, ...] = (
    "buffer",
    "window",
    "token_buffer",
    "summary",
    "summary_buffer",
    "entity",
    "vector",
    "combined",
)
MODERN_IDS: tuple[str, ...] = (
    "history",
    "trim",
    "turn_trim",
    "langgraph",
    "summarization",
    "long_term",
    "hybrid",
    "agent",
    "agent_trim",
    "semantic_store",
    "context_editing",
)
STRATEGY_IDS: tuple[str, ...] = CLASSIC_IDS + MODERN_IDS


def _module(strategy_id: str) -> ModuleType:
    if strategy_id not in STRATEGY_IDS:
        raise InputError(f"Unknown strategy {strategy_id!r}; known: {', '.join(STRATEGY_IDS)}")
    return importlib.import_module(f"memory_demos.strategies.{strategy_id}")


def available_ids() -> tuple[str, ...]:
    """Every registered id, in registry order (classic first)."""
    return STRATEGY_IDS


def get_info(strategy_id: str) -> StrategyInfo:
    """The registry entry of one strategy."""
    return _module(strategy_id).INFO


def all_infos() -> list[StrategyInfo]:
    """Every available strategy's entry, classic first."""
    return [get_info(strategy_id) for strategy_id in available_ids()]


def strategy_class(strategy_id: str) -> type[Strategy]:
    """The ``Strategy`` subclass of ``strategy_id``."""
    return _module(strategy_id).STRATEGY


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


def build_strategy(
    strategy_id: str,
    context: StrategyContext | None = None,
    params: Mapping[str, Any] | None = None,
) -> Strategy:
    """Build a strategy with validated parameters (raises ``InputError`` naming a bad one)."""
    cls = strategy_class(strategy_id)
    cls.info.resolve_params(params)
    return cls(context, params)


def check_params(
    strategy_id: str, params: Mapping[str, Any] | None, context: StrategyContext
) -> dict[str, Any]:
    """The resolved parameters, or ``InputError`` if one is out of range or they cannot work together
    with ``context`` (a token budget smaller than the system prompt). Nothing is built."""
    resolved = get_info(strategy_id).resolve_params(params)
    strategy_class(strategy_id).check_params(resolved, context)
    return resolved
