"""The room: what one workshop server knows about everyone in it, owned by the server process.

``RoomState`` holds the session registry (counters, idle sweep), one ``SessionBudget`` per attendee and
the ``CodeGuard`` that limits access-code guessing for the whole server. The app keeps one instance in
a module-level variable (``memory_demos.ui.workshop``) rather than in ``st.cache_resource``: a client
may ask Streamlit to clear its caches (the ``clear_cache`` websocket message), which must not wipe the
instructor's counts, the budgets or the idle sweep. It holds counters and opaque ids only, never text.

Attendees are recognised by a signed token (``memory_demos.workshop.attendee``), so a reload or a new
tab of the same browser brings back the same budget. An attendee is a browser that was admitted (it has
a budget); a browser that opened the instructor view is the host's and is counted apart.
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
    from memory_demos.workshop.settings import WorkshopLimits

MAX_ATTENDEES = 5_000


class RoomState:
    """Everything the server keeps about the room: sessions, attendees' budgets, code guessing."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.registry = SessionRegistry(clock=clock)
        self.guard = CodeGuard(clock=clock)
        self._lock = threading.Lock()
        self._budgets: OrderedDict[str, SessionBudget] = OrderedDict()
        self._hosts: set[str] = set()

    def budget_for(self, attendee_id: str, limits: WorkshopLimits) -> SessionBudget:
        """The attendee's one budget (made on first sight; follows changed limits, keeping what was spent)."""
        with self._lock:
            budget = self._budgets.get(attendee_id)
            if budget is None:
                budget = self._budgets[attendee_id] = SessionBudget(limits)
                while len(self._budgets) > MAX_ATTENDEES:  # the oldest attendee's counters go first
                    oldest, _ = self._budgets.popitem(last=False)
                    self._hosts.discard(oldest)
            else:
                self._budgets.move_to_end(attendee_id)
        if budget.limits != limits:
            budget.set_limits(limits)
        return budget

    def mark_host(self, attendee_id: str) -> None:
        """This browser opened the instructor view: from now on it is the host's, not an attendee."""
        with self._lock:
            self._hosts.add(attendee_id)
            while len(self._hosts) > MAX_ATTENDEES:  # only a flood of host codes could get here
                self._hosts.pop()

    def attendee_rows(self) -> list[dict[str, int]]:
        """One row per attendee, numbered (never by id): tokens, calls, refusals, running now."""
        with self._lock:
            budgets = [budget for key, budget in self._budgets.items() if key not in self._hosts]
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
        """Distinct admitted browsers, the host's not included."""
        with self._lock:
            return sum(1 for key in self._budgets if key not in self._hosts)

    @property
    def host_browsers(self) -> int:
        """Browsers that opened the instructor view."""
        with self._lock:
            return len(self._hosts)
