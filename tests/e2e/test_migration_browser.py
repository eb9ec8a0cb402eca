"""The migration guide in a real browser: the Buffer step runs create_agent and shows what LangChain warned."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import LabServer
from tests.e2e.widgets import settle

pytestmark = pytest.mark.e2e


def test_run_both_shows_the_classic_deprecation_and_none_for_create_agent(
    browser: Any, lab_server: LabServer, artifacts: Path
) -> None:
    context = browser.new_context(viewport={"width": 1500, "height": 1000})
    page = context.new_page()
    outside: list[str] = []
    page.on("request", lambda r: None if r.url.startswith(lab_server.url) else outside.append(r.url))
    try:
        page.goto(f"{lab_server.url}/migration")
        page.get_by_text("Buffer → create_agent + checkpointer").first.wait_for(timeout=60_000)
        page.get_by_text("checkpointer=InMemorySaver()").first.wait_for()  # the modern code on screen
        page.get_by_role("button", name="Run both").click()
        page.get_by_text("Same context on every turn.").wait_for(timeout=90_000)
        settle(page)  # the verdict can be painted before the badges and the expander it counts
        warned = page.get_by_text("ConversationBufferMemory · deprecated since 0.3.1")  # beside its badge
        clean = page.get_by_text("No deprecation warning raised")
        # A rerun's stale copy can linger beside the new one for a moment: wait for exactly one of each.
        expect(warned).to_have_count(1, timeout=30_000)
        expect(clean).to_have_count(1, timeout=30_000)
        # The classic side is the left column, the create_agent side the right one.
        assert warned.bounding_box()["x"] < clean.bounding_box()["x"]
        details = page.get_by_test_id("stExpander").filter(has_text="Deprecation warnings LangChain raised")
        assert details.count() == 1  # the classic side only
        details.locator("summary").click()
        details.get_by_text("was deprecated in LangChain 0.3.1 and will be removed in 2.0.0").first.wait_for()
        settle(page)
        page.screenshot(path=str(artifacts / "e2e_migration_buffer_deprecations.png"))
        assert not outside, f"the page reached outside the app: {outside}"
    finally:
        context.close()


@pytest.mark.parametrize(("width", "height"), [(1440, 900), (1920, 1080)])
@pytest.mark.parametrize(
    ("language", "verdict"), [("en", "Same context on every turn."), ("zh", "每一轮的上下文都相同。")]
)
def test_a_guide_step_shows_both_programs_whole_and_run_both_gives_the_verdict(
    browser: Any, lab_server: LabServer, artifacts: Path, width: int, height: int, language: str, verdict: str
) -> None:
    """Issue 21: the programs were clipped on the right at 1440 and 1920 px. Now each wraps inside its
    box (nothing wider than the box, the box inside its column) and scrolls down inside it."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        page.goto(f"{lab_server.url}/migration?lang={language}")
        page.get_by_text("def chat(model: BaseChatModel").first.wait_for(timeout=60_000)
        settle(page)  # the first program can show before the second, and before either is laid out
        blocks = page.get_by_test_id("stCode").filter(has_text="def chat(model: BaseChatModel")
        assert blocks.count() == 2  # the classic program and the modern one
        boxes = []
        for index in range(2):
            block = blocks.nth(index)
            measured = block.evaluate(
                """(el) => {
                    const pre = el.querySelector('pre');
                    const column = el.closest('[data-testid="stColumn"]');
                    const box = el.getBoundingClientRect();
                    return {
                        overflowX: pre.scrollWidth - pre.clientWidth,
                        scrollsDown: pre.scrollHeight > pre.clientHeight || el.scrollHeight > el.clientHeight,
                        right: box.right,
                        columnRight: column.getBoundingClientRect().right,
                        left: box.left,
                    };
                }"""
            )
            assert measured["overflowX"] <= 1, measured  # long lines wrap: nothing hides on the right
            assert measured["right"] <= measured["columnRight"] + 1 <= width + 1, measured
            assert measured["scrollsDown"], measured  # a whole program, scrolled inside its box
            boxes.append(measured)
            block.hover()
            # st.code's copy button, shown on hover
            block.get_by_role("button", name="Copy to clipboard").wait_for(state="attached", timeout=10_000)
        assert boxes[0]["right"] <= boxes[1]["left"]  # side by side, classic on the left
        page.screenshot(path=str(artifacts / f"e2e_migration_programs_{language}_{width}.png"))
        page.get_by_role("button", name="Run both" if language == "en" else "同时运行").click()
        page.get_by_text(verdict).wait_for(timeout=90_000)
        page.get_by_text(verdict).scroll_into_view_if_needed()
        settle(page)
        page.screenshot(path=str(artifacts / f"e2e_migration_verdict_{language}_{width}.png"))
    finally:
        context.close()


def test_the_program_copied_from_the_page_replays_the_downloaded_run_and_prints_the_prompt_shown(
    browser: Any, lab_server: LabServer, artifacts: Path, tmp_path: Path
) -> None:
    """Code shown = code run, end to end: the modern program's text as the browser shows it, saved to a
    folder outside the repo and run alone on the recording the page offers, prints the page's prompt."""
    import json
    import os
    import subprocess
    import sys

    from memory_demos.migration import load_step
    from memory_demos.providers.tokenizer import seed_tiktoken_cache

    context = browser.new_context(viewport={"width": 1440, "height": 900}, accept_downloads=True)
    page = context.new_page()
    try:
        page.goto(f"{lab_server.url}/migration")
        programs = page.get_by_test_id("stCode").filter(has_text="def chat(model: BaseChatModel")
        programs.first.wait_for(timeout=60_000)
        settle(page)
        shown_program = programs.nth(1).locator("code").text_content()
        page.get_by_role("button", name="Run both").click()
        page.get_by_text("Same context on every turn.").wait_for(timeout=90_000)
        settle(page)  # the turns' prompts, read below, are painted
        with page.expect_download() as download:
            page.get_by_role("button", name="Modern: recorded replies (JSON, for --replay)").click()
        recording = tmp_path / "buffer_modern.recording.json"
        download.value.save_as(recording)
        inputs = load_step("buffer").DEFAULT_INPUTS
        last_turn = page.get_by_test_id("stExpander").filter(has_text=f"Turn {len(inputs)}")
        prompts = last_turn.get_by_test_id("stCode").filter(has_text="[system] ")
        shown_prompt = prompts.nth(1).locator("code").text_content()  # the modern column's
        page.screenshot(path=str(artifacts / "e2e_migration_standalone_run.png"), full_page=True)
    finally:
        context.close()
    assert shown_program and shown_prompt and json.loads(recording.read_text())["replies"]
    script = tmp_path / "buffer_modern.py"
    script.write_text(shown_program + "\n", encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["TIKTOKEN_CACHE_DIR"] = str(seed_tiktoken_cache())
    result = subprocess.run(
        [sys.executable, "-I", str(script), "--replay", str(recording), "--", *inputs],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    printed_last_turn = result.stdout.split(f"=== turn {len(inputs)}: ", 1)[1].split("\n=== replies", 1)[0]
    assert printed_last_turn.split("--- reply prompt\n", 1)[1].rstrip("\n") == shown_prompt


# The lines of a code block's text that run under its copy button (the button's box against each line's).
UNDER_COPY_BUTTON = """
(block) => {
  const button = block.querySelector('button').getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(block.querySelector('code'));
  return [...range.getClientRects()].filter((line) => line.width > 0 && line.right > button.left
    && line.left < button.right && line.bottom > button.top && line.top < button.bottom).length;
}
"""


def test_no_program_line_runs_under_its_copy_button(
    browser: Any, lab_server: LabServer, artifacts: Path
) -> None:
    # At 1440 px the modern program's first line (its docstring, wrapped) ended under the copy icon.
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{lab_server.url}/migration")
        page.get_by_text("def chat(model: BaseChatModel").first.wait_for(timeout=60_000)
        settle(page)
        programs = page.get_by_test_id("stCode")
        assert programs.count() >= 2
        for index in range(2):
            program = programs.nth(index)
            program.hover()  # the button shows while the pointer is over the block
            program.locator("button").wait_for()
            assert program.evaluate(UNDER_COPY_BUTTON) == 0, (
                f"program {index + 1}: text under its copy button"
            )
        page.screenshot(path=str(artifacts / "e2e_migration_copy_button.png"))
    finally:
        context.close()
