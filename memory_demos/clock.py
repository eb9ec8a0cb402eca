"""The time a conversation's messages carry: the wall clock, or a scenario's simulated clock.

A scenario says ``after: 3 days`` between two conversations; replaying it must not wait three days, so
the strategies read time from a ``Clock`` handed to them in their context, never from ``datetime.now``
themselves. ``ScenarioClock`` starts at a fixed instant, moves a minute per message and jumps when told.
"""

from __future__ import annotations

import re
import threading
from datetime import UTC, datetime, timedelta

# A scenario's first message, unless it says otherwise: a fixed instant, so replays give the same JSON.
SCENARIO_START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
STEP_PER_MESSAGE = timedelta(minutes=1)

UNITS: dict[str, timedelta] = {
    "minute": timedelta(minutes=1),
    "hour": timedelta(hours=1),
    "day": timedelta(days=1),
    "week": timedelta(weeks=1),
}
_DURATION = re.compile(r"^\s*(\d{1,4})\s*(minute|hour|day|week)s?\s*$", re.IGNORECASE)
MAX_DURATION = timedelta(weeks=520)


def parse_duration(text: str) -> timedelta | None:
    """``"3 days"``, ``"1 week"``, ``"90 minutes"`` as a ``timedelta``; None for anything else.

    Units are minutes, hours, days and weeks (singular or plural); the number is a whole number.
    """
    match = _DURATION.match(str(text))
    if match is None:
        return None
    amount = int(match.group(1)) * UNITS[match.group(2).lower()]
    return amount if amount <= MAX_DURATION else None


class Clock:
    """The wall clock (UTC): what a live conversation's messages carry."""

    def now(self) -> datetime:
        """The current instant, timezone-aware (UTC)."""
        return datetime.now(UTC)

    def tick(self) -> None:
        """A message was sent (the wall clock moves by itself)."""

    def advance(self, by: timedelta) -> None:
        """Move the clock forward (only a simulated clock can)."""


class ScenarioClock(Clock):
    """A simulated clock: ``start``, one minute later per message (``tick``), and ``advance`` for gaps."""

    def __init__(self, start: datetime = SCENARIO_START, step: timedelta = STEP_PER_MESSAGE) -> None:
        self._now = start
        self._step = step
        self._lock = threading.Lock()

    def now(self) -> datetime:
        with self._lock:
            return self._now

    def tick(self) -> None:
        with self._lock:
            self._now += self._step

    def advance(self, by: timedelta) -> None:
        if by < timedelta(0):
            raise ValueError(f"a clock only moves forward; got {by}")
        with self._lock:
            self._now += by
