"""State tables show roles and prompt-section names in the session's language; the snapshot keeps its own."""

from __future__ import annotations

import copy

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from memory_demos.i18n import CATALOGUE, language_scope
from memory_demos.strategies.registry import build_strategy
from memory_demos.strategies.shared.classic import messages_as_json
from memory_demos.ui.state_view import column_label, records_frame

ZH = CATALOGUE["zh"]


@pytest.fixture(scope="module")
def hybrid_sections() -> list[dict]:
    strategy = build_strategy("hybrid")
    try:
        turn = strategy.send("Hi, I am Mara and I live in Lisbon.")
    finally:
        strategy.close()
    assert turn.error is None, turn.error
    return turn.state["sections"]


def column(rows: list[dict], field: str, language: str) -> list[str]:
    with language_scope(language):
        return list(records_frame(rows)[column_label(field)])


def test_hybrid_sections_are_named_in_chinese_and_the_data_is_unchanged(hybrid_sections: list[dict]) -> None:
    before = copy.deepcopy(hybrid_sections)
    shown = column(hybrid_sections, "section", "zh")
    assert hybrid_sections == before
    raw = [row["section"] for row in hybrid_sections]
    assert "reply priming" in raw and "system" in raw
    assert shown == [ZH[f"state.value.section.{name.replace(' ', '_')}"] for name in raw]
    assert not any(name in shown for name in raw)


def test_roles_are_named_in_chinese_and_unchanged_in_english() -> None:
    rows = messages_as_json(
        [SystemMessage("s"), HumanMessage("h"), AIMessage("a"), ToolMessage("t", tool_call_id="c1")]
    )
    assert column(rows, "role", "en") == ["system", "human", "ai", "tool"]
    assert column(rows, "role", "zh") == [ZH["role.system"], ZH["role.human"], ZH["role.ai"], ZH["role.tool"]]


def test_english_section_names_are_shown_as_the_data_has_them(hybrid_sections: list[dict]) -> None:
    assert column(hybrid_sections, "section", "en") == [row["section"] for row in hybrid_sections]


def test_values_of_other_fields_and_unknown_roles_are_left_as_they_are() -> None:
    rows = [{"role": "critic", "content": "system"}]
    assert column(rows, "role", "zh") == ["critic"]
    assert column(rows, "content", "zh") == ["system"]


def test_the_hybrids_drops_per_section_are_keyed_by_translated_section_names() -> None:
    from streamlit.testing.v1 import AppTest

    script = """
from memory_demos.i18n import language_scope
from memory_demos.ui.state_view import render_state

with language_scope("zh"):
    render_state({"dropped": {"history": 2, "retrieved": 1}})
"""
    at = AppTest.from_string(script)
    at.run()
    assert not at.exception, at.exception
    keys = list(at.dataframe[0].value.iloc[:, 0])
    assert keys == [ZH["state.value.section.history"], ZH["state.value.section.retrieved"]]


def _static_state_view(language: str, state: dict) -> object:
    from streamlit.testing.v1 import AppTest

    def view(language: str, state: dict) -> None:
        from memory_demos.i18n import language_scope
        from memory_demos.ui.state_view import render_state

        with language_scope(language):
            render_state(state, static=True)

    at = AppTest.from_function(view, kwargs={"language": language, "state": state}).run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_state_names_a_shipped_embedding_model_by_the_label_the_pane_uses(language: str) -> None:
    from memory_demos.providers.embedding_choice import OFFLINE_MODEL_LABELS
    from memory_demos.ui.state_view import state_label

    for model_id, raw in OFFLINE_MODEL_LABELS.items():
        at = _static_state_view(language, {"k": 3, "embedding_model": raw})
        [table] = at.table
        rows = dict(zip(table.value.iloc[:, 0], table.value.iloc[:, 1], strict=True))
        with language_scope(language):
            label = state_label("embedding_model")
        # The static table's cells are literal Markdown: compare without the escapes.
        shown = rows[label].replace("\\", "")
        assert shown == CATALOGUE[language][f"embedding.offline_label.{model_id}"]
        if language == "zh":
            assert shown != raw and "离线" in shown
    at = _static_state_view("zh", {"embedding_model": "text-embedding-3-small (openai)"})
    shown = at.table[0].value.iloc[0, 1].replace("\\", "")
    assert shown == "text-embedding-3-small (openai)"  # another model's name as it is


def test_a_long_thread_id_is_shown_whole_in_the_focus_views_state_not_cut_in_a_table_cell() -> None:
    # A static table's cell is 400 px at most; a "user:conversation" id (65 characters, no place to break)
    # was cut at about 57. It is shown under the table in a wrapping code block (copied exactly).
    thread_id = "u8532e5e7588c4d6797bf02b0ee5680fb:1d1cde899aec48c38aee210df2de4e1a"
    at = _static_state_view("en", {"checkpointer": "memory", "thread_id": thread_id})
    [table] = at.table
    assert "thread_id" not in set(table.value.iloc[:, 0])
    assert [code.value for code in at.code] == [thread_id]
    # In a pane's scrollable table (not static) it stays a row.
    from streamlit.testing.v1 import AppTest

    def pane_view(state: dict) -> None:
        from memory_demos.ui.state_view import render_state

        render_state(state)

    pane = AppTest.from_function(pane_view, kwargs={"state": {"thread_id": thread_id}}).run()
    assert list(pane.dataframe[0].value.iloc[:, 1]) == [thread_id] and not pane.code


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_yes_or_no_in_the_focus_views_state_is_a_word_of_the_session_s_language(language: str) -> None:
    # A store hit's "from an earlier conversation" column and a setting such as refresh_on_read showed
    # Python's "False" / "True", also on a Chinese page (seen in the QA walk).
    words = CATALOGUE[language]
    state = {"refresh_on_read": True, "items": [{"key": "a", "from_earlier_conversation": False}]}
    at = _static_state_view(language, state)
    cells = [str(cell).replace("\\", "") for table in at.table for cell in table.value.to_numpy().ravel()]
    assert words["state.yes"] in cells and words["state.no"] in cells, cells
    assert "True" not in cells and "False" not in cells


def test_a_score_in_the_focus_views_state_reads_to_four_places_and_a_tiny_one_keeps_its_digits() -> None:
    # A vector hit's score showed all sixteen digits of the float (0.8618001805159526) in the focus view.
    hits = [
        {"key": "a", "score": 0.8618001805159526},
        {"key": "b", "score": 0.000012345},
        {"key": "c", "score": 2.5},
    ]
    at = _static_state_view("en", {"hits": hits})
    cells = [str(cell).replace("\\", "") for cell in at.table[0].value.to_numpy().ravel()]
    assert "0.8618" in cells and "1.23e-05" in cells and "2.5" in cells, cells
