"""The keys never appear: not on any page, not in what is sent to the browser, not in an error, an export
or the logs. One distinctive key is the workshop host's (in secrets), another an attendee's (typed in
Settings); both are used against a local OpenAI-compatible server, which also echoes them back in errors."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

from memory_demos.export import export_conversation_script
from memory_demos.i18n import CATALOGUE
from memory_demos.providers.url_policy import EgressPolicy, origin_of
from memory_demos.session import KEY_PREFIX, widget_key
from memory_demos.ui.nav import PAGES
from memory_demos.workshop import WorkshopConfig
from tests.fake_openai_server import FakeOpenAIServer, Fault
from tests.test_workshop_app import click, everything_sent, new_app, panes, run, send

EN = CATALOGUE["en"]
HOST_KEY = "sk-WORKSHOPHOST-q8Zr4Lm2Xv9Tn6Pw"
USER_KEY = "sk-ATTENDEE-u7Hc3Jd5Kf1Gs8Qe"


def visit_every_page(at: AppTest, seen: list[str]) -> None:
    for spec in PAGES:
        at.switch_page(spec.path)
        run(at)
        if spec.path == "pages/instructor.py" and not at.metric:
            at.text_input(key=widget_key("host_code")).input("host-77")
            click(at, EN["instructor.unlock"])
            assert at.metric
        seen.append(everything_sent(at))


def run_scorecard(at: AppTest, seen: list[str]) -> None:
    at.switch_page("pages/scorecard.py")
    run(at)
    at.multiselect(key=widget_key("scorecard_strategies")).set_value(["buffer", "summary"]).run()
    at.button(key=widget_key("scorecard_run")).click().run()
    assert not at.exception, at.exception
    assert len(at.get("download_button")) == 4
    seen.append(everything_sent(at))


def test_no_key_appears_in_any_page_error_export_or_log(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.DEBUG)
    for name in (
        "openai",
        "httpx",
        "httpx2",
        "httpcore",
        "httpcore2",
        "langchain",
        "streamlit",
        "memory_demos",
    ):
        caplog.set_level(logging.DEBUG, logger=name)  # libraries that set their own level
    downloads: list[str] = []
    store = MemoryMediaFileStorage.load_and_get_id

    def capture(self: Any, path_or_data: Any, *args: Any, **kwargs: Any) -> str:
        data = path_or_data.encode() if isinstance(path_or_data, str) else bytes(path_or_data)
        downloads.append(data.decode("utf-8", errors="replace"))
        return store(self, path_or_data, *args, **kwargs)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", capture)
    seen: list[str] = []
    with FakeOpenAIServer() as server:
        host_url = server.base_url
        secrets = {
            "workshop": {
                "enabled": True,
                "host_code": "host-77",
                "host": {
                    "kind": "openai_compatible",
                    "base_url": host_url,
                    "model": "workshop-llm",
                    "api_key": HOST_KEY,
                },
            }
        }
        at = run(new_app(secrets))
        at.switch_page("pages/compare.py")
        run(at)
        send(at, "Hi, my name is Ada and I live in Lisbon.")
        assert all(pane.turns[-1].ok for pane in panes(at)), [pane.turns[-1].error for pane in panes(at)]
        assert {r.headers.get("authorization") for r in server.requests} == {f"Bearer {HOST_KEY}"}  # used...
        seen.append(everything_sent(at))

        # A server that echoes the key and its own address in its error messages.
        server.add_fault(
            Fault("status", status=400, message=f"bad request with key {HOST_KEY} at {host_url}", times=None)
        )
        send(at, "This one fails.")
        assert all(pane.turns[-1].error for pane in panes(at))
        assert any("rejected the request" in text.value for text in at.text)
        seen.append(everything_sent(at))
        server.clear_faults()
        exports = [
            export_conversation_script(
                [(pane.strategy_id, pane.strategy.params) for pane in panes(at)],
                [turn.user_text for turn in panes(at)[0].turns],
                provider=at.session_state[KEY_PREFIX + "provider"],
            )
        ]
        visit_every_page(at, seen)
        run_scorecard(at, seen)

        # The attendee switches to a server of their own with their own key. A loopback address is
        # refused in a workshop; then the test stands in for a public server the host allowed.
        at.switch_page("pages/settings.py")
        run(at)
        at.radio(key=widget_key("settings_kind")).set_value("openai_compatible").run()
        at.text_input(key=widget_key("settings_model")).input("own-llm")
        own_url = f"http://localhost:{server.port}/v1"
        at.text_input(key=widget_key("settings_base_url")).input(own_url)
        at.text_input(key=widget_key("settings_api_key")).input(USER_KEY)
        server.reset_requests()
        click(at, EN["settings.apply"])
        assert at.session_state[KEY_PREFIX + "provider"].hosted and not server.requests
        assert any(EN["settings.url_refused"] in e.value for e in at.error)
        allowed = EgressPolicy(
            allowed_origins=frozenset({origin_of(own_url)}),
            resolver=lambda host, port: ["127.0.0.1"],
            address_allowed=lambda address: True,
        )
        monkeypatch.setattr(WorkshopConfig, "egress_policy", lambda self: allowed)
        at.text_input(key=widget_key("settings_api_key")).input(USER_KEY)
        click(at, EN["settings.apply"])
        provider = at.session_state[KEY_PREFIX + "provider"]
        assert not provider.hosted and provider.api_key.get_secret_value() == USER_KEY
        seen.append(everything_sent(at))
        server.reset_requests()
        at.switch_page("pages/compare.py")
        run(at)
        send(at, "Hello from my own key.")
        assert all(pane.turns[-1].ok for pane in panes(at))
        assert {r.headers.get("authorization") for r in server.requests} == {f"Bearer {USER_KEY}"}
        server.add_fault(
            Fault("status", status=401, message=f"Incorrect API key provided: {USER_KEY}", times=None)
        )
        send(at, "And this one is refused.")
        assert any("refused the API key" in text.value for text in at.text)
        seen.append(everything_sent(at))
        server.clear_faults()
        exports.append(
            export_conversation_script(
                ["buffer"], ["Hello from my own key."], provider=at.session_state[KEY_PREFIX + "provider"]
            )
        )
        visit_every_page(at, seen)
        run_scorecard(at, seen)

    assert len(downloads) >= 8  # two scorecard runs, four files each
    browser = "\n".join(seen)
    logs = caplog.text + "\n".join(str(record.args) for record in caplog.records)
    assert "workshop-llm" in browser and "Ada" in browser and "own-llm" in browser  # the search can find text
    assert "Sending HTTP Request" in logs and "HTTP Request: POST" in logs  # the client's debug logs are here
    for place, text in (
        ("browser", browser),
        ("downloads", "\n".join(downloads)),
        ("exports", "\n".join(exports)),
    ):
        assert HOST_KEY not in text, f"the host's key reached the {place}"
        assert USER_KEY not in text, f"the attendee's key reached the {place}"
        assert host_url not in text, f"the host's server address reached the {place}"
    assert HOST_KEY not in logs and USER_KEY not in logs, "a key reached the logs"
    assert "sk-" not in browser  # not even a fragment of a key-shaped string
