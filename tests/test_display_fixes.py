"""Display defects from the QA review (items 15, 19, 21): the core functions behind what is shown."""

from __future__ import annotations

import pandas as pd

from memory_demos.export import export_stem, replay_script
from memory_demos.migration import prompt_lines
from memory_demos.prompt_markers import SUMMARIZE
from memory_demos.prompt_sections import diff_prompts
from memory_demos.prompts import SUMMARY_HEADER
from memory_demos.replay import ReplayResult, StrategyRun
from memory_demos.scenarios import load_scenario
from memory_demos.turn import ModelCall, PromptMessage, Turn
from memory_demos.ui.charts import CostPoint, cost_chart_spec, cost_rows
from memory_demos.ui.scorecard_view import recall_chart, token_line_chart

SYSTEM = "You are a helpful assistant. Answer briefly."
SUMMARY = f"{SUMMARY_HEADER}\nThe human's name is Mara."


def _message(role: str, content: str) -> PromptMessage:
    return PromptMessage(role=role, content=content, tokens=5)


def _turn(messages: list[PromptMessage], reply: str, memory_purposes: tuple[str, ...] = ()) -> Turn:
    reply_call = ModelCall("reply", tuple(messages), reply, 20, 4, "test", 0.0)
    memory_calls = [ModelCall(purpose, (), "out", 10, 2, "test", 0.0) for purpose in memory_purposes]
    return Turn(messages[-1].content, reply, 0.0, reply_call, memory_calls=memory_calls)


def test_turns_folded_by_a_summarize_call_are_not_reported_dropped() -> None:
    """Hybrid folds the turn leaving its window after the reply; the summary's text may not change."""
    before = _turn(
        [
            _message("system", SYSTEM),
            _message("system", SUMMARY),
            _message("human", "old"),
            _message("ai", "x"),
            _message("human", "q"),
        ],
        "a",
        memory_purposes=(SUMMARIZE,),
    )
    after = _turn(
        [
            _message("system", SYSTEM),
            _message("system", SUMMARY),
            _message("human", "q"),
            _message("ai", "a"),
            _message("human", "next"),
        ],
        "b",
    )
    kinds = {change.content: change.kind for change in diff_prompts(before, after, SYSTEM)}
    assert kinds["old"] == kinds["x"] == "summarized"
    assert "dropped" not in kinds.values()


def test_turns_lost_without_any_summary_are_still_dropped() -> None:
    before = _turn(
        [_message("system", SYSTEM), _message("human", "old"), _message("ai", "x"), _message("human", "q")],
        "a",
    )
    after = _turn(
        [_message("system", SYSTEM), _message("human", "q"), _message("ai", "a"), _message("human", "next")],
        "b",
        memory_purposes=("extract",),
    )
    kinds = {change.content: change.kind for change in diff_prompts(before, after, SYSTEM)}
    assert kinds["old"] == kinds["x"] == "dropped"


def test_exported_script_docstring_names_the_file_it_is_downloaded_as() -> None:
    scenario = load_scenario("name_recall")
    result = ReplayResult(scenario.name, "offline", [StrategyRun("buffer", {}, [], [])])
    script = replay_script(result, scenario)
    file_name = f"{export_stem(scenario)}.py"
    assert file_name.startswith("memory_lab_name_") and file_name != "memory_lab_replay.py"
    assert f"python {file_name} >" in script
    assert "memory_lab_replay.py" not in script


def test_a_multi_line_message_keeps_one_role_prefix_in_the_migration_prompt() -> None:
    summary = _message("human", "Summary of the conversation:\nThe human is Mara.\n\nShe lives in Porto.")
    lines = prompt_lines([_message("system", SYSTEM), summary, _message("human", "Where do I live?")])
    prefixed = [line for line in lines if line.startswith("[")]
    assert prefixed == [
        f"[system] {SYSTEM}",
        "[human] Summary of the conversation:",
        "[human] Where do I live?",
    ]
    assert "        The human is Mara." in lines and "        She lives in Porto." in lines


def test_scorecard_charts_keep_ten_strategy_names_readable_and_turn_labels_flat() -> None:
    strategy_ids = [f"strategy_number_{n}" for n in range(10)]
    series = pd.DataFrame(
        [
            {"strategy": sid, "turn": turn, "prompt_tokens": 10 * turn}
            for sid in strategy_ids
            for turn in (1, 2)
        ]
    )
    legend = token_line_chart(series, "prompt_tokens", "prompt tokens").to_dict()["encoding"]["color"][
        "legend"
    ]
    assert legend["orient"] == "bottom" and legend["labelLimit"] == 0 and legend["columns"] < 10
    timeline = [
        {"strategy": sid, "turn": 3, "passed": True, "recalled": ["Berlin"], "expected": ["Berlin"]}
        for sid in strategy_ids
    ]
    x_axis = recall_chart(timeline).to_dict()["layer"][0]["encoding"]["x"]["axis"]
    assert x_axis["labelAngle"] == 0


def test_the_cost_chart_labels_whole_tokens_even_when_every_turn_failed() -> None:
    failed = cost_rows([CostPoint("1 · buffer", 1, 0, 0), CostPoint("2 · window", 1, 0, 0)])
    y = cost_chart_spec(failed, "prompt_tokens", "title")["layer"][0]["encoding"]["y"]
    assert y["axis"]["format"] == ",d" and y["scale"]["domain"] == [0, 1]
    spent = cost_rows([CostPoint("1 · buffer", 1, 120, 140)])
    y = cost_chart_spec(spent, "cumulative", "title")["layer"][0]["encoding"]["y"]
    assert "domain" not in y["scale"]
