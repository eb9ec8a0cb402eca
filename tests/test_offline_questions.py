"""offline_model.questions: every question in a message, whom it is about, what it asks."""

from __future__ import annotations

import pytest

from memory_demos.providers.offline_model.lexicon import ALL_FACTS
from memory_demos.providers.offline_model.questions import find_questions
from memory_demos.providers.offline_model.statements import USER


def asked(text: str) -> list[tuple[str, str | None]]:
    return [(q.subject, q.key) for q in find_questions(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What's my name?", [(USER, "name")]),
        ("Who am I?", [(USER, "name")]),
        ("What's my name and where am I from?", [(USER, "name"), (USER, "hometown")]),
        ("Where do I live? And how old am I?", [(USER, "city"), (USER, "age")]),
        ("Where does Kofi live?", [("Kofi", "city")]),
        ("What does Kofi do?", [("Kofi", "job")]),
        ("What's my brother's name?", [(USER, "brother_name")]),
        ("Where does my sister live?", [("rel:sister", "city")]),
        ("What do I drink these days?", [(USER, "drinks")]),
        ("What's my favourite colour?", [(USER, "favourite_colour")]),
        ("What do you know about me?", [(USER, ALL_FACTS)]),
        ("What should I cook tonight?", [(USER, None)]),
        ("我叫什么，住在哪里？", [(USER, "name"), (USER, "city")]),
        ("小王住在哪里，做什么工作？", [("小王", "city"), ("小王", "job")]),
        ("我哥哥叫什么？", [(USER, "brother_name")]),
        ("我的狗叫什么？", [(USER, "dog_name")]),
        ("我现在喝什么？", [(USER, "drinks")]),
        ("我今年几岁？", [(USER, "age")]),
        ("Who is Li and what does Tom do?", [("Li", ALL_FACTS), ("Tom", "job")]),
        ("Where do Tom and Li live?", [("Tom", "city"), ("Li", "city")]),
        ("Where do Li and I live?", [("Li", "city"), (USER, "city")]),
        ("Where does my sister live and what's her name?", [("rel:sister", "city"), (USER, "sister_name")]),
        ("Where does Kofi live? What does he do?", [("Kofi", "city"), ("Kofi", "job")]),
        ("Thanks, what's my name", [(USER, "name")]),
        ("Hi! Where do I live?", [(USER, "city")]),
        ("小丽和小明住在哪里？", [("小丽", "city"), ("小明", "city")]),
        ("小丽和我住在哪里？", [("小丽", "city"), (USER, "city")]),
        ("我姐姐住在哪里？她叫什么名字？", [("rel:sister", "city"), (USER, "sister_name")]),
        ("谢谢！我住在哪里？", [(USER, "city")]),
    ],
)
def test_questions(text: str, expected: list[tuple[str, str | None]]) -> None:
    assert asked(text) == expected


def test_statements_are_not_questions() -> None:
    assert asked("I live in Lisbon.") == []
    assert asked("我住在北京。") == []
    assert asked("Tom and Li live in Paris.") == []
    # Without "?", a part that starts like a question counts only when it asks for a fact.
    assert asked("Thanks, what a lovely day") == []
    assert asked("Tell me a joke") == []


def test_a_question_about_two_people_answers_each_and_refuses_only_the_unknown_half() -> None:
    from langchain_core.messages import AIMessage, HumanMessage

    from memory_demos.providers.offline_model import compose_reply

    said = "Hi! I'm Tom, I work as a nurse. My sister Li lives in Paris."
    reply = compose_reply(
        [HumanMessage(said), AIMessage("Got it."), HumanMessage("What do Tom and Li do?")]
    ).text
    assert reply.startswith("Tom works as a nurse.")
    assert "second question" in reply and "Paris" not in reply
