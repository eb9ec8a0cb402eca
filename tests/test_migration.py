"""The migration guide: every step runs both versions; the pairs meant to match really send the same context."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from memory_demos.i18n import CATALOGUE
from memory_demos.migration import (
    SAME_CONTEXT,
    STEP_IDS,
    compare_prompts,
    load_step,
    prompt_lines,
    run_both,
    shown_programs,
)
from memory_demos.migration import buffer as buffer_step
from memory_demos.migration import retired as retired_step
from memory_demos.migration import window as window_step
from memory_demos.providers.tokenizer import count_message_tokens
from memory_demos.strategies.registry import available_ids
from memory_demos.turn import PromptMessage


@pytest.mark.parametrize("step_id", STEP_IDS)
def test_each_step_runs_both_versions_and_compares_captured_prompts(step_id: str) -> None:
    step = load_step(step_id)
    run = run_both(step_id)

    assert run.classic_error is None, run.classic_error
    assert run.modern_error is None, run.modern_error
    assert len(run.turns) == len(step.DEFAULT_INPUTS)
    for turn, user_text in zip(run.turns, step.DEFAULT_INPUTS, strict=True):
        assert turn.user == user_text
        for side in (turn.classic, turn.modern):
            assert side.injected_prompt, f"{step_id} turn {turn.index}: no prompt captured"
            assert side.prompt_tokens > 0
            assert side.reply
            # What the model received holds this turn's message (classic templates inline it in one message).
            assert any(user_text in message.content for message in side.injected_prompt)
        assert turn.equivalence.same == (turn.classic.injected_prompt == turn.modern.injected_prompt)
        assert (turn.diff == ()) == turn.equivalence.same
    if not step.meant_to_match:
        # A pair not meant to match must show where it parts, or the guide teaches nothing on that step.
        assert not run.all_same


@pytest.mark.parametrize("step_id", ["buffer", "window"])
def test_pairs_meant_to_match_say_same_context_on_every_turn(step_id: str) -> None:
    step = load_step(step_id)
    assert step.meant_to_match
    run = run_both(step_id)
    assert run.all_same
    assert [turn.equivalence.text for turn in run.turns] == [SAME_CONTEXT] * len(step.DEFAULT_INPUTS)
    # The window step's inputs are long enough that the window really drops the first exchange.
    if step_id == "window":
        last = run.turns[-1].classic.injected_prompt
        assert not any("Mara" in message.content for message in last)


def test_window_pair_still_matches_with_other_messages() -> None:
    inputs = [f"Message number {n}: my favourite number is {n}." for n in range(1, 8)]
    run = run_both("window", inputs)
    assert run.all_same
    # system + 2K recent messages + the new one
    assert len(run.turns[-1].modern.injected_prompt) == 2 * window_step.modern_version.load().K + 2


def test_a_deliberately_different_pair_reports_the_first_difference() -> None:
    mismatched = SimpleNamespace(
        STEP_ID="mismatch",
        classic_version=buffer_step.classic_version,
        modern_version=window_step.modern_version,
    )
    inputs = [*buffer_step.DEFAULT_INPUTS, "What makes a good cup of tea?"]
    run = run_both(mismatched, inputs)

    assert not run.all_same
    # Up to K exchanges of history the two agree; then the window drops the first exchange.
    assert [turn.equivalence.same for turn in run.turns] == [True, True, True, False, False]
    first_differing = run.turns[3].equivalence
    assert first_differing.text.startswith("first difference at message 2:")
    assert "Hi, my name is Mara" in first_differing.text  # the buffer still sends it
    assert "My order number is A-1234." in first_differing.text  # the window starts later
    assert any(line.startswith("-[human] Hi, my name is Mara") for line in run.turns[3].diff)


def test_compare_prompts_names_extra_messages_and_tool_calls() -> None:
    system = PromptMessage("system", "Be brief.")
    human = PromptMessage("human", "Hello")
    assert compare_prompts([system, human], [system, human]).text == SAME_CONTEXT
    longer = compare_prompts([system, human, PromptMessage("ai", "Hi!")], [system, human])
    assert not longer.same
    assert "only the classic prompt has [ai] 'Hi!'" in longer.text
    assert (
        longer.describe("zh") == "从第 3 条消息开始不同：只有经典写法的提示词有 [ai] 'Hi!'（3 条对 2 条消息）"
    )
    assert (
        compare_prompts([human], [system])
        .describe("zh")
        .startswith("从第 1 条消息开始不同：经典写法 [human]")
    )
    call = {"name": "get_weather", "args": {"city": "Oslo"}, "id": "c1"}
    with_call = PromptMessage("ai", "", tool_calls=(call,))
    without_call = PromptMessage("ai", "")
    differs = compare_prompts([with_call], [without_call])
    assert not differs.same and "message 1" in differs.text
    assert any("tool_calls=" in line for line in prompt_lines([with_call]))


def test_prompts_are_the_captured_ones_with_their_token_counts() -> None:
    run = run_both("buffer", ["Hi, my name is Mara.", "What's my name?"])
    second = run.turns[1].classic
    assert [m.role for m in second.injected_prompt] == ["system", "human", "ai", "human"]
    assert second.injected_prompt[2].content == run.turns[0].classic.reply
    assert "Mara" in second.reply
    for message in second.injected_prompt:
        assert message.tokens > 0
    from langchain_core.messages import HumanMessage

    assert second.injected_prompt[1].tokens == count_message_tokens(HumanMessage("Hi, my name is Mara."))


def test_memory_calls_are_reported_per_turn() -> None:
    run = run_both("summary", ["Hi, my name is Mara.", "What's my name?", "Where do I live?"])
    for turn in run.turns:
        # The classic memory summarises after each answer; the middleware before the next model call.
        assert [call.purpose for call in turn.classic.memory_calls] == ["summarize"]
        expected = [] if turn.index == 1 else ["summarize"]
        assert [call.purpose for call in turn.modern.memory_calls] == expected
        assert turn.classic.memory_tokens > 0
    assert run.turns[1].modern.injected_prompt[1].content.startswith("Here is a summary of the conversation")


def test_modern_retired_step_keeps_tool_calls_in_the_history() -> None:
    run = run_both("retired")
    last = run.turns[-1]
    assert any(message.role == "tool" for message in last.modern.injected_prompt)
    assert not any(message.role == "tool" for message in last.classic.injected_prompt)
    # Classic chains send one human message holding the whole conversation as text.
    assert [message.role for message in last.classic.injected_prompt] == ["human"]
    assert run.turns[1].modern.tool_rounds == 1


@pytest.mark.parametrize("step_id", STEP_IDS)
def test_each_step_has_source_pitfalls_and_texts_in_both_languages(step_id: str) -> None:
    step = load_step(step_id)
    for program in shown_programs(step):
        assert program.text.startswith('"""') and "def chat(" in program.text
    assert step.PITFALL_KEYS
    for key in (step.TITLE_KEY, step.SUMMARY_KEY, *step.PITFALL_KEYS):
        assert key.startswith(f"migration.{step_id}.")
        assert key in CATALOGUE["en"] and key in CATALOGUE["zh"]
        assert CATALOGUE["en"][key] != CATALOGUE["zh"][key]
    assert isinstance(step.meant_to_match, bool)


def test_decision_helper_covers_four_situations_with_real_strategies() -> None:
    situations = [rec.situation for rec in retired_step.SITUATIONS]
    assert situations == ["faq", "multi_session", "profile", "self_managed"]
    known = set(available_ids())
    for situation in situations:
        recommendation = retired_step.recommend(situation)
        assert set(recommendation.strategies) <= known
    assert "long_term" in retired_step.recommend("profile").strategies
    assert "memory_blocks" in retired_step.recommend("self_managed").strategies
    with pytest.raises(KeyError):
        retired_step.recommend("chess bot")


def test_run_both_rejects_empty_and_oversized_scripts() -> None:
    with pytest.raises(ValueError):
        run_both("buffer", [])
    with pytest.raises(ValueError):
        run_both("buffer", ["hi"] * 50)
    with pytest.raises(KeyError):
        load_step("nope")


def test_a_version_that_raises_is_reported_not_raised() -> None:
    def broken(model: object, inputs: object) -> list[object]:
        for _ in inputs:  # type: ignore[attr-defined]
            raise RuntimeError("boom")
        return []

    pair = SimpleNamespace(
        STEP_ID="broken", classic_version=buffer_step.classic_version, modern_version=broken
    )
    run = run_both(pair, ["Hello"])
    assert run.modern_error is not None and "boom" in run.modern_error
    assert not run.all_same
    # A failed side is not a difference: the turn says it was not compared, and the run who failed.
    assert not run.compared and run.failed_side == "modern"
    assert [turn.equivalence.key for turn in run.turns] == ["migration.not_compared.modern"]
    assert run.differing_turns == 0 and not run.turns[0].compared
    assert run.turns[0].equivalence.describe("zh").startswith("无法比较")


def test_when_both_sides_fail_nothing_is_compared() -> None:
    from memory_demos.providers.chat_models import ProviderConfig

    run = run_both("buffer", ["Hello", "Again"], ProviderConfig(fail_on_calls=(1,)))
    assert run.failed_side == "both"
    # The first turn's prompts were sent and never answered: shown, but not called the same.
    assert [turn.equivalence.key for turn in run.turns] == ["migration.not_compared.both"]
    assert run.turns[0].classic.injected_prompt and run.differing_turns == 0 and not run.all_same
    assert run.to_json()["compared"] is False


def test_a_failure_after_some_turns_compares_those_turns_only() -> None:
    from memory_demos.providers.chat_models import ProviderConfig

    run = run_both("summary", list(load_step("summary").DEFAULT_INPUTS), ProviderConfig(fail_on_calls=(4,)))
    assert run.failed_side == "classic"  # its 4th call is turn 2's summary
    compared = [turn.compared for turn in run.turns]
    assert compared[0] and not all(compared)
    assert run.differing_turns == sum(1 for turn in run.turns if turn.compared and not turn.equivalence.same)


def test_each_side_records_its_replies_for_replay() -> None:
    run = run_both("retired")
    calls = [call for turn in run.turns for call in (turn.modern.injected_prompt,)]
    assert calls
    replies = run.modern_recording["replies"]
    assert len(replies) == 4  # three turns, one tool round
    assert replies[1]["tool_calls"][0]["name"] == "get_weather"
    assert [reply["content"] for reply in replies if "tool_calls" not in reply][-1] == run.turns[
        -1
    ].modern.reply
    vector = run_both("vector")
    assert set(vector.modern_recording["embeddings"]) >= set(load_step("vector").DEFAULT_INPUTS)


# -- the 1.x targets and the deprecations LangChain raises -------------------------------------------


@pytest.mark.parametrize("step_id", [s for s in STEP_IDS if s != "retired"])
def test_each_step_captures_the_classic_deprecation_and_none_for_a_1x_target(step_id: str) -> None:
    run = run_both(step_id)
    classic = [
        item
        for item in run.classic_deprecations
        if item.subject.startswith(("Conversation", "Vector", "Combined"))
    ]
    assert classic, f"{step_id}: no deprecation captured for the classic side"
    assert all(item.since == "0.3.1" for item in classic)
    if step_id == "history":  # the book's intermediate step is itself deprecated now
        assert "RunnableWithMessageHistory" in {item.subject for item in run.modern_deprecations}
    else:
        assert run.modern_deprecations == ()
    assert run.to_json()["classic_deprecations"][0]["since"]


@pytest.mark.parametrize(
    ("step_id", "shown"),
    [
        ("buffer", "create_agent("),
        ("window", "@before_model"),
        ("token_buffer", "@before_model"),
        ("summary", "SummarizationMiddleware("),
        ("summary_buffer", "SummarizationMiddleware("),
        ("entity", "runtime.store.put("),
        ("vector", "InMemoryStore(index="),
        ("combined", "ContextEditingMiddleware("),
    ],
)
def test_the_code_shown_for_each_target_is_the_1x_form(step_id: str, shown: str) -> None:
    step = load_step(step_id)
    assert shown in step.modern_version.text
    assert "RunnableWithMessageHistory(" not in step.modern_version.text


def test_the_vector_store_with_an_index_sends_the_classic_prompt() -> None:
    run = run_both("vector")
    assert run.all_same  # same stored format, same embeddings, same ranking
    assert "A-1234" in run.turns[-1].modern.injected_prompt[0].content


def test_entity_notes_are_written_after_the_answer_and_read_before_the_next_call() -> None:
    run = run_both("entity")
    first, *_, last = run.turns
    assert first.modern.memory_calls[0].purpose == "extract entities"
    assert "Entity notes" not in first.modern.injected_prompt[0].content  # nothing stored before turn 1
    assert "Bruno" in last.modern.injected_prompt[0].content and "Bruno" in last.modern.reply


def test_each_step_shows_its_status_before_anything_is_sent() -> None:
    from memory_demos.migration import built_deprecations

    for step_id in STEP_IDS:
        classic, modern = built_deprecations(load_step(step_id))
        assert classic, f"{step_id}: building the classic side raised no deprecation"
        if step_id == "history":
            assert {item.subject for item in modern} == {"RunnableWithMessageHistory"}
        else:
            assert modern == (), f"{step_id}: {[item.label for item in modern]}"


def test_a_deprecation_is_labelled_in_the_interface_language_and_its_text_kept_as_raised() -> None:
    from unittest import mock

    from memory_demos.deprecations import parse_deprecation

    raised = (
        "The class `ConversationBufferMemory` was deprecated in LangChain 0.3.1 and will be removed in 2.0.0."
    )
    found = parse_deprecation(raised)
    assert found.label == "ConversationBufferMemory · deprecated since 0.3.1"
    with mock.patch("memory_demos.i18n.current_language", return_value="zh"):
        assert found.label == "ConversationBufferMemory · 自 0.3.1 起弃用"
    assert found.message == raised  # LangChain's own words are data: never translated
    assert parse_deprecation("`X` is deprecated.").label == "X · deprecated (the warning names no version)"
