"""LangMem's memory tools and background memory manager, on the offline model and on a fake OpenAI server.

The strategies run the real LangMem classes (``create_manage_memory_tool``, ``create_search_memory_tool``,
``create_memory_store_manager``, ``ReflectionExecutor``); the offline model decides what is worth keeping
with its own reader and answers trustcall's extraction prompt; the fake server scripts the tool calls a
real model would make.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage
from langgraph.store.memory import InMemoryStore
from pydantic import BaseModel, SecretStr

from memory_demos.__main__ import main
from memory_demos.prompt_markers import MANAGE_MEMORIES
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.providers.offline_model import OfflineTeachingModel
from memory_demos.providers.offline_model.langmem_prompts import UnsupportedLangMemCall
from memory_demos.scenarios import is_refusal
from memory_demos.strategies.base import StrategyContext
from memory_demos.strategies.registry import build_strategy
from tests.fake_openai_server import FakeOpenAIServer, ScriptedReply
from tests.helpers import WordEmbeddings

SCENARIO = Path(__file__).parent / "data" / "scenarios" / "background_probe.yaml"


def context(**fields: object) -> StrategyContext:
    return StrategyContext(embeddings=WordEmbeddings(), **fields)  # type: ignore[arg-type]


def manage_calls(turn: object) -> list[dict]:
    calls = [*turn.tool_round_calls]  # type: ignore[attr-defined]
    return [
        call
        for model_call in calls
        for message in model_call.messages
        for call in message.tool_calls
        if call["name"] == "manage_memory"
    ]


def test_the_agent_saves_statements_about_the_user_and_nothing_else() -> None:
    strategy = build_strategy("memory_tools", context())
    try:
        saved = strategy.send("Hi, I'm Mara and I live in Lisbon.")
        question = strategy.send("What's the capital of France?")
        supposed = strategy.send("If I won the lottery I'd buy a boat.")
        small_talk = strategy.send("Thanks!")
    finally:
        strategy.close()
    assert [w["value"] for w in saved.state["writes_this_turn"]] == ["I'm Mara.", "I live in Lisbon."] or [
        w["value"] for w in saved.state["writes_this_turn"]
    ] == ["I live in Lisbon.", "I'm Mara."]
    assert {w["operation"] for w in saved.state["writes_this_turn"]} == {"insert"}
    # One save round (two parallel calls), then the reply: the round is counted apart and in the total.
    assert len(saved.tool_round_calls) == 1 and saved.tool_round_calls[0].total_tokens > 0
    assert saved.total_tokens == saved.prompt_tokens + saved.completion_tokens + sum(
        c.total_tokens for c in saved.tool_round_calls
    )
    # A question is searched for, never saved; a hypothetical and small talk write nothing.
    assert question.state["searches_this_turn"] == ["What's the capital of France?"]
    for turn in (question, supposed, small_talk):
        assert turn.state["writes_this_turn"] == [], turn.user_text
    assert len(small_talk.state["audit_trail"]) == 2


def test_memory_tools_recall_what_left_the_window_through_search_and_update_a_change() -> None:
    strategy = build_strategy("memory_tools", context(), {"recent_turns": 0})
    try:
        for text in ("My name is Mara.", "I live in Lisbon.", "I work as a nurse."):
            strategy.send(text)
        moved = strategy.send("I moved to Porto.")
        answer = strategy.send("Where do I live? What's my name? What do I do?")
    finally:
        strategy.close()
    [update] = moved.state["writes_this_turn"]
    assert update["operation"] == "update" and update["value"] == "I moved to Porto."
    first_city = next(w for w in moved.state["audit_trail"] if w["value"] == "I live in Lisbon.")
    assert update["key"] == first_city["key"] and first_city["turn"] == 2
    assert update["tokens"] == moved.tool_round_calls[-1].total_tokens  # the round that decided it
    assert "Porto" in answer.reply and "Mara" in answer.reply and "nurse" in answer.reply
    assert "Lisbon" not in answer.reply
    # Only the new message travels: the facts came from the search round's tool result.
    assert [m.role for m in answer.injected_prompt if m.role == "human"] == ["human"]
    assert any(m.role == "tool" and "Porto" in m.content for m in answer.injected_prompt)


def test_replay_json_recalls_three_facts_and_shows_each_write_with_its_turn(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["replay", "--scenario", "name_recall", "--strategies", "memory_tools,background_memory", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    runs = {run["strategy"]: run for run in data["results"]}
    for strategy_id, run in runs.items():
        assert (run["recall"]["passed"], run["recall"]["asked"]) == (3, 3), strategy_id
        trail = run["turns"][-1]["state"]["audit_trail"]
        written = {w["value"]: w for w in trail}
        assert {"My name is Mara.", "I live in Lisbon.", "My order number is A-1234."} <= set(written)
    tools_trail = runs["memory_tools"]["turns"][-1]["state"]["audit_trail"]
    assert [(w["turn"], w["via"]) for w in tools_trail if w["value"].startswith("My order")] == [
        (2, "tool:manage_memory")
    ]
    assert runs["memory_tools"]["totals"]["tool_round_tokens"] > 0
    # The manager processed turn 2 after the reply of turn 2 + delay (1): its write is stamped turn 3.
    background = runs["background_memory"]
    trail = background["turns"][-1]["state"]["audit_trail"]
    assert [(w["turn"], w["via"]) for w in trail if w["value"].startswith("My order")] == [(3, "manager")]
    assert background["totals"]["memory_tokens"] > 0
    manager_calls = [c for t in background["turns"] for c in t["memory_calls"]]
    assert manager_calls and {c["purpose"] for c in manager_calls} == {MANAGE_MEMORIES}


def test_background_probe_is_refused_before_the_manager_ran_and_answered_after() -> None:
    from memory_demos.replay import replay
    from memory_demos.scenarios import load_scenario

    result = replay(
        load_scenario(str(SCENARIO)),
        ["background_memory"],
        ProviderConfig(),
        {"background_memory": {"delay": 3}},
    )
    [run] = result.runs
    turns = run.turns
    assert is_refusal(turns[3].reply), turns[3].reply  # turn 4: turn 1 not processed yet
    assert turns[3].state["memories_sent"] == [] and turns[2].state["memories"] == []
    assert [m["content"] for m in turns[3].state["memories"]] == ["Hi, my name is Mara."] or [
        m["content"] for m in turns[3].state["memories"]
    ] == ["My name is Mara."]  # formed right after this reply
    assert "Mara" in turns[5].reply  # turn 6, the same question: the memory is there
    assert run.recall_passed == run.recall_asked == 3
    [first] = [r for r in turns[-1].state["manager_runs"] if r["from_turns"] == [1]]
    assert (first["ran_after_turn"], first["available_from_turn"], first["status"]) == (4, 5, "done")
    assert any("available from turn 5" in str(note) for note in turns[3].notes)
    [name] = [w for w in turns[-1].state["audit_trail"] if "Mara" in w["value"]]
    assert (name["turn"], name["operation"], name["via"]) == (4, "insert", "manager")
    assert name["tokens"] == first["tokens"] == sum(c.total_tokens for c in turns[3].memory_calls)
    assert turns[3].total_tokens >= turns[3].memory_tokens > 0  # the manager's calls are in the pane total


def test_the_manager_updates_a_changed_fact_with_a_patch() -> None:
    strategy = build_strategy("background_memory", context(), {"delay": 0})
    try:
        strategy.send("I live in Lisbon.")
        moved = strategy.send("I moved to Porto.")
    finally:
        strategy.close()
    trail = moved.state["audit_trail"]
    assert [(w["turn"], w["operation"]) for w in trail] == [(1, "insert"), (2, "update")]
    assert trail[0]["key"] == trail[1]["key"] and trail[1]["value"] == "I moved to Porto."
    assert [m["content"] for m in moved.state["memories"]] == ["I moved to Porto."]
    [run] = [r for r in moved.state["manager_runs"] if r["from_turns"] == [2]]
    assert (run["writes"], run["status"]) == (1, "done")
    [manager_call] = moved.memory_calls
    assert "I live in Lisbon." in manager_call.messages[0].content  # trustcall showed the memory to patch
    assert {tool["function"]["name"] for tool in manager_call.tools} >= {"PatchDoc", "Memory"}


def test_a_manager_schema_the_offline_model_cannot_fill_is_a_failure_not_a_made_up_memory() -> None:
    from langmem import create_memory_store_manager

    class UserProfile(BaseModel):
        """The user's profile."""

        name: str

    manager = create_memory_store_manager(
        OfflineTeachingModel(), schemas=[UserProfile], namespace=("memories", "u"), store=InMemoryStore()
    )
    with pytest.raises(UnsupportedLangMemCall, match="no Memory tool"):
        manager.invoke({"messages": [HumanMessage("My name is Mara.")]})


def test_a_quiet_delay_in_seconds_forms_the_memory_after_the_conversation_pauses() -> None:
    strategy = build_strategy("background_memory", context(), {"clock": "seconds", "delay": 1})
    try:
        first = strategy.send("My name is Mara.")
        second = strategy.send("I like tea.")  # within the delay: the pending run is cancelled, resubmitted
        assert first.memory_calls == [] and second.memory_calls == []
        deadline = time.monotonic() + 30
        while not any(r["status"] == "done" for r in strategy.snapshot()["manager_runs"]):
            assert time.monotonic() < deadline, strategy.snapshot()["manager_runs"]
            time.sleep(0.1)
        runs = strategy.snapshot()["manager_runs"]
        assert [r["status"] for r in runs] == ["cancelled", "done"]
        assert runs[1]["from_turns"] == [1, 2]
        asked = strategy.send("What's my name?")
    finally:
        strategy.close()
    assert "Mara" in asked.reply
    # The run happened between turns: its calls are counted with the next turn.
    assert {c.purpose for c in asked.memory_calls} == {MANAGE_MEMORIES}


def test_memories_outlive_the_conversation_in_sqlite(tmp_path: Path) -> None:
    first = build_strategy(
        "memory_tools", context(data_dir=tmp_path, conversation_id="c1"), {"store": "sqlite"}
    )
    try:
        first.send("I live in Lisbon.")
    finally:
        first.close()
    second = build_strategy(
        "memory_tools", context(data_dir=tmp_path, conversation_id="c2"), {"store": "sqlite"}
    )
    try:
        turn = second.send("Where do I live?")
    finally:
        second.close()
    assert "Lisbon" in turn.reply
    assert [m["content"] for m in turn.state["memories"]] == ["I live in Lisbon."]


@pytest.fixture
def server() -> object:
    with FakeOpenAIServer() as fake:
        yield fake


def fake_provider(server: FakeOpenAIServer) -> ProviderConfig:
    return ProviderConfig(
        kind="openai_compatible",
        model="test-model",
        base_url=server.base_url,
        api_key=SecretStr("sk-test-langmem-0001"),
        max_retries=0,
    )


def test_memory_tools_run_on_a_real_chat_model_with_scripted_tool_calls(server: FakeOpenAIServer) -> None:
    save = ("manage_memory", {"content": "User lives in Lisbon", "action": "create"})
    server.add_script(ScriptedReply(tool_calls=(save,), match="I live in Lisbon"))
    search = ("search_memory", {"query": "where the user lives"})
    server.add_script(ScriptedReply(tool_calls=(search,), match="Where do I live"))
    strategy = build_strategy("memory_tools", context(provider=fake_provider(server)))
    try:
        saved = strategy.send("I live in Lisbon.")
        asked = strategy.send("Where do I live?")
    finally:
        strategy.close()
    assert saved.error is None and asked.error is None, (saved.error, asked.error)
    [write] = saved.state["writes_this_turn"]
    assert (write["operation"], write["value"], write["via"]) == (
        "insert",
        "User lives in Lisbon",
        "tool:manage_memory",
    )
    assert write["tokens"] == saved.tool_round_calls[0].total_tokens
    assert saved.tool_round_calls[0].counted_by == "provider"
    # The search round's result went back to the server, with the memory in it.
    last = server.requests[-1]
    assert any(
        m.get("role") == "tool" and "User lives in Lisbon" in str(m.get("content")) for m in last.messages
    )
    assert asked.total_tokens > asked.prompt_tokens + asked.completion_tokens


def test_background_memory_runs_on_a_real_chat_model_with_a_scripted_manager(
    server: FakeOpenAIServer,
) -> None:
    memory = ("Memory", {"content": "The user's name is Mara."})
    server.add_script(ScriptedReply(tool_calls=(memory,), match="<session_"))
    strategy = build_strategy("background_memory", context(provider=fake_provider(server)), {"delay": 0})
    try:
        told = strategy.send("My name is Mara.")
        asked = strategy.send("What's my name?")
    finally:
        strategy.close()
    assert told.error is None and asked.error is None
    [write] = told.state["audit_trail"]
    assert (write["turn"], write["operation"], write["value"]) == (1, "insert", "The user's name is Mara.")
    assert [c.purpose for c in told.memory_calls] == [MANAGE_MEMORIES]
    assert told.memory_calls[0].counted_by == "provider" and told.memory_tokens > 0
    manager_request = next(r for r in server.requests if "<session_" in r.raw_body)
    assert {t["function"]["name"] for t in manager_request.body["tools"]} == {"Memory"}
    reply_request = next(r for r in reversed(server.requests) if r.last_user_text == "What's my name?")
    assert "\nThe user's name is Mara." in str(reply_request.messages[0]["content"])


@pytest.mark.parametrize(
    ("strategy_id", "params"), [("memory_tools", {}), ("background_memory", {"delay": 0})]
)
def test_memory_management_spends_the_workshop_budget_like_the_reply(strategy_id: str, params: dict) -> None:
    from memory_demos.workshop.budget import BudgetGate, SessionBudget
    from memory_demos.workshop.settings import WorkshopLimits

    budget = SessionBudget(WorkshopLimits())
    strategy = build_strategy(strategy_id, context(provider=ProviderConfig(gate=BudgetGate(budget))), params)
    try:
        turns = [strategy.send(text) for text in ("My name is Mara.", "What's my name?")]
    finally:
        strategy.close()
    hidden = sum(c.total_tokens for t in turns for c in [*t.tool_round_calls, *t.memory_calls])
    assert hidden > 0 and all(t.ok for t in turns)
    # Tool rounds (memory_tools) and manager runs (background_memory) went through the gate too.
    assert budget.tokens_used == sum(turn.total_tokens for turn in turns)


@pytest.mark.parametrize(("language", "place"), [("en", "Lisbon"), ("zh", "上海")])
def test_the_failure_lab_agent_that_never_saves_forgets_and_the_background_manager_keeps(
    language: str, place: str
) -> None:
    from memory_demos.failure_lab import get_demo, run_demo

    result = run_demo("never_saved", language)
    assert result["failed"] and result["fixed_ok"]
    naive, fixed = result["naive"], result["fixed"]
    # The agent said it got it, called no save tool, wrote nothing: the question is refused.
    assert place in naive["told"][0]["reply"] and naive["save_calls"] == 0
    assert naive["audit_trail"] == [] and naive["memories"] == []
    assert is_refusal(naive["answer"]) and place not in naive["answer"]
    assert {row["via"] for row in fixed["audit_trail"]} == {"manager"}
    assert any(place in text for text in fixed["memories"]) and place in fixed["answer"]
    assert fixed["memory_tokens"] > 0 and naive["memory_tokens"] == 0
    rows = {row.label_key: row for row in get_demo("never_saved").verdict(result)}
    assert (
        rows["failure.verdict.memory_writes"].naive == 0 and rows["failure.verdict.memory_writes"].fixed >= 3
    )


def test_a_new_conversation_lets_the_manager_process_what_waited_and_counts_it_there() -> None:
    first = build_strategy("background_memory", context(), {"delay": 3})
    try:
        first.send("My favourite food is ramen.")
        assert first.snapshot()["waiting_for_manager"] == [1]
        second = first.new_conversation()
        try:
            assert first.snapshot()["waiting_for_manager"] == []
            [run] = first.snapshot()["manager_runs"]
            assert (run["from_turns"], run["status"], run["writes"]) == ([1], "done", 1)
            asked = second.send("What's my favourite food?")
        finally:
            second.close()
    finally:
        first.close()
    assert "ramen" in asked.reply
    # The run happened between the conversations: its calls are counted in the next one's first turn.
    assert [c.purpose for c in asked.memory_calls] == [MANAGE_MEMORIES]


def test_a_clause_without_its_own_subject_is_kept_with_the_subject_before_it() -> None:
    strategy = build_strategy("memory_tools", context(language="zh"))
    try:
        brother = strategy.send("我哥哥小王住在广州，是一名医生。")
        moved = strategy.send("我已经不住北京了，搬到上海了。")
        request = strategy.send("给我讲个笑话。")
    finally:
        strategy.close()
    assert sorted(w["value"] for w in brother.state["writes_this_turn"]) == [
        "我哥哥小王住在广州。",
        "我哥哥是一名医生。",
    ]
    assert sorted(w["value"] for w in moved.state["writes_this_turn"]) == [
        "我已经不住北京了。",
        "我搬到上海了。",
    ]
    assert request.state["writes_this_turn"] == []  # a request states nothing to keep


def test_audit_operations_and_run_states_are_named_in_chinese_and_the_data_is_unchanged() -> None:
    from memory_demos.i18n import language_scope
    from memory_demos.ui.state_view import column_label, records_frame

    rows = [
        {"turn": 1, "operation": "insert", "via": "manager"},
        {"turn": 2, "operation": "update", "via": "x"},
    ]
    runs = [{"number": 1, "status": "done"}, {"number": 2, "status": "cancelled"}]
    with language_scope("zh"):
        operations = list(records_frame(rows)[column_label("operation")])
        statuses = list(records_frame(runs)[column_label("status")])
    assert operations == ["新增", "更新"] and statuses == ["已完成", "已取消"]
    assert rows[0]["operation"] == "insert" and runs[0]["status"] == "done"
    with language_scope("en"):
        assert list(records_frame(rows)[column_label("operation")]) == ["insert", "update"]


@pytest.mark.parametrize(
    ("strategy_id", "params"), [("memory_tools", {}), ("background_memory", {"delay": 0})]
)
def test_forgetting_a_fact_deletes_the_memory_that_holds_it(strategy_id: str, params: dict) -> None:
    strategy = build_strategy(strategy_id, context(), {**params, "recent_turns": 0})
    try:
        for text in ("I live in Lisbon.", "I work as a nurse.", "Forget what I said about Lisbon."):
            strategy.send(text)
        where = strategy.send("Where do I live?")
        job = strategy.send("What do I do?")
    finally:
        strategy.close()
    via = "tool:manage_memory" if strategy_id == "memory_tools" else "manager"
    trail = [(w["turn"], w["operation"], w["value"], w["via"]) for w in job.state["audit_trail"]]
    assert (3, "delete", "I live in Lisbon.", via) in trail
    assert [m["content"] for m in job.state["memories"]] == ["I work as a nurse."]
    assert is_refusal(where.reply) and "nurse" in job.reply


def test_the_langgraph_warning_langmem_brings_names_what_and_since_when() -> None:
    from memory_demos.deprecations import parse_deprecation

    message = (
        "Importing Send from langgraph.constants is deprecated. Please use 'from langgraph.types import Send' "
        "instead. Deprecated in LangGraph V1.0 to be removed in V2.0."
    )
    found = parse_deprecation(message, "LangGraphDeprecatedSinceV10")
    assert (found.subject, found.since, found.removal) == ("langgraph.constants.Send", "1.0", "2.0")
    classic = parse_deprecation(
        "The class `ConversationBufferMemory` was deprecated in LangChain 0.3.1 and will be removed in 2.0.0."
    )
    assert (classic.subject, classic.since, classic.removal) == ("ConversationBufferMemory", "0.3.1", "2.0.0")
