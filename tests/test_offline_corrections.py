"""What the offline model writes for memories carries a job left and a name corrected; topics read well."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_demos.providers.offline_model import dont_know, progressive_summary, small_talk, summarize_entity
from tests.test_offline_battery import CITIES, NAMES, ZH_CITIES, ZH_NAMES, converse

NOTE = "Mara is the human's name. Mara lives in Lisbon. Mara works as a nurse."


@pytest.mark.parametrize(
    ("said", "job", "left", "held"),
    [
        (
            "I quit my job as a nurse last week.",
            "a nurse",
            "The human no longer works as a nurse.",
            "works as",
        ),
        ("I stopped working as a nurse.", "a nurse", "The human no longer works as a nurse.", "works as"),
        # A Chinese conversation's summary is written in Chinese (the English one before it re-read).
        ("我上周辞掉了护士的工作。", "a 护士", "用户的工作不再是护士。", "用户的工作是"),
        ("我不做护士了。", "a 护士", "用户的工作不再是护士。", "用户的工作是"),
    ],
)
def test_a_summary_says_the_job_was_left(said: str, job: str, left: str, held: str) -> None:
    before = f"The human's name is Mara. The human works as {job}."
    summary = progressive_summary(before, f"Human: {said}\nAI: Got it.")
    assert left in summary
    assert f"The human {held} {job}" not in summary and f"{held}护士" not in summary


@pytest.mark.parametrize(
    ("said", "left"),
    [
        ("I lost my job.", "no longer works as a nurse"),
        ("I retired last year.", "no longer works as a nurse"),
        ("我辞职了。", "用户的工作不再是nurse。"),
        ("我退休了。", "用户的工作不再是nurse。"),
    ],
)
def test_a_job_left_unnamed_retires_the_job_the_summary_held(said: str, left: str) -> None:
    summary = progressive_summary("The human works as a nurse.", f"Human: {said}\nAI: Got it.")
    assert left in summary
    assert "The human works as a nurse" not in summary and "用户的工作是nurse" not in summary


def test_an_entity_note_carries_a_job_left_and_a_name_corrected() -> None:
    assert "Mara no longer works as a nurse." in summarize_entity("Mara", NOTE, "I quit my job as a nurse.")
    renamed = summarize_entity("Mara", NOTE, "Actually my name is not Mara, it's Maria.")
    assert "now Maria" in renamed
    assert "Mara is the human's name" not in renamed
    assert (
        summarize_entity("Maria", "", "Actually my name is not Mara, it's Maria.")
        == "Maria is the human's name."
    )


def test_summary_topics_are_readable_phrases() -> None:
    lines = "Human: What makes a good cup of tea?\nAI: I see.\nHuman: Trains are pleasant.\nAI: Indeed."
    summary = progressive_summary("", lines)
    assert "“what makes a good cup of tea”" in summary
    assert "“Trains are pleasant”" in summary
    assert "&" not in summary
    # The next summary reads its own topic tail back: topics are kept, not split at "and".
    again = progressive_summary(summary, "Human: Cats and dogs are both great.\nAI: Sure.")
    assert "“what makes a good cup of tea”" in again
    assert "“Cats and dogs are both great”" in again


def test_a_long_chinese_topic_is_cut_at_a_word_edge_and_marked() -> None:
    reply = small_talk("我上周辞掉了护士的工作然后去旅行了很久", chinese=True)
    topic = re.search("“(.+)”", reply)
    assert topic is not None
    assert topic.group(1).endswith("…")
    assert "我上周辞掉了护士的工作然后去旅行了很久".startswith(topic.group(1)[:-1])
    assert not topic.group(1).endswith("的工…")
    assert "“晚霞真漂亮”" in small_talk("晚霞真漂亮啊", chinese=True)


# --------------------------------------------------------------------------------------------
# Properties

JOBS = st.sampled_from(["nurse", "teacher", "baker", "pilot", "dentist", "architect"])
LEFT = st.sampled_from(
    [
        "I quit my job as a {job}.",
        "I left my job as a {job} last week.",
        "I stopped working as a {job}.",
        "I lost my job.",
        "I retired.",
        "I resigned.",
    ]
)


@settings(max_examples=30, deadline=None)
@given(job=JOBS, left=LEFT, name=NAMES, city=CITIES)
def test_a_job_left_is_never_said_back_as_current(job: str, left: str, name: str, city: str) -> None:
    turns = (f"Hi, I'm {name}, I live in {city} and work as a {job}.", left.format(job=job))
    for question in ("What's my job?", "What do I do?", f"Am I a {job}?", f"Who works as a {job}?"):
        answer = converse(turns, question)
        assert f"you work as a {job}" not in answer.lower(), (turns, question, answer)
        assert not answer.startswith("Yes"), (turns, question, answer)


@settings(max_examples=30, deadline=None)
@given(
    person=NAMES,
    lives=CITIES,
    asked=CITIES,
    chinese=st.booleans(),
    zh_person=ZH_NAMES,
    zh_lives=ZH_CITIES,
    zh_asked=ZH_CITIES,
)
def test_yes_no_and_who_questions_follow_the_prompt(
    person: str, lives: str, asked: str, chinese: bool, zh_person: str, zh_lives: str, zh_asked: str
) -> None:
    if chinese:
        person, lives, asked = zh_person, zh_lives, zh_asked
        turns = (f"我朋友{person}住在{lives}。",)
        whether, who, yes = f"{person}住在{asked}吗？", f"谁住在{asked}？", "是的"
    else:
        turns = (f"My friend {person} lives in {lives}.",)
        whether, who, yes = f"Does {person} live in {asked}?", f"Who lives in {asked}?", "Yes"
    answer = converse(turns, whether)
    assert answer.startswith(yes) == (lives == asked), (turns, whether, answer)
    assert lives in answer
    answer = converse(turns, who)
    if lives == asked:
        assert person in answer, (turns, who, answer)
    else:
        assert answer == dont_know(chinese=chinese), (turns, who, answer)


@pytest.mark.parametrize("said", ["是的，不是很远。", "不是我，是他。", "我觉得是北京，不是上海。"])
def test_a_chinese_not_this_but_that_reads_no_name_or_particle_as_a_fact(said: str) -> None:
    from memory_demos.providers.offline_model.facts import extract_facts

    facts = extract_facts(said)
    assert not any(f.key == "name" for f in facts)
    assert not any(f.value in {"很远", "的", "我", "他"} for f in facts)


@given(old=ZH_NAMES, new=ZH_NAMES, city=ZH_CITIES)
@settings(max_examples=25, deadline=None)
def test_a_chinese_standalone_correction_replaces_the_name(old: str, new: str, city: str) -> None:
    if old == new:
        return
    said = converse((f"我叫{old}，住在{city}。", f"不对，是{new}，不是{old}。"), "我叫什么名字？")
    assert new in said and f"叫{old}" not in said


@pytest.mark.parametrize(
    ("turns", "question", "kept", "gone"),
    [
        (
            (
                "I'm allergic to peanuts and shellfish",
                "forget what I said about shellfish, I'm not allergic to it",
            ),
            "what am i allergic to",
            "peanuts",
            "shellfish",
        ),
        (("我对花生和虾过敏", "忘了我刚才说的虾，我对虾不过敏"), "我对什么过敏", "花生", "虾"),
        (
            ("im allergic to peanuts and shellfish", "forget that about shellfish, it was only peanuts"),
            "what am i allergic to",
            "peanuts",
            "shellfish",
        ),
    ],
)
def test_forgetting_one_value_keeps_the_others_of_its_statement(
    turns: tuple[str, ...], question: str, kept: str, gone: str
) -> None:
    reply = converse(turns, question)
    assert kept in reply
    assert gone not in reply
    assert "not allergic" not in reply and "不过敏" not in reply


def test_a_pet_said_to_be_someone_elses_leaves_the_users_own_list() -> None:
    turns = (
        "I have three cats: Biscuit, Mochi and Pepper",
        "Biscuit is actually my sister's cat, mine are Mochi and Pepper",
    )
    reply = converse(turns, "what are my cats called")
    assert "Mochi" in reply and "Pepper" in reply
    assert "Biscuit" not in reply


def test_a_chinese_correction_naming_the_pet_by_pronoun_replaces_the_name() -> None:
    reply = converse(("我养了一只狗叫豆豆", "不对，它叫球球"), "我的狗叫什么")
    assert "球球" in reply
    assert "豆豆" not in reply and "它叫" not in reply


def test_he_after_a_brother_and_a_sister_is_the_brother() -> None:
    turns = (
        "my brother Kenji is a nurse in Osaka and my sister Aiko is still at uni",
        "he just got engaged btw! to a girl called Yui, they met at the hospital",
    )
    reply = converse(turns, "what's my sister up to?")
    assert "engaged" not in reply and "hospital" not in reply
    messages_reply = converse((*turns, "what does my brother do"), "and my sister?")
    assert "uni" in messages_reply and "nurse" not in messages_reply


def test_a_question_is_not_answered_with_its_opposite() -> None:
    reply = converse(("the gym opens at 6 but classes start at 6:30",), "what time does the gym close")
    assert "6" not in reply


@pytest.mark.parametrize(
    ("turns", "time_question", "time", "price_question", "price"),
    [
        (
            ("3月20号早上8点坐高铁去上海", "票价是553元", "其实是9点半的车，改签了"),
            "我的车几点开？",
            "9点半",
            "票多少钱？",
            "553",
        ),
        (
            ("my flight is at 7:45am", "it cost 329 euros", "actually it's 9:15am"),
            "what time is my flight",
            "9:15",
            "how much was the flight",
            "329",
        ),
    ],
)
def test_a_corrected_time_corrects_the_statement_with_a_time_not_the_newest(
    turns: tuple[str, ...], time_question: str, time: str, price_question: str, price: str
) -> None:
    assert time in converse(turns, time_question)
    reply = converse(turns, price_question)
    assert price in reply and time not in reply


def test_a_kind_said_by_its_members_needs_a_member() -> None:
    assert "can't answer" in converse(("i have two cats, Pepper and Miso",), "what breed is miso?")
    assert "beagle" in converse(("i have a beagle called Max",), "what breed is max")


def test_a_chinese_age_question_wants_an_age() -> None:
    turns = ("我养了一只狗叫豆豆，还有一只猫叫咪咪", "豆豆三岁了")
    assert "回答不了" in converse(turns, "咪咪几岁了？")
    assert "三岁" in converse(turns, "豆豆几岁了")


@pytest.mark.parametrize(
    ("turns", "question", "new", "old"),
    [
        (
            ("my brother daniel is 34 and he lives in portland", "no wait, daniel is 36 not 34"),
            "how old is my brother?",
            "36",
            "34",
        ),
        (("the meeting is at 3pm", "sorry, it's at 4pm not 3pm"), "when is the meeting", "4pm", "at at"),
        (("我哥哥40岁", "不对，是42岁，不是40岁"), "我哥哥多大了", "42", "40"),
    ],
)
def test_x_not_y_puts_the_new_value_of_the_old_ones_kind_in_its_place(
    turns: tuple[str, ...], question: str, new: str, old: str
) -> None:
    reply = converse(turns, question)
    assert new in reply and old not in reply


def test_turning_an_age_on_a_date_is_a_birthday() -> None:
    assert "6月1号" in converse(("我女儿朵朵6月1号满5岁",), "朵朵的生日是哪天?")


def test_chinese_words_typed_apart_by_spaces_are_one_list() -> None:
    reply = converse(("购物清单 鸡蛋 牛奶 西红柿 大米",), "我的购物清单上有什么")
    assert all(item in reply for item in ("鸡蛋", "牛奶", "西红柿", "大米"))


@pytest.mark.parametrize(
    ("turns", "question", "kept", "gone"),
    [
        (
            ("my shopping list: eggs, spinach, oat milk and rice", "add lemons", "remove the rice"),
            "whats on my shopping list",
            ("eggs", "spinach", "oat milk", "lemons"),
            "rice",
        ),
        (
            ("购物清单 鸡蛋 牛奶 西红柿 大米", "再加上苹果", "把大米去掉"),
            "我的购物清单上有什么",
            ("鸡蛋", "苹果"),
            "大米",
        ),
    ],
)
def test_a_list_edited_by_add_and_remove_is_said_back_edited(
    turns: tuple[str, ...], question: str, kept: tuple[str, ...], gone: str
) -> None:
    reply = converse(turns, question)
    assert all(item in reply for item in kept)
    assert gone not in reply


def test_adding_someone_on_social_media_edits_no_list() -> None:
    reply = converse(("my shopping list: eggs and rice", "add me on instagram"), "whats on my shopping list")
    assert "instagram" not in reply


@pytest.mark.parametrize(
    ("said", "name"), [("hi im maya, i work as a nurse", "Maya"), ("hey im tired, long day", None)]
)
def test_a_greeting_then_im_and_a_lower_case_word_names_the_user_unless_it_is_a_state(
    said: str, name: str | None
) -> None:
    reply = converse((said,), "whats my name")
    assert (name in reply) if name else ("can't answer" in reply)


def test_being_at_uni_answers_what_someone_does() -> None:
    turns = ("my brother Kenji is a nurse in Osaka and my sister Aiko is still at uni",)
    reply = converse(turns, "what does my sister do")
    assert "uni" in reply and "nurse" not in reply
