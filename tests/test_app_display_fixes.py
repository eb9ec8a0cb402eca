"""Compare page display fixes (AppTest): panes that started late say so; headers explain deprecation
badges and show only parameters that have an effect."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from memory_demos.deprecations import parse_deprecation
from memory_demos.i18n import t
from memory_demos.session import widget_key
from memory_demos.strategies.registry import get_info
from memory_demos.ui.deprecation_status import raised_by_text
from tests.test_app_pages import APP, EN, TIMEOUT, open_app, pane_badges, pane_column, panes, send


def _add_pane(at, strategy_id: str) -> int:
    at.selectbox(key=widget_key("add_strategy")).set_value(strategy_id).run()
    at.button[[b.label for b in at.button].index(EN["compare.add_pane"])].click().run()
    assert not at.exception, at.exception
    assert panes(at)[-1].strategy_id == strategy_id
    return len(panes(at)) - 1


def test_a_pane_added_mid_conversation_says_which_messages_it_has_not_seen() -> None:
    at = open_app("pages/compare.py")
    send(at, "Hi, I'm Mara.")
    send(at, "I live in Lisbon.")
    index = _add_pane(at, "window")
    note = t("pane.joined_late", "en", start=3, n=2)
    assert any(note in c.value for c in pane_column(at, index).caption)
    assert not any("has not seen" in c.value for c in pane_column(at, 0).caption)
    send(at, "Where do I live?")
    assert any(note in c.value for c in pane_column(at, index).caption)  # still true after its first turn


def test_the_badge_names_the_class_that_raised_it_trim_raises_none_and_entity_hides_redis_only_params() -> (
    None
):
    at = open_app("pages/compare.py")
    buffer = [pane.strategy_id for pane in panes(at)].index("buffer")
    badges = pane_badges(at, buffer)
    assert any(
        EN["deprecation.raised"] in text and "`InMemoryChatMessageHistory`" in tip for text, tip in badges
    )
    # trim keeps its history in a plain list: a "Modern" pane raises no deprecation of the app's making.
    trim = _add_pane(at, "trim")
    assert not any(EN["deprecation.raised"] in text for text, _tip in pane_badges(at, trim))

    entity = _add_pane(at, "entity")
    header = " ".join(c.value for c in pane_column(at, entity).caption)
    assert "store=memory" in header and "ttl_seconds" not in header


def test_the_badge_tooltip_says_what_the_memory_uses_the_deprecated_class_for() -> None:
    warning = parse_deprecation(
        "The class `InMemoryChatMessageHistory` was deprecated in LangChain 1.6.4 and will be removed."
    )
    text = raised_by_text(warning)
    assert "`InMemoryChatMessageHistory`" in text and "keep the full message history" in text
    unknown = raised_by_text(parse_deprecation("The class `SomethingElse` was deprecated in LangChain 1.0."))
    assert "`SomethingElse`" in unknown and "deprecation.role" not in unknown


def test_redis_only_parameters_show_only_with_redis() -> None:
    entity = get_info("entity")
    values = entity.resolve_params({"store": "memory"})
    assert set(entity.params_in_effect(values)) == {"k", "store"}
    redis = entity.params_in_effect(entity.resolve_params({"store": "redis"}))
    assert {"ttl_seconds", "recall_ttl_seconds"} <= set(redis)
    history = get_info("history")
    assert "ttl_seconds" not in history.params_in_effect(history.resolve_params({"backend": "sqlite"}))


def test_an_invalid_scenario_clears_the_last_scorecard_and_shows_why(monkeypatch) -> None:
    import memory_demos.scenarios as scenarios
    from tests.test_app_teaching_pages import SCORECARD

    at = AppTest.from_file(SCORECARD, default_timeout=120)
    at.run()
    at.multiselect(key=widget_key("scorecard_strategies")).set_value(["buffer"]).run()
    at.button(key=widget_key("scorecard_run")).click().run()
    assert any("Recall" in frame.value.columns for frame in at.dataframe)

    def broken(name: str):
        raise scenarios.ScenarioError("Not valid YAML: mapping values are not allowed here")

    monkeypatch.setattr(scenarios, "load_scenario", broken)
    at.run()
    assert not at.exception
    assert any(EN["scorecard.invalid"] in error.value for error in at.error)
    assert any("Not valid YAML" in code.value for code in at.code)
    assert not any("Recall" in frame.value.columns for frame in at.dataframe)
    assert EN["scorecard.table"] not in [header.value for header in at.subheader]


def test_the_language_is_kept_in_the_url_and_read_back_by_a_new_session() -> None:
    from tests.test_app_pages import ZH

    at = open_app()
    at.segmented_control(key=widget_key("language_sidebar")).set_value("zh").run()
    assert at.title[0].value == ZH["home.title"]
    assert at.query_params["lang"] == "zh"

    reloaded = AppTest.from_file(APP, default_timeout=TIMEOUT)  # a reload: a new session, the same URL
    reloaded.query_params["lang"] = "zh"
    reloaded.run()
    assert not reloaded.exception
    assert reloaded.title[0].value == ZH["home.title"]
    reloaded.switch_page("pages/compare.py")
    reloaded.run()
    assert reloaded.subheader[0].value == ZH["compare.title"]  # a page change keeps it too


def test_the_compare_page_says_a_reload_starts_a_new_conversation() -> None:
    at = open_app("pages/compare.py")
    assert not any(EN["compare.reload_note"] in c.value for c in at.caption)  # nothing to lose yet
    send(at, "Hi, I'm Mara.")
    assert any(EN["compare.reload_note"] in c.value for c in at.caption)


def test_a_parameter_change_replays_the_conversation_says_what_it_cost_and_closes_the_popover() -> None:
    from tests.helpers import open_params

    at = open_app("pages/compare.py")
    for text in ("Hi, I'm Mara.", "I live in Lisbon.", "I like tea."):
        send(at, text)
    window = panes(at)[1]
    assert window.strategy_id == "window"
    open_params(at, window.pane_id)
    at.number_input(key=widget_key("pane", window.pane_id, "param", "k")).set_value(1)
    form = widget_key("pane", window.pane_id, "params_form")
    next(b for b in at.button if b.proto.form_id.endswith(form)).click().run()
    assert not at.exception, at.exception
    assert at.session_state[widget_key("pane", window.pane_id, "params")] is False  # the popover closed
    assert window.strategy.params["k"] == 1
    assert [turn.user_text for turn in window.turns] == ["Hi, I'm Mara.", "I live in Lisbon.", "I like tea."]
    captions = [c.value for c in pane_column(at, 1).caption]
    assert any("Replayed 3 messages with k=1" in c and "model calls" in c for c in captions), captions
    assert not any(EN["pane.joined_late"].split("{")[0] in c for c in captions)


def test_a_pane_keeps_its_chart_colour_when_the_pane_before_it_is_removed() -> None:
    at = open_app("pages/compare.py")
    send(at, "Hi, I'm Mara.")
    colour_of_window = _chart_colours(at)[f"2 · {get_info('window').title}"]
    at.button(key=widget_key("pane", panes(at)[0].pane_id, "remove")).click().run()
    assert not at.exception, at.exception
    assert _chart_colours(at)[f"1 · {get_info('window').title}"] == colour_of_window


def _chart_colours(at) -> dict[str, str]:
    import json

    spec = json.loads(at.get("vega_lite_chart")[-1].proto.spec)
    scale = spec["layer"][0]["encoding"]["color"]["scale"]
    return dict(zip(scale["domain"], scale["range"], strict=True))
