"""AppTest of the teaching pages, run directly: migration guide, scorecard, failure lab."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from memory_demos.i18n import t
from memory_demos.migration import SAME_CONTEXT, STEP_IDS, load_step
from memory_demos.session import widget_key

PAGES = Path(__file__).resolve().parents[1] / "pages"
MIGRATION = str(PAGES / "migration.py")
SCORECARD = str(PAGES / "scorecard.py")
FAILURE_LAB = str(PAGES / "failure_lab.py")


def _codes(at: AppTest) -> list[str]:
    return [element.value for element in at.code]


def test_migration_guide_steps_run_both_and_show_prompts_and_equivalence() -> None:
    at = AppTest.from_file(MIGRATION, default_timeout=60)
    at.run()
    assert not at.exception
    for index, step_id in enumerate(STEP_IDS):
        step = load_step(step_id)
        assert at.subheader[0].value == t(step.TITLE_KEY, "en")
        assert f"Step {index + 1} of {len(STEP_IDS)}" in at.progress[0].proto.text
        codes = _codes(at)
        # The code on screen is the two programs' text, whole: what runs and what --export writes (st.code
        # drops only the file's final newline).
        programs = [
            program.text.removesuffix("\n") for program in (step.classic_version, step.modern_version)
        ]
        assert set(programs) <= set(codes), step_id
        shown = [element for element in at.code if element.value == programs[1]]
        assert shown[0].language == "python" and shown[0].proto.wrap_lines

        at.button(key=widget_key("migration_run", step_id)).click().run()
        assert not at.exception, step_id
        codes = _codes(at)
        prompts = [code for code in codes if code.startswith(("[system]", "[human]"))]
        assert len(prompts) == 2 * len(step.DEFAULT_INPUTS), step_id  # classic and modern, every turn
        equivalences = [code for code in codes if code == SAME_CONTEXT or code.startswith("first difference")]
        assert len(equivalences) == len(step.DEFAULT_INPUTS), step_id
        if step.meant_to_match:
            assert set(equivalences) == {SAME_CONTEXT}
            assert at.success[0].value == "Same context on every turn."
        else:
            assert any(code.startswith("first difference") for code in equivalences), step_id
        assert [m.value for m in at.metric], step_id  # token counts shown
        assert any(element.language == "diff" for element in at.code)

        next_button = at.button(key=widget_key("migration_next"))
        if index < len(STEP_IDS) - 1:
            next_button.click().run()
            assert not at.exception
        else:
            assert next_button.disabled
    # The closing step carries the decision helper.
    assert at.radio(key=widget_key("migration_situation")).options


def test_migration_guide_previous_and_jump() -> None:
    at = AppTest.from_file(MIGRATION, default_timeout=60)
    at.run()
    assert at.button(key=widget_key("migration_previous")).disabled
    at.selectbox(key=widget_key("migration_jump")).set_value("vector").run()
    assert at.subheader[0].value == t(load_step("vector").TITLE_KEY, "en")
    at.button(key=widget_key("migration_previous")).click().run()
    assert at.subheader[0].value == t(load_step("entity").TITLE_KEY, "en")
    assert not at.exception


def test_migration_guide_rejects_bad_inputs() -> None:
    at = AppTest.from_file(MIGRATION, default_timeout=60)
    at.run()
    at.text_area(key=widget_key("migration_inputs", "buffer")).set_value("   \n  ").run()
    assert at.warning
    assert at.button(key=widget_key("migration_run", "buffer")).disabled


def test_scorecard_runs_a_bundled_scenario_to_completion() -> None:
    at = AppTest.from_file(SCORECARD, default_timeout=120)
    at.run()
    assert not at.exception
    strategies = ["buffer", "window", "summary_buffer", "trim"]
    at.multiselect(key=widget_key("scorecard_strategies")).set_value(strategies).run()
    at.button(key=widget_key("scorecard_run")).click().run()
    assert not at.exception
    assert not at.error, [e.value for e in at.error]

    assert not at.progress  # the finished run redraws without its progress bars
    tables = [frame.value for frame in at.dataframe if "Recall" in frame.value.columns]
    assert len(tables) == 1
    table = tables[0]
    assert list(table["Strategy"]) == strategies
    recall = dict(zip(table["Strategy"], table["Recall"], strict=True))
    assert recall["buffer"] == "3/3" and recall["window"] == "0/3"
    assert all(value.endswith("/3") for value in recall.values())
    assert (table["Prompt tokens"] > 0).all()

    downloads = at.get("download_button")
    assert len(downloads) == 4
    # The recall table: a row per strategy, a column per probe.
    timeline = [frame.value for frame in at.dataframe if "14 · What's my name?" in frame.value.columns]
    assert timeline and list(timeline[0]["Strategy"]) == strategies


@pytest.mark.parametrize(
    "demo_key", ["chatty_entities", "trim_orphan", "moving_prefix", "full_block", "never_saved"]
)
def test_failure_lab_loads_and_runs_a_demo(demo_key: str) -> None:
    at = AppTest.from_file(FAILURE_LAB, default_timeout=60)
    at.session_state[widget_key("failure_demo")] = demo_key
    at.run()
    assert not at.exception
    assert not at.tabs  # the demos are choices that wrap, not tabs hidden behind an arrow
    at.button(key=widget_key("failure", demo_key)).click().run()
    assert not at.exception
    assert [e.value for e in at.error] == ["Failure reproduced with the naive set-up."]
    assert [s.value for s in at.success] == ["The fix holds: the failure is absent."]
    assert not at.json  # the raw results wait behind a toggle; the verdict shows the evidence
    at.toggle(key=widget_key("failure_json", demo_key)).set_value(True).run()
    assert len(at.json) == 2


def test_failure_lab_verdict_shows_the_leaked_password_hint_without_opening_json() -> None:
    at = AppTest.from_file(FAILURE_LAB, default_timeout=60)
    at.session_state[widget_key("failure_demo")] = "vector_privacy"
    at.run()
    at.button(key=widget_key("failure", "vector_privacy")).click().run()
    assert not at.exception
    texts = [text.value for text in at.text]
    assert any("My password hint is the name of my first cat, Whiskers." in text for text in texts)
    labels = [markdown.value for markdown in at.markdown]
    assert "**Put in the prompt for “How do I reset my password?”**" in labels
    assert ":red[**Leaked**]" in labels and ":green[**Fixed**]" in labels
    assert not at.json


@pytest.mark.parametrize(
    ("demo_key", "said"),
    [
        ("vector_privacy", "我的密码提示是我养的第一只猫的名字：咪咪。"),
        ("full_block", "编辑被拒绝：human 记忆块放不下了"),
    ],
)
def test_the_chinese_failure_lab_shows_a_chinese_conversation_and_chinese_tool_texts(
    demo_key: str, said: str
) -> None:
    at = AppTest.from_file(FAILURE_LAB, default_timeout=60)
    at.session_state["ml_language"] = "zh"
    at.session_state[widget_key("failure_demo")] = demo_key
    at.run()
    at.button(key=widget_key("failure", demo_key)).click().run()
    assert not at.exception
    texts = [text.value for text in at.text]
    assert any(said in text for text in texts)
    assert not any("Edit refused" in text or "Saved. The" in text for text in texts)


@pytest.mark.parametrize("page", [MIGRATION, SCORECARD, FAILURE_LAB])
def test_teaching_pages_render_in_chinese(page: str) -> None:
    at = AppTest.from_file(page, default_timeout=60)
    at.session_state["ml_language"] = "zh"
    at.run()
    assert not at.exception
    assert at.title[0].value in {"迁移指南：经典记忆 → 现代 API", "场景评分卡", "失败实验室"}


DEPRECATED_BADGE = ":orange-badge[:material/warning: Deprecated]"


def test_migration_guide_buffer_step_shows_the_captured_deprecations_after_run_both() -> None:
    at = AppTest.from_file(MIGRATION, default_timeout=60)
    at.run()
    assert any("create_agent(" in code for code in _codes(at))
    # Before anything is sent: what each side warned while building its memory.
    captions = [c.value for c in at.caption]
    assert any("when each side built its memory" in c for c in captions)
    assert sum(DEPRECATED_BADGE in c for c in captions) == 1
    assert sum("No deprecation warning raised" in c for c in captions) == 1
    at.button(key=widget_key("migration_run", "buffer")).click().run()
    assert not at.exception
    captions = [c.value for c in at.caption]
    assert sum(DEPRECATED_BADGE in c for c in captions) == 1  # the classic side only
    assert sum("ConversationBufferMemory · deprecated since 0.3.1" in c for c in captions) == 1
    assert sum("No deprecation warning raised" in c for c in captions) == 1  # create_agent raises none
    # The warning's own text, as LangChain raised it, sits in the popover of the classic side.
    texts = [t.value for t in at.text]
    assert any("`ConversationBufferMemory` was deprecated in LangChain 0.3.1" in text for text in texts)


@pytest.mark.parametrize(("language", "verdict"), [("en", "Could not compare"), ("zh", "无法比较")])
def test_migration_guide_says_it_could_not_compare_when_both_sides_fail(language: str, verdict: str) -> None:
    """Every model call fails: the verdict says nothing was compared, never "differ on 0 of 1 turns"."""
    from memory_demos.providers.chat_models import ProviderConfig
    from memory_demos.session import KEY_PREFIX

    at = AppTest.from_file(MIGRATION, default_timeout=60)
    at.session_state["ml_language"] = language
    at.session_state[KEY_PREFIX + "provider"] = ProviderConfig(fail_on_calls=(1,))  # each side's first call
    at.run()
    at.button(key=widget_key("migration_run", "buffer")).click().run()
    assert not at.exception
    warnings = [w.value for w in at.warning]
    assert any(w.startswith(verdict) for w in warnings), warnings
    assert not at.info and not at.success  # no "differ on 0 of 0 turns", no "same context"
    assert len(at.error) == 2  # each side's error, named
