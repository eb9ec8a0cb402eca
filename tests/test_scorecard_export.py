"""Scorecard and exports: the CLI and the scorecard agree; the exported script reproduces the prompts."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from memory_demos.__main__ import main
from memory_demos.export import (
    CSV_COLUMNS,
    export_conversation_script,
    markdown_report,
    replay_script,
    result_json,
    scorecard_csv,
)
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.replay import replay
from memory_demos.scenarios import load_scenario
from memory_demos.scorecard import (
    DEFAULT_PRICES,
    Price,
    ReplayJob,
    cost_by_model,
    find_price,
    price_records,
    prices_from_records,
    recall_timeline,
    scorecard_rows,
    token_series,
)
from memory_demos.strategies.base import StrategyContext
from memory_demos.strategies.registry import build_strategy

REPO = Path(__file__).resolve().parents[1]

# Runs a script with outbound sockets refused, like the test suite itself.
NETWORK_GUARD = textwrap.dedent(
    """
    import ipaddress, runpy, socket, sys

    def _local(address):
        if isinstance(address, (str, bytes)):
            return True
        host = address[0] if isinstance(address, tuple) else address
        if host in ("localhost", ""):
            return True
        try:
            return ipaddress.ip_address(host).is_loopback
        except ValueError:
            return False

    _connect = socket.socket.connect
    _create = socket.create_connection

    def connect(self, address):
        if not _local(address):
            raise OSError(f"network blocked: {address!r}")
        return _connect(self, address)

    def create_connection(address, *args, **kwargs):
        if not _local(address):
            raise OSError(f"network blocked: {address!r}")
        return _create(address, *args, **kwargs)

    socket.socket.connect = connect
    socket.create_connection = create_connection
    sys.argv = [sys.argv[1]]
    runpy.run_path(sys.argv[0], run_name="__main__")
    """
)


def run_script(source: str, folder: Path) -> dict:
    """Run an exported script in a fresh interpreter (the same python), offline; return its JSON."""
    script = folder / "exported.py"
    script.write_text(source, encoding="utf-8")
    guard = folder / "guard.py"
    guard.write_text(NETWORK_GUARD, encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "OPENAI_API_KEY"}
    env.update({"PYTHONPATH": str(REPO), "MEMORY_LAB_DATA_DIR": str(folder / "data")})
    completed = subprocess.run(
        [sys.executable, str(guard), str(script)],
        capture_output=True,
        text=True,
        cwd=folder,
        env=env,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(completed.stdout)


def test_cli_replay_json_and_scorecard_agree(capsys: pytest.CaptureFixture[str]) -> None:
    strategies = "buffer,window,summary_buffer,long_term"
    assert main(["replay", "--scenario", "name_recall", "--strategies", strategies, "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)

    result = replay(load_scenario("name_recall"), strategies.split(","), ProviderConfig())
    rows = {row.strategy: row for row in scorecard_rows(result)}
    assert [entry["strategy"] for entry in cli["results"]] == list(rows)
    for entry in cli["results"]:
        row = rows[entry["strategy"]]
        assert (row.recall_passed, row.recall_asked) == (entry["recall"]["passed"], entry["recall"]["asked"])
        assert row.prompt_tokens == entry["totals"]["prompt_tokens"]
        assert row.completion_tokens == entry["totals"]["completion_tokens"]
        assert row.memory_tokens == entry["totals"]["memory_tokens"]
        assert row.model_calls == entry["totals"]["model_calls"]
        # memory calls in the CLI's per-turn JSON add up to the scorecard's memory-call tokens
        per_turn = sum(
            c["prompt_tokens"] + c["completion_tokens"] for t in entry["turns"] for c in t["memory_calls"]
        )
        assert per_turn == row.memory_tokens
    # The two strategies that cannot remember the name lose exactly there.
    assert rows["buffer"].recall == "3/3"
    assert rows["window"].recall == "0/3"
    assert rows["summary_buffer"].memory_tokens > 0 and rows["buffer"].memory_tokens == 0


def test_cost_matches_a_hand_computation_from_the_token_totals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--scenario", "name_recall", "--strategies", "buffer,summary", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    result = replay(load_scenario("name_recall"), ["buffer", "summary"], ProviderConfig())
    price = Price("gpt-4o", 2.50, 10.00)
    rows = {row.strategy: row for row in scorecard_rows(result, price)}
    for entry in cli["results"]:
        input_tokens = sum(
            t["prompt_tokens"] + sum(c["prompt_tokens"] for c in t["memory_calls"]) for t in entry["turns"]
        )
        output_tokens = sum(
            t["completion_tokens"] + sum(c["completion_tokens"] for c in t["memory_calls"])
            for t in entry["turns"]
        )
        by_hand = input_tokens * 2.50 / 1_000_000 + output_tokens * 10.00 / 1_000_000
        row = rows[entry["strategy"]]
        assert row.input_tokens == input_tokens and row.output_tokens == output_tokens
        assert row.estimated_cost_usd == pytest.approx(by_hand, rel=1e-12)
        assert row.price_model == "gpt-4o"
    # The summary's extra model calls cost money the buffer does not spend.
    assert rows["summary"].output_tokens > rows["buffer"].output_tokens
    cheaper = {row.strategy: row for row in scorecard_rows(result, find_price(DEFAULT_PRICES, "gpt-4o-mini"))}
    assert cheaper["buffer"].estimated_cost_usd < rows["buffer"].estimated_cost_usd
    matrix = cost_by_model(result, DEFAULT_PRICES)
    assert matrix[0]["gpt-4o"] == pytest.approx(rows["buffer"].estimated_cost_usd)


def test_default_prices_cover_the_common_openai_models() -> None:
    assert [p.model for p in DEFAULT_PRICES] == [
        "gpt-4o",
        "gpt-4o-mini",
        "gpt-4.1",
        "gpt-4.1-mini",
        "gpt-5",
        "gpt-5-mini",
    ]
    assert all(0 < p.input_per_million <= p.output_per_million for p in DEFAULT_PRICES)


def test_edited_price_tables_are_validated() -> None:
    good = prices_from_records([{"model": "mine", "input_per_million": "1.5", "output_per_million": 3}])
    assert good == [Price("mine", 1.5, 3.0)]
    blank_row = {"model": None, "input_per_million": float("nan"), "output_per_million": None}
    assert prices_from_records([*price_records(DEFAULT_PRICES), blank_row]) == list(DEFAULT_PRICES)
    for bad in (
        [{"model": "", "input_per_million": 1, "output_per_million": 1}],
        [{"model": "x", "input_per_million": -1, "output_per_million": 1}],
        [{"model": "x", "input_per_million": "cheap", "output_per_million": 1}],
        [{"model": "x", "input_per_million": 1, "output_per_million": None}],
        [{"model": "x", "input_per_million": 1, "output_per_million": 1}] * 2,
        [],
    ):
        with pytest.raises(ValueError):
            prices_from_records(bad)


def test_series_and_recall_timeline() -> None:
    scenario = load_scenario("name_recall")
    result = replay(scenario, ["buffer", "window"], ProviderConfig())
    series = [point for point in token_series(result) if point["strategy"] == "buffer"]
    assert [point["turn"] for point in series] == list(range(1, len(scenario.turns) + 1))
    assert series[-1]["cumulative_total_tokens"] == result.runs[0].total_tokens
    assert series[-1]["prompt_tokens"] > series[0]["prompt_tokens"]  # the buffer grows
    timeline = recall_timeline(result, scenario)
    assert len(timeline) == 2 * scenario.probes
    buffer_points = [e for e in timeline if e["strategy"] == "buffer"]
    assert [e["recalled"] for e in buffer_points] == [["Mara"], ["Lisbon"], ["A-1234"]]
    assert all(not e["passed"] and e["recalled"] == [] for e in timeline if e["strategy"] == "window")


def test_csv_and_markdown_contain_every_strategy_row() -> None:
    scenario = load_scenario("name_recall")
    strategy_ids = ["buffer", "window", "summary_buffer", "trim"]
    result = replay(scenario, strategy_ids, ProviderConfig())
    rows = scorecard_rows(result)

    parsed = list(csv.DictReader(io.StringIO(scorecard_csv(rows))))
    assert [line["strategy"] for line in parsed] == strategy_ids
    assert list(parsed[0]) == list(CSV_COLUMNS)
    assert int(parsed[0]["prompt_tokens"]) == rows[0].prompt_tokens

    report = markdown_report(
        result, rows, scenario=scenario, prices=DEFAULT_PRICES, timeline=recall_timeline(result, scenario)
    )
    for row in rows:
        assert f"| {row.strategy} | {row.recall} | {row.prompt_tokens} |" in report
    assert "estimate" in report.lower()
    assert json.loads(result_json(result)) == result.to_json()


def test_markdown_cells_escape_pipes() -> None:
    scenario = load_scenario("name_recall")
    result = replay(scenario, ["buffer"], ProviderConfig())
    result.scenario = "a | b"
    report = markdown_report(result, scorecard_rows(result))
    assert "a \\| b" in report


def test_exported_script_reproduces_the_injected_prompts(tmp_path: Path) -> None:
    scenario = load_scenario("tool_weather_order")
    strategy_ids = ["buffer", "window", "trim", "turn_trim", "summary_buffer", "long_term"]
    result = replay(
        scenario, strategy_ids, ProviderConfig(), {"window": {"k": 1}, "trim": {"max_tokens": 200}}
    )
    script = replay_script(result, scenario, ProviderConfig())
    assert "api_key" not in script.lower()
    printed = run_script(script, tmp_path)

    expected = result.to_json()["results"]
    assert [entry["strategy"] for entry in printed["results"]] == strategy_ids
    for got, want in zip(printed["results"], expected, strict=True):
        assert got["params"] == want["params"]
        assert [turn["user"] for turn in got["turns"]] == [turn["user"] for turn in want["turns"]]
        assert [turn["injected_prompt"] for turn in got["turns"]] == [
            turn["injected_prompt"] for turn in want["turns"]
        ]
        assert [turn["prompt_tokens"] for turn in got["turns"]] == [
            turn["prompt_tokens"] for turn in want["turns"]
        ]
    assert printed["results"][1]["params"] == {"k": 1}


def test_exported_conversation_script_matches_direct_sends(tmp_path: Path) -> None:
    messages = ["Hi, I'm Lena and I live in Oslo.", "What's the weather in Oslo?", "Where do I live?"]
    specs = [{"id": "window", "params": {"k": 1}}, ("summary", {}), "history"]
    script = export_conversation_script(
        specs, messages, ProviderConfig(), system_prompt='Be brief, "really".'
    )
    printed = run_script(script, tmp_path)
    for entry in printed["results"]:
        strategy = build_strategy(
            entry["strategy"], StrategyContext(system_prompt='Be brief, "really".'), entry["params"]
        )
        try:
            direct = [[m.to_json() for m in strategy.send(text).injected_prompt] for text in messages]
        finally:
            strategy.close()
        assert [turn["injected_prompt"] for turn in entry["turns"]] == direct
    assert printed["results"][0]["turns"][0]["injected_prompt"][0]["content"] == 'Be brief, "really".'


def test_script_literals_are_safe_for_hostile_text(tmp_path: Path) -> None:
    hostile = "'''\"\"\"; import os; os.system('echo pwned') # \\ \n<|endoftext|>"
    script = export_conversation_script(["buffer"], [hostile], ProviderConfig())
    printed = run_script(script, tmp_path)
    assert printed["results"][0]["turns"][0]["user"] == hostile
    with pytest.raises(ValueError):
        export_conversation_script([], ["hi"])


def test_replay_job_reports_progress_and_can_be_cancelled() -> None:
    scenario = load_scenario("name_recall")
    job = ReplayJob(scenario, ["buffer", "window"], ProviderConfig()).start()
    assert job.wait(120)
    assert job.result is not None and not job.cancelled and job.error is None
    assert job.progress() == {"buffer": (16, 16), "window": (16, 16)}

    slow = ReplayJob(scenario, ["buffer"], ProviderConfig(latency_ms=40))
    slow.start()
    slow.cancel()
    assert slow.wait(60)
    assert slow.cancelled and slow.result is None
    assert slow.progress()["buffer"][0] < len(scenario.turns)


def test_an_exported_script_starts_a_new_conversation_at_each_session_break(tmp_path: Path) -> None:
    scenario = load_scenario("sessions_recall")
    result = replay(scenario, ["long_term", "agent"], ProviderConfig())
    script = replay_script(result, scenario, ProviderConfig())
    assert '{"session": "new"}' in script or "{'session': 'new'}" in script
    printed = run_script(script, tmp_path)
    expected = result.to_json()["results"]
    for got, want in zip(printed["results"], expected, strict=True):
        assert [turn["reply"] for turn in got["turns"]] == [turn["reply"] for turn in want["turns"]]
    long_term, agent = printed["results"]
    assert "Mara" in long_term["turns"][-2]["reply"] and "Mara" not in agent["turns"][-2]["reply"]


def test_the_markdown_report_and_conversation_are_headed_in_the_page_language() -> None:
    from memory_demos.export import conversation_markdown

    scenario = load_scenario("name_recall")
    result = replay(scenario, ["buffer"], ProviderConfig())
    rows = scorecard_rows(result)
    timeline = recall_timeline(result, scenario)
    english = markdown_report(result, rows, scenario=scenario, prices=DEFAULT_PRICES, timeline=timeline)
    chinese = markdown_report(
        result, rows, scenario=scenario, prices=DEFAULT_PRICES, timeline=timeline, language="zh"
    )
    assert english.startswith("# Memory Lab scorecard: ") and "## Recall timeline" in english
    assert "| strategy | recall | prompt tokens |" in english and "recall probe" in english
    assert (
        chinese.startswith("# Memory Lab 评分卡：")
        and "## 召回时间线" in chinese
        and "## 价格表（" in chinese
    )
    assert "| 策略 | 召回 | 提示词词元 |" in chinese and "服务商：" in chinese
    for heading in ("Scorecard", "Recall timeline", "Price table", "Provider:", "Temperature:", "| strategy"):
        assert heading not in chinese, heading
    for row in rows:  # the figures are the same in both
        assert f"| {row.strategy} | {row.recall} | {row.prompt_tokens} |" in chinese
    conversation = conversation_markdown(result, "zh")
    assert conversation.startswith("# Memory Lab 对话：") and "| 轮次 | 消息 | 回答 |" in conversation
    assert conversation_markdown(result).startswith("# Memory Lab conversation: ")
