"""offline_model.sentences, and the fast paths of the reader: each gives what the full pattern gives."""

from __future__ import annotations

import re

import pytest

from memory_demos.providers.offline_model import changes, rules, sentences, statements
from memory_demos.providers.offline_model.text import first_matching
from tests.offline_battery import CASES

# Every sentence and clause of the battery, and some edge cases for the hints.
TEXTS = sorted(
    {
        text
        for case in CASES
        for message in (*case.turns, case.question, *case.system.splitlines())
        for text in (message, *sentences.split_sentences(message))
    }
    | {
        "",
        "I live in Lisbon",
        "Anna lives in Rome.\nI live in Oslo",
        "我住在北京。我喜欢茶",
        "a.b c!d?  e",
        "I live in Rome\tand\tI like tea",
        "I moved, and now I live in Oslo; my sister Li is 30 — she works as a nurse",
        "I don't drink coffee any more",
        "I ſtill live in Oslo",
        "Tea is my favourite drink.",
    }
)


def test_a_sentence_is_cut_into_clauses() -> None:
    assert sentences.clauses("I live in Lisbon and I work as a nurse", chinese=False) == [
        "I live in Lisbon",
        "I work as a nurse",
    ]
    assert sentences.clauses("I like tea and cake", chinese=False) == ["I like tea and cake"]
    assert sentences.clauses("我住在北京，是一名医生。", chinese=True) == ["我住在北京", "是一名医生"]


def test_questions_quotes_and_changes_of_mind() -> None:
    assert sentences.is_question("where do you live?", chinese=False)
    assert sentences.is_question("你住在哪里", chinese=True)
    assert not sentences.is_question("I live in Oslo.", chinese=False)
    quoted = sentences.quote('My colleague Ana said: "I live in Rome."', chinese=False)
    assert quoted and quoted.group("q").startswith("I live in Rome")
    assert sentences.quote("I live in Rome.", chinese=False) is None
    assert sentences.changes_mind("I changed my mind: green.")
    assert sentences.changes_mind("我改主意了")
    assert not sentences.changes_mind("I changed jobs.")


def test_the_assistant_speaking_of_itself_states_nothing() -> None:
    assert not sentences.assistant_may_state_facts("I can't answer that from what I was given.")
    assert sentences.assistant_may_state_facts("You live in Oslo.")
    assert sentences.assistant_may_state_facts("Anna lives in Rome.")
    assert sentences.may_state_facts("I can't answer that from what I was given.")  # the user's "I" can


@pytest.mark.parametrize("text", TEXTS)
def test_the_fast_paths_agree_with_the_full_patterns(text: str) -> None:
    full_sentences = [
        sentences._BULLET.sub("", p.strip()) for p in sentences._SENTENCE_END.split(text) if p and p.strip()
    ]
    assert sentences.split_sentences(text) == full_sentences
    full_clauses = [p.strip() for p in sentences._CLAUSE_BREAK.split(text) if p and p.strip()]
    assert sentences.clauses(text, chinese=False) == full_clauses
    assert changes._has_change_word(text) == bool(changes._ANY_CHANGE_WORD.search(text))
    assert sentences.changes_mind(text) == bool(sentences._CHANGED_MIND.search(text))
    for chinese in (False, True):
        pattern = sentences._QUOTE_ZH if chinese else sentences._QUOTE_EN
        found, expected = sentences.quote(text, chinese=chinese), pattern.match(text)
        assert (found and found.groups()) == (expected and expected.groups())


def _canonical_statements() -> list[str]:
    return sorted(
        {
            s.text
            for text in TEXTS
            for role in ("human", "ai")
            for s in statements.read_statements(text, role=role)
        }
        | {"S's favourite drink is tea", "tea is S's favourite drink", "S is 30", "S的名字叫小明"}
    )


@pytest.mark.parametrize("self_subject", [False, True])
def test_the_rule_sets_pick_the_rule_a_loop_would(self_subject: bool) -> None:
    """One alternation finds the first anchored rule; trying every rule in order gives the same pairs."""

    def loop(text: str) -> rules.Pairs:
        chinese = rules.mostly_chinese(text)
        groups = [[(rules._EN_RULES, re.IGNORECASE)], [(rules._ZH_RULES, 0)]][chinese]
        if self_subject:
            groups += [[(rules._EN_SELF_RULES, 0)], [(rules._ZH_SELF_RULES, 0)]][chinese]
        for group, flags in groups:
            for pattern, handler in group:
                anchored = pattern.startswith("^")
                regex = re.compile(pattern[1:].replace("|^", "|") if anchored else pattern, flags)
                match = regex.match(text) if anchored else regex.search(text)
                if match and (pairs := handler(match)):
                    return [(k, v.rstrip(".。") if not v.endswith("..") else v) for k, v in pairs if v]
        return []

    for text in _canonical_statements():
        assert rules.read_pairs(text, self_subject=self_subject) == loop(text), text


def test_first_matching_is_the_first_pattern_that_matches() -> None:
    patterns = [r"(?P<a>ab)c", r"a(?P<a>b)", r"(?i:A)", r"x"]
    first = first_matching(patterns)
    for text, expected in [("abc", 0), ("abd", 1), ("Ax", 2), ("x", 3), ("y", None)]:
        assert first(text) == expected


def _normalize_en_with_every_pattern(text: str) -> tuple[str, bool, bool, bool]:
    """normalize_en as it read before its word checks: every pattern tried in turn."""
    c = changes
    negated = change = exclusive = False
    if not c._ANY_CHANGE_WORD.search(text):
        return (c._SPACES.sub(" ", text) if "  " in text else text).strip(" ,.!?"), negated, change, exclusive
    if c._NO_LONGER.search(text):
        negated = change = True
        text = c._BE_NOT.sub("is ", c._DO_NOT.sub("", c._NO_LONGER_WORDS.sub("", text)))
    elif c._USED_TO.search(text):
        negated = change = True
        text = c._USED_TO.sub("", text)
    elif not c._DONT_LIKE.search(text):
        if c._NEVER.search(text):
            negated = True
            text = c._NEVER.sub("", text)
        elif c._NOT.search(text):
            negated = True
            text = c._NOT.sub("", text)
    if c._EN_CHANGE.search(text) or c._CHANGED.search(text):
        change = True
        text = c._EN_CHANGE.sub("", text)
    if c._ONLY.search(text):
        exclusive = True
        text = c._ONLY.sub("", text)
    text = c._SPACES.sub(" ", c._EN_STRIP.sub("", text)).strip(" ,.!?")
    return text, negated, change, exclusive


CHANGE_CLAUSES = [
    "S no longer live in Lisbon",
    "S don't drink coffee any more",
    "S do not like jazz anymore",
    "S used to love coffee",
    "S NEVER eat meat",
    "S isn't 30 anymore",
    "S 'm not from Rome",
    "S just turned 31",
    "S moved to Porto at the moment",
    "S only drink tea these days",
    "S ſtopped smoking",
    "S İnstead drink tea",
    "S'm not  really   sure",
]


@pytest.mark.parametrize("text", [*TEXTS, *CHANGE_CLAUSES])
def test_change_words_are_read_as_every_pattern_would(text: str) -> None:
    for clause in {text, *(s.text for s in statements.read_statements(text))}:
        assert changes.normalize_en(clause) == _normalize_en_with_every_pattern(clause), clause
