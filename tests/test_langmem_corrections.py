"""The offline model's LangMem memory calls: a correction updates the memory it corrects, a
retraction deletes what it names."""

from __future__ import annotations

from langchain_core.messages import HumanMessage

from memory_demos.providers.offline_model.langmem_prompts import forgotten_memories
from memory_demos.providers.offline_model.reader import read_prompt

MEMORIES = [("k1", "I'm Mara."), ("k2", "I live in Lisbon.")]


def _statement(text: str):  # the last standing statement the reader takes from ``text``
    reading = read_prompt([HumanMessage(text)])
    return [s for s in reading.said if not (s.question or s.retracted)][-1]


def test_a_correction_with_a_new_value_forgets_nothing() -> None:
    assert forgotten_memories(_statement("Actually my name is not Mara, it's Maria."), MEMORIES) is None


def test_a_retraction_forgets_the_memories_that_name_it() -> None:
    assert forgotten_memories(_statement("Forget what I said about Lisbon."), MEMORIES) == ["k2"]
