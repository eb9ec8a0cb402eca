"""The process-wide record of sessions: counters only, never messages.

``SessionRegistry`` feeds the instructor view and releases the strategies of idle sessions, so memory
does not grow with every attendee who ever connected.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memory_demos.turn import Turn

logger = logging.getLogger(__name__)

HOUR_SECONDS = 3600.0
ACTIVE_SECONDS = 300.0
SWEEP_EVERY_SECONDS = 30.0
# Bounds the last-hour event log: a room of 200 sending a message every 10 s fills it in an hour.
MAX_EVENTS = 100_000


@dataclass
class SessionRecord:
    """What the registry keeps per browser session: an opaque key, activity, counters and a release hook."""

    key: str
    last_active: float
    model_calls: int = 0
    tokens: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    release: Callable[[], bool | None] | None = field(default=None, repr=False)


@dataclass(frozen=True)
class RegistryStats:
    """Numbers for the instructor view: no session's messages, only counts."""

    sessions: int
    active_sessions: int
    model_calls_last_hour: int
    tokens_last_hour: int
    errors_last_hour: dict[str, int]
    released_total: int


@dataclass(frozen=True)
class _Event:
    at: float
    model_calls: int
    tokens: int
    errors: tuple[str, ...]


@dataclass(frozen=True)
class TurnUsage:
    """What a batch of turns cost: model calls, tokens, and the kinds of the errors among them."""

    model_calls: int
    tokens: int
    error_kinds: tuple[str, ...]

    @classmethod
    def of(cls, turns: Iterable[Turn]) -> TurnUsage:
        turns = list(turns)
        return cls(
            model_calls=sum(turn.model_calls for turn in turns),
            tokens=sum(turn.total_tokens for turn in turns),
            error_kinds=tuple(turn.error_kind or "other" for turn in turns if turn.error is not None),
        )


class SessionRegistry:
    """Every browser session the process knows, by opaque key; thread-safe. The app holds one instance.

    ``touch`` marks activity (and sets the session's release callback), ``record`` adds usage, and
    ``sweep`` releases sessions idle longer than the limit: it calls their release callback (which closes
    their strategies) and drops their record. ``clock`` is injectable so tests need not wait.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic, sweep_every: float = SWEEP_EVERY_SECONDS):
        self._clock = clock
        self._sweep_every = sweep_every
        self._lock = threading.Lock()
        self._records: dict[str, SessionRecord] = {}
        self._events: deque[_Event] = deque(maxlen=MAX_EVENTS)
        self._last_sweep = clock()
        self._released_total = 0

    def __len__(self) -> int:
        with self._lock:
            return len(self._records)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._records

    def touch(self, key: str, release: Callable[[], bool | None] | None = None) -> bool:
        """Mark ``key`` active now; returns True if the registry did not know it (new or released)."""
        now = self._clock()
        with self._lock:
            record = self._records.get(key)
            is_new = record is None
            if record is None:
                record = self._records[key] = SessionRecord(key=key, last_active=now)
            record.last_active = now
            if release is not None:
                record.release = release
            return is_new

    def record(self, key: str, usage: TurnUsage) -> None:
        """Add a batch of turns' usage to the session's counters and to the last-hour log."""
        now = self._clock()
        with self._lock:
            record = self._records.get(key)
            if record is not None:
                record.model_calls += usage.model_calls
                record.tokens += usage.tokens
                record.errors.update(usage.error_kinds)
                record.last_active = now
            self._events.append(_Event(now, usage.model_calls, usage.tokens, usage.error_kinds))

    def record_error(self, key: str | None, kind: str) -> None:
        """Count an error that came from no turn (a refused code, a bad link)."""
        self.record(key or "", TurnUsage(0, 0, (kind,)))

    def forget(self, key: str) -> None:
        """Release one session now (e.g. it asked to end)."""
        with self._lock:
            record = self._records.pop(key, None)
        if record is not None and not self._release(record):
            with self._lock:
                self._records.setdefault(key, record)

    def maybe_sweep(self, idle_seconds: float) -> int:
        """``sweep`` if the last one was ``sweep_every`` seconds ago or more; returns how many it released."""
        now = self._clock()
        with self._lock:
            if now - self._last_sweep < self._sweep_every:
                return 0
            self._last_sweep = now
        return self.sweep(idle_seconds)

    def sweep(self, idle_seconds: float) -> int:
        """Release every session idle for more than ``idle_seconds``; returns how many were released.

        A session whose release callback declines (returns False: a turn is still running) stays.
        """
        now = self._clock()
        with self._lock:
            self._last_sweep = now
            idle = [r for r in self._records.values() if now - r.last_active > idle_seconds]
            for record in idle:
                del self._records[record.key]
            self._prune(now)
        released = 0
        for record in idle:  # outside the lock: closing strategies may take a while
            if self._release(record):
                released += 1
            else:
                with self._lock:
                    self._records.setdefault(record.key, record)
        return released

    def _release(self, record: SessionRecord) -> bool:
        """Call the record's release callback; False if it declined (the session is busy)."""
        release = record.release
        if release is not None:
            try:
                if release() is False:
                    return False
            except Exception as exc:  # one broken session must not stop the sweep
                logger.warning("Releasing an idle session failed: %s", type(exc).__name__)
        record.release = None
        with self._lock:
            self._released_total += 1
        return True

    def _prune(self, now: float) -> None:
        while self._events and now - self._events[0].at > HOUR_SECONDS:
            self._events.popleft()

    def stats(self, active_seconds: float = ACTIVE_SECONDS) -> RegistryStats:
        """Counts for the instructor view (sessions, last-hour calls, tokens and errors by kind)."""
        now = self._clock()
        with self._lock:
            self._prune(now)
            errors: Counter[str] = Counter()
            for event in self._events:
                errors.update(event.errors)
            return RegistryStats(
                sessions=len(self._records),
                active_sessions=sum(
                    1 for r in self._records.values() if now - r.last_active <= active_seconds
                ),
                model_calls_last_hour=sum(event.model_calls for event in self._events),
                tokens_last_hour=sum(event.tokens for event in self._events),
                errors_last_hour=dict(errors.most_common()),
                released_total=self._released_total,
            )

    def session_rows(self) -> list[dict[str, Any]]:
        """One row per session, numbered (never keyed by its real key): idle time and counters."""
        now = self._clock()
        with self._lock:
            records = sorted(self._records.values(), key=lambda r: r.last_active, reverse=True)
            return [
                {
                    "session": index,
                    "idle_seconds": round(now - record.last_active),
                    "model_calls": record.model_calls,
                    "tokens": record.tokens,
                    "errors": sum(record.errors.values()),
                }
                for index, record in enumerate(records, start=1)
            ]
