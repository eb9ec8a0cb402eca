"""Two simulated tools for the agent demos: deterministic, offline, and labelled as simulated data."""

from __future__ import annotations

import hashlib

from langchain_core.tools import BaseTool, tool

_CONDITIONS = ("sunny", "cloudy", "light rain", "windy", "foggy", "clear skies")
_ORDER_STATUSES = (
    "processing at the warehouse",
    "shipped, arriving in 2 days",
    "out for delivery today",
    "delivered yesterday",
)


def _bucket(text: str, size: int) -> int:
    """A stable index for ``text`` (Python's ``hash`` changes between runs)."""
    return int(hashlib.sha1(text.strip().casefold().encode("utf-8")).hexdigest()[:8], 16) % size


@tool
def get_weather(city: str) -> str:
    """Get the current weather in a city (simulated data, no network)."""
    condition = _CONDITIONS[_bucket(city, len(_CONDITIONS))]
    temperature = 8 + _bucket(f"temperature:{city}", 22)
    return f"{condition}, {temperature}°C (simulated data)"


@tool
def get_order_status(order_id: str) -> str:
    """Get the delivery status of an order by its order number (simulated data, no network)."""
    return f"{_ORDER_STATUSES[_bucket(order_id, len(_ORDER_STATUSES))]} (simulated data)"


TOOLS: tuple[BaseTool, ...] = (get_weather, get_order_status)
