"""offline_model.memory_prompts: summaries and entity notes keep other people and taken-back facts."""

from __future__ import annotations

import re

import pytest
from langchain_core.messages import HumanMessage

from memory_demos.prompts import FACT_EXTRACTION_PROMPT
from memory_demos.providers.offline_model.memory_prompts import progressive_summary, summarize_entity
from memory_demos.providers.offline_model.reply import compose_reply


def test_a_summary_keeps_other_people_and_what_was_taken_back() -> None:
    summary = progressive_summary(
        "", "Human: My brother Kofi lives in Accra.\nAI: ok\nHuman: I no longer live in Lisbon.\nAI: ok"
    )
    assert "Kofi lives in Accra." in summary
    assert "The human's brother's name is Kofi." in summary
    assert "The human no longer lives in Lisbon." in summary
    # ... and reads its own summary back the same way.
    again = progressive_summary(summary, "Human: I'm 40.\nAI: ok")
    assert "Kofi lives in Accra." in again and "The human no longer lives in Lisbon." in again


def test_an_entity_note_about_another_person() -> None:
    note = summarize_entity("Kofi", "", "My brother Kofi lives in Accra and works as a nurse.")
    assert note == "Kofi is the human's brother. Kofi lives in Accra. Kofi works as a nurse."
    assert summarize_entity("Kofi", note, "Kofi moved to Kumasi.").count("Kumasi") == 1
    assert "Accra" not in summarize_entity("Kofi", note, "Kofi moved to Kumasi.")


def test_fact_extraction_writes_a_retraction_the_store_can_read_back() -> None:
    prompt = FACT_EXTRACTION_PROMPT.format(message="I no longer live in Lisbon. My order number is B-2.")
    reply = compose_reply([HumanMessage(prompt)]).text
    assert reply.splitlines() == ["city: no longer Lisbon", "order_number: B-2"]


def test_a_summary_reads_back_chinese_names_of_other_people() -> None:
    summary = progressive_summary("", "Human: 我哥哥小王住在广州，是一名医生。\nAI: 记住了")
    again = progressive_summary(summary, "Human: 周末去哪里玩比较好？\nAI: 这个我回答不了")
    assert "用户的哥哥叫小王。" in again and "小王住在广州。" in again and "小王的工作是医生。" in again


@pytest.mark.parametrize(
    ("entity", "note", "question"),
    [
        ("Lisbon", "", "Do I still live in Lisbon?"),
        ("Lisbon", "The human lives in Lisbon.", "Do I still live in Lisbon?"),
        ("Kofi", "Kofi is the human's brother.", "Is Kofi a nurse? Where does Kofi live?"),
        ("北京", "", "我还住在北京吗？"),
        ("小王", "小王 is the human's brother.", "小王是医生吗？"),
        ("小王", "", "小王住在哪里？"),
    ],
)
def test_a_question_leaves_the_entity_note_as_it_was(entity: str, note: str, question: str) -> None:
    from langchain_classic.memory.prompt import ENTITY_SUMMARIZATION_PROMPT

    prompt = ENTITY_SUMMARIZATION_PROMPT.format(entity=entity, summary=note, history="", input=question)
    assert compose_reply([HumanMessage(prompt)]).text == note


def test_a_statement_next_to_a_question_still_updates_the_note() -> None:
    said = summarize_entity(
        "Lisbon", "The human lives in Lisbon.", "Is it sunny? I moved to Porto from Lisbon."
    )
    assert "Porto" in said
    assert summarize_entity("北京", "", "我住在北京。你去过北京吗？") != ""


@pytest.mark.parametrize(
    ("message", "kept", "not_kept"),
    [
        # what the grammar has no kind for is kept in the user's own words
        ("I am allergic to peanuts, by the way.", ["I am allergic to peanuts"], []),
        ("对了，我对芒果过敏。", ["我对芒果过敏"], []),
        # a relative's job: the pronoun gets its person back
        ("我老公叫阿明，他是牙医。", ["husband_name: 阿明", "我老公是牙医"], []),
        ("my sister Priya is a nurse and she lives in Leeds", ["my sister Priya lives in Leeds"], []),
        # several clauses of the grammar's kinds in one casual message
        ("hi im Oliver, i work as a plumber", ["name: Oliver", "job: plumber"], []),
        # a correction within the message: the newer value only
        ("my flight leaves at 9:40, no wait, 10:15", ["10:15"], ["9:40"]),
    ],
)
def test_fact_extraction_keeps_what_the_statements_say(
    message: str, kept: list[str], not_kept: list[str]
) -> None:
    reply = compose_reply([HumanMessage(FACT_EXTRACTION_PROMPT.format(message=message))]).text
    assert reply != "NONE"
    for line in reply.splitlines():
        assert re.fullmatch(r"[^\W\d][\w]*: \S.*", line), line
    assert all(k in reply for k in kept), reply
    assert not any(n in reply for n in not_kept), reply


@pytest.mark.parametrize(
    "message",
    [
        "if I lived in Paris I'd walk everywhere",
        "tell me a joke",
        "what am I allergic to?",
        "讲个笑话",
        "如果我住在上海就好了",
    ],
)
def test_fact_extraction_stores_nothing_for_questions_requests_and_suppositions(message: str) -> None:
    assert compose_reply([HumanMessage(FACT_EXTRACTION_PROMPT.format(message=message))]).text == "NONE"
