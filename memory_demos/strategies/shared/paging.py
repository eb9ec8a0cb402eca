"""State snapshots show the newest page of a growing list, so a turn costs the same at turn 200 as at 10.

A snapshot is taken after every turn and kept with it; listing every message or checkpoint made each
turn cost (and each kept snapshot weigh) more the longer the conversation ran. The total stays in the
snapshot, so the state view says how much is not shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

STATE_PAGE = 50

T = TypeVar("T")


def newest_page(items: Sequence[T], page: int = STATE_PAGE) -> list[T]:
    """The last ``page`` items (all of them when there are fewer), oldest first."""
    return list(items[-page:]) if len(items) > page else list(items)


def paged(
    name: str,
    items: Sequence[Any],
    rows: Callable[[list[Any]], list[Any]] = list,
    page: int = STATE_PAGE,
) -> dict[str, Any]:
    """``{name: rows(newest page)}``, plus ``{name}_total`` when older items were left out.

    ``rows`` turns the page into plain data (e.g. ``messages_as_json``), so only the page is converted.
    """
    state: dict[str, Any] = {name: rows(newest_page(items, page))}
    if len(items) > page:
        state[f"{name}_total"] = len(items)
    return state
