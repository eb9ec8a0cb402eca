"""offline_model.statements: who each clause is about, and what changed."""

from __future__ import annotations

import pytest

from memory_demos.providers.offline_model.statements import USER, read_statements


def statements(text: str, role: str = "human") -> list[tuple[str, str, bool, bool]]:
    return [(s.subject, s.text, s.negated, s.change) for s in read_statements(text, role=role)]


@pytest.mark.parametrize(
    ("text", "role", "subject", "canonical"),
    [
        ("I live in Lisbon.", "human", USER, "S live in Lisbon"),
        ("My name is Mara.", "human", USER, "S's name is Mara"),
        ("Your name is Mara.", "ai", USER, "S's name is Mara"),
        ("The human lives in Oslo.", "narrative", USER, "S lives in Oslo"),
        ("Kofi works as a nurse.", "narrative", "Kofi", "S works as a nurse"),
        ("我住在北京。", "human", USER, "S住在北京"),
        ("小王住在广州。", "human", "小王", "S住在广州"),
        ("My brother lives in Accra.", "human", "rel:brother", "S lives in Accra"),
    ],
)
def test_the_subject_is_replaced_by_a_placeholder(text: str, role: str, subject: str, canonical: str) -> None:
    assert (subject, canonical) in [(s, t) for s, t, _, _ in statements(text, role)]


def test_the_assistants_own_first_person_is_not_about_the_user() -> None:
    assert statements("I live in a data centre.", role="ai") == []


def test_a_relation_introduction_names_the_relation_and_speaks_of_the_person() -> None:
    found = statements("My brother Kofi lives in Accra and works as a nurse.")
    assert (USER, "S's brother name is Kofi", False, False) in found
    assert ("Kofi", "S lives in Accra", False, False) in found
    assert ("Kofi", "S works as a nurse", False, False) in found


def test_quoted_speech_belongs_to_its_speaker() -> None:
    found = statements('My colleague Ana said: "I live in Rome."')
    assert ("Ana", "S live in Rome", False, False) in found
    assert all(subject != USER or "Rome" not in text for subject, text, _, _ in found)
    assert ("安娜", "S住在罗马", False, False) in statements("我同事安娜说：“我住在罗马。”")


def test_pronouns_refer_to_the_last_person_named() -> None:
    assert ("Yuki", "S lives in Kyoto", False, False) in statements(
        "My sister Yuki is 34. She lives in Kyoto."
    )


def test_entity_notes_speak_of_their_name() -> None:
    assert ("Kofi", "S lives in Accra", False, False) in statements("Kofi: lives in Accra.", role="narrative")


@pytest.mark.parametrize(
    ("text", "negated", "change"),
    [
        ("I no longer live in Lisbon.", True, True),
        ("I don't live in Lisbon anymore.", True, True),
        ("I used to live in Lisbon.", True, True),
        ("Now I live in Porto.", False, True),
        ("I moved to Porto.", False, True),
        ("我现在不住在北京了。", True, True),
        ("我不再住在北京。", True, True),
        ("我以前住在北京。", True, True),
        ("我搬到上海了。", False, True),
    ],
)
def test_change_words_are_recorded_and_taken_out(text: str, negated: bool, change: bool) -> None:
    (statement,) = list(read_statements(text))
    assert (statement.negated, statement.change) == (negated, change)
    assert not any(word in statement.text for word in ("longer", "anymore", "used", "不再", "以前", "现在"))


def test_questions_state_nothing() -> None:
    assert statements("Where do I live?") == []
    assert statements("我住在哪里？") == []
