"""The limits each strategy acts on, declared as data and marked on its pane's gauge (issue 24)."""

from __future__ import annotations

import pytest

from memory_demos.i18n import CATALOGUE
from memory_demos.panes import DEFAULT_PANE_PARAMS
from memory_demos.strategies.info import ParamSpec, StrategyInfo, Threshold
from memory_demos.strategies.registry import available_ids, get_info
from memory_demos.ui.charts import gauge_spec
from memory_demos.ui.thresholds import gauge_lines, threshold_caption
from tests.test_app_pages import open_app, rendered_markdown, send

EN = CATALOGUE["en"]
# The limits the issue names, by strategy: (parameter, role).
EXPECTED = {
    "summary_buffer": {("max_token_limit", "budget")},
    "trim": {("max_tokens", "budget")},
    "summarization": {("trigger_tokens", "trigger"), ("keep_messages", "keep")},
    "context_editing": {("trigger_tokens", "trigger"), ("keep", "keep")},
    "window": {("k", "keep")},
}


def test_every_declared_threshold_names_a_whole_number_parameter_of_its_strategy() -> None:
    for strategy_id in available_ids():
        info = get_info(strategy_id)
        for threshold in info.thresholds:
            spec = info.param(threshold.param)  # raises for a name the strategy has no parameter for
            assert isinstance(spec.default, int) and not isinstance(spec.default, bool), strategy_id
    for strategy_id, expected in EXPECTED.items():
        assert {(th.param, th.role) for th in get_info(strategy_id).thresholds} == expected


def test_a_history_budget_is_drawn_from_where_the_history_starts_and_a_prompt_budget_from_zero() -> None:
    totals = {"system": 40, "summary": 25, "history": 150, "new_input": 10}
    [line] = gauge_lines(get_info("summary_buffer"), {"max_token_limit": 200}, totals)
    assert (line.position, line.label, line.role) == (65 + 200, "budget 200", "budget")
    assert line.detail == "max_token_limit=200 (budget, 200 tokens)"  # its tooltip names the parameter
    [trim] = gauge_lines(get_info("trim"), {"max_tokens": 300}, totals)
    assert trim.position == 300
    # SummarizationMiddleware counts the thread's messages: after the system prompt; keep is in messages.
    [trigger] = gauge_lines(get_info("summarization"), {"trigger_tokens": 400, "keep_messages": 4}, totals)
    assert (trigger.position, trigger.label) == (440, "trigger 400")
    assert trigger.detail.startswith("trigger_tokens=400 ")
    assert gauge_lines(get_info("agent_trim"), {"k": 3, "max_tokens": 0}, totals) == []  # 0: switched off


def test_the_gauge_draws_each_limit_as_a_dashed_rule_named_by_its_role_and_parameter() -> None:
    totals = {"system": 40, "history": 150}
    lines = gauge_lines(get_info("trim"), {"max_tokens": 300}, totals)
    spec = gauge_spec(totals, 8_192, zoom=False, lines=lines)
    rule, label = spec["layer"][1:]
    assert rule["mark"]["type"] == "rule" and rule["data"]["values"][0]["tokens"] == 300
    assert label["data"]["values"][0]["label"] == "budget 300"  # short, beside the line
    assert label["data"]["values"][0]["detail"] == "max_tokens=300 (budget, 300 tokens)"  # its tooltip
    # The rule stops short of the plot's foot: down to it, it ran into the axis' first label ("0k").
    assert rule["encoding"]["y2"]["value"] < spec["height"]
    # Zoomed to the prompt, the scale widens to show the limit ahead of it.
    zoomed = gauge_spec(totals, 8_192, zoom=True, lines=lines)
    assert zoomed["layer"][0]["encoding"]["x"]["scale"]["domain"] == [0, 324]  # the line stands inside
    assert len(gauge_spec(totals, 8_192, zoom=False)["layer"]) == 1  # no limits: the bar alone


def test_a_throwaway_strategy_gets_its_line_and_caption_from_its_declaration_alone() -> None:
    info = StrategyInfo(
        id="throwaway",
        title="Throwaway",
        kind="modern",
        langchain_classes=(),
        summary="",
        params=(ParamSpec("budget_tokens", 123, "A budget."), ParamSpec("last_n", 2, "Kept.")),
        thresholds=(Threshold("budget_tokens", "budget"), Threshold("last_n", "keep", "messages")),
    )
    params = info.defaults()
    assert [line.detail for line in gauge_lines(info, params, {"system": 7})] == [
        "budget_tokens=123 (budget, 123 tokens)"
    ]
    caption = threshold_caption(info, params)
    assert caption is not None and "budget_tokens=123" in caption and "last_n=2" in caption
    assert threshold_caption(get_info("buffer"), {}) is None


@pytest.mark.parametrize("language", ["en", "zh"])
def test_compare_panes_name_their_limits_under_the_gauge(language: str) -> None:
    at = open_app("pages/compare.py")
    if language == "zh":
        at.sidebar.segmented_control[0].set_value("zh").run()
    send(at, "My name is Ada.")
    captions = rendered_markdown(at)
    texts = CATALOGUE[language]
    limits = [c for c in captions if texts["gauge.thresholds"].split("{")[0] in c]
    trigger = DEFAULT_PANE_PARAMS["summarization"][
        "trigger_tokens"
    ]  # Compare's default pane, not the class's
    assert any(f"trigger_tokens={trigger}" in c and "keep_messages=4" in c for c in limits), limits
    assert any("k=3" in c for c in limits)
    # And what share of each pane's prompt a cache could serve, with the cache note.
    share_start = texts["pane.cached_share"].split("{")[0]
    assert sum(share_start in c for c in captions) >= 2


def test_a_scorecard_label_names_the_numbers_that_cut_the_prompt_not_switches() -> None:
    from memory_demos.ui.cache_view import strategy_label

    assert strategy_label("window", {"k": 3}) == "window k=3"
    assert strategy_label("agent", {"checkpointer": "memory", "tools": True}) == "agent"


def test_a_limit_of_one_is_singular_and_chinese_uses_its_own_brackets() -> None:
    from memory_demos.i18n import language_scope

    window = get_info("window")
    with language_scope("en"):
        assert threshold_caption(window, {"k": 1}) == "Limits: k=1 (keep, 1 exchange)"
        assert threshold_caption(window, {"k": 3}) == "Limits: k=3 (keep, 3 exchanges)"
    with language_scope("zh"):
        caption = threshold_caption(window, {"k": 1})
    assert caption is not None and "k=1（保留，1 轮对话）" in caption and "(" not in caption


def test_the_turn_time_line_adds_up_with_the_memory_s_own_work() -> None:
    from memory_demos.i18n import language_scope
    from memory_demos.turn import Turn
    from memory_demos.ui.token_view import timing_line

    # No streamed model call took time (the offline model), yet the turn took 0.47 s: embedding, the store.
    turn = Turn(user_text="I'm Tom.", reply="Nice to meet you, Tom!", seconds=0.47, reply_call=None)
    with language_scope("en"):
        line = timing_line(turn)
    assert line.startswith("Turn took 0.47 s: 0.00 s waiting") and "0.47 s in the memory's own work" in line
    with language_scope("zh"):
        assert "另有 0.47 秒花在模型调用之外的记忆工作上" in timing_line(turn)
    quick = Turn(user_text="x", reply="y", seconds=0.001, reply_call=None)
    with language_scope("en"):
        assert "own work" not in timing_line(quick)


def test_the_price_source_speaks_the_session_s_language() -> None:
    from memory_demos.i18n import language_scope
    from memory_demos.scorecard import PRICE_SOURCE
    from memory_demos.ui.cache_view import price_source_text

    with language_scope("en"):
        assert price_source_text() == PRICE_SOURCE
    with language_scope("zh"):
        text = price_source_text()
    assert "openai.com/api/pricing" in text and "standard tier" not in text and "标准档" in text


def test_the_gauge_caption_adds_up_to_the_prompt_sent() -> None:
    from memory_demos.providers.tokenizer import REPLY_PRIMING_TOKENS

    at = open_app("pages/compare.py")
    send(at, "My name is Ada.")
    captions = rendered_markdown(at)
    prompt_start = EN["gauge.caption_scale"].split("{")[0]
    gauges = [c for c in captions if prompt_start in c]
    assert gauges, captions
    # "Prompt: 27 tokens (…) + 3 of chat format (priming the reply): 30 sent": the pane's number and the
    # reply call's prompt tokens (the focus view's "Prompt sent", the charts) no longer disagree.
    framing = EN["gauge.framing"].split("{")[1].split("}")[1].split(":")[0]
    assert all(f"+ {REPLY_PRIMING_TOKENS}{framing}" in c for c in gauges), gauges
