"""offline_model.knowledge: what is true now, per person; order, changes and conflicts."""

from __future__ import annotations

from langchain_core.messages import HumanMessage, SystemMessage

from memory_demos.providers.offline_model.facts import Fact
from memory_demos.providers.offline_model.knowledge import Knowledge, knowledge_of
from memory_demos.providers.offline_model.rules import BIRTHDAY
from memory_demos.providers.offline_model.statements import USER


def test_a_later_ordered_fact_replaces_an_earlier_one() -> None:
    knowledge = Knowledge()
    knowledge.add_ordered([Fact("city", "Lisbon", ""), Fact("city", "Porto", "")])
    assert knowledge.current() == {"city": ("Porto",)}


def test_unordered_facts_that_disagree_are_a_conflict_unless_one_is_a_change() -> None:
    knowledge = Knowledge()
    knowledge.add_unordered([Fact("city", "Lisbon", ""), Fact("city", "Porto", "")])
    belief = knowledge.belief(USER, "city")
    assert belief is not None and belief.values == [] and set(belief.conflict) == {"Lisbon", "Porto"}
    changed = Knowledge()
    changed.add_unordered([Fact("city", "Porto", "", change=True), Fact("city", "Lisbon", "")])
    assert changed.current() == {"city": ("Porto",)}


def test_a_conflict_stays_a_conflict_when_an_old_value_is_repeated() -> None:
    knowledge = Knowledge()
    knowledge.add_ordered([Fact("city", "Shanghai", "")])
    knowledge.add_unordered([Fact("city", "Beijing", ""), Fact("city", "Beijing", "")])
    belief = knowledge.belief(USER, "city")
    assert belief is not None and belief.values == [] and set(belief.conflict) == {"Shanghai", "Beijing"}
    settled = Knowledge()
    settled.add_ordered([Fact("city", "Shanghai", "", change=True)])
    settled.add_unordered([Fact("city", "Beijing", ""), Fact("city", "Beijing", "")])
    assert settled.current() == {"city": ("Shanghai",)}


def test_a_negated_fact_is_taken_back_and_remembered_as_former() -> None:
    knowledge = Knowledge()
    knowledge.add_ordered([Fact("city", "Lisbon", ""), Fact("city", "Lisbon", "", negated=True)])
    belief = knowledge.belief(USER, "city")
    assert belief is not None and belief.values == [] and belief.former == ["Lisbon"]


def test_a_birthday_adds_a_year_and_only_to_a_known_age() -> None:
    knowledge = Knowledge()
    knowledge.add_ordered([Fact("age", "30", ""), Fact("age", BIRTHDAY, "")])
    assert knowledge.current()["age"] == ("31",)
    unknown = Knowledge()
    unknown.add_ordered([Fact("age", BIRTHDAY, "")])
    assert "age" not in unknown.current()


def test_only_replaces_a_list_and_a_like_removes_a_dislike() -> None:
    knowledge = Knowledge()
    knowledge.add_ordered(
        [
            Fact("drinks", "coffee", ""),
            Fact("drinks", "tea", "", exclusive=True),
            Fact("dislikes", "jazz", ""),
        ]
    )
    knowledge.add_ordered([Fact("likes", "jazz", "")])
    assert knowledge.current() == {"drinks": ("tea",), "likes": ("jazz",)}


def test_the_users_name_and_a_named_relation_are_aliases() -> None:
    knowledge = Knowledge()
    knowledge.add_ordered(
        [
            Fact("name", "Priya", ""),
            Fact("city", "Toronto", "", subject="Priya"),
            Fact("brother_name", "Kofi", ""),
        ]
    )
    knowledge.add_ordered([Fact("city", "Accra", "", subject="rel:brother")])
    knowledge.merged()
    assert knowledge.current()["city"] == ("Toronto",)
    assert knowledge.current("rel:brother") == {"city": ("Accra",)}


def test_retrieved_lines_have_no_order_but_notes_and_messages_do() -> None:
    retrieved = SystemMessage(
        "Possibly relevant earlier lines (retrieved by similarity):\nHuman: I live in Lisbon.\nHuman: I live in Porto."
    )
    assert knowledge_of([retrieved]).current() == {}
    noted = SystemMessage(
        "Summary of the earlier conversation:\nThe human lives in Lisbon. The human lives in Porto."
    )
    assert knowledge_of([noted]).current() == {"city": ("Porto",)}
    assert knowledge_of([retrieved, HumanMessage("I live in Oslo.")]).current() == {"city": ("Oslo",)}
