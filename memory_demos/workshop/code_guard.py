"""Access and host codes: constant-time comparison, and a guard against guessing them.

``CodeGuard`` limits code attempts for the whole server, per client address and overall; the room
keeps one instance.
"""

from __future__ import annotations

import hmac
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from memory_demos.workshop.registry import HOUR_SECONDS

if TYPE_CHECKING:
    from pydantic import SecretStr

    from memory_demos.workshop.settings import WorkshopLimits

Verdict = Literal["check", "locked", "busy"]


def codes_match(given: str, expected: SecretStr | None) -> bool:
    """True if ``given`` equals the configured code (constant-time); False when no code is configured."""
    if expected is None:
        return False
    return hmac.compare_digest(given.strip().encode("utf-8"), expected.get_secret_value().encode("utf-8"))


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
