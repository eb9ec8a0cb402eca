"""offline_model.answers: clauses about anyone, answers, refusals that repeat nothing, acknowledgements."""

from __future__ import annotations

from memory_demos.providers.offline_model.answers import (
    acknowledge,
    answer_questions,
    dont_know,
    fact_clause,
    fact_clause_zh,
)
from memory_demos.providers.offline_model.facts import Fact
from memory_demos.providers.offline_model.knowledge import Knowledge
from memory_demos.providers.offline_model.questions import Question
from memory_demos.providers.offline_model.statements import USER


def test_clauses_for_each_subject_and_for_taken_back_facts() -> None:
    assert fact_clause("city", ["Lisbon"]) == "you live in Lisbon"
    assert fact_clause("city", ["Accra"], "Kofi") == "Kofi lives in Accra"
    assert fact_clause("city", ["Lisbon"], former=True) == "you no longer live in Lisbon"
    assert fact_clause("drinks", ["tea"], "the human") == "the human drinks tea"
    assert fact_clause("brother_name", ["Kofi"]) == "your brother's name is Kofi"
    assert fact_clause_zh("city", ["北京"], former=True) == "你已经不住在北京"
    assert fact_clause_zh("brother_name", ["小王"]) == "你的哥哥叫小王"
    assert fact_clause_zh("job", ["医生"], "小王") == "小王的工作是医生"


def _knowledge(*facts: Fact) -> Knowledge:
    knowledge = Knowledge()
    knowledge.add_ordered(list(facts))
    return knowledge


def test_each_question_gets_its_answer_and_an_unanswerable_one_only_its_position() -> None:
    knowledge = _knowledge(Fact("name", "Mara", ""))
    questions = [Question(USER, "name", "What's my name"), Question(USER, "city", "where do I live")]
    assert answer_questions(questions, knowledge, chinese=False) == (
        "Your name is Mara. I can't answer your second question from what I was given."
    )
    assert answer_questions(questions[1:], knowledge, chinese=True) == dont_know(chinese=True)


def test_a_conflict_is_reported_and_a_retraction_is_not_restated_as_true() -> None:
    knowledge = Knowledge()
    knowledge.add_unordered([Fact("city", "Lisbon", ""), Fact("city", "Porto", "")])
    answer = answer_questions([Question(USER, "city", "")], knowledge, chinese=False)
    assert "Lisbon" in answer and "Porto" in answer and "disagrees" in answer
    retracted = _knowledge(Fact("city", "Lisbon", ""), Fact("city", "Lisbon", "", negated=True))
    answer = answer_questions([Question(USER, "city", "")], retracted, chinese=False)
    assert "no longer live in Lisbon" in answer and "You live in Lisbon" not in answer


def test_acknowledgements_cover_other_people_and_changes() -> None:
    said = acknowledge(
        [Fact("city", "Lisbon", "", negated=True, change=True), Fact("city", "Accra", "", subject="Kofi")],
        chinese=False,
    )
    assert said == "Got it: you no longer live in Lisbon; Kofi lives in Accra."
    # "I don't live in Berlin" never said I did: not "no longer".
    assert (
        acknowledge([Fact("city", "Berlin", "", negated=True)], chinese=False)
        == "Got it: you don't live in Berlin."
    )
    assert acknowledge([], chinese=True) == ""


def test_an_older_and_a_younger_brother_keep_their_own_facts() -> None:
    """哥哥 and 弟弟 (姐姐 and 妹妹) are two people: neither's name or city is given to the other."""
    from langchain_core.messages import AIMessage, HumanMessage

    from memory_demos.providers.offline_model import OfflineTeachingModel

    model = OfflineTeachingModel()
    messages: list = []
    replies = []
    for text in (
        "我哥哥叫王强，住在成都",
        "我弟弟叫王磊，住在上海",
        "我弟弟住在哪里？",
        "我哥哥叫什么？",
        "我妹妹叫什么？",
    ):
        messages.append(HumanMessage(text))
        replies.append(str(model.invoke(messages).content))
        messages.append(AIMessage(replies[-1]))
    assert "上海" in replies[2] and "成都" not in replies[2]
    assert "王强" in replies[3] and "王磊" not in replies[3]
    assert "王" not in replies[4]  # no younger sister was named


def test_a_favourite_of_a_kind_never_spoken_of_is_refused_not_another_favourite() -> None:
    """ "my favourite food is ramen" does not answer "what's my favourite movie?" (nor 最爱吃火锅 最喜欢的电影)."""
    from langchain_core.messages import AIMessage, HumanMessage

    from memory_demos.providers.offline_model import OfflineTeachingModel
    from memory_demos.scenarios import is_refusal

    model = OfflineTeachingModel()
    for told, asked, kept in (
        ("my favourite food is ramen", "what's my favourite movie", "whats my favourite food"),
        ("我最爱吃火锅", "我最喜欢的电影是什么", "我最喜欢吃什么"),
    ):
        messages: list = [HumanMessage(told)]
        messages.append(AIMessage(str(model.invoke(messages).content)))
        refused = str(model.invoke([*messages, HumanMessage(asked)]).content)
        answered = str(model.invoke([*messages, HumanMessage(kept)]).content)
        assert is_refusal(refused) and "ramen" not in refused and "火锅" not in refused
        assert "ramen" in answered or "火锅" in answered
