"""One Compare conversation, without Streamlit: checking a message, sending it to the panes, the job in
flight, recording the turns, and what the pane buttons do (add, remove, reset, retry, new parameters).

Worker threads never touch the session's state: their token listeners only put text on per-pane
queues (``runner.BroadcastJob``, a ``jobs.BackgroundJob``). The script thread drains them and records
the turns exactly once.
Refusals are one-shot notices on the session, each limit with one wording.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from memory_demos.i18n import Message, language_scope
from memory_demos.panes import Pane, ReplayCost, conversation_messages
from memory_demos.providers.errors import describe_error, error_detail
from memory_demos.runner import BroadcastJob, broadcast, pane_slots
from memory_demos.session import LabSession, Notice
from memory_demos.strategies.base import InputError, message_problem
from memory_demos.strategies.registry import get_info
from memory_demos.turn import Turn
from memory_demos.workshop.budget import estimate_next_turn_tokens

TurnsListener = Callable[[list[Turn]], None]


# -- may this message be sent? ------------------------------------------------------------------
def message_refusal(session: LabSession, text: str, *, retry: bool = False) -> Notice | None:
    """Why ``text`` may not be sent now (empty, too long, a workshop limit), or None if it may."""
    problem = message_problem(text, session.limits.max_message_chars)
    if problem is not None:
        return Notice("info" if problem.key == "compare.empty_message" else "warning", problem)
    return budget_refusal(session, text, retry=retry)


def budget_refusal(session: LabSession, text: str, *, retry: bool = False) -> Notice | None:
    """Which workshop limit refuses ``text`` and why (None outside workshop mode or within the limits)."""
    budget = session.budget
    if budget is None:
        return None
    turns = max((len(pane.turns) for pane in session.panes), default=0)
    last_prompts = [pane.turns[-1].prompt_tokens if pane.turns else 0 for pane in session.panes]
    needed = estimate_next_turn_tokens(last_prompts, text, session.provider.tokenizer.encoding_name)
    hit = budget.check(text, turns - 1 if retry else turns) or budget.check_run([text], needed)
    if budget.count_refusal(hit) is None:
        return None
    return Notice(
        "warning", Message(f"workshop.limit.{hit.kind}", limit=f"{hit.limit:,}", current=f"{hit.current:,}")
    )


# -- sending and recording ------------------------------------------------------------------------
def send_message(session: LabSession, text: str, on_done: TurnsListener | None = None) -> bool:
    """Send ``text`` to every pane; True if it went. A refused message becomes a notice by the chat box,
    and (unless it was empty) the chat box's refill. ``on_done`` gets the turns on the worker thread
    (usage counting)."""
    refusal = message_refusal(session, text)
    if refusal is not None:
        session.flash(refusal.kind, refusal.message, place="chat")  # by the box the attendee typed in
        if refusal.kind != "info":
            session.chat_refill = text
        return False
    job = session.job
    if job is not None and not job.finished:  # a message sent while another was still answering
        job.wait()
        finish_broadcast(session, job)
    for pane in session.panes:  # a what-if still replaying gets the earlier messages first, in order
        run_replay(session, pane, on_done=on_done)
    start_broadcast(session, session.panes, text, on_done=on_done)
    return True


def retry_pane(session: LabSession, pane_id: str, on_done: TurnsListener | None = None) -> bool:
    """Send a pane's failed last message again; its retry replaces the failed turn. True if it went."""
    pane = session.pane(pane_id)
    if session.busy or pane is None or not pane.turns or pane.turns[-1].error is None:
        return False
    text = pane.turns[-1].user_text
    refusal = message_refusal(session, text, retry=True)
    if refusal is not None:
        session.flash(refusal.kind, refusal.message, place="chat")  # in view, wherever the pane is
        return False
    start_broadcast(session, [pane], text, retry=True, on_done=on_done)
    return True


def start_broadcast(
    session: LabSession,
    panes: Sequence[Pane],
    text: str,
    *,
    retry: bool = False,
    call_slot: Callable[[], AbstractContextManager[object]] | None = None,
    on_done: TurnsListener | None = None,
) -> BroadcastJob:
    """Start answering ``text`` in ``panes`` (those with a built strategy) and remember the job.

    ``call_slot`` bounds how many panes answer at once (default: the provider's "answer panes at most
    N at a time"; the workshop's concurrency limit is the budget gate's, per model call). ``on_done``
    gets the turns on the worker thread as soon as they are all in, even if the page is never drawn again.
    """
    if call_slot is None:
        call_slot = pane_slots(session.provider.max_concurrent_panes)
    strategies = {pane.pane_id: pane.strategy for pane in panes if pane.strategy is not None}
    lifecycle = session.lifecycle  # the idle sweep leaves a session alone while its turn runs
    # The simulated tools answer the model in the conversation's language: the one thread that needs it.
    language = session.language

    def run(job: BroadcastJob) -> list[Turn]:
        with lifecycle, language_scope(language):
            turns = broadcast(list(strategies.values()), text, job.token_listeners, call_slot=call_slot)
        if on_done is not None:
            on_done(turns)
        return turns

    job = BroadcastJob(text, strategies, run, retry=retry)
    session.job = job.start()
    return job


def finish_broadcast(session: LabSession, job: BroadcastJob) -> None:
    """Record the job's turns in their panes (once); a failure becomes a notice, never an exception."""
    with job.lock:
        if job.finished:
            return
        job.finished = True
    try:
        turns = job.outcome()
    except InputError as exc:
        session.flash("warning", error_detail(exc))
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


# -- what the pane buttons do (each refuses while a message is being answered) ----------------------
def add_pane(session: LabSession, strategy_id: str | None) -> None:
    """A new pane for ``strategy_id`` at the end, if there is room."""
    if session.busy or not strategy_id or len(session.panes) >= session.limits.max_panes:
        return
    session.panes.append(session.new_pane(strategy_id))


def remove_pane(session: LabSession, pane_id: str) -> None:
    """Remove a pane, keeping at least the minimum."""
    if not session.busy and len(session.panes) > session.limits.min_panes:
        session.remove_pane(pane_id)


def reset_pane(session: LabSession, pane_id: str) -> None:
    """Forget a pane's conversation (a pane whose build failed is built again)."""
    pane = session.pane(pane_id)
    if session.busy or pane is None:
        return
    if pane.strategy is None:
        session.build(pane)
        return
    pane.strategy.clear()
    pane.turns = []
    pane.restored = []
    pane.memory_back = False
    pane.replay_queue = []
    pane.replay_cost = None


def reset_all(session: LabSession) -> None:
    """Reset every pane, and say so."""
    for pane in list(session.panes):
        reset_pane(session, pane.pane_id)
    session.flash("info", Message("compare.reset_all_done"))


# -- the user's conversations -----------------------------------------------------------------------
def new_conversation(session: LabSession) -> None:
    """Every pane starts the same user's next conversation (one click for all); the earlier ones stay,
    to reopen. What each strategy keeps per conversation starts empty, what it keeps per user carries."""
    if session.busy:
        return
    for number, pane in enumerate(session.panes, start=1):
        try:
            pane.start_conversation()
        except Exception as exc:  # a store that cannot be opened: that pane stays where it was
            session.flash("error", Message("compare.new_conversation_failed", pane=number), error_detail(exc))
    numbers = sorted({pane.conversation_number for pane in session.panes if pane.strategy is not None})
    session.flash("info", Message("compare.new_conversation_done", n=", ".join(map(str, numbers))))


def reopen_conversation(session: LabSession, pane_id: str, number: int) -> None:
    """Show one of a pane's earlier conversations again, as it was left."""
    pane = session.pane(pane_id)
    if session.busy or pane is None:
        return
    if pane.reopen(number):
        session.flash("info", Message("compare.reopened", pane=session.panes.index(pane) + 1, n=number))


def forget_user(session: LabSession) -> None:
    """Delete this user's long-term memory in every pane that keeps one (``Strategy.forget_user``): its own
    action, apart from Reset, which clears only the conversation on screen."""
    if session.busy:
        return
    forgot = []
    for number, pane in enumerate(session.panes, start=1):
        if pane.strategy is not None and get_info(pane.strategy_id).carries_over:
            pane.strategy.forget_user()
            forgot.append(str(number))
    if forgot:
        session.flash("info", Message("compare.forget_user_done", panes=", ".join(forgot)))
    else:
        session.flash("info", Message("compare.forget_user_none"))


def apply_params(session: LabSession, pane_id: str, values: dict[str, Any], replay: bool = False) -> None:
    """The pane-parameters flow: parse the form's values (``registry.parse_params``), then rebuild the pane;
    with ``replay``, the conversation so far is queued for it (``run_replay`` sends it), so the learner
    compares the new configuration on the same messages. Without, the pane starts afresh.

    Refused values leave the pane as it was, with a notice saying why.
    """
    pane = session.pane(pane_id)
    if session.busy or pane is None:
        return
    params, error = session.parse_pane_params(pane.strategy_id, values)
    if error is not None:
        session.flash("warning", Message("pane.params_invalid"), error)
        return
    messages = conversation_messages(session.panes, pane.conversation_number) if replay else []
    pane.params = params
    session.build(pane)
    if messages and pane.strategy is not None:
        pane.replay_queue = messages
        return
    session.flash("info", Message("pane.params_applied", pane=session.panes.index(pane) + 1))


def replay_into_pane(session: LabSession, pane_id: str) -> None:
    """A pane that joined late (or was reset) starts again and gets the whole conversation, in order."""
    pane = session.pane(pane_id)
    if session.busy or pane is None:
        return
    messages = conversation_messages(session.panes, pane.conversation_number)
    session.build(pane)
    if pane.strategy is not None:
        pane.replay_queue = messages


def run_replay(session: LabSession, pane: Pane, on_done: TurnsListener | None = None) -> ReplayCost | None:
    """Send the pane's queued messages one after another, on this thread; what it cost, or None if none.

    Each message leaves the queue once its turn is recorded, so a replay cut short by a rerun carries on
    in the next run where it stopped. A failed turn ends the replay (its memory is as before that turn).
    """
    if not pane.replay_queue or pane.strategy is None or session.busy:
        return None
    strategy = pane.strategy
    started = time.perf_counter()
    turns: list[Turn] = []
    failed_at: int | None = None
    with session.lifecycle, language_scope(session.language):
        while pane.replay_queue and pane.strategy is strategy:
            turn = strategy.send(pane.replay_queue[0])
            pane.turns.append(turn)
            turns.append(turn)
            pane.replay_queue.pop(0)
            if turn.error is not None:
                failed_at = len(pane.turns)
                pane.replay_queue.clear()
    cost = ReplayCost(
        messages=len(turns),
        model_calls=sum(turn.model_calls for turn in turns),
        tokens=sum(turn.total_tokens for turn in turns),
        seconds=time.perf_counter() - started,
        failed_at=failed_at,
    )
    pane.replay_cost = cost if pane.replay_cost is None else pane.replay_cost.plus(cost)
    if on_done is not None and turns:
        on_done(turns)
    return cost
