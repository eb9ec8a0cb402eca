"""Send one message to several strategies at once: the engine behind the Compare page's panes, and the
background job that carries a message in flight (``BroadcastJob``)."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from contextvars import copy_context

from memory_demos.defaults import MAX_PANES
from memory_demos.jobs import BackgroundJob
from memory_demos.strategies.base import Strategy, TokenListener
from memory_demos.turn import Turn

SlotFactory = Callable[[], AbstractContextManager[object]]


def pane_slots(limit: int, outer: SlotFactory | None = None) -> SlotFactory | None:
    """A call-slot factory that lets at most ``limit`` panes answer at once (0: no limit of its own).

    For servers that serve one request at a time. ``outer`` (a workshop budget's slots) still applies:
    a pane holds one of these slots, then one of ``outer``'s.
    """
    if limit <= 0:
        return outer
    semaphore = threading.BoundedSemaphore(limit)

    @contextmanager
    def slot() -> Iterator[None]:
        with semaphore:
            if outer is None:
                yield
                return
            with outer():
                yield

    return slot


def broadcast(
    strategies: Sequence[Strategy],
    user_text: str,
    token_listeners: Sequence[TokenListener | None] | None = None,
    executor: ThreadPoolExecutor | None = None,
    call_slot: Callable[[], AbstractContextManager[object]] | None = None,
) -> list[Turn]:
    """Run ``user_text`` through every strategy concurrently; turns come back in pane order.

    Each strategy is used by one thread at a time (its own lock), so panes never share memory.
    An error in one pane is in that pane's ``Turn``; the others carry on. ``call_slot`` (a workshop
    session's semaphore) is held around each pane's turn, bounding how many run at once.
    """
    if not strategies:
        return []
    listeners = list(token_listeners) if token_listeners is not None else [None] * len(strategies)

    def send(strategy: Strategy, listener: TokenListener | None) -> Turn:
        if call_slot is None:
            return strategy.send(user_text, listener)
        asked = time.perf_counter()
        with call_slot():
            waited = time.perf_counter() - asked
            turn = strategy.send(user_text, listener)
        turn.slot_wait_seconds = waited  # the turn's own clock starts inside send, after the slot
        return turn

    if executor is not None:
        return _run_all(executor, send, strategies, listeners)
    with ThreadPoolExecutor(max_workers=min(len(strategies), MAX_PANES), thread_name_prefix="pane") as pool:
        return _run_all(pool, send, strategies, listeners)


def _run_all(
    pool: ThreadPoolExecutor,
    send: Callable[[Strategy, TokenListener | None], Turn],
    strategies: Sequence[Strategy],
    listeners: Sequence[TokenListener | None],
) -> list[Turn]:
    # Each pane runs in the caller's context (a copy per pane): the language the simulated tools answer in.
    futures = [
        pool.submit(copy_context().run, send, s, listener)
        for s, listener in zip(strategies, listeners, strict=True)
    ]
    return [future.result() for future in futures]


class BroadcastJob(BackgroundJob[list[Turn]]):
    """A message on its way to some panes: their threads put tokens on ``queues``; the script thread
    drains them into ``streamed``.

    Stored in the session so a rerun (another click) picks up the stream where it was and the turns are
    recorded exactly once (``finished``, under ``lock``). ``work`` answers the message, given the job.
    """

    def __init__(
        self,
        text: str,
        strategies: Mapping[str, Strategy],
        work: Callable[[BroadcastJob], list[Turn]],
        retry: bool = False,
    ) -> None:
        super().__init__(work, name="memory-lab-broadcast")  # type: ignore[arg-type]
        self.text = text
        self.strategies = dict(strategies)
        self.pane_ids = list(self.strategies)
        self.queues: dict[str, queue.Queue[str]] = {pane_id: queue.Queue() for pane_id in self.pane_ids}
        self.retry = retry
        self.streamed: dict[str, str] = {}
        self.finished = False
        self.lock = threading.Lock()

    @property
    def token_listeners(self) -> list[TokenListener]:
        """One listener per pane, in pane order: each puts the pane's tokens on its queue (any thread)."""
        return [self.queues[pane_id].put for pane_id in self.pane_ids]

    def drain(self) -> bool:
        """Move queued tokens into ``streamed``; True if anything new arrived. Script thread only."""
        changed = False
        for pane_id, tokens in self.queues.items():
            pieces: list[str] = []
            while True:
                try:
                    pieces.append(tokens.get_nowait())
                except queue.Empty:
                    break
            if pieces:
                self.streamed[pane_id] = self.streamed.get(pane_id, "") + "".join(pieces)
                changed = True
        return changed
