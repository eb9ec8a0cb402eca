"""AppTest of the Scorecard when calls fail: a failure is named first and never drawn as a recall miss."""

from __future__ import annotations

import socket
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.session import KEY_PREFIX, widget_key
from tests.fake_openai_server import FakeOpenAIServer, Fault

SCORECARD = str(Path(__file__).resolve().parents[1] / "pages" / "scorecard.py")
STRATEGIES = ["buffer", "window", "summary_buffer"]


def _dead_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def _run(provider: ProviderConfig) -> AppTest:
    at = AppTest.from_file(SCORECARD, default_timeout=120)
    at.session_state[KEY_PREFIX + "provider"] = provider
    at.run()
    at.multiselect(key=widget_key("scorecard_strategies")).set_value(STRATEGIES).run()
    at.button(key=widget_key("scorecard_run")).click().run()
    assert not at.exception
    return at


def _shown(at: AppTest) -> str:
    frames = " ".join(frame.value.to_string() for frame in at.dataframe)
    notes = " ".join(element.value for element in [*at.error, *at.warning, *at.info])
    return f"{notes} {frames}"


def test_a_dead_server_is_named_at_once_and_nothing_is_scored() -> None:
    provider = ProviderConfig(kind="openai_compatible", model="test-model", base_url=_dead_url())
    started = time.perf_counter()
    at = _run(provider)
    assert time.perf_counter() - started < 15
    [error] = at.error
    assert "Nothing was measured: server unreachable" in error.value
    assert "Cannot reach the provider" in error.value
    assert "missed" not in _shown(at)
    assert not [frame for frame in at.dataframe if "Recall" in frame.value.columns]


def test_failed_probes_are_failed_calls_not_misses() -> None:
    with FakeOpenAIServer() as server:
        # Every call whose messages ask the name fails: the probe turn, and summary calls quoting it.
        server.add_fault(Fault("server_error", times=None, match="What's my name?"))
        provider = ProviderConfig(
            kind="openai_compatible", model="test-model", base_url=server.base_url, max_retries=0
        )
        at = _run(provider)
    [warning] = at.warning
    assert "turns failed" in warning.value and "server error" in warning.value
    [table] = [frame.value for frame in at.dataframe if "Recall" in frame.value.columns]
    assert all("failed" in status for status in table["Turns"])
    assert all("failed" in recall for recall in table["Recall"])
    [timeline] = [frame.value for frame in at.dataframe if "14 · What's my name?" in frame.value.columns]
    assert list(timeline["Strategy"]) == STRATEGIES
    assert set(timeline["14 · What's my name?"]) == {"call failed: server error"}


def test_probe_cells_say_passed_missed_or_failed_never_blank() -> None:
    from memory_demos.ui.scorecard_view import _cell_text

    base = {"recalled": [], "rejected": [], "passed": True, "outcome": "passed", "error_kind": None}
    assert _cell_text(base) == "passed"  # a reject-only probe that said nothing wrong
    assert _cell_text({**base, "recalled": ["Maria"]}) == "Maria"
    said = {**base, "passed": False, "outcome": "missed", "rejected": ["You work as a nurse"]}
    assert _cell_text(said) == "missed: said You work as a nurse"
    assert _cell_text({**base, "passed": False, "outcome": "missed"}) == "missed"
    failed = {**base, "passed": False, "outcome": "failed", "error_kind": "timeout"}
    assert _cell_text(failed) == "call failed: timeout"
