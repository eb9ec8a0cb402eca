"""The room: what one workshop server knows about everyone in it, owned by the server process.

``RoomState`` holds the session registry (counters, idle sweep), one ``SessionBudget`` per attendee and
the ``CodeGuard`` that limits access-code guessing for the whole server. The app keeps one instance in
a module-level variable (``memory_demos.ui.workshop``) rather than in ``st.cache_resource``: a client
may ask Streamlit to clear its caches (the ``clear_cache`` websocket message), which must not wipe the
instructor's counts, the budgets or the idle sweep. It holds counters and opaque ids only, never text.

Attendees are recognised by a signed token (``memory_demos.workshop.attendee``), so a reload or a new
tab of the same browser brings back the same budget.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING

from memory_demos.workshop.budget import SessionBudget
from memory_demos.workshop.code_guard import CodeGuard
from memory_demos.workshop.registry import SessionRegistry

if TYPE_CHECKING:
    from memory_demos.workshop.config import WorkshopLimits

MAX_ATTENDEES = 5_000


class RoomState:
    """Everything the server keeps about the room: sessions, attendees' budgets, code guessing."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.registry = SessionRegistry(clock=clock)
        self.guard = CodeGuard(clock=clock)
        self._lock = threading.Lock()
        self._budgets: OrderedDict[str, SessionBudget] = OrderedDict()

    def budget_for(self, attendee_id: str, limits: WorkshopLimits) -> SessionBudget:
        """The attendee's one budget (made on first sight; follows changed limits, keeping what was spent)."""
        with self._lock:
            budget = self._budgets.get(attendee_id)
            if budget is None:
                budget = self._budgets[attendee_id] = SessionBudget(limits)
                while len(self._budgets) > MAX_ATTENDEES:  # the oldest attendee's counters go first
                    self._budgets.popitem(last=False)
            else:
                self._budgets.move_to_end(attendee_id)
        if budget.limits != limits:
            budget.set_limits(limits)
        return budget

    def attendee_rows(self) -> list[dict[str, int]]:
        """One row per attendee, numbered (never by id): tokens, calls, refusals, running now."""
        with self._lock:
            budgets = list(self._budgets.values())
        return [
            {
                "attendee": number,
                "tokens": budget.tokens_used,
                "tokens_left": budget.tokens_left,
                "model_calls": budget.model_calls,
                "refused_calls": budget.refused_calls,
                "refused_up_front": budget.refused_up_front,
                "running": budget.running,
            }
            for number, budget in enumerate(reversed(budgets), start=1)
        ]

    @property
    def attendees(self) -> int:
        with self._lock:
            return len(self._budgets)
