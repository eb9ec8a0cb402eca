"""Adding a strategy takes its module and one registry line: a throw-away one, written by this test into a
temporary package, shows on the command line and on the Compare page in both languages, and answers."""

from __future__ import annotations

import importlib
import json
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from memory_demos.__main__ import main
from memory_demos.i18n import CATALOGUE
from memory_demos.session import KEY_PREFIX, widget_key
from memory_demos.strategies import registry

APP = str(Path(__file__).resolve().parents[1] / "app.py")
EN_TITLE = "Previous exchanges only (throw-away)"
ZH_TITLE = "只保留前几轮（临时策略）"

# The whole strategy: nothing else in the project knows about it.
MODULE = '''"""``last_turns``: sends only the previous ``keep`` exchanges (a strategy a test writes and throws away)."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from memory_demos.strategies.base import ParamSpec, Strategy, StrategyInfo

INFO = StrategyInfo(
    id="last_turns",
    title="{en_title}",
    kind="modern",
    langchain_classes=("langchain_core.messages.HumanMessage",),
    summary="Sends the previous exchanges only.",
    title_zh="{zh_title}",
    summary_zh="只发送前几轮对话。",
    params=(ParamSpec("keep", 1, "Exchanges sent with each message.", minimum=0, maximum=5),),
)


class LastTurnsStrategy(Strategy):
    """The last ``keep`` exchanges, kept in a list."""

    info = INFO

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.messages: list[BaseMessage] = []

    def _respond(self, user_text: str) -> str:
        keep = 2 * self.params["keep"]
        kept = self.messages[len(self.messages) - keep :] if keep else []
        prompt = [SystemMessage(self.system_prompt), *kept, HumanMessage(user_text)]
        reply = self.reply_model.invoke(prompt).text
        self.messages += [HumanMessage(user_text), AIMessage(reply)]
        return reply

    def snapshot(self) -> dict[str, Any]:
        return {{"keep": self.params["keep"], "stored_messages": len(self.messages)}}

    def _rollback_point(self) -> list[BaseMessage]:
        return list(self.messages)

    def _rollback(self, point: list[BaseMessage]) -> None:
        self.messages = point

    def clear(self) -> None:
        self.messages = []


STRATEGY = LastTurnsStrategy
'''


@pytest.fixture
def registered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Write the module into a fresh package on ``sys.path`` and add its one registry line."""
    package = f"throwaway_{uuid.uuid4().hex[:8]}"
    folder = tmp_path / package
    folder.mkdir()
    (folder / "__init__.py").write_text('"""A package that exists for one test."""\n', encoding="utf-8")
    source = MODULE.format(en_title=EN_TITLE, zh_title=ZH_TITLE)
    (folder / "last_turns.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module(f"{package}.last_turns")
    monkeypatch.setattr(registry, "STRATEGIES", (*registry.STRATEGIES, module.STRATEGY))
    yield "last_turns"
    for name in [name for name in sys.modules if name.startswith(package)]:
        del sys.modules[name]


def test_the_command_line_lists_replays_and_chats_with_it(
    registered: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["strategies", "--json"]) == 0
    listing = {entry["id"]: entry for entry in json.loads(capsys.readouterr().out)}
    assert listing[registered]["kind"] == "modern" and listing[registered]["title_zh"] == ZH_TITLE

    argv = ["replay", "--scenario", "name_recall", "--strategies", f"buffer,{registered}", "--json"]
    assert main([*argv, "--param", f"{registered}.keep=1"]) == 0
    [_, run] = json.loads(capsys.readouterr().out)["results"]
    assert run["strategy"] == registered and run["params"] == {"keep": 1}
    first, second = run["turns"][:2]
    assert first["error"] is None and first["reply"]
    assert first["user"] in [m["content"] for m in second["injected_prompt"]]  # keep=1: turn 1 is sent again
    assert main([*argv, "--param", f"{registered}.keep=9"]) == 2
    assert f"{registered}.keep must be at most 5; got 9" in capsys.readouterr().err

    chat = ["chat", "--strategy", registered, "--conversation", "c1", "--param", f"{registered}.keep=0"]
    assert main([*chat, "--json", "Hello, I am Mara."]) == 0
    assert json.loads(capsys.readouterr().out)["state"] == {"keep": 0, "stored_messages": 2}


def test_the_compare_page_offers_it_in_both_languages_and_its_pane_answers(registered: str) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("pages/compare.py").run()
    assert not at.exception, at.exception
    selector = at.selectbox(key=widget_key("add_strategy"))
    assert f"{CATALOGUE['en']['kind.modern']} · {EN_TITLE}" in selector.options

    at.sidebar.segmented_control[0].set_value("zh").run()
    selector = at.selectbox(key=widget_key("add_strategy"))
    assert f"{CATALOGUE['zh']['kind.modern']} · {ZH_TITLE}" in selector.options
    selector.set_value(registered).run()
    next(b for b in at.button if b.label == CATALOGUE["zh"]["compare.add_pane"]).click().run()
    assert not at.exception, at.exception
    pane = at.session_state[KEY_PREFIX + "panes"][-1]
    assert pane.strategy_id == registered and pane.build_error is None
    assert any(ZH_TITLE in m.value for m in at.markdown)  # the pane's header, in Chinese

    at.chat_input[0].set_value("Hi, my name is Mara.").run()
    assert not at.exception, at.exception
    pane = at.session_state[KEY_PREFIX + "panes"][-1]
    assert pane.turns and pane.turns[-1].ok and pane.turns[-1].reply


def test_every_entry_is_its_modules_strategy_named_for_the_module() -> None:
    """A strategy's id is its module's name, and its class's ``info`` is the module's ``INFO``."""
    for cls in registry.STRATEGIES:
        module = sys.modules[cls.__module__]
        assert cls.info.id == cls.__module__.rpartition(".")[2] and module.INFO is cls.info
        assert module.STRATEGY is cls
    assert len({cls.info.id for cls in registry.STRATEGIES}) == len(registry.STRATEGIES)
