"""The room: what one workshop server knows about everyone in it, owned by the server process.

``RoomState`` holds the session registry (counters, idle sweep), one ``SessionBudget`` per attendee and
the ``CodeGuard`` that limits access-code guessing for the whole server. The app keeps one instance in
a module-level variable (``memory_demos.ui.workshop``) rather than in ``st.cache_resource``: a client
may ask Streamlit to clear its caches (the ``clear_cache`` websocket message), which must not wipe the
instructor's counts, the budgets or the idle sweep. It holds counters and opaque ids only, never text.

Attendees are recognised by a signed token (``attendee_token``) the browser keeps as a cookie after it
was admitted: a reload or a new tab of the same browser brings back the same budget.
"""

from __future__ import annotations

import hashlib
import hmac
import threading
import time
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from memory_demos.budget import SessionBudget
from memory_demos.workshop import SessionRegistry

if TYPE_CHECKING:
    from memory_demos.workshop import WorkshopLimits

ATTENDEE_COOKIE = "memory_lab_attendee"
MAX_ATTENDEES = 5_000
HOUR_SECONDS = 3600.0

Verdict = Literal["check", "locked", "busy"]


# -- recognising an attendee --------------------------------------------------------------------------
def new_attendee_id() -> str:
    return "a" + uuid.uuid4().hex


def _signature(attendee_id: str, key: bytes) -> str:
    return hmac.new(key, attendee_id.encode("ascii"), hashlib.sha256).hexdigest()[:32]


def attendee_token(attendee_id: str, key: bytes) -> str:
    """``<id>.<signature>``: what the browser keeps; the signature proves the server issued it."""
    return f"{attendee_id}.{_signature(attendee_id, key)}"


def attendee_from_token(token: str | None, key: bytes) -> str | None:
    """The attendee id in a token this server signed with ``key``; None for anything else."""
    if not token or token.count(".") != 1:
        return None
    attendee_id, signature = token.split(".")
    if not (attendee_id.startswith("a") and len(attendee_id) == 33 and attendee_id[1:].isalnum()):
        return None
    return attendee_id if hmac.compare_digest(signature, _signature(attendee_id, key)) else None


def attendee_key(link_secret: bytes, access_code: str | None) -> bytes:
    """The signing key of attendee tokens: changing the access code ends every earlier admission."""
    return hmac.new(link_secret, b"attendee|" + (access_code or "").encode("utf-8"), hashlib.sha256).digest()


# -- access-code guessing ---------------------------------------------------------------------------
@dataclass(frozen=True)
class GuardStats:
    """For the instructor view: refused and throttled attempts, and addresses locked out now."""

    failures_last_hour: int
    throttled_last_hour: int
    locked_addresses: int
    locked_out_last_hour: int


class CodeGuard:
    """Limits code attempts for the whole server: per client address and overall.

    ``begin(address)`` is asked before a code is compared: ``"locked"`` when the address failed
    ``max_code_failures_per_address`` times within the lockout time, ``"busy"`` when the server already
    checked ``max_code_checks_per_second`` codes in the last second (from anyone) or the address has as
    many attempts still being checked as it has failures left (parallel guesses cannot race past), else
    ``"check"``. ``end(address, ok)`` records the outcome.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._failures: dict[str, deque[float]] = {}
        self._pending: dict[str, int] = {}
        self._locked_until: dict[str, float] = {}
        self._recent_checks: deque[float] = deque()
        self._log: deque[tuple[float, str]] = deque(maxlen=100_000)

    def begin(self, address: str, limits: WorkshopLimits) -> Verdict:
        now = self._clock()
        window = limits.code_lockout_minutes * 60.0
        with self._lock:
            self._forget_old(now, window)
            if self._locked_until.get(address, 0.0) > now:
                self._log.append((now, "locked"))
                return "locked"
            failures = len(self._failures.get(address, ()))
            if failures >= limits.max_code_failures_per_address:
                self._locked_until[address] = now + window
                self._log.append((now, "locked"))
                return "locked"
            in_flight = failures + self._pending.get(address, 0)
            busy = len(self._recent_checks) >= limits.max_code_checks_per_second
            if busy or in_flight >= limits.max_code_failures_per_address:
                self._log.append((now, "busy"))
                return "busy"
            self._recent_checks.append(now)
            self._pending[address] = self._pending.get(address, 0) + 1
            return "check"

    def end(self, address: str, ok: bool, limits: WorkshopLimits) -> None:
        now = self._clock()
        with self._lock:
            pending = self._pending.get(address, 0) - 1
            if pending > 0:
                self._pending[address] = pending
            else:
                self._pending.pop(address, None)
            if ok:
                return
            self._log.append((now, "failed"))
            failures = self._failures.setdefault(address, deque())
            failures.append(now)
            if len(failures) >= limits.max_code_failures_per_address:
                self._locked_until[address] = now + limits.code_lockout_minutes * 60.0

    def _forget_old(self, now: float, window: float) -> None:
        while self._recent_checks and now - self._recent_checks[0] >= 1.0:
            self._recent_checks.popleft()
        for address in [a for a, until in self._locked_until.items() if until <= now]:
            del self._locked_until[address]
        for address in list(self._failures):
            failures = self._failures[address]
            while failures and now - failures[0] > window:
                failures.popleft()
            if not failures:
                del self._failures[address]

    def stats(self) -> GuardStats:
        now = self._clock()
        with self._lock:
            recent = [kind for at, kind in self._log if now - at <= HOUR_SECONDS]
            return GuardStats(
                failures_last_hour=recent.count("failed"),
                throttled_last_hour=recent.count("busy"),
                locked_addresses=sum(1 for until in self._locked_until.values() if until > now),
                locked_out_last_hour=recent.count("locked"),
            )


# -- the room -------------------------------------------------------------------------------------------
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
        """One row per attendee, numbered (never by id): tokens, calls, refused calls, running now."""
        with self._lock:
            budgets = list(self._budgets.values())
        return [
            {
                "attendee": number,
                "tokens": budget.tokens_used,
                "tokens_left": budget.tokens_left,
                "model_calls": budget.model_calls,
                "refused_calls": budget.refused_calls,
                "running": budget.running,
            }
            for number, budget in enumerate(reversed(budgets), start=1)
        ]

    @property
    def attendees(self) -> int:
        with self._lock:
            return len(self._budgets)
