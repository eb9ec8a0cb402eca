"""The failure lab's Redis demo: without a Redis server it says what it needs instead of failing; with
one (a throw-away redis-server) it still runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from memory_demos.i18n import CATALOGUE
from memory_demos.session import widget_key
from memory_demos.storage import REDIS_URL_ENV
from tests.services import redis_url  # noqa: F401 - a pytest fixture, asked for by name

FAILURE_LAB = str(Path(__file__).resolve().parents[1] / "pages" / "failure_lab.py")
EN = CATALOGUE["en"]
REDIS_DEMO = "expiring_notes"


def failure_lab() -> AppTest:
    at = AppTest.from_file(FAILURE_LAB, default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("workshop", [False, True])
def test_without_redis_the_demo_says_what_it_needs_and_cannot_be_run(
    monkeypatch: pytest.MonkeyPatch, workshop: bool
) -> None:
    monkeypatch.delenv(REDIS_URL_ENV, raising=False)
    if workshop:
        monkeypatch.setenv("MEMORY_LAB_WORKSHOP", "1")
    at = failure_lab()
    assert not at.button(key=widget_key("failure", "chatty_entities")).disabled  # the others run as before
    at.session_state[widget_key("failure_demo")] = REDIS_DEMO
    at.run()
    assert at.button(key=widget_key("failure", REDIS_DEMO)).disabled
    notes = [i.value for i in at.info]
    expected = (
        EN["failure.needs_redis_workshop"]
        if workshop
        else EN["failure.needs_redis"].format(variable=REDIS_URL_ENV)
    )
    assert expected in notes, notes
    assert (REDIS_URL_ENV in expected) is not workshop  # an attendee is not asked to set the host's variable
    # Nothing else on the page names it either, the demo's explanation included.
    shown = [element.value for kind in ("markdown", "info", "caption") for element in getattr(at, kind)]
    assert bool([text for text in shown if REDIS_URL_ENV in text]) is not workshop
    assert any(EN["failure.expiring_notes.explanation"] in text for text in shown)
    assert not at.error


def test_with_redis_configured_the_demo_runs(monkeypatch: pytest.MonkeyPatch, redis_url: str) -> None:  # noqa: F811
    monkeypatch.setenv(REDIS_URL_ENV, redis_url)
    at = failure_lab()
    at.session_state[widget_key("failure_demo")] = REDIS_DEMO
    at.run()
    button = at.button(key=widget_key("failure", REDIS_DEMO))
    assert not button.disabled and not any("Redis" in i.value for i in at.info)
    button.click().run()
    assert not at.exception and not [e.value for e in at.error if e.value == EN["failure.error"]]
    assert EN["failure.fixed_yes"] in [s.value for s in at.success]


@pytest.mark.parametrize("language", sorted(CATALOGUE))
def test_no_demo_text_asks_its_reader_to_set_the_hosts_variable(language: str) -> None:
    """A demo's title, explanation and fix reach workshop attendees too; only ``failure.needs_redis`` names it."""
    from memory_demos.failure_lab import DEMOS

    for demo in DEMOS:
        for key in (demo.title_key, demo.explanation_key, demo.fix_key):
            assert REDIS_URL_ENV not in CATALOGUE[language][key], key
