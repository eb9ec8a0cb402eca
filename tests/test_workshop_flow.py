"""The workshop's flow for people (issue 21): a refusal by the chat box, the host code at the gate, an
Instructor view linked only for the host, attendees counted as admitted browsers, and every count and
limit named in words."""

from __future__ import annotations

from dataclasses import fields

import pytest

from memory_demos.i18n import CATALOGUE
from memory_demos.providers.errors import _KINDS
from memory_demos.session import KEY_PREFIX, widget_key
from memory_demos.ui.room_view import ERROR_KINDS, UNKNOWN_KIND, error_rows, limit_rows, number
from memory_demos.ui.workshop import ROOM
from memory_demos.workshop import WorkshopLimits
from memory_demos.workshop.room import RoomState
from tests.test_workshop_app import EN, click, fresh_code_guard, new_app, panes, run, send

__all__ = ["fresh_code_guard"]  # the autouse fixture: every test starts with a fresh code guard

ZH = CATALOGUE["zh"]
CODES = {"workshop": {"enabled": True, "access_code": "tea-42", "host_code": "host-77"}}


def enter(at, code: str) -> None:
    at.text_input(key=widget_key("access_code")).input(code)
    click(at, EN["gate.enter"])


def page_links(at) -> list[str]:
    return [link.proto.label for link in at.sidebar.get("page_link")]


def chat_row(at):
    """The block that holds Compare's chat box row (the box with its two buttons beside it) and the
    refusal drawn just above it."""
    blocks = [(at.main, at.main)]
    while blocks:
        block, parent = blocks.pop()
        children = list(getattr(block, "children", {}).values())
        if any(child.type == "chat_input" for child in children):
            return parent
        blocks.extend((child, block) for child in children)
    raise AssertionError("no chat box on the page")


# -- a refusal where the attendee acted ---------------------------------------------------------------
@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_refused_message_is_shown_by_the_chat_box_in_the_attendee_language(
    monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    monkeypatch.setenv("MEMORY_LAB_WORKSHOP", "1")
    monkeypatch.setenv("MEMORY_LAB_MAX_MESSAGE_CHARS", "2000")
    at = new_app()
    at.query_params["lang"] = language
    run(at)
    at.switch_page("pages/compare.py")
    run(at)
    send(at, "x" * 2200)
    bottom = chat_row(at)  # the chat box and what is drawn with it
    wording = CATALOGUE[language]["compare.too_long"].format(length="2,200", limit="2,000")
    assert [w.value for w in bottom.warning] == [wording]
    assert [w.value for w in at.main.warning] == [wording]  # once: not also at the top of the page
    assert at.chat_input[0].proto.value == "x" * 2200  # kept to edit
    assert all(not pane.turns for pane in panes(at))
    send(at, "Hello.")
    assert not [w.value for w in chat_row(at).warning]  # one-shot: gone with the next message


# -- the host code at the gate --------------------------------------------------------------------------
def test_the_host_code_at_the_gate_opens_the_instructor_view_and_only_the_host_sees_its_link() -> None:
    attendee = run(new_app(CODES))
    enter(attendee, "tea-42")
    assert EN["nav.instructor"] not in page_links(attendee)
    attendee.switch_page("pages/home.py")
    run(attendee)
    assert EN["nav.instructor"] not in [link.proto.label for link in attendee.main.get("page_link")]

    host = run(new_app(CODES))
    host.switch_page("pages/compare.py")  # a deep link: the gate comes first
    run(host)
    enter(host, "host-77")
    assert host.title[0].value == EN["instructor.title"] and host.metric  # straight in, no second code
    assert EN["nav.instructor"] in page_links(host)
    assert host.session_state[KEY_PREFIX + "admitted"]  # and admitted to every other page too


def test_the_gate_still_refuses_a_wrong_code_and_the_access_code_alone_is_no_host_code() -> None:
    at = run(new_app(CODES))
    enter(at, "host-78")
    assert any(EN["gate.wrong"] in e.value for e in at.error) and not at.chat_input and not at.metric
    enter(at, "tea-42")
    at.switch_page("pages/instructor.py")
    run(at)
    assert not at.metric and at.text_input(key=widget_key("host_code"))  # still asks for the host code


def test_attendees_are_distinct_admitted_browsers_and_the_host_is_not_one() -> None:
    before = ROOM.attendees
    for _ in range(2):
        enter(run(new_app(CODES)), "tea-42")
    refused = run(new_app(CODES))
    enter(refused, "wrong")  # never admitted: not an attendee
    host = run(new_app(CODES))
    enter(host, "tea-42")  # the host came in as everyone does, then opened the view
    host.switch_page("pages/instructor.py")
    run(host)
    host.text_input(key=widget_key("host_code")).input("host-77")
    click(host, EN["instructor.unlock"])
    gate_host = run(new_app(CODES))
    enter(gate_host, "host-77")
    assert ROOM.attendees - before == 2
    metrics = {m.label: m.value for m in gate_host.metric}
    assert int(metrics[EN["instructor.attendees"]]) == ROOM.attendees


def test_the_room_counts_a_browser_marked_as_the_host_apart() -> None:
    room = RoomState()
    limits = WorkshopLimits()
    for attendee in ("a1", "a2", "h1"):
        room.budget_for(attendee, limits)
    room.mark_host("h1")
    room.mark_host("h2")  # the host at the gate, before any budget of theirs
    assert room.attendees == 2 and room.host_browsers == 2 and len(room.attendee_rows()) == 2


# -- every count and limit in words ---------------------------------------------------------------------
def test_every_error_kind_the_room_can_count_is_named_in_both_languages() -> None:
    from tests.test_i18n_catalogue import literal_values

    kinds = {kind for kind, _test in _KINDS} | {"other", "access_denied", "host_code_denied"}
    kinds |= {f"code_{verdict}" for verdict in ("locked", "busy")}
    kinds |= {f"link_{problem}" for problem in literal_values("LinkProblem")}
    assert kinds <= set(ERROR_KINDS), sorted(kinds - set(ERROR_KINDS))
    for language in ("en", "zh"):
        rows = error_rows(dict.fromkeys(kinds, 1) | {"something_new": 2}, language)
        labels = [next(iter(row.values())) for row in rows]
        assert all(label in CATALOGUE[language].values() for label in labels)
        assert not any("_" in label for label in labels), labels
        assert labels[0] == CATALOGUE[language][UNKNOWN_KIND]  # counted, not dropped, most first


def test_every_limit_is_named_in_words_with_its_unit_and_grouped_digits() -> None:
    limits = WorkshopLimits(max_tokens_per_session=150_000, code_lockout_minutes=2.5)
    for language in ("en", "zh"):
        rows = limit_rows(limits, language)
        assert len(rows) == len(fields(WorkshopLimits))
        text = " ".join(value for row in rows for value in row.values())
        assert not any(spec.name in text for spec in fields(WorkshopLimits)), text
        assert "150,000" in text and "150000" not in text and "2.5" in text
    assert number(150_000) == "150,000" and number(15.0) == "15" and number(0.5) == "0.5"


def test_the_instructor_view_shows_no_raw_key_and_redraws_itself() -> None:
    at = run(new_app(CODES))
    enter(at, "wrong")  # an access_denied to show
    enter(at, "host-77")
    tables = [t.value.to_string() for t in at.table]
    shown = " ".join([*tables, *(m.label for m in at.metric), *(c.value for c in at.caption)])
    for raw in ("access_denied", "max_turns_per_conversation", "150000", "allowed_base_urls"):
        assert raw not in shown, raw
    assert EN["instructor.kind.access_denied"] in shown and "150,000 tokens" in shown
    assert any("Updates by itself every 5 seconds" in c.value for c in at.caption)
    assert not [b for b in at.button if b.label == "Refresh"]  # no button to press any more


def test_an_empty_budgets_table_is_a_sentence_not_a_bare_empty_grid(monkeypatch: pytest.MonkeyPatch) -> None:
    # Seen in Chromium (1440x900): before any attendee, the table drew no headers, only "empty".
    monkeypatch.setattr(ROOM, "attendee_rows", lambda: [])
    at = run(new_app(CODES))
    enter(at, "host-77")
    assert any(c.value == EN["instructor.no_attendees"] for c in at.caption)
    assert CATALOGUE["zh"]["instructor.no_attendees"]
