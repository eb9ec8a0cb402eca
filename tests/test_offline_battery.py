"""The offline teaching model answers exactly from its prompt: the battery, and property tests."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from memory_demos.providers.offline_model import OfflineTeachingModel, dont_know
from memory_demos.scenarios import is_refusal
from tests.offline_battery import CASES, Case
from tests.offline_battery_corrections import correction_cases

ALL_CASES = CASES + correction_cases()

MODEL = OfflineTeachingModel()


def converse(case_turns: tuple[str, ...], question: str, system: str = "") -> str:
    """Play the turns as ``buffer`` keeps them (each reply is the model's own), then ask."""
    messages: list[BaseMessage] = [SystemMessage(system)] if system else []
    for text in case_turns:
        messages.append(HumanMessage(text))
        messages.append(AIMessage(str(MODEL.invoke(messages).content)))
    messages.append(HumanMessage(question))
    return str(MODEL.invoke(messages).content)


def test_the_battery_is_big_enough_and_bilingual() -> None:
    assert len(ALL_CASES) >= 200
    assert sum(case.chinese for case in ALL_CASES) >= 80
    assert sum(case.refuse for case in ALL_CASES) >= 20


@pytest.mark.parametrize(
    "case", ALL_CASES, ids=lambda case: f"{case.turns[-1] if case.turns else 'system'} | {case.question}"
)
def test_battery(case: Case) -> None:
    answer = converse(case.turns, case.question, case.system)
    if case.refuse:
        assert answer == dont_know(chinese=case.chinese)
    for expected in case.expect:
        assert expected.lower() in answer.lower(), answer
    for wrong in case.reject:
        assert wrong.lower() not in answer.lower(), answer
    if not case.refuse and case.expect:
        assert not is_refusal(answer), answer


# --------------------------------------------------------------------------------------------
# Properties

NAMES = st.sampled_from(["Mara", "Jonas", "Priya", "Kofi", "Lena", "Ines", "Tariq", "Olga"])
CITIES = st.sampled_from(["Lisbon", "Berlin", "Toronto", "Accra", "Oslo", "Madrid", "Kyoto", "Lima"])
ZH_NAMES = st.sampled_from(["小明", "小红", "李雷", "韩梅梅", "王芳", "张伟"])
ZH_CITIES = st.sampled_from(["北京", "上海", "杭州", "广州", "成都", "西安"])
ORDERS = st.from_regex(r"[A-Z]-[0-9]{3,5}", fullmatch=True)

FACTS_EN = {
    "name": ("My name is {}.", "What's my name?"),
    "city": ("I live in {}.", "Where do I live?"),
    "order_number": ("My order number is {}.", "What's my order number?"),
}
FACTS_ZH = {
    "name": ("我叫{}。", "我叫什么名字？"),
    "city": ("我住在{}。", "我住在哪里？"),
    "order_number": ("我的订单号是{}。", "我的订单号是什么？"),
}
FILLER_EN = ["What makes a good cup of tea?", "Trains are pleasant.", "Any ideas for a rainy day?"]
FILLER_ZH = ["怎样泡一杯好茶？", "坐火车旅行很舒服。", "下雨的周末可以做什么？"]


def _content_words(text: str) -> set[str]:
    if re.search("[\u4e00-\u9fff]", text):
        return {
            text[i : i + 2]
            for i in range(len(text) - 1)
            if re.fullmatch("[\u4e00-\u9fff]{2}", text[i : i + 2])
        }
    stop = {"what", "what's", "where", "do", "i", "my", "is", "the", "a", "me"}
    return {w for w in re.findall(r"[a-z']+", text.lower()) if w not in stop and len(w) > 2}


@settings(max_examples=60, deadline=None)
@given(
    chinese=st.booleans(),
    name=NAMES,
    city=CITIES,
    zh_name=ZH_NAMES,
    zh_city=ZH_CITIES,
    order=ORDERS,
    stated=st.sets(st.sampled_from(sorted(FACTS_EN)), max_size=2),
    filler=st.integers(0, 3),
)
def test_every_stated_fact_is_recalled_and_no_absent_fact_is_stated(
    chinese: bool, name: str, city: str, zh_name: str, zh_city: str, order: str, stated: set[str], filler: int
) -> None:
    facts, fillers = (FACTS_ZH, FILLER_ZH) if chinese else (FACTS_EN, FILLER_EN)
    values = {
        "name": zh_name if chinese else name,
        "city": zh_city if chinese else city,
        "order_number": order,
    }
    turns = [facts[key][0].format(values[key]) for key in sorted(stated)] + fillers[:filler]
    for key, (_, question) in facts.items():
        answer = converse(tuple(turns), question)
        if key in stated:
            assert values[key] in answer, (turns, question, answer)
        else:
            assert answer == dont_know(chinese=chinese), (turns, question, answer)
            assert not any(values[k] in answer for k in facts)
            assert not _content_words(question) & _content_words(answer), (question, answer)


@settings(max_examples=40, deadline=None)
@given(person=NAMES, city=CITIES, other=CITIES, chinese=st.booleans(), zh_person=ZH_NAMES, zh_city=ZH_CITIES)
def test_another_persons_fact_is_never_the_users(
    person: str, city: str, other: str, chinese: bool, zh_person: str, zh_city: str
) -> None:
    if chinese:
        answer = converse((f"我朋友{zh_person}住在{zh_city}。",), "我住在哪里？")
        assert zh_city not in answer
        assert zh_city in converse((f"我朋友{zh_person}住在{zh_city}。",), f"{zh_person}住在哪里？")
    else:
        answer = converse((f"My friend {person} lives in {city}.",), "Where do I live?")
        assert city not in answer
        assert city in converse((f"My friend {person} lives in {city}.",), f"Where does {person} live?")


@settings(max_examples=40, deadline=None)
@given(first=CITIES, second=CITIES)
def test_the_newest_of_two_ordered_facts_wins(first: str, second: str) -> None:
    answer = converse((f"I live in {first}.", f"I moved to {second}."), "Where do I live?")
    assert answer == f"You live in {second}."
