"""A Chinese migration guide shows and runs its programs with the Chinese system prompt (it had shown, and
sent, "You are a helpful assistant. Answer briefly." beside Chinese messages); English is unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from memory_demos.defaults import DEFAULT_SYSTEM_PROMPT, DEFAULT_SYSTEM_PROMPT_ZH
from memory_demos.migration import STEP_IDS, default_inputs, load_step, run_both, shown_programs
from memory_demos.session import widget_key

MIGRATION = str(Path(__file__).resolve().parents[1] / "pages" / "migration.py")
ENGLISH_LINE = f'SYSTEM_PROMPT = "{DEFAULT_SYSTEM_PROMPT}"'
CHINESE_LINE = f'SYSTEM_PROMPT = "{DEFAULT_SYSTEM_PROMPT_ZH}"'


@pytest.mark.parametrize("step_id", STEP_IDS)
def test_chinese_programs_differ_from_the_files_only_in_the_system_prompt_line(step_id: str) -> None:
    step = load_step(step_id)
    for file_program, shown in zip(
        (step.classic_version, step.modern_version), shown_programs(step, "zh"), strict=True
    ):
        assert DEFAULT_SYSTEM_PROMPT not in shown.text
        # The system prompt line and the MESSAGES tuple (what ``python program.py`` sends) are Chinese; the
        # rest is the file, line for line.
        zh_messages = "MESSAGES = (\n" + "".join(f'    "{m}",\n' for m in step.DEFAULT_INPUTS_ZH) + ")"
        en_messages = "MESSAGES = (\n" + "".join(f'    "{m}",\n' for m in step.DEFAULT_INPUTS) + ")"
        assert en_messages in file_program.text
        expected = file_program.text.replace(ENGLISH_LINE, CHINESE_LINE).replace(en_messages, zh_messages)
        assert shown.text == expected
        module = shown.load()
        assert module.MESSAGES == step.DEFAULT_INPUTS_ZH
    assert [p.text for p in shown_programs(step, "en")] == [
        step.classic_version.text,
        step.modern_version.text,
    ]


def test_a_chinese_run_sends_the_chinese_system_prompt_on_both_sides() -> None:
    step = load_step("buffer")
    run = run_both(step, default_inputs(step, "zh")[:2], language="zh")
    for turn in run.turns:
        for side in (turn.classic, turn.modern):
            assert side.injected_prompt[0].role == "system"
            assert side.injected_prompt[0].content == DEFAULT_SYSTEM_PROMPT_ZH
    assert run.all_same


def test_the_chinese_page_shows_and_runs_the_chinese_prompt() -> None:
    at = AppTest.from_file(MIGRATION, default_timeout=60)
    at.session_state["ml_language"] = "zh"
    at.run()
    assert not at.exception, at.exception
    programs = [code.value for code in at.code if code.language == "python"]
    assert len(programs) == 2
    assert all(CHINESE_LINE in program and ENGLISH_LINE not in program for program in programs)
    at.button(key=widget_key("migration_run", "buffer")).click().run()
    assert not at.exception, at.exception
    prompts = [code.value for code in at.code if code.value.startswith("[system]")]
    assert prompts and all(p.startswith(f"[system] {DEFAULT_SYSTEM_PROMPT_ZH}") for p in prompts)
