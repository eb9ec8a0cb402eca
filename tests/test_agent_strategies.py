"""The LangChain 1.x strategies against the classic memories they replace, scenario by scenario, turn by turn."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memory_demos.defaults import DEFAULT_SYSTEM_PROMPT
from memory_demos.migration import compare_prompts
from memory_demos.prompt_sections import classify_prompt
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.replay import StrategyRun, replay_strategy
from memory_demos.scenarios import bundled_names, load_scenario
from memory_demos.strategies.base import InputError, StrategyContext
from memory_demos.strategies.registry import build_strategy, get_info, ids_of_kind, parse_params
from memory_demos.strategies.shared.trimming_agent import agent_tool_tokens
from memory_demos.turn import Turn
from tests.helpers import send_ok
from tests.test_cli import run_cli

CLASSIC_IDS = ids_of_kind("classic")  # the kind each module declares in its INFO

SCENARIOS = bundled_names()
NO_TOOLS = {"tools": "false"}  # the classic memories bind no tools: compare like with like
ENCODING = "o200k_base"


def run(scenario: str, strategy_id: str, params: dict[str, Any] | None = None) -> StrategyRun:
    return replay_strategy(load_scenario(scenario), strategy_id, ProviderConfig(), params or {})


def same_turns(classic: StrategyRun, modern: StrategyRun) -> list[bool]:
    assert len(classic.turns) == len(modern.turns)
    assert all(turn.ok for turn in [*classic.turns, *modern.turns])
    return [
        compare_prompts(a.injected_prompt, b.injected_prompt).same
        for a, b in zip(classic.turns, modern.turns, strict=True)
    ]


def history_roles(turn: Turn) -> list[str]:
    return [message.role for message in turn.injected_prompt[1:-1]]


# -- pairs that must send the same prompt -----------------------------------------------------------


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize(
    ("classic", "classic_params", "modern", "modern_params"),
    [
        ("buffer", {}, "agent", NO_TOOLS),
        ("window", {"k": 2}, "agent_trim", {"k": 2, **NO_TOOLS}),
        ("vector", {"k": 2}, "semantic_store", {"k": 2}),
    ],
)
def test_pairs_meant_to_match_send_the_same_prompt_every_turn(
    scenario: str, classic: str, classic_params: dict[str, Any], modern: str, modern_params: dict[str, Any]
) -> None:
    classic_run = run(scenario, classic, classic_params)
    modern_run = run(scenario, modern, modern_params)
    script = load_scenario(scenario)
    if get_info(modern).carries_over and script.sessions > 1:
        # The pair matches within a conversation; after a session break it must not: the classic memory's
        # collection is the conversation's, semantic_store's store the user's (issue 22).
        first = sum(1 for turn in script.turns if turn.session == 1)
        later = (classic_run.turns[first:], modern_run.turns[first:])
        assert [t.injected_prompt for t in later[0]] != [t.injected_prompt for t in later[1]]
        classic_run = StrategyRun(classic, classic_run.params, classic_run.turns[:first], [])
        modern_run = StrategyRun(modern, modern_run.params, modern_run.turns[:first], [])
    assert all(same_turns(classic_run, modern_run))
    assert [t.reply for t in classic_run.turns] == [t.reply for t in modern_run.turns]
    assert classic_run.recall_passed == modern_run.recall_passed
    assert [t.prompt_tokens for t in classic_run.turns] == [t.prompt_tokens for t in modern_run.turns]


def test_with_tools_bound_the_agent_sends_the_same_messages_and_pays_for_the_tool_definitions() -> None:
    classic_run = run("name_recall", "buffer")
    modern_run = run("name_recall", "agent")
    assert all(same_turns(classic_run, modern_run))
    tool_tokens = agent_tool_tokens(ENCODING)
    for classic_turn, modern_turn in zip(classic_run.turns, modern_run.turns, strict=True):
        assert [tool["function"]["name"] for tool in modern_turn.tool_schemas] == [
            "get_weather",
            "get_order_status",
        ]
        assert modern_turn.tool_tokens == tool_tokens > 0
        assert modern_turn.prompt_tokens == classic_turn.prompt_tokens + tool_tokens
        assert classic_turn.tool_schemas == () and classic_turn.tool_tokens == 0


# -- pairs that differ, and why ------------------------------------------------------------------


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_token_buffer_and_agent_trim_differ_only_where_the_classic_budget_leaves_out_the_prompt(
    scenario: str,
) -> None:
    """ConversationTokenBufferMemory budgets the history alone and pops single messages; agent_trim budgets
    the whole prompt and cuts whole turns. Where they differ, the 1.x prompt is a suffix of the classic one."""
    budget = 300
    classic_run = run(scenario, "token_buffer", {"max_token_limit": budget})
    modern_run = run(scenario, "agent_trim", {"k": 0, "max_tokens": budget, **NO_TOOLS})
    if scenario == "name_recall":
        assert not all(same_turns(classic_run, modern_run)), "the long scenario must pass the budget"
    for same, classic_turn, modern_turn in zip(
        same_turns(classic_run, modern_run), classic_run.turns, modern_run.turns, strict=True
    ):
        assert modern_turn.prompt_tokens <= budget
        assert history_roles(modern_turn)[:1] in ([], ["human"])
        if same:
            continue
        assert classic_turn.prompt_tokens > budget or history_roles(classic_turn)[:1] == ["ai"]
        kept = [m.to_json() for m in modern_turn.injected_prompt[1:]]
        assert kept == [m.to_json() for m in classic_turn.injected_prompt[-len(kept) :]]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_summary_buffer_and_summarization_differ_where_a_summary_is_sent(scenario: str) -> None:
    """The two summaries are written by different prompts and placed differently (a system message for the
    classic memory, a human message for the middleware): those turns differ; the others are equal."""
    classic_run = run(scenario, "summary_buffer")
    modern_run = run(scenario, "summarization")
    if scenario == "name_recall":
        assert not all(same_turns(classic_run, modern_run)), "the long scenario must reach a summary"
    for same, classic_turn, modern_turn in zip(
        same_turns(classic_run, modern_run), classic_run.turns, modern_run.turns, strict=True
    ):
        sections = [
            {part.section for part in classify_prompt(turn.injected_prompt, DEFAULT_SYSTEM_PROMPT)}
            for turn in (classic_turn, modern_turn)
        ]
        has_summary = ["summary" in found for found in sections]
        assert same or any(has_summary), "a difference without any summary would be unexplained"
        if same:
            assert not any(has_summary)
    assert classic_run.recall_passed == modern_run.recall_passed


# -- the 1.x strategies themselves -----------------------------------------------------------------


def test_agent_trim_takes_exactly_one_of_k_and_max_tokens() -> None:
    context = StrategyContext()
    with pytest.raises(InputError, match="exactly one"):
        parse_params("agent_trim", {"k": 2, "max_tokens": 400}, context)
    with pytest.raises(InputError, match="exactly one"):
        parse_params("agent_trim", {"k": 0, "max_tokens": 0}, context)
    with pytest.raises(InputError, match="tool definitions"):
        parse_params("agent_trim", {"k": 0, "max_tokens": 90}, context)
    assert parse_params("agent_trim", {"k": 0, "max_tokens": 400}, context)["max_tokens"] == 400


def test_agent_trim_removes_trimmed_messages_from_the_thread_state(tmp_path: Path) -> None:
    strategy = build_strategy("agent_trim", StrategyContext(data_dir=tmp_path), {"k": 1})
    for text in ("Hi, my name is Mara.", "I live in Lisbon.", "I like tea.", "What's my name?"):
        turn = send_ok(strategy, text)
    assert [m["role"] for m in turn.state["messages"]] == ["human", "ai", "human", "ai"]
    assert turn.state["removed_last_turn"] == [
        {"role": "human", "content": "I live in Lisbon."},
        {"role": "ai", "content": turn.state["removed_last_turn"][1]["content"]},
    ]
    assert "Mara" not in turn.reply
    assert any("removed 2 messages" in note for note in turn.notes)


def test_agent_trim_by_tokens_keeps_every_prompt_with_its_tools_inside_the_budget() -> None:
    budget = 260
    tool_run = run("tool_weather_order", "agent_trim", {"k": 0, "max_tokens": budget})
    calls = [call for turn in tool_run.turns for call in [*turn.tool_round_calls, turn.reply_call] if call]
    assert any(turn.tool_round_calls for turn in tool_run.turns)
    assert all(call.tool_tokens > 0 and call.prompt_tokens <= budget for call in calls)


def test_context_editing_clears_old_tool_results_in_the_prompt_but_not_in_the_thread() -> None:
    strategy = build_strategy("context_editing", StrategyContext(), {"trigger_tokens": 150, "keep": 1})
    for text in (
        "What's the weather in Lisbon?",
        "What's the weather in Porto?",
        "What's the status of order A-1234?",
    ):
        turn = send_ok(strategy, text)
    tool_results = [m for m in turn.injected_prompt if m.role == "tool"]
    assert len(tool_results) == 3
    assert [m.content == "[cleared]" for m in tool_results] == [True, True, False]
    assert turn.state["tool_results_in_thread"] == 3
    stored = [m["content"] for m in turn.state["messages"] if m["role"] == "tool"]
    assert all("simulated data" in content for content in stored)


def test_context_editing_on_the_tool_scenario_clears_old_results_and_still_answers() -> None:
    edited = run("tool_weather_order", "context_editing", {"trigger_tokens": 150, "keep": 1})
    whole = run("tool_weather_order", "agent")
    cleared = [sum(m.content == "[cleared]" for m in turn.injected_prompt) for turn in edited.turns]
    assert max(cleared) >= 1 and cleared[0] == 0
    assert all(
        turn.prompt_tokens <= full.prompt_tokens for turn, full in zip(edited.turns, whole.turns, strict=True)
    )
    assert edited.recall_passed == whole.recall_passed == edited.recall_asked


def test_context_editing_leaves_the_prompt_alone_below_its_trigger() -> None:
    strategy = build_strategy("context_editing", StrategyContext(), {"trigger_tokens": 100_000})
    for text in ("What's the weather in Lisbon?", "What's the weather in Porto?"):
        turn = send_ok(strategy, text)
    assert all(m.content != "[cleared]" for m in turn.injected_prompt)


def test_semantic_store_keeps_one_item_per_exchange_and_searches_it_with_the_new_message() -> None:
    strategy = build_strategy("semantic_store", StrategyContext(), {"k": 1})
    send_ok(strategy, "Hi, my name is Mara and I live in Lisbon.")
    send_ok(strategy, "I like green tea.")
    turn = send_ok(strategy, "What's my name?")
    assert [item["text"].splitlines()[0] for item in turn.state["items"]] == [
        "input: Hi, my name is Mara and I live in Lisbon.",
        "input: I like green tea.",
        "input: What's my name?",
    ]
    assert turn.state["query"] == "What's my name?" and len(turn.state["hits"]) == 1
    assert "Mara" in turn.state["hits"][0]["text"] and "Mara" in turn.reply
    assert [m.role for m in turn.injected_prompt] == ["system", "human"]  # recent_turns=0: no history


@pytest.mark.parametrize("recent_turns", [0, 2])
def test_semantic_store_thread_keeps_only_what_a_later_prompt_sends_and_the_store_keeps_everything(
    recent_turns: int,
) -> None:
    strategy = build_strategy("semantic_store", StrategyContext(), {"k": 1, "recent_turns": recent_turns})
    said = [
        "Hi, my name is Mara.",
        "I live in Lisbon.",
        "I like green tea.",
        "I have a cat.",
        "What's my name?",
    ]
    done: list[tuple[str, str]] = []
    for number, text in enumerate(said, start=1):
        turn = send_ok(strategy, text)
        recent = done[len(done) - recent_turns :] if recent_turns else []
        expected = [(role, content) for user, ai in recent for role, content in (("human", user), ("ai", ai))]
        # The prompt is what the whole history would give: the last recent_turns exchanges, then the message.
        assert [(m.role, m.content) for m in turn.injected_prompt[1:]] == [*expected, ("human", text)]
        done.append((text, turn.reply))
        kept = done[len(done) - recent_turns :] if recent_turns else []
        assert [m["content"] for m in turn.state["messages"]] == [c for pair in kept for c in pair]
        assert turn.state["messages_removed"] == 2 * (number - len(kept))
        assert len(turn.state["items"]) == number
    assert "Mara" in done[-1][1]
    strategy.close()


@pytest.mark.parametrize(
    ("strategy_id", "params"),
    [("agent", {"checkpointer": "sqlite"}), ("semantic_store", {"store": "sqlite"})],
)
def test_sqlite_memory_survives_a_restart(strategy_id: str, params: dict[str, Any], tmp_path: Path) -> None:
    context = StrategyContext(data_dir=tmp_path, conversation_id="conv-1", user_id="u1")
    first = build_strategy(strategy_id, context, params)
    send_ok(first, "Hi, my name is Mara and I live in Lisbon.")
    send_ok(first, "I like green tea.")
    first.close()
    again = build_strategy(
        strategy_id, StrategyContext(data_dir=tmp_path, conversation_id="conv-1", user_id="u1"), params
    )
    turn = send_ok(again, "What's my name?")
    assert "Mara" in turn.reply
    again.close()
    stranger = build_strategy(
        strategy_id, StrategyContext(data_dir=tmp_path, conversation_id="conv-1", user_id="u2"), params
    )
    assert "Mara" not in send_ok(stranger, "What's my name?").reply
    stranger.close()


@pytest.mark.parametrize(
    ("strategy_id", "name"),
    [
        ("agent", "checkpointer"),
        ("agent_trim", "checkpointer"),
        ("context_editing", "checkpointer"),
        ("semantic_store", "store"),
    ],
)
def test_conversation_links_bring_back_the_1x_panes_kept_outside_the_process(
    strategy_id: str, name: str
) -> None:
    from memory_demos.conversation_link import is_persisted
    from memory_demos.storage import StorageConfig

    storage = StorageConfig()
    assert is_persisted(strategy_id, {name: "sqlite"}, storage)
    assert is_persisted(strategy_id, {name: "postgres"}, storage)
    assert not is_persisted(strategy_id, {name: "memory"}, storage)
    assert "sqlite" in get_info(strategy_id).param(name).choices


def test_cli_replays_the_1x_strategies_offline_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    # In process, under the suite's socket guard: any network access would fail the replay.
    code, out, err = run_cli(
        capsys,
        "replay",
        "--scenario",
        "name_recall",
        "--strategies",
        "agent,agent_trim,semantic_store",
        "--json",
    )
    assert code == 0, err[-2000:]
    data = json.loads(out)
    assert [r["strategy"] for r in data["results"]] == ["agent", "agent_trim", "semantic_store"]
    for entry in data["results"]:
        assert len(entry["turns"]) == 16 and all(t["error"] is None for t in entry["turns"])
    agent, _, semantic = data["results"]
    assert agent["recall"]["passed"] == 3 and semantic["recall"]["passed"] == 3
    assert agent["turns"][-1]["tool_tokens"] > 0
    assert "checkpoints" in agent["turns"][-1]["state"] and "items" in semantic["turns"][-1]["state"]


# -- deprecations, as LangChain raises them ----------------------------------------------------------


@pytest.mark.parametrize("strategy_id", [*CLASSIC_IDS, "history"])
def test_every_classic_memory_and_runnable_with_message_history_shows_the_deprecation_langchain_raised(
    strategy_id: str,
) -> None:
    for _ in range(2):  # LangChain warns once per process; the second pane must still show it
        strategy = build_strategy(strategy_id, StrategyContext())
        assert strategy.deprecations, f"{strategy_id}: no deprecation captured"
        strategy.close()
    subjects = {item.subject for item in strategy.deprecations}
    if strategy_id == "history":
        assert {"RunnableWithMessageHistory", "InMemoryChatMessageHistory"} <= subjects
    else:
        classic = [
            item for item in strategy.deprecations if item.subject.startswith(("Conversation", "Vector"))
        ]
        assert classic and all(item.since == "0.3.1" and item.removal == "2.0.0" for item in classic)


@pytest.mark.parametrize(
    "strategy_id",
    ["agent", "agent_trim", "semantic_store", "context_editing", "langgraph", "summarization", "long_term"],
)
def test_the_1x_forms_raise_no_deprecation(strategy_id: str) -> None:
    strategy = build_strategy(strategy_id, StrategyContext())
    send_ok(strategy, "Hi, my name is Mara.")
    assert strategy.deprecations == ()
    strategy.close()
