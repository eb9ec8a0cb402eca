"""The Compare page offers its conversation as a runnable script that replays the same messages."""

from __future__ import annotations

import ast
from pathlib import Path

from streamlit.testing.v1 import AppTest

from memory_demos.panes import Pane
from memory_demos.session import KEY_PREFIX
from memory_demos.turn import Turn
from memory_demos.ui.conversation_export import conversation_messages

APP = str(Path(__file__).resolve().parents[1] / "app.py")


def _turn(text: str) -> Turn:
    return Turn(user_text=text, reply="ok", seconds=0.0, reply_call=None)


def test_messages_come_from_the_longest_running_pane() -> None:
    early = Pane("a", "buffer", turns=[_turn("one"), _turn("two")])
    late = Pane("b", "window", turns=[_turn("two")])
    assert conversation_messages([late, early]) == ["one", "two"]
    assert conversation_messages([]) == []


def test_compare_page_offers_the_script_after_a_message() -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("pages/compare.py")
    at.run()
    assert not at.get("download_button"), "nothing to export before the first message"
    at.chat_input[0].set_value("Hi, my name is Mara.").run()
    at.chat_input[0].set_value("What's my name?").run()
    assert not at.exception, at.exception
    button, *others = at.get("download_button")  # the script first, then JSON and Markdown
    assert button.proto.url, "the download has data"
    assert len(others) == 2
    # The generated source itself is checked by rebuilding it the way the button does.
    from memory_demos.export import export_conversation_script

    panes = at.session_state[KEY_PREFIX + "panes"]
    source = export_conversation_script(
        [(p.strategy_id, dict(p.params)) for p in panes], conversation_messages(panes)
    )
    ast.parse(source)
    assert "Hi, my name is Mara." in source and "What's my name?" in source
    for pane in panes:
        assert repr(pane.strategy_id) in source or f'"{pane.strategy_id}"' in source


def test_the_exported_script_runs_from_any_folder(tmp_path: Path) -> None:
    """Run from a temporary folder with no PYTHONPATH, the script finds Memory Lab's code by itself
    (it used to fail with ModuleNotFoundError anywhere but the Memory Lab folder)."""
    import json
    import os
    import subprocess
    import sys

    from memory_demos.export import export_conversation_script

    script = tmp_path / "memory_lab_conversation.py"
    script.write_text(
        export_conversation_script(
            [("buffer", {}), ("window", {"k": 1})], ["My name is Ada.", "What is my name?"]
        ),
        encoding="utf-8",
    )
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "MEMORY_LAB_HOME")}
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(done.stdout)["results"]
    assert [run["strategy"] for run in results] == ["buffer", "window"]
    assert "Ada" in results[0]["turns"][1]["reply"]


def test_compare_downloads_the_conversation_as_json_and_markdown() -> None:
    import json

    from tests.test_app_pages import open_app, send

    at = open_app("pages/compare.py")
    send(at, "My name is ![x](http://127.0.0.1:9/leak.png) Ada.")
    send(at, "What is my name?")
    buttons = {button.proto.label: button for button in at.get("download_button")}
    assert {"Conversation as JSON", "Conversation as Markdown"} <= set(buttons), set(buttons)
    from memory_demos.export import conversation_markdown, result_json
    from memory_demos.session import KEY_PREFIX
    from memory_demos.ui.conversation_export import conversation_result

    panes = at.session_state[KEY_PREFIX + "panes"]
    provider = at.session_state[KEY_PREFIX + "provider"]
    data = json.loads(result_json(conversation_result(panes, provider)))
    assert [run["strategy"] for run in data["results"]] == [pane.strategy_id for pane in panes]
    assert data["results"][0]["turns"][1]["user"] == "What is my name?"
    markdown = conversation_markdown(conversation_result(panes, provider))
    import re

    assert not re.search(r"(?<!\\)\]\(", markdown), "a link or image would render"
    assert "What is my name?" in markdown
