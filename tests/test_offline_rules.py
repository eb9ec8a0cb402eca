"""offline_model.rules: the (key, value) pairs a canonical statement states."""

from __future__ import annotations

import pytest

from memory_demos.providers.offline_model.rules import BIRTHDAY, read_pairs


@pytest.mark.parametrize(
    ("text", "self_subject", "pairs"),
    [
        ("S live in New York", False, [("city", "New York")]),
        ("S moved to Porto last year", False, [("city", "Porto")]),
        ("S is from Porto", False, [("hometown", "Porto")]),
        ("S is 31 years old", False, [("age", "31")]),
        ("S turned 31", False, [("age", "31")]),
        ("S's birthday", True, [("age", BIRTHDAY)]),
        ("S works as a nurse", False, [("job", "nurse")]),
        ("S is an architect", False, [("job", "architect")]),
        ("S drink green tea", False, [("drinks", "green tea")]),
        ("S like tea and jazz", False, [("likes", "tea"), ("likes", "jazz")]),
        ("S's favourite colour is green", False, [("favourite_colour", "green")]),
        ("S's dog is called Rex", False, [("dog_name", "Rex")]),
        ("S's brother name is Kofi", True, [("brother_name", "Kofi")]),
        ("S is Mara", True, [("name", "Mara")]),
        ("S is Brazilian", True, [("nationality", "Brazilian")]),
        ("S住在北京", False, [("city", "北京")]),
        ("S今年30岁", False, [("age", "30")]),
        ("S是一名医生", False, [("job", "医生")]),
        ("S是上海人", False, [("hometown", "上海")]),
        ("S的狗叫旺财", False, [("dog_name", "旺财")]),
        ("S的哥哥叫小王", False, [("brother_name", "小王")]),
        ("S喝绿茶", False, [("drinks", "绿茶")]),
        ("S是小明", True, [("name", "小明")]),
    ],
)
def test_rules(text: str, self_subject: bool, pairs: list[tuple[str, str]]) -> None:
    assert read_pairs(text, self_subject=self_subject) == pairs


def test_only_the_speaker_names_themselves_with_i_am() -> None:
    assert read_pairs("S is Mara", self_subject=False) == []
    assert read_pairs("S是小明", self_subject=False) == []


def test_nonsense_states_nothing() -> None:
    assert read_pairs("S is tired", self_subject=True) == []
    assert read_pairs("S看了一部电影", self_subject=True) == []


@pytest.mark.parametrize(
    ("text", "age"), [("S今年二十岁", "20"), ("S二十五岁", "25"), ("S十八岁", "18"), ("S三岁", "3")]
)
def test_chinese_numeral_ages(text: str, age: str) -> None:
    assert read_pairs(text, self_subject=True) == [("age", age)]
