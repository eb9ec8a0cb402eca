"""The failure lab: each failure is present with the naive variant and absent with the fix (asserted on data)."""

from __future__ import annotations

import json
import re

import pytest

from memory_demos import failure_lab
from memory_demos.failure_lab import DEMOS, demo_ids, run_demo
from memory_demos.i18n import CATALOGUE
from memory_demos.storage import REDIS_URL_ENV
from tests.services import redis_url  # noqa: F401 - a pytest fixture, asked for by name

NEEDS_REDIS = {"expiring_notes"}


@pytest.mark.parametrize("demo_id", [demo.id for demo in DEMOS])
def test_every_demo_fails_naively_and_holds_with_the_fix(
    demo_id: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    if demo_id in NEEDS_REDIS:  # a real throw-away server (tests/services.py)
        monkeypatch.setenv(REDIS_URL_ENV, request.getfixturevalue("redis_url"))
    result = run_demo(demo_id)
    assert result["id"] == demo_id
    assert result["failed"] is True
    assert result["fixed_ok"] is True
    assert result["explanation"] and result["fix"]
    json.dumps(result)  # plain data all the way down


CJK = re.compile(r"[\u4e00-\u9fff]")


def _kind(value: object) -> object:
    """What a verdict cell says, whatever the language: a yes/no, or whether there is anything at all."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return value > 0
    return bool(value)


@pytest.mark.parametrize("demo_id", [demo.id for demo in DEMOS])
def test_every_demo_runs_a_chinese_conversation_of_its_own_with_the_same_verdict(
    demo_id: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    if demo_id in NEEDS_REDIS:
        monkeypatch.setenv(REDIS_URL_ENV, request.getfixturevalue("redis_url"))
    english, chinese = run_demo(demo_id, "en"), run_demo(demo_id, "zh")
    assert chinese["failed"] is True and chinese["fixed_ok"] is True
    # The Chinese page shows a Chinese conversation; the English one none.
    assert CJK.search(json.dumps(chinese["naive"], ensure_ascii=False))
    assert not CJK.search(json.dumps(english["naive"], ensure_ascii=False))
    verdict = failure_lab.get_demo(demo_id).verdict
    assert verdict is not None
    en_rows, zh_rows = verdict(english), verdict(chinese)
    assert [row.label_key for row in zh_rows] == [row.label_key for row in en_rows]
    for en_row, zh_row in zip(en_rows, zh_rows, strict=True):
        assert (_kind(zh_row.naive), _kind(zh_row.fixed)) == (_kind(en_row.naive), _kind(en_row.fixed)), (
            zh_row.label_key
        )


def test_chinese_names_pass_the_strict_entity_parser_and_chinese_summaries_are_checked() -> None:
    said = "你好，我叫李明，刚搬到成都。"
    assert failure_lab.strict_entity_names(["Sure", "the entities are: 李明", "成都", "北京"], said) == [
        "李明",
        "成都",
    ]
    conversation = "Human: 你好，我叫林晓，住在杭州。\nAI: 记住了。"
    summary = "The human's name is 林晓. The human lives in 杭州. The human's favourite colour is green."
    assert failure_lab.unsupported_sentences(summary, conversation) == [
        "The human's favourite colour is green."
    ]
    assert failure_lab.unsupported_sentences("The human travelled to Paris.", conversation) == [
        "The human travelled to Paris."
    ]


def test_demo_texts_exist_in_chinese() -> None:
    result = run_demo("trim_orphan", language="zh")
    assert result["explanation"] == CATALOGUE["zh"][failure_lab.get_demo("trim_orphan").explanation_key]
    assert result["explanation"] != CATALOGUE["en"]["failure.trim_orphan.explanation"]
    assert demo_ids() == [
        "chatty_entities",
        "summary_drift",
        "vector_privacy",
        "trim_orphan",
        "session_race",
        "summary_buffer_failure",
        "expiring_notes",
        "store_facts_expire",
        "memory_poisoning",
        "moving_prefix",
        "full_block",
        "never_saved",
    ]


def test_chatty_entities_make_junk_entities_each_costing_a_summary_call() -> None:
    result = failure_lab.chatty_entities()
    naive, fixed = result["naive"], result["fixed"]
    assert naive["extraction_answers"][0].startswith("Sure, the entities are:")
    assert "Sure" in naive["entities"]
    assert "John" not in naive["entities"]  # swallowed into "the entities are: John"
    assert set(fixed["entities"]) == {"John", "Paris", "Anna"}
    assert fixed["junk_entities"] == []
    # One entity-summary call per extracted name and turn: the junk names are paid for too.
    assert fixed["entity_summary_calls"] == 3  # John and Paris, then Anna
    assert naive["entity_summary_calls"] > fixed["entity_summary_calls"]


def test_strict_entity_parser_keeps_only_names_the_user_wrote() -> None:
    said = "Hi, I'm John and I just moved to New York."
    assert failure_lab.strict_entity_names(["Sure", "the entities are: John", "New York"], said) == [
        "John",
        "New York",
    ]
    assert failure_lab.strict_entity_names(["Sure", "there are no entities in that line."], said) == []


def test_summary_drift_invents_details_and_the_check_removes_them() -> None:
    result = failure_lab.summary_drift()
    naive, fixed = result["naive"], result["fixed"]
    invented_per_round = [len(round_["invented"]) for round_ in naive["rounds"]]
    assert invented_per_round == sorted(invented_per_round) and invented_per_round[-1] >= 3  # it compounds
    assert "Paris" in naive["final_summary"]
    assert "Paris" not in fixed["final_summary"]
    for fact in ("Mara", "Lisbon", "A-1234"):
        assert fact in fixed["final_summary"]
    assert all(round_["invented"] == [] for round_ in fixed["rounds"])


def test_unsupported_sentences_check() -> None:
    conversation = "Human: Hi, my name is Mara and I live in Lisbon.\nAI: Nice to meet you."
    summary = "The human's name is Mara. The human lives in Lisbon. The human works as a nurse."
    assert failure_lab.unsupported_sentences(summary, conversation) == ["The human works as a nurse."]


def test_vector_memory_recalls_a_private_detail_and_the_fix_does_not() -> None:
    result = failure_lab.vector_privacy()
    naive = {q["query"]: q for q in result["naive"]["queries"]}
    fixed = {q["query"]: q for q in result["fixed"]["queries"]}
    reset = "How do I reset my password?"
    assert "Whiskers" in naive[reset]["injected"]
    assert naive[reset]["below_threshold"]  # k neighbours, however far away
    assert fixed[reset]["injected"] == ""
    balcony = "Any tips for my balcony garden?"
    assert "Japan" in naive[balcony]["injected"]  # similar-ish, irrelevant
    assert "tomatoes" in fixed[balcony]["injected"] and "Japan" not in fixed[balcony]["injected"]
    assert failure_lab.is_private("My PIN is 1234") and not failure_lab.is_private("I like tea")
    # Both runs say which model embedded them: the 0.3 threshold holds for MiniLM's scores only.
    from memory_demos.providers.embeddings import EMBEDDING_MODEL_LABEL

    assert result["naive"]["embedding_model"] == result["fixed"]["embedding_model"] == EMBEDDING_MODEL_LABEL
    from memory_demos.failure_lab.vector_recall import DEMO

    first_row = DEMO.verdict(result)[0]  # the verdict table names it too, not only the raw JSON
    assert (first_row.label_key, first_row.naive, first_row.fixed) == (
        "failure.verdict.embedding_model",
        EMBEDDING_MODEL_LABEL,
        EMBEDDING_MODEL_LABEL,
    )


def test_plain_trim_orphans_a_tool_result_and_whole_turns_do_not() -> None:
    result = failure_lab.trim_orphan()
    naive_roles = [row["role"] for row in result["naive"]["kept"]]
    assert naive_roles[:2] == ["system", "tool"]
    assert "Orphaned tool result" in result["naive"]["problem"]
    fixed_rows = result["fixed"]["kept"]
    assert result["fixed"]["problem"] is None
    assert fixed_rows[0]["role"] == "system" and fixed_rows[1]["role"] == "human"
    called = {call["id"] for row in fixed_rows for call in row.get("tool_calls", [])}
    assert all(row["tool_call_id"] in called for row in fixed_rows if row["role"] == "tool")


def test_session_race_loses_messages_only_without_the_lock() -> None:
    result = failure_lab.session_race(threads=6)
    assert result["naive"]["requests"] == 6
    assert result["naive"]["lost_messages"] >= 1
    assert result["naive"]["messages_kept"] + result["naive"]["lost_messages"] == 6
    assert result["fixed"]["lost_messages"] == 0
    assert result["fixed"]["histories_created"] == 1


def test_failing_summary_call_loses_turns_unless_raw_messages_are_kept() -> None:
    result = failure_lab.summary_buffer_failure()
    naive, fixed = result["naive"], result["fixed"]
    assert naive["summary_errors"] and fixed["summary_errors"]  # the summary call failed in both
    assert naive["summary"] == "" and fixed["summary"] == ""
    assert failure_lab.SUMMARY_FAIL_MESSAGES[0] in naive["lost_user_messages"]
    assert "Mara" not in naive["answer"]
    assert fixed["lost_user_messages"] == []
    assert "Mara" in fixed["answer"]


def test_a_chinese_demo_writes_its_memory_and_its_system_prompt_in_chinese() -> None:
    drift = run_demo("summary_drift", "zh")
    for run in (drift["naive"], drift["fixed"]):
        summary = run["final_summary"]
        assert summary.startswith("用户") and not re.search(r"\b(?:The human|lives|talked|Paris)\b", summary)
    assert "用户去巴黎旅行了一周。" in drift["naive"]["invented"]
    assert drift["fixed"]["final_summary"] == (
        "用户住在杭州。用户叫林晓。用户的订单号是A-1234。"
        "用户还聊到了“能推荐一本讲园艺的书”、“怎样才能泡出一杯好茶”和“坐火车旅行挺惬意的”。"
    )
    trimmed = run_demo("trim_orphan", "zh")
    assert CATALOGUE["zh"] and "你是一个乐于助人的助手" in json.dumps(trimmed, ensure_ascii=False)
    assert "You are a helpful assistant" not in json.dumps(trimmed, ensure_ascii=False)
    assert "You are a helpful assistant" in json.dumps(run_demo("trim_orphan", "en"))


def test_a_chinese_summary_is_checked_sentence_by_sentence_quoted_topics_whole() -> None:
    conversation = "Human: 你好，我叫林晓，住在杭州。\nHuman: 能推荐一本讲园艺的书吗？"
    summary = (
        "用户叫林晓。用户住在杭州。用户说：“我爱猫。”用户还聊到了“能推荐一本讲园艺的书”。用户在学葡萄牙语。"
    )
    assert failure_lab.unsupported_sentences(summary, conversation) == [
        "用户说：“我爱猫。”",
        "用户在学葡萄牙语。",
    ]


def test_chatty_entities_in_chinese_chatter_in_chinese_and_the_page_quotes_that_chatter() -> None:
    naive = failure_lab.chatty_entities("zh")["naive"]
    assert naive["extraction_answers"][0] == "好的, 这一行里的实体是：李明, 成都"
    assert naive["junk_entities"] == ["好的", "这一行里的实体是：李明", "这一行里的实体是：杭州"]
    assert naive["entities"]["成都"] == "用户现在住在成都。"
    assert "「好的」和「这一行里的实体是：李明」" in CATALOGUE["zh"]["failure.chatty_entities.explanation"]
