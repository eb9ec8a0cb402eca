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
