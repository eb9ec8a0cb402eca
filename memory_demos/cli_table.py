"""Plain-text tables of the command line and the benchmarks: one rule for the strategy column.

Imports nothing of ours, so ``python -m memory_demos`` can use it at start without loading the
strategy registry (which imports every strategy).
"""

from __future__ import annotations

from collections.abc import Iterable

MIN_STRATEGY_WIDTH = 15


def strategy_column_width(strategy_ids: Iterable[str]) -> int:
    """The strategy column's width: its longest id (``background_memory``), 15 at least, also for none."""
    return max([MIN_STRATEGY_WIDTH, *(len(strategy_id) for strategy_id in strategy_ids)])
