"""The history, trim and turn_trim strategies on the offline teaching model: what reaches the model,
what each one remembers, how sessions are keyed, stored and shared between threads, and how failures
leave memory untouched.
"""

from __future__ import annotations

import gc
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.chat_history import BaseChatMessageHistory, InMemoryChatMessageHistory
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
    trim_messages,
)

from memory_demos.defaults import DEFAULT_SYSTEM_PROMPT
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.providers.tokenizer import count_messages_tokens
from memory_demos.replay import replay_strategy
from memory_demos.scenarios import load_scenario
from memory_demos.storage import StorageError
from memory_demos.strategies.base import InputError, Strategy, StrategyContext
from memory_demos.strategies.history import HISTORY_FILE, HistoryStrategy
from memory_demos.strategies.registry import build_strategy, strategy_class
from memory_demos.strategies.shared.history_store import SessionHistoryStore, session_key
from memory_demos.strategies.shared.trimming_agent import agent_tool_tokens
from memory_demos.strategies.turn_trim import split_turns, validate_tool_history
from memory_demos.turn import ModelCall, Turn
from tests.helpers import closed_after_test, send_ok, spy_on_offline_model

ENCODING = "o200k_base"
TOOL_TOKENS = agent_tool_tokens(ENCODING)  # the tool definitions sent with every agent call
NAME_TURN = "Hi, my name is Mara and I live in Lisbon."
SMALL_TALK = (
    "Can you recommend a good book about gardening?",
    "What makes a good cup of tea?",
    "Trains are a pleasant way to travel long distances.",
    "Any ideas for a rainy Sunday afternoon?",
)
WEATHER = "What's the weather in Lisbon?"


@pytest.fixture
def received(monkeypatch: pytest.MonkeyPatch) -> list[list[BaseMessage]]:
    """Every message list the offline model itself was handed, recorded inside the model class."""
    calls: list[list[BaseMessage]] = []
    spy_on_offline_model(monkeypatch, lambda messages, _run_manager: calls.append(list(messages)))
    return calls


@pytest.fixture
def built() -> Iterator[list[Strategy]]:
    yield from closed_after_test()


def make(
    strategy_id: str,
    params: dict[str, Any] | None = None,
    *,
    provider: ProviderConfig | None = None,
    data_dir: Path | None = None,
    user_id: str = "local",
    conversation_id: str | None = None,
    system_prompt: str = DEFAULT_SYSTEM_PROMPT,
) -> Strategy:
    context = StrategyContext(
        provider=provider or ProviderConfig(), user_id=user_id, data_dir=data_dir, system_prompt=system_prompt
    )
    if conversation_id is not None:
        context.conversation_id = conversation_id
    return build_strategy(strategy_id, context, params)


def rows(messages: list[BaseMessage]) -> list[dict[str, Any]]:
    """Messages as the plain rows PromptMessage.to_json produces."""
    result = []
    for message in messages:
        content = message.content if isinstance(message.content, str) else str(message.content)
        row: dict[str, Any] = {"role": message.type, "content": content}
        if getattr(message, "tool_calls", None):
            row["tool_calls"] = [
                {"name": c["name"], "args": c["args"], "id": c["id"]} for c in message.tool_calls
            ]
        if isinstance(message, ToolMessage):
            row["tool_call_id"] = message.tool_call_id
        result.append(row)
    return result


def model_calls(turn: Turn) -> list[ModelCall]:
    return [*turn.tool_round_calls, *([turn.reply_call] if turn.reply_call else [])]


def stored(strategy: Strategy) -> list[BaseMessage]:
    if isinstance(strategy, HistoryStrategy):
        return strategy.stored_messages()
    return strategy.stored_messages()


# -- what reaches the model ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("strategy_id", "params"),
    [
        ("history", {}),
        ("history", {"keying": "session"}),
        ("trim", {"max_tokens": 120 + TOOL_TOKENS}),
        ("turn_trim", {"max_tokens": 130 + TOOL_TOKENS}),
    ],
)
def test_captured_prompt_is_what_the_model_received(
    strategy_id: str, params: dict[str, Any], received: list[list[BaseMessage]], built: list[Strategy]
) -> None:
    strategy = make(strategy_id, params)
    built.append(strategy)
    texts = (NAME_TURN, *SMALL_TALK[:2], *([WEATHER] if strategy_id != "history" else []), "What's my name?")
    trimmed_somewhere = False
    for text in texts:
        before = len(received)
        turn = send_ok(strategy, text)
        handed = received[before:]
        calls = model_calls(turn)
        assert len(handed) == len(calls) >= 1
        for messages, call in zip(handed, calls, strict=True):
            assert [m.to_json() for m in call.messages] == rows(messages)
            # Tool definitions are part of the prompt: counted in prompt_tokens, shown apart from messages.
            assert call.prompt_tokens == count_messages_tokens(messages, ENCODING) + call.tool_tokens
            assert (call.tool_tokens > 0) == (strategy_id != "history")
            assert messages[0] == SystemMessage(DEFAULT_SYSTEM_PROMPT)
            if "max_tokens" in params:
                assert call.prompt_tokens <= params["max_tokens"]
        assert handed[0][-1] == HumanMessage(text)
        if strategy_id != "history":
            trimmed_somewhere |= turn.state["dropped_count"] > 0
            assert turn.state["kept"] == rows(handed[-1])
            # The last call got the system message and the whole stored history but the final answer.
            assert turn.state["kept_count"] + turn.state["dropped_count"] == len(stored(strategy))
    if strategy_id == "history":
        # Everything, every turn: the last prompt is the system message plus the whole stored history.
        assert rows(received[-1])[1:-1] == rows(stored(strategy))[:-2]
    else:
        assert trimmed_somewhere, "the budget was meant to force trimming"
    if strategy_id != "history":
        tool_turn = next(t for t in strategy.turns if t.user_text == WEATHER)
        assert len(tool_turn.tool_round_calls) == 1
        assert "Lisbon" in tool_turn.reply


def test_trim_forgets_the_name_past_its_budget_and_history_keeps_it() -> None:
    scenario = load_scenario("name_recall")
    history_run = replay_strategy(scenario, "history", ProviderConfig())
    trim_run = replay_strategy(scenario, "trim", ProviderConfig())
    index = next(i for i, t in enumerate(scenario.turns) if t.user == "What's my name?")
    history_turn, trim_turn = history_run.turns[index], trim_run.turns[index]

    assert "Mara" in history_turn.reply
    assert history_turn.injected_prompt[1].content == NAME_TURN
    assert history_turn.prompt_tokens > 300

    assert "Mara" not in trim_turn.reply
    assert all("Mara" not in m.content for m in trim_turn.injected_prompt)
    assert trim_turn.prompt_tokens <= 300
    assert trim_turn.state["dropped"][0] == {"role": "human", "content": NAME_TURN}
    # What was kept is a suffix of the full history that starts on a human message.
    kept = trim_turn.state["kept"]
    assert kept[0]["role"] == "system" and kept[1]["role"] == "human"
    assert trim_turn.state["kept_count"] + trim_turn.state["dropped_count"] == len(
        trim_turn.state["messages"]
    )
    # The full history is still kept: the name is remembered, only not sent.
    assert trim_turn.state["messages"][0] == {"role": "human", "content": NAME_TURN}
    assert history_run.recall_passed == history_run.recall_asked == 3
    assert trim_run.recall_passed == 0


# -- session keys -------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
def test_two_users_with_the_same_conversation_id_never_share_messages(
    backend: str, built: list[Strategy]
) -> None:
    shared_id = "c" * 32
    alice = make("history", {"backend": backend}, user_id="alice", conversation_id=shared_id)
    bob = make("history", {"backend": backend, "keying": "session"}, user_id="bob", conversation_id=shared_id)
    built.extend([alice, bob])
    send_ok(alice, NAME_TURN)
    turn = send_ok(bob, "What's my name?")
    assert "Mara" not in turn.reply
    assert [m.content for m in turn.injected_prompt] == [DEFAULT_SYSTEM_PROMPT, "What's my name?"]
    assert [m.content for m in stored(alice)] == [NAME_TURN, stored(alice)[1].content]
    # One strategy's chain, called with other users' keys, keeps them apart as well.
    chain, store = alice.chain, alice.store  # type: ignore[attr-defined]
    chain.invoke(
        {"input": "My name is Eve."}, {"configurable": {"user_id": "eve", "conversation_id": shared_id}}
    )
    assert store.get(session_key("eve", shared_id)).messages[0].content == "My name is Eve."
    assert len(stored(alice)) == 2
    assert session_key("a/b", "c") != session_key("a", "b/c")


# -- the session factory under threads, and its bound -----------------------------------------------


class SlowFactory:
    """Creates histories slowly (the nth creation sleeps n×5 ms), like opening a database would."""

    def __init__(self) -> None:
        self.created = 0
        self._lock = threading.Lock()

    def __call__(self, key: str) -> BaseChatMessageHistory:
        with self._lock:
            self.created += 1
            nth = self.created
        time.sleep(0.005 * nth)
        return InMemoryChatMessageHistory()


def _hammer(get_history: Any, threads: int = 32) -> None:
    barrier = threading.Barrier(threads)

    def worker(index: int) -> None:
        barrier.wait()
        get_history("new-session").add_message(HumanMessage(f"message {index}"))

    workers = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()


def test_32_threads_opening_one_new_session_lose_no_message() -> None:
    factory = SlowFactory()
    store = SessionHistoryStore(factory)
    _hammer(store.get)
    assert factory.created == 1
    contents = sorted(m.content for m in store.get("new-session").messages)
    assert contents == sorted(f"message {i}" for i in range(32))


def test_the_naive_dict_factory_loses_messages_under_the_same_load() -> None:
    """The pattern SessionHistoryStore replaces: check-then-create with no lock."""
    factory = SlowFactory()
    sessions: dict[str, BaseChatMessageHistory] = {}

    def naive_get(key: str) -> BaseChatMessageHistory:
        if key not in sessions:
            sessions[key] = factory(key)
        return sessions[key]

    _hammer(naive_get)
    assert factory.created > 1
    assert len(sessions["new-session"].messages) < 32


def test_least_recently_used_sessions_are_evicted_past_the_bound() -> None:
    store = SessionHistoryStore(lambda key: InMemoryChatMessageHistory(), max_sessions=3)
    for key in "abc":
        store.get(key).add_message(HumanMessage(key))
    store.get("a")
    store.get("d")
    assert store.keys() == ["c", "a", "d"]
    assert store.evicted == 1
    assert store.get("b").messages == []  # b was evicted: an in-memory history is gone for good
    assert store.keys() == ["a", "d", "b"]
    assert len(store) == 3 and store.evicted == 2
    assert [m.content for m in store.get("a").messages] == ["a"]


def test_each_history_strategy_owns_a_bounded_store(built: list[Strategy]) -> None:
    first, second = make("history"), make("history")
    built.extend([first, second])
    assert first.store is not second.store  # type: ignore[attr-defined]
    assert first.store.max_sessions == 1000  # type: ignore[attr-defined]
    first.store.max_sessions = 2  # type: ignore[attr-defined]
    for user in ("u1", "u2", "u3"):
        first.chain.invoke(  # type: ignore[attr-defined]
            {"input": "hello"}, {"configurable": {"user_id": user, "conversation_id": "c"}}
        )
    assert first.store.keys() == [session_key("u2", "c"), session_key("u3", "c")]  # type: ignore[attr-defined]
    assert second.store.keys() == [second.session_key]  # type: ignore[attr-defined]  # its own, opened on build


# -- SQLite: restart, concurrent writers, a damaged file ------------------------------------------------


def test_sqlite_histories_survive_a_restart(tmp_path: Path) -> None:
    conversation_id = "d" * 32
    first = make(
        "history", {"backend": "sqlite"}, data_dir=tmp_path, user_id="u1", conversation_id=conversation_id
    )
    send_ok(first, NAME_TURN)
    send_ok(first, SMALL_TALK[0])
    before = rows(stored(first))
    first.close()
    del first
    gc.collect()

    assert (tmp_path / HISTORY_FILE).exists()
    again = make(
        "history", {"backend": "sqlite"}, data_dir=tmp_path, user_id="u1", conversation_id=conversation_id
    )
    try:
        assert rows(stored(again)) == before
        turn = send_ok(again, "What's my name?")
        assert "Mara" in turn.reply
        assert [m.to_json() for m in turn.injected_prompt][1:-1] == before
        other_user = make(
            "history", {"backend": "sqlite"}, data_dir=tmp_path, user_id="u2", conversation_id=conversation_id
        )
        assert stored(other_user) == []
        other_user.close()
    finally:
        again.close()
    with sqlite3.connect(tmp_path / HISTORY_FILE) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert connection.execute("SELECT COUNT(*) FROM message_store").fetchone()[0] == 6


def test_conversations_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    """Four conversations open one new history file at the same moment and write turns concurrently."""
    ids = [f"{index:032x}" for index in range(4)]
    turns_each = 5
    barrier = threading.Barrier(len(ids))
    errors: list[str] = []

    def talk(conversation_id: str, index: int) -> None:
        barrier.wait()
        try:
            strategy = make(
                "history", {"backend": "sqlite"}, data_dir=tmp_path, conversation_id=conversation_id
            )
        except StorageError as exc:
            errors.append(str(exc))
            return
        try:
            for n in range(turns_each):
                turn = strategy.send(f"Conversation {index} says line {n}.")
                if not turn.ok:
                    errors.append(str(turn.error))
        finally:
            strategy.close()

    threads = [threading.Thread(target=talk, args=(cid, i)) for i, cid in enumerate(ids)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    for index, conversation_id in enumerate(ids):
        fresh = make("history", {"backend": "sqlite"}, data_dir=tmp_path, conversation_id=conversation_id)
        humans = [m.content for m in stored(fresh) if m.type == "human"]
        assert humans == [f"Conversation {index} says line {n}." for n in range(turns_each)]
        assert len(stored(fresh)) == 2 * turns_each
        fresh.close()


def test_a_corrupted_history_file_raises_storage_error_at_construction(tmp_path: Path) -> None:
    """Choice: a damaged file stops the sqlite backend at construction (the page shows the message)."""
    path = tmp_path / HISTORY_FILE
    path.write_bytes(b"this is not a database, just garbage bytes\x00\xff" * 200)
    with pytest.raises(StorageError) as caught:
        make("history", {"backend": "sqlite"}, data_dir=tmp_path)
    assert str(path) in str(caught.value)
    assert "Delete" in str(caught.value)
    memory = make("history", {"backend": "memory"}, data_dir=tmp_path)
    send_ok(memory, NAME_TURN)


def test_a_failed_save_is_a_turn_error_not_a_silent_loss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, built: list[Strategy]
) -> None:
    """RunnableWithMessageHistory only logs an exception raised while saving; the strategy notices."""
    from langchain_community.chat_message_histories import SQLChatMessageHistory
    from sqlalchemy.exc import OperationalError

    strategy = make("history", {"backend": "sqlite"}, data_dir=tmp_path)
    built.append(strategy)
    send_ok(strategy, NAME_TURN)

    def broken_save(self: Any, messages: Any) -> None:
        raise OperationalError("INSERT INTO message_store", {}, sqlite3.OperationalError("disk I/O error"))

    monkeypatch.setattr(SQLChatMessageHistory, "add_messages", broken_save)
    turn = strategy.send("What's my name?")
    assert turn.error is not None and "did not save this turn" in turn.error
    assert str(tmp_path / HISTORY_FILE) in turn.error
    assert len(stored(strategy)) == 2


# -- failures leave memory as it was ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("strategy_id", "params"),
    [("history", {}), ("history", {"backend": "sqlite"}), ("trim", {}), ("turn_trim", {})],
)
def test_a_failed_reply_call_leaves_the_history_unchanged(
    strategy_id: str, params: dict[str, Any], tmp_path: Path, built: list[Strategy]
) -> None:
    strategy = make(strategy_id, params, provider=ProviderConfig(fail_on_calls=(3,)), data_dir=tmp_path)
    built.append(strategy)
    send_ok(strategy, NAME_TURN)
    send_ok(strategy, SMALL_TALK[0])
    before = rows(stored(strategy))
    turn = strategy.send("What's my name?")
    assert turn.error is not None and "Injected fault" in turn.error
    assert turn.reply == ""
    assert rows(stored(strategy)) == before
    assert "Mara" in send_ok(strategy, "What's my name?").reply
    assert len(stored(strategy)) == len(before) + 2


@pytest.mark.parametrize("strategy_id", ["trim", "turn_trim"])
def test_a_failure_after_the_tool_ran_keeps_no_half_turn(strategy_id: str, built: list[Strategy]) -> None:
    strategy = make(strategy_id, provider=ProviderConfig(fail_on_calls=(2,)))
    built.append(strategy)
    turn = strategy.send(WEATHER)
    assert turn.error is not None and "Injected fault" in turn.error
    assert stored(strategy) == []
    turn = send_ok(strategy, WEATHER)
    assert [m.type for m in stored(strategy)] == ["human", "ai", "tool", "ai"]


@pytest.mark.parametrize("strategy_id", ["trim", "turn_trim"])
def test_a_budget_smaller_than_the_system_prompt_is_a_clear_turn_error(
    strategy_id: str, built: list[Strategy], received: list[list[BaseMessage]]
) -> None:
    system_tokens = count_messages_tokens([SystemMessage(DEFAULT_SYSTEM_PROMPT)], ENCODING) + TOOL_TOKENS
    with pytest.raises(InputError, match=f"{strategy_id}.max_tokens={system_tokens - 1} leaves no room"):
        make(strategy_id, {"max_tokens": system_tokens - 1})  # refused when parsed, before anything is built
    # Built around the parser, the strategy still refuses at the turn, before any call.
    strategy = strategy_class(strategy_id)(
        StrategyContext(provider=ProviderConfig()), {"max_tokens": system_tokens - 1}
    )
    built.append(strategy)
    turn = strategy.send("Hello!")
    assert turn.error == (
        f"InputError: The system prompt and tool definitions take {system_tokens} tokens, more than "
        f"{strategy_id}.max_tokens={system_tokens - 1}. Raise the budget; nothing was sent."
    )
    assert received == [] and turn.reply_call is None
    assert stored(strategy) == []


def test_trim_refuses_a_message_that_cannot_fit_with_the_system_prompt(built: list[Strategy]) -> None:
    system = SystemMessage(DEFAULT_SYSTEM_PROMPT)
    question = HumanMessage("Can you recommend a good book about gardening?")
    budget = count_messages_tokens([system, question], ENCODING) + TOOL_TOKENS - 1
    strategy = make("trim", {"max_tokens": budget})
    built.append(strategy)
    turn = strategy.send(question.content)
    assert turn.error is not None and "nothing was sent" in turn.error
    assert f"take {budget + 1} tokens, more than trim.max_tokens={budget}" in turn.error
    assert turn.reply_call is None and stored(strategy) == []


# -- tool calls in the history: trim_messages versus whole turns ------------------------------------------


def _tool_scenario_budgets() -> tuple[int, int, list[list[BaseMessage]]]:
    """(tight, roomy) budgets for the tool scenario, computed with tiktoken from a real untrimmed run.

    tight: the system prompt plus the longest question fits, but no question plus its tool call and
    result does. roomy: the largest prompt the newest turn alone needs (system, question, tool call,
    result) fits exactly.
    """
    scenario = load_scenario("tool_weather_order")
    full = build_strategy("turn_trim", StrategyContext(), {"max_tokens": 100_000})
    for scripted in scenario.turns:
        send_ok(full, scripted.user)
    system = SystemMessage(DEFAULT_SYSTEM_PROMPT)
    turns = split_turns(full.stored_messages())
    tool_turns = [t for t in turns if any(isinstance(m, ToolMessage) for m in t)]
    assert len(tool_turns) >= 2, "the offline model should call a tool for both weather questions"
    tight = max(count_messages_tokens([system, t[0]], ENCODING) for t in turns) + TOOL_TOKENS
    smallest_tool_round = min(count_messages_tokens([system, *t[:3]], ENCODING) for t in tool_turns)
    assert tight < smallest_tool_round + TOOL_TOKENS
    roomy = max(count_messages_tokens([system, *t[:-1]], ENCODING) for t in turns) + TOOL_TOKENS
    return tight, roomy, turns


def test_on_the_tool_scenario_trim_messages_drops_the_question_and_turn_trim_refuses() -> None:
    """What trim_messages(start_on="human") really does to tool turns (langchain-core 1.8).

    It never leaves an orphaned ToolMessage; instead, in the tool round of a turn that no longer
    fits, it drops the question, the tool call and the result, and the model sees the system prompt
    alone. turn_trim says the turn is too large. Once the newest turn fits, both keep whole turns:
    a suffix that starts on a human message is a run of whole turns.
    """
    scenario = load_scenario("tool_weather_order")
    tight, roomy, full_turns = _tool_scenario_budgets()

    trim_run = replay_strategy(scenario, "trim", ProviderConfig(), {"max_tokens": tight})
    lost_rounds = 0
    for turn in trim_run.turns:
        assert turn.ok
        for call in model_calls(turn):
            validate_tool_history([_as_message(m.to_json()) for m in call.messages])  # never an orphan
            if [m.role for m in call.messages] == ["system"]:
                lost_rounds += 1
        if turn.tool_round_calls:
            assert [m.role for m in turn.reply_call.messages] == ["system"]  # type: ignore[union-attr]
            assert any("lost this turn's question" in note for note in turn.notes)
            assert turn.tool_round_calls[0].messages[-1].content == turn.user_text
    weather_turns = [i for i, t in enumerate(scenario.turns) if "weather" in t.user]
    order_turns = [i for i, t in enumerate(scenario.turns) if "status of order" in t.user]
    assert lost_rounds == len(weather_turns) + len(order_turns)
    for index in weather_turns:
        assert not scenario.turns[index].passed(trim_run.turns[index].reply)

    turn_trim_run = replay_strategy(scenario, "turn_trim", ProviderConfig(), {"max_tokens": tight})
    for index in weather_turns:
        turn = turn_trim_run.turns[index]
        needed = (
            count_messages_tokens([SystemMessage(DEFAULT_SYSTEM_PROMPT), *full_turns[index]][:4], ENCODING)
            + TOOL_TOKENS
        )
        assert turn.error is not None
        assert f"takes {needed} tokens, more than the budget of {tight}" in turn.error

    for strategy_id in ("turn_trim", "trim"):
        roomy_run = replay_strategy(scenario, strategy_id, ProviderConfig(), {"max_tokens": roomy})
        for turn in roomy_run.turns:
            assert turn.ok and not turn.notes
            for call in model_calls(turn):
                assert call.prompt_tokens <= roomy
                assert any(m.role == "human" and m.content == turn.user_text for m in call.messages)
                validate_tool_history([_as_message(m.to_json()) for m in call.messages])
        for index in weather_turns:
            assert scenario.turns[index].passed(roomy_run.turns[index].reply)
        assert any(turn.state["dropped_count"] for turn in roomy_run.turns), "roomy must still trim"


def _as_message(row: dict[str, Any]) -> BaseMessage:
    if row["role"] == "tool":
        return ToolMessage(row["content"], tool_call_id=row["tool_call_id"])
    if row["role"] == "ai":
        return AIMessage(row["content"], tool_calls=row.get("tool_calls", []))
    return HumanMessage(row["content"]) if row["role"] == "human" else SystemMessage(row["content"])


def test_without_start_on_trim_messages_leaves_an_orphaned_tool_result() -> None:
    """langchain#33245 on the tool scenario's real history; start_on="human" is what prevents it."""
    _, _, turns = _tool_scenario_budgets()
    history = [SystemMessage(DEFAULT_SYSTEM_PROMPT), *(m for turn in turns for m in turn)]

    def counter(messages: list[BaseMessage]) -> int:
        return count_messages_tokens(messages, ENCODING)

    orphan_budgets = []
    for budget in range(1, counter(history) + 1):
        plain = trim_messages(
            history, max_tokens=budget, token_counter=counter, strategy="last", include_system=True
        )
        if len(plain) > 1 and isinstance(plain[1], ToolMessage):
            orphan_budgets.append(budget)
        safe = trim_messages(
            history,
            max_tokens=budget,
            token_counter=counter,
            strategy="last",
            include_system=True,
            start_on="human",
        )
        assert len(safe) == 1 or isinstance(safe[1], HumanMessage)
        validate_tool_history(safe)
    assert orphan_budgets, "without start_on some budget should cut a tool call from its result"


def test_a_repeated_question_gets_fresh_tool_call_ids(built: list[Strategy]) -> None:
    strategy = make("turn_trim", {"max_tokens": 2000})
    built.append(strategy)
    first = send_ok(strategy, WEATHER)
    second = send_ok(strategy, WEATHER)
    assert first.reply == second.reply
    validate_tool_history(stored(strategy))
    ids = [c["id"] for m in stored(strategy) if isinstance(m, AIMessage) for c in m.tool_calls]
    assert len(ids) == 2 and ids[1] == f"{ids[0]}_2"
