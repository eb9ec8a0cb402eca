"""The migration guide's Chinese scripts teach what the English ones teach: the classic and modern prompts
agree or part on the same turns, and the last question is answered (or not) alike."""

from __future__ import annotations

import re

import pytest

from memory_demos.migration import STEP_IDS, default_inputs, load_step, run_both

ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
CHINESE_STEPS = [step_id for step_id in STEP_IDS if hasattr(load_step(step_id), "DEFAULT_INPUTS_ZH")]


def test_a_step_without_a_chinese_script_offers_the_english_one() -> None:
    without = [step_id for step_id in STEP_IDS if step_id not in CHINESE_STEPS]
    for step_id in without:
        assert default_inputs(load_step(step_id), "zh") == load_step(step_id).DEFAULT_INPUTS
    # The vector step has one since it embeds with multilingual-e5-small (issue 26).
    assert set(CHINESE_STEPS) >= {"buffer", "window", "token_buffer", "summary", "entity", "vector"}


@pytest.mark.parametrize("step_id", CHINESE_STEPS)
def test_the_chinese_script_parts_on_the_same_turns_as_the_english_one(step_id: str) -> None:
    step = load_step(step_id)
    english, chinese = run_both(step), run_both(step, default_inputs(step, "zh"))
    assert chinese.classic_error is None and chinese.modern_error is None
    assert [turn.equivalence.same for turn in chinese.turns] == [
        turn.equivalence.same for turn in english.turns
    ]
    last_english, last_chinese = english.turns[-1], chinese.turns[-1]
    for side in ("classic", "modern"):
        english_reply = getattr(last_english, side).reply
        chinese_reply = getattr(last_chinese, side).reply
        assert not ENGLISH_WORD.search(chinese_reply.replace("A-1234", "")), chinese_reply
        assert ("can't answer" in english_reply) == ("回答不了" in chinese_reply), (
            english_reply,
            chinese_reply,
        )
