"""Two simulated tools for the agent demos: deterministic, offline, and labelled as simulated data.

Their results are data the model reads, written by this code: they come in the session's language
(``tool.*`` in the catalogue), so a Chinese conversation gets a Chinese tool result, and the prompt view
still shows exactly the text the model received. Outside a session (CLI, scorecard) they are English.
"""

from __future__ import annotations

import hashlib

from langchain_core.tools import BaseTool, tool

from memory_demos.i18n import t

_CONDITIONS = ("sunny", "cloudy", "light_rain", "windy", "foggy", "clear_skies")
_ORDER_STATUSES = ("processing", "shipped", "out_for_delivery", "delivered")


def _bucket(text: str, size: int) -> int:
    """A stable index for ``text`` (Python's ``hash`` changes between runs)."""
    return int(hashlib.sha1(text.strip().casefold().encode("utf-8")).hexdigest()[:8], 16) % size


@tool
def get_weather(city: str) -> str:
    """Get the current weather in a city (simulated data, no network)."""
    condition = _CONDITIONS[_bucket(city, len(_CONDITIONS))]
    temperature = 8 + _bucket(f"temperature:{city}", 22)
    return t("tool.weather", condition=t(f"tool.condition.{condition}"), temperature=temperature)


@tool
def get_order_status(order_id: str) -> str:
    """Get the delivery status of an order by its order number (simulated data, no network)."""
    status = _ORDER_STATUSES[_bucket(order_id, len(_ORDER_STATUSES))]
    return t("tool.order", status=t(f"tool.order.{status}"))


TOOLS: tuple[BaseTool, ...] = (get_weather, get_order_status)
