"""The Compare conversation core (``memory_demos.compare``) on a plain dict: no Streamlit run."""

from __future__ import annotations

from memory_demos import compare
from memory_demos.i18n import t, translate
from memory_demos.lab_config import LabConfig
from memory_demos.session import KEY_PREFIX, LabSession
from memory_demos.turn import Turn
from memory_demos.workshop import WorkshopConfig, WorkshopLimits


def two_pane_session(*strategy_ids: str, state: dict | None = None) -> LabSession:
    session = LabSession({KEY_PREFIX + "panes_initialised": True} if state is None else state)
    session.panes.extend(session.new_pane(sid) for sid in strategy_ids or ("buffer", "window"))
    return session


def send_and_wait(session: LabSession, text: str) -> bool:
    sent = compare.send_message(session, text)
    if sent:
        job = session.job
        assert job is not None
        job.future.result(timeout=30)
        compare.finish_broadcast(session, job)
    return sent


def test_an_empty_message_is_refused_and_not_put_back() -> None:
    session = two_pane_session()
    assert not compare.send_message(session, "   ")
    [notice] = session.take_flashes()
    assert (notice.kind, notice.message) == ("info", t("compare.empty_message"))
    assert session.chat_refill is None and session.job is None


def test_a_too_long_message_names_its_length_and_the_limit_once_and_waits_in_the_box() -> None:
    session = two_pane_session()
    session.configure(LabConfig(workshop=WorkshopConfig(limits=WorkshopLimits(max_message_chars=10))))
    assert not compare.send_message(session, "x" * 11)
    [notice] = session.take_flashes()
    assert notice.kind == "warning" and "11" in notice.message and "10" in notice.message
    assert session.chat_refill == "x" * 11 and session.job is None
    assert all(not pane.turns for pane in session.panes)


def test_a_message_is_answered_by_every_pane_and_recorded_once() -> None:
    session = two_pane_session()
    assert send_and_wait(session, "My name is Ada.")
    job = session.job
    assert job is not None and not session.busy
    compare.finish_broadcast(session, job)  # a second finish records nothing more
    assert [len(pane.turns) for pane in session.panes] == [1, 1]
    assert all(pane.turns[0].user_text == "My name is Ada." and pane.turns[0].ok for pane in session.panes)


def test_a_workshop_turn_limit_refuses_with_its_own_reason() -> None:
    session = two_pane_session()
    session.configure(
        LabConfig(workshop=WorkshopConfig(enabled=True, limits=WorkshopLimits(max_turns_per_conversation=1)))
    )
    assert send_and_wait(session, "My name is Ada.")
    assert not compare.send_message(session, "What is my name?")
    [notice] = session.take_flashes()
    assert notice.kind == "warning" and notice.message.startswith(t("workshop.limit.turns", limit="1")[:20])
    assert session.chat_refill == "What is my name?"
    assert [len(pane.turns) for pane in session.panes] == [1, 1]


def test_new_parameters_are_checked_before_the_pane_is_rebuilt() -> None:
    session = two_pane_session("window", "buffer")
    pane = session.panes[0]
    assert send_and_wait(session, "My name is Ada.")
    compare.apply_params(session, pane.pane_id, {"k": "-1"})
    [refused] = session.take_flashes()
    assert refused.kind == "warning" and refused.detail
    assert pane.params.get("k") != -1 and len(pane.turns) == 1  # untouched
    compare.apply_params(session, pane.pane_id, {"k": "1"})
    assert pane.params == {"k": 1} and pane.strategy is not None and pane.strategy.params["k"] == 1
    assert pane.turns == []  # a new memory: its conversation starts again
    assert session.panes[1].turns  # the other pane keeps its conversation


def test_retry_resends_only_a_failed_last_turn_and_replaces_it() -> None:
    session = two_pane_session()
    failed, other = session.panes
    assert not compare.retry_pane(session, failed.pane_id)  # nothing failed yet
    failed.turns.append(
        Turn(user_text="My name is Ada.", reply="", seconds=0.0, reply_call=None, error="boom")
    )
    assert compare.retry_pane(session, failed.pane_id)
    job = session.job
    assert job is not None and job.pane_ids == [failed.pane_id]
    job.future.result(timeout=30)
    compare.finish_broadcast(session, job)
    assert len(failed.turns) == 1 and failed.turns[0].ok and failed.turns[0].user_text == "My name is Ada."
    assert other.turns == []


def test_panes_are_added_reset_and_removed_within_the_limits() -> None:
    session = two_pane_session()
    compare.remove_pane(session, session.panes[0].pane_id)
    assert len(session.panes) == session.limits.min_panes  # never fewer than the minimum
    compare.add_pane(session, "summary")
    assert [pane.strategy_id for pane in session.panes] == ["buffer", "window", "summary"]
    assert send_and_wait(session, "My name is Ada.")
    compare.reset_pane(session, session.panes[0].pane_id)
    assert session.panes[0].turns == [] and session.panes[1].turns
    compare.reset_all(session)
    assert all(not pane.turns for pane in session.panes)
    assert session.take_flashes()[-1].message == t("compare.reset_all_done")
    compare.remove_pane(session, session.panes[2].pane_id)
    assert [pane.strategy_id for pane in session.panes] == ["buffer", "window"]


def test_a_pane_error_speaks_the_session_language_though_written_on_a_worker_thread() -> None:
    from memory_demos.providers.chat_models import ProviderConfig

    session = LabSession({KEY_PREFIX + "panes_initialised": True})
    session.language = "zh"
    session.provider = ProviderConfig(fail_on_calls=(1,))  # the offline model's first call fails
    session.panes.extend(session.new_pane(sid) for sid in ("buffer", "window"))
    assert send_and_wait(session, "My name is Ada.")
    # The error is data; the pane shows it in the session's language.
    errors = [translate(pane.turns[0].error or "", session.language) for pane in session.panes]
    assert all(error.startswith("注入的故障：") for error in errors), errors


SIX_MESSAGES = (
    "Hi, my name is Ada and I live in Lisbon.",
    "I like green tea and my dog is called Rex.",
    "I work as a nurse at the city hospital.",
    "What's a good book about gardening?",
    "My sister Lena lives in Porto.",
    "What is my name and where do I live?",
)


def test_window_k_3_to_1_replays_the_six_messages_and_shows_what_k_1_keeps() -> None:
    session = two_pane_session("buffer", "window")
    for text in SIX_MESSAGES:
        assert send_and_wait(session, text)
    window = session.panes[1]
    assert window.strategy is not None and window.strategy.params["k"] == 3
    compare.apply_params(session, window.pane_id, {"k": 1}, replay=True)
    assert window.strategy is not None and window.params["k"] == 1
    assert window.replay_queue == list(SIX_MESSAGES) and not window.turns  # queued, not yet sent
    cost = compare.run_replay(session, window)
    assert cost is not None and cost.messages == 6 and cost.failed_at is None
    assert cost.model_calls == sum(turn.model_calls for turn in window.turns) >= 6
    assert cost.tokens == sum(turn.total_tokens for turn in window.turns) > 0
    assert window.replay_cost == cost and not window.replay_queue
    assert [turn.user_text for turn in window.turns] == list(SIX_MESSAGES)  # not retyped: the same six
    # k=1 keeps the one exchange before the newest message: the fifth message and its reply.
    last_prompt = [message.content for message in window.turns[-1].injected_prompt]
    assert SIX_MESSAGES[4] in last_prompt and SIX_MESSAGES[3] not in last_prompt
    assert "Ada" not in window.turns[-1].reply  # the name fell out of the window
    assert len(session.panes[0].turns) == 6  # the other pane is untouched
    assert not session.take_flashes()  # the pane itself says what the replay did


def test_new_parameters_without_replay_start_afresh_and_a_late_pane_can_replay_everything() -> None:
    session = two_pane_session("buffer", "window")
    for text in SIX_MESSAGES[:3]:
        assert send_and_wait(session, text)
    window = session.panes[1]
    compare.apply_params(session, window.pane_id, {"k": 1})
    assert not window.turns and not window.replay_queue  # the fresh start stays available
    [notice] = session.take_flashes()
    assert notice.message == t("pane.params_applied", pane=2)

    compare.replay_into_pane(session, window.pane_id)
    assert window.replay_queue == list(SIX_MESSAGES[:3])
    assert send_and_wait(session, SIX_MESSAGES[3])  # a message sent first waits for the replay
    assert [turn.user_text for turn in window.turns] == list(SIX_MESSAGES[:4])
    assert window.replay_cost is not None and window.replay_cost.messages == 3
