"""Send a message to panes on worker threads and stream their replies into the page.

Worker threads never touch Streamlit: their token listeners only put text on per-pane queues.
The script thread drains the queues into ``st.empty()`` placeholders while the turns run, then
records the turns in the panes exactly once.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager

from memory_demos.session import BroadcastJob, LabSession, Pane
from memory_demos.turn import Turn

POLL_SECONDS = 0.05
STREAM_CURSOR = " \u258c"


def start_broadcast(
    session: LabSession,
    panes: Sequence[Pane],
    text: str,
    *,
    retry: bool = False,
    call_slot: Callable[[], AbstractContextManager[object]] | None = None,
    on_done: Callable[[list[Turn]], None] | None = None,
) -> BroadcastJob:
    """Start answering ``text`` in ``panes`` (those with a built strategy) and remember the job.

    ``call_slot`` bounds how many panes answer at once; ``on_done`` gets the turns on the worker
    thread as soon as they are all in (usage counting), even if the page is never drawn again.
    """
    from memory_demos.runner import broadcast

    ready = [pane for pane in panes if pane.strategy is not None]
    queues: dict[str, queue.Queue[str]] = {pane.pane_id: queue.Queue() for pane in ready}
    strategies = [pane.strategy for pane in ready if pane.strategy is not None]
    listeners = [queues[pane.pane_id].put for pane in ready]

    lifecycle = session.lifecycle  # the idle sweep leaves a session alone while its turn runs

    def run() -> list[Turn]:
        with lifecycle:
            turns = broadcast(strategies, text, listeners, call_slot=call_slot)
        if on_done is not None:
            on_done(turns)
        return turns

    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memory-lab-broadcast")
    try:
        future = executor.submit(run)
    finally:
        executor.shutdown(wait=False)
    job = BroadcastJob(
        text=text,
        pane_ids=[pane.pane_id for pane in ready],
        future=future,
        queues=queues,
        retry=retry,
        strategies={pane.pane_id: pane.strategy for pane in ready if pane.strategy is not None},
    )
    session.job = job
    return job


def stream_into(job: BroadcastJob, placeholders: Mapping[str, object]) -> None:
    """Block until the job is done, showing each pane's reply as it grows (with a cursor).

    The finished reply is drawn by the caller, with its error or notes. Script thread only.
    """

    shown: dict[str, str] = {}

    def show(final: bool) -> None:
        # Only the panes whose text grew are sent again: each write is a message to the browser.
        for pane_id, placeholder in placeholders.items():
            text = job.streamed.get(pane_id, "")
            text = text if final else text + STREAM_CURSOR
            if shown.get(pane_id) != text:
                placeholder.text(text)  # type: ignore[attr-defined]
                shown[pane_id] = text

    show(final=False)
    while not job.future.done():
        if job.drain():
            show(final=False)
        time.sleep(POLL_SECONDS)
    job.drain()


def finish_broadcast(session: LabSession, job: BroadcastJob) -> None:
    """Record the job's turns in their panes (once); a failure becomes a notice, never an exception."""
    from memory_demos.providers.errors import describe_error
    from memory_demos.strategies.base import InputError

    with job.lock:
        if job.finished:
            return
        job.finished = True
    try:
        turns = job.future.result()
    except InputError as exc:
        session.flash("warning", str(exc))
        return
    except Exception as exc:
        session.flash("error", describe_error(exc))
        return
    for pane_id, turn in zip(job.pane_ids, turns, strict=True):
        pane = session.pane(pane_id)
        if pane is None or pane.strategy is not job.strategies.get(pane_id):
            continue  # removed or rebuilt meanwhile: this turn belongs to a memory that is gone
        if job.retry and pane.turns and pane.turns[-1].error is not None:
            pane.turns[-1] = turn
        else:
            pane.turns.append(turn)
