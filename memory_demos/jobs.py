"""Work in the background, polled by the script thread: the one job type of Compare and the Scorecard.

A job runs its work on a thread of its own and keeps the outcome in a ``Future``; the page checks
``done`` on each rerun (or ``wait``s) and reads ``outcome`` once it is. Only the job's own fields are
written from its thread, never the session's state; ``cancel`` asks the work to stop at its next check.
A job lives in one user's session state and is never shared.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent import futures
from concurrent.futures import Future
from typing import Generic, TypeVar

Result = TypeVar("Result")


class BackgroundJob(Generic[Result]):
    """``work`` on its own thread; ``work`` is given the job, to ask ``cancel_requested`` between steps."""

    def __init__(self, work: Callable[[BackgroundJob[Result]], Result], name: str) -> None:
        self.future: Future[Result] = Future()
        self._work = work
        self._cancel = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> BackgroundJob[Result]:
        """Start the work; returns the job (``job = Job(...).start()``)."""
        self._thread.start()
        return self

    def _run(self) -> None:
        if not self.future.set_running_or_notify_cancel():
            return
        try:
            result = self._work(self)
        except BaseException as exc:
            self.future.set_exception(exc)
        else:
            self.future.set_result(result)

    @property
    def done(self) -> bool:
        return self.future.done()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the work ends or ``timeout`` passes; True if it ended."""
        try:
            self.future.exception(timeout)
        except futures.TimeoutError:
            return False
        return True

    def outcome(self) -> Result:
        """The work's result, or the exception it raised (blocks until the work ends)."""
        return self.future.result()

    def cancel(self) -> None:
        """Ask the work to stop at its next check of ``cancel_requested``."""
        self._cancel.set()

    @property
    def cancel_requested(self) -> bool:
        return self._cancel.is_set()
