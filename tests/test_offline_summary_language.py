"""The summaries the offline model writes are in the language the human speaks: a Chinese conversation's
summary is Chinese (no English template words around Chinese values), an English one stays English."""

from __future__ import annotations

import re

import pytest
from langchain.agents.middleware.summarization import DEFAULT_SUMMARY_PROMPT
from langchain_classic.memory.prompt import SUMMARY_PROMPT
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.messages.utils import get_buffer_string

from memory_demos.providers.offline_model.facts import extract_facts
from memory_demos.providers.offline_model.memory_prompts import (
    entity_extraction_reply,
    progressive_summary,
    summarize_entity,
)
from memory_demos.providers.offline_model.model import OfflineTeachingModel

# The English the summaries used to wrap Chinese values in ("用户 lives in 杭州", "They also talked about").
TEMPLATE_WORDS = re.compile(
    r"\b(?:[Tt]he human|lives?|name|said|talked|works?|order|number|now|no longer|favourite|They)\b"
)
# What a Chinese summary may hold in Latin letters: the values the conversation itself gave.
ZH_CONVERSATION = (
    "Human: 你好，我叫林晓，住在杭州。\nAI: 记住了。",
    "Human: 我的订单号是 A-1234。\nAI: 好的。",
    "Human: 能推荐一本讲园艺的书吗？\nAI: 这个我回答不了。",
    "Human: 我搬到上海了。\nAI: 好的。",
)
EN_CONVERSATION = (
    "Human: Hi, my name is Mara and I live in Lisbon.\nAI: Nice to meet you.",
    "Human: My order number is A-1234.\nAI: Got it.",
    "Human: Can you recommend a book about gardening?\nAI: I can't answer that.",
    "Human: I moved to Porto.\nAI: Got it.",
)


def _summary_of(lines: tuple[str, ...], *, drift: bool = False) -> str:
    summary = ""
    for new_lines in lines:
        summary = progressive_summary(summary, new_lines, drift=drift)
    return summary


def _latin_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[A-Za-z]+", text) if w != "A"]


def test_a_chinese_conversation_gets_a_chinese_summary_that_keeps_the_change() -> None:
    summary = _summary_of(ZH_CONVERSATION)
    assert summary.startswith("用户")
    assert "用户叫林晓。" in summary and "用户的订单号是A-1234。" in summary
    assert "用户现在住在上海。" in summary and "杭州" not in summary  # the move, newest wins
    assert "用户还聊到了“能推荐一本讲园艺的书”。" in summary
    assert not TEMPLATE_WORDS.search(summary), summary
    assert _latin_words(summary) == []  # only the order number's letter, nothing of a template


def test_a_chinese_summary_is_read_back_as_the_facts_it_states() -> None:
    summary = _summary_of(ZH_CONVERSATION[:2])
    facts = {(f.subject, f.key, f.value) for f in extract_facts(summary, role="narrative")}
    assert {("user", "name", "林晓"), ("user", "city", "杭州"), ("user", "order_number", "A-1234")} <= facts


def test_a_clause_whose_subject_is_the_clause_before_is_a_fact_not_words_kept_as_said() -> None:
    summary = progressive_summary("", ZH_CONVERSATION[0])
    assert summary == "用户住在杭州。用户叫林晓。" or summary == "用户叫林晓。用户住在杭州。"
    assert "用户说" not in summary


def test_an_english_conversation_keeps_an_english_summary() -> None:
    summary = _summary_of(EN_CONVERSATION)
    assert "The human's name is Mara." in summary and "The human now lives in Porto." in summary
    assert "They also talked about “gardening”." in summary
    assert not re.search("[\u4e00-\u9fff]", summary)


def test_the_drifting_summary_of_a_chinese_conversation_invents_in_chinese() -> None:
    summary = _summary_of(ZH_CONVERSATION[:3], drift=True)
    assert "用户去巴黎旅行了一周。" in summary
    assert "Paris" not in summary and not TEMPLATE_WORDS.search(summary), summary


def test_the_summary_prompt_itself_answers_a_chinese_conversation_in_chinese() -> None:
    model = OfflineTeachingModel()
    summary = ""
    for new_lines in ZH_CONVERSATION[:2]:
        prompt = SUMMARY_PROMPT.format(summary=summary, new_lines=new_lines)
        summary = str(model.invoke(prompt).content)
    assert "用户叫林晓。" in summary and not TEMPLATE_WORDS.search(summary), summary


def _middleware_summary(history: list) -> str:
    prompt = DEFAULT_SUMMARY_PROMPT.format(messages=get_buffer_string(history, format="xml"))
    return str(OfflineTeachingModel().invoke([HumanMessage(prompt)]).content)


def _section(summary: str, heading: str) -> str:
    return summary.split(f"## {heading}\n", 1)[1].split("\n\n## ", 1)[0]


@pytest.mark.parametrize(
    ("first", "later", "expected", "none"),
    [
        (
            "你好，我叫玛拉，住在里斯本。",
            "我的订单号是 A-1234。",
            ("用户叫玛拉。", "用户住在里斯本。", "用户的订单号是A-1234。"),
            "无",
        ),
        (
            "Hi, my name is Mara and I live in Lisbon.",
            "My order number is A-1234.",
            (
                "The human's name is Mara.",
                "The human lives in Lisbon.",
                "The human's order number is A-1234.",
            ),
            "None",
        ),
    ],
)
def test_the_middleware_summary_of_a_summary_carries_its_facts_not_its_headings(
    first: str, later: str, expected: tuple[str, ...], none: str
) -> None:
    earlier = _middleware_summary([HumanMessage(first), AIMessage("OK")])
    summary_message = HumanMessage(f"Here is a summary of the conversation to date:\n\n{earlier}")
    again = _middleware_summary([summary_message, HumanMessage(later), AIMessage("OK")])
    content = _section(again, "SUMMARY")
    assert all(sentence in content for sentence in expected), content
    for heading in ("SESSION INTENT", "SUMMARY", "ARTIFACTS", "NEXT STEPS", "Here is a summary"):
        assert heading not in content
    assert _section(again, "ARTIFACTS") == none
    if none == "无":
        assert not TEMPLATE_WORDS.search(content) and _section(again, "SESSION INTENT") == "与助手聊天。"


def test_a_chinese_entity_note_is_chinese_and_carries_changes_and_a_rename() -> None:
    note = summarize_entity("李明", "", "你好，我叫李明，刚搬到成都。")
    assert note == "用户叫李明。李明现在住在成都。"
    note = summarize_entity("李明", note, "我搬到上海了。")
    assert "李明现在住在上海。" in note and "成都" not in note
    assert (
        summarize_entity("李明", note, "其实我不叫李明，我叫李强。")
        == "李明不再是用户的名字：用户现在叫李强。"
    )
    assert summarize_entity("王芳", "", "我姐姐叫王芳，她住在北京。") == "用户的姐姐叫王芳。王芳住在北京。"
    for text in (note, summarize_entity("布鲁诺", "", "我的狗叫布鲁诺。")):
        assert not TEMPLATE_WORDS.search(text) and not re.search("[A-Za-z]{2,}", text), text
    # English stays English.
    assert summarize_entity("Mara", "", "Hi, I'm Mara and I live in Lisbon.") == (
        "Mara is the human's name. Mara lives in Lisbon."
    )


def test_a_chatty_entity_answer_chatters_in_the_lines_language() -> None:
    from langchain_classic.memory.prompt import ENTITY_EXTRACTION_PROMPT

    def extraction(line: str) -> str:
        prompt = ENTITY_EXTRACTION_PROMPT.format(history="", input=line)
        return entity_extraction_reply(prompt, chatty=True)

    assert extraction("你好，我叫李明，刚搬到成都。") == "好的, 这一行里的实体是：李明, 成都"
    assert extraction("Hi, I'm John and I just moved to Paris.") == "Sure, the entities are: John, Paris"
