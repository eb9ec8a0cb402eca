"""What the model read from a text, kept: a conversation's prompt repeats every earlier message each turn,
so each text is read once. All cached readings are pure functions of their text."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar

Reading = TypeVar("Reading", bound=Callable[..., Any])
_CACHES: list[Any] = []


def read_once(function: Reading) -> Reading:
    """``function`` with its results kept per argument (it must be pure and return immutable values)."""
    cached = lru_cache(maxsize=16384)(function)
    _CACHES.append(cached)
    return cached  # type: ignore[return-value]


def forget_readings() -> None:
    """Empty every kept reading (for a cold-start benchmark)."""
    for cached in _CACHES:
        cached.cache_clear()
