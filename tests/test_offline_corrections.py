"""What the offline model writes for memories carries a job left and a name corrected; topics read well."""

from __future__ import annotations

import re

import pytest

from memory_demos.providers.offline_model import progressive_summary, small_talk, summarize_entity

NOTE = "Mara is the human's name. Mara lives in Lisbon. Mara works as a nurse."


@pytest.mark.parametrize(
    ("said", "job"),
    [
        ("I quit my job as a nurse last week.", "a nurse"),
        ("I stopped working as a nurse.", "a nurse"),
        ("我上周辞掉了护士的工作。", "a 护士"),
        ("我不做护士了。", "a 护士"),
    ],
)
def test_a_summary_says_the_job_was_left(said: str, job: str) -> None:
    before = f"The human's name is Mara. The human works as {job}."
    summary = progressive_summary(before, f"Human: {said}\nAI: Got it.")
    assert f"The human no longer works as {job}." in summary
    assert f"The human works as {job}" not in summary


@pytest.mark.parametrize("said", ["I lost my job.", "I retired last year.", "我辞职了。", "我退休了。"])
def test_a_job_left_unnamed_retires_the_job_the_summary_held(said: str) -> None:
    summary = progressive_summary("The human works as a nurse.", f"Human: {said}\nAI: Got it.")
    assert "no longer works as a nurse" in summary
    assert "The human works as a nurse" not in summary


def test_an_entity_note_carries_a_job_left_and_a_name_corrected() -> None:
    assert "Mara no longer works as a nurse." in summarize_entity("Mara", NOTE, "I quit my job as a nurse.")
    renamed = summarize_entity("Mara", NOTE, "Actually my name is not Mara, it's Maria.")
    assert "now Maria" in renamed
    assert "Mara is the human's name" not in renamed
    assert (
        summarize_entity("Maria", "", "Actually my name is not Mara, it's Maria.")
        == "Maria is the human's name."
    )


def test_summary_topics_are_readable_phrases() -> None:
    lines = "Human: What makes a good cup of tea?\nAI: I see.\nHuman: Trains are pleasant.\nAI: Indeed."
    summary = progressive_summary("", lines)
    assert "“what makes a good cup of tea”" in summary
    assert "“Trains are pleasant”" in summary
    assert "&" not in summary
    # The next summary reads its own topic tail back: topics are kept, not split at "and".
    again = progressive_summary(summary, "Human: Cats and dogs are both great.\nAI: Sure.")
    assert "“what makes a good cup of tea”" in again
    assert "“Cats and dogs are both great”" in again


def test_a_long_chinese_topic_is_cut_at_a_word_edge_and_marked() -> None:
    reply = small_talk("我上周辞掉了护士的工作然后去旅行了很久", chinese=True)
    topic = re.search("“(.+)”", reply)
    assert topic is not None
    assert topic.group(1).endswith("…")
    assert "我上周辞掉了护士的工作然后去旅行了很久".startswith(topic.group(1)[:-1])
    assert not topic.group(1).endswith("的工…")
    assert "“晚霞真漂亮”" in small_talk("晚霞真漂亮啊", chinese=True)
