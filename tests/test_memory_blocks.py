"""``memory_blocks``: blocks in the agent's state, edited by tools, with a limit and an audit trail.

Driven on the offline teaching model (which edits the ``human`` block when a message states something
about the user) and through the real ``ChatOpenAI`` against the fake OpenAI server with scripted tool
calls. Everything runs through the real ``create_agent``, middleware, ``ToolNode`` and checkpointers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from memory_demos.__main__ import main
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.strategies.base import Strategy, StrategyContext
from memory_demos.strategies.registry import build_strategy
from memory_demos.workshop.budget import BudgetGate, SessionBudget
from memory_demos.workshop.settings import WorkshopLimits
from tests.fake_openai_server import FakeOpenAIServer, Fault, ScriptedReply


@pytest.fixture
def blocks(tmp_path: Path) -> Iterator[Strategy]:
    strategy = build_strategy("memory_blocks", StrategyContext(data_dir=tmp_path))
    yield strategy
    strategy.close()


def human_block(strategy: Strategy) -> str:
    [row] = [row for row in strategy.snapshot()["blocks"] if row["label"] == "human"]
    return row["value"]


def test_strategies_json_lists_memory_blocks_with_its_limit_and_full_block_choice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["strategies", "--json"]) == 0
    listing = {entry["id"]: entry for entry in json.loads(capsys.readouterr().out)}
    entry = listing["memory_blocks"]
    params = {param["name"]: param for param in entry["params"]}
    assert params["on_full"]["choices"] == ["error", "truncate"]
    assert params["block_limit"]["type"] == "int" and params["block_limit"]["help_zh"]
    assert entry["title_zh"] and "langgraph.types.Command" in entry["langchain_classes"]


def test_a_replay_recalls_three_facts_the_window_lost_and_the_audit_trail_names_each_turn(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["replay", "--scenario", "name_recall", "--provider", "offline", "--json"]
    assert main([*argv, "--strategies", "memory_blocks,agent_trim", "--param", "agent_trim.k=2"]) == 0
    results = {result["strategy"]: result for result in json.loads(capsys.readouterr().out)["results"]}
    blocks, window = results["memory_blocks"], results["agent_trim"]
    assert blocks["recall"]["passed"] == blocks["recall"]["asked"] == 3, blocks["recall"]
    assert window["recall"]["passed"] == 0  # the same window of messages without blocks forgets them
    audit = blocks["turns"][-1]["state"]["audit_trail"]
    firsts = {row["value"]: row for row in audit}
    assert firsts["The human's name is Mara."]["turn"] == 1
    assert firsts["The human lives in Lisbon."]["turn"] == 1
    assert firsts["The human's order number is A-1234."]["turn"] == 2
    assert all(row["via"] == "tool:memory_append" and row["operation"] == "insert" for row in audit)
    # No question of the scenario wrote anything, and each write's tokens are its deciding call's.
    questions = {n + 1 for n, turn in enumerate(blocks["turns"]) if turn["user"].rstrip().endswith("?")}
    assert not questions & {row["turn"] for row in audit}
    rounds = sum(
        c["prompt_tokens"] + c["completion_tokens"] for t in blocks["turns"] for c in t["tool_round_calls"]
    )
    assert blocks["totals"]["tool_round_tokens"] == rounds > 0 and window["totals"]["tool_round_tokens"] == 0
    turn_one = blocks["turns"][0]
    assert [row["tokens"] for row in audit if row["turn"] == 1] == [
        call["prompt_tokens"] + call["completion_tokens"] for call in turn_one["tool_round_calls"]
    ]


def test_questions_and_suppositions_write_nothing_and_cost_no_tool_round(blocks: Strategy) -> None:
    for text in ("Where do I live?", "If I lived in Rome I would walk everywhere.", "Hello there!"):
        turn = blocks.send(text)
        assert turn.ok, turn.error
        assert not turn.tool_round_calls, text
    assert blocks.snapshot()["audit_trail"] == []
    assert human_block(blocks) == ""


def test_a_change_replaces_the_line_it_contradicts_and_is_audited_as_an_update(blocks: Strategy) -> None:
    blocks.send("I live in Lisbon and I work as a nurse.")
    turn = blocks.send("Actually, I moved to Porto.")
    assert "Lisbon" not in human_block(blocks) and "Porto" in human_block(blocks)
    assert "nurse" in human_block(blocks)
    update = turn.state["audit_trail"][-1]
    assert update["turn"] == 2 and update["operation"] == "update" and update["via"] == "tool:memory_replace"
    assert len(turn.tool_round_calls) == 1 and turn.total_tokens > turn.prompt_tokens + turn.completion_tokens


def test_blocks_are_rendered_into_every_system_message_with_their_fill(blocks: Strategy) -> None:
    blocks.send("My name is Mara.")
    turn = blocks.send("What's my name?")
    system = turn.injected_prompt[0]
    assert system.role == "system"
    used = len("The human's name is Mara.")
    assert f"human ({used}/300 characters):\nThe human's name is Mara." in system.content
    assert "persona (" in system.content
    assert turn.reply == "Your name is Mara."
    assert [row["used"] for row in turn.state["blocks"]] == [used, len(turn.state["blocks"][1]["value"])]


def test_a_full_block_refuses_the_edit_and_the_model_says_it_could_not_save(tmp_path: Path) -> None:
    strategy = build_strategy(
        "memory_blocks", StrategyContext(data_dir=tmp_path), {"block_limit": 60, "on_full": "error"}
    )
    try:
        strategy.send("My name is Mara and I live in Lisbon.")
        before = human_block(strategy)
        turn = strategy.send("I work as a nurse.")
    finally:
        strategy.close()
    assert human_block(strategy) == before and "nurse" not in before
    [refused] = turn.state["refused_edits"]
    assert refused["turn"] == 2 and refused["limit"] == 60 and refused["chars_needed"] > 60
    assert "could not save" in turn.reply
    [result] = [
        m for call in turn.calls for m in call.messages if m.role == "tool" and "refused" in m.content
    ]
    assert result.content.startswith("Edit refused")


def test_a_truncating_block_drops_the_tail_and_the_tool_still_says_saved(tmp_path: Path) -> None:
    strategy = build_strategy(
        "memory_blocks",
        StrategyContext(data_dir=tmp_path),
        {"block_limit": 60, "on_full": "truncate", "recent_turns": 0},  # only the blocks remember
    )
    try:
        strategy.send("My name is Mara and I live in Lisbon.")
        turn = strategy.send("I work as a nurse.")
        asked = strategy.send("What's my job?")
    finally:
        strategy.close()
    assert len(human_block(strategy)) == 60
    [clipped] = turn.state["clipped_edits"]
    assert clipped["dropped"] and clipped["attempted"] == "The human works as a nurse."
    results = [m.content for call in turn.calls for m in call.messages if m.role == "tool"]
    assert results[-1].startswith("Saved.")  # what the model was told
    assert "could not save" not in turn.reply
    assert "nurse" not in asked.reply


def test_tool_rounds_are_counted_apart_from_the_reply_and_in_the_workshop_budget(tmp_path: Path) -> None:
    budget = SessionBudget(WorkshopLimits())
    provider = ProviderConfig(gate=BudgetGate(budget))
    strategy = build_strategy("memory_blocks", StrategyContext(provider=provider, data_dir=tmp_path))
    try:
        turns = [strategy.send(text) for text in ("Hi, I'm Mara and I live in Lisbon.", "Where do I live?")]
    finally:
        strategy.close()
    stated, asked = turns
    assert len(stated.tool_round_calls) == 2 and not asked.tool_round_calls
    rounds = sum(call.total_tokens for call in stated.tool_round_calls)
    assert rounds > 0
    assert stated.total_tokens == stated.prompt_tokens + stated.completion_tokens + rounds
    assert budget.tokens_used == sum(turn.total_tokens for turn in turns)


def test_the_thread_and_its_blocks_outlive_the_strategy_with_sqlite(tmp_path: Path) -> None:
    context = StrategyContext(data_dir=tmp_path, conversation_id="blocks-sqlite")
    first = build_strategy("memory_blocks", context, {"checkpointer": "sqlite"})
    first.send("My name is Mara.")
    first.close()
    again = build_strategy("memory_blocks", context, {"checkpointer": "sqlite"})
    try:
        turn = again.send("I live in Lisbon.")
        assert "The human's name is Mara." in human_block(again)
        assert [row["turn"] for row in turn.state["audit_trail"]] == [1, 2]  # turns count on from the thread
    finally:
        again.close()


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


def on_server(
    server: FakeOpenAIServer, tmp_path: Path, budget: SessionBudget | None = None, **params: object
) -> Strategy:
    provider = ProviderConfig(
        kind="openai_compatible",
        model="test-model",
        base_url=server.base_url,
        api_key=SecretStr("sk-test-blocks-0001"),
        max_retries=0,
        gate=BudgetGate(budget) if budget is not None else None,
    )
    return build_strategy("memory_blocks", StrategyContext(provider=provider, data_dir=tmp_path), params)


def test_scripted_tool_calls_on_the_fake_openai_server_edit_the_blocks(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    note = "The human's name is Mara."
    server.add_script(ScriptedReply(tool_calls=(("memory_append", {"label": "human", "content": note}),)))
    budget = SessionBudget(WorkshopLimits())
    strategy = on_server(server, tmp_path, budget)
    try:
        turn = strategy.send("My name is Mara.")
        asked = strategy.send("What's my name?")
    finally:
        strategy.close()
    # The gate counted every call, the tool round included, as the provider reported it.
    assert budget.tokens_used == turn.total_tokens + asked.total_tokens
    assert turn.ok, turn.error
    assert human_block(strategy) == note
    assert turn.reply.startswith("tool said: Saved. The human block now holds 25 of 300 characters.")
    [row] = turn.state["audit_trail"]
    [round_call] = turn.tool_round_calls
    assert row["turn"] == 1 and row["tokens"] == round_call.total_tokens > 0
    assert round_call.token_source == "reported by the provider"
    # The tool definitions went with every request, and the next request's system message holds the block.
    first, *_ = server.requests
    assert {tool["function"]["name"] for tool in first.body["tools"]} == {"memory_append", "memory_replace"}
    system = server.requests[-1].messages[0]["content"]
    assert "human (25/300 characters):\nThe human's name is Mara." in system
    assert asked.total_tokens == asked.prompt_tokens + asked.completion_tokens


def test_a_failed_reply_after_an_edit_rolls_the_block_back(server: FakeOpenAIServer, tmp_path: Path) -> None:
    note = "The human lives in Lisbon."
    server.add_script(ScriptedReply(tool_calls=(("memory_append", {"label": "human", "content": note}),)))
    server.add_fault(Fault("status", status=400, match="Saved. The human block"))
    strategy = on_server(server, tmp_path)
    try:
        turn = strategy.send("I live in Lisbon.")
        assert not turn.ok
        assert human_block(strategy) == "" and strategy.snapshot()["audit_trail"] == []
        again = strategy.send("Hello.")
    finally:
        strategy.close()
    assert again.ok and again.state["audit_trail"] == []


def test_a_scripted_edit_past_the_limit_is_refused_on_the_server_too(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    long = "x" * 40
    server.add_script(ScriptedReply(tool_calls=(("memory_append", {"label": "human", "content": long}),)))
    strategy = on_server(server, tmp_path, block_limit=30)
    try:
        turn = strategy.send("Remember this.")
    finally:
        strategy.close()
    assert turn.ok and human_block(strategy) == ""
    assert turn.reply.startswith("tool said: Edit refused: the human block has no room for this")
    assert turn.state["refused_edits"][0]["chars_needed"] == 40


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_failure_lab_full_block_drops_silently_and_the_fix_says_so(language: str) -> None:
    from memory_demos.failure_lab import get_demo, run_demo

    result = run_demo("full_block", language)
    assert result["failed"] and result["fixed_ok"]
    naive, fixed = result["naive"], result["fixed"]
    assert naive["dropped_chars"] > 0 and fixed["dropped_chars"] == 0
    assert all(text.startswith("Saved.") for text in naive["tool_results"])  # the model never knew
    assert any(text.startswith("Edit refused") for text in fixed["tool_results"])
    assert naive["human_block"]["used"] == naive["human_block"]["limit"]  # clipped to the last character
    assert not naive["loss_said"] and fixed["loss_said"]
    rows = {row.label_key: row for row in get_demo("full_block").verdict(result)}
    assert rows["failure.verdict.dropped_chars"].naive == naive["dropped_chars"]
    assert rows["failure.verdict.answer"].label_args == (("question", naive["question"]),)
    if language == "zh":  # what the tools told the model, shown to a Chinese reader in Chinese
        from memory_demos.i18n import translate

        shown = [translate(text, "zh") for text in rows["failure.verdict.tool_told_model"].fixed]
        assert shown[0].startswith("已保存。") and shown[-1].startswith("编辑被拒绝：")


def test_going_back_to_an_earlier_turn_brings_back_its_blocks(blocks: Strategy) -> None:
    blocks.send("My name is Mara.")
    blocks.send("I live in Lisbon.")
    blocks.fork_at(1)
    assert human_block(blocks) == "The human's name is Mara."
    turn = blocks.send("I work as a nurse.")
    assert human_block(blocks) == "The human's name is Mara.\nThe human works as a nurse."
    assert [row["turn"] for row in turn.state["audit_trail"]] == [1, 2]  # the new branch's second turn


def test_block_tool_answers_read_back_as_messages_a_chinese_page_translates() -> None:
    from memory_demos.i18n import Message
    from memory_demos.prompts import (
        MEMORY_EDIT_DONE,
        MEMORY_EDIT_FULL,
        MEMORY_EDIT_NOT_FOUND,
        MEMORY_EDIT_UNKNOWN_BLOCK,
        block_tool_answer,
    )

    answers = [
        MEMORY_EDIT_DONE.format(label="human", used=6, limit=20),
        MEMORY_EDIT_FULL.format(label="human", used=14, limit=20, needed=24),
        MEMORY_EDIT_NOT_FOUND.format(label="human"),
        MEMORY_EDIT_UNKNOWN_BLOCK.format(label="notes"),
    ]
    read = [block_tool_answer(text) for text in answers]
    assert all(isinstance(m, Message) for m in read)
    assert [str(m) for m in read] == answers  # the English is what the model read, word for word
    assert read[1].in_language("zh").startswith("编辑被拒绝：human 记忆块放不下了（已用 14/20 个字符")
    assert block_tool_answer("Order A-77: shipped.") == "Order A-77: shipped."
