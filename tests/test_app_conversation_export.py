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
    [button] = at.get("download_button")
    assert button.proto.url, "the download has data"
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
