"""The command line: strategy listing, replay JSON shape, and one-line errors for bad input."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from memory_demos.__main__ import EXIT_BAD_INPUT, build_parser, main
from memory_demos.cli_options import param_assignments
from memory_demos.strategies.base import InputError


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_strategies_json_lists_ids_kinds_classes_and_params(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "strategies", "--json")
    assert code == 0
    listing = {entry["id"]: entry for entry in json.loads(out)}
    assert "buffer" in listing
    for entry in listing.values():
        assert entry["kind"] in {"classic", "modern"}
        assert entry["langchain_classes"]
        for param in entry["params"]:
            assert {"name", "type", "default"} <= set(param)
    if "window" in listing:
        assert {"name": "k"}.items() <= listing["window"]["params"][0].items()


def test_replay_json_has_the_fixed_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(
        capsys,
        "replay",
        "--scenario",
        "name_recall",
        "--strategies",
        "buffer",
        "--provider",
        "offline",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"scenario", "provider", "temperature", "stopped", "results"}
    assert data["stopped"] is None
    [result] = data["results"]
    assert set(result) == {"strategy", "params", "recall", "totals", "sessions", "turns"}
    assert set(result["totals"]) == {
        "prompt_tokens",
        "completion_tokens",
        "memory_tokens",
        "tool_round_tokens",
        "model_calls",
    }
    assert len(result["turns"]) == 16
    turn = result["turns"][-1]
    assert set(turn) == {
        "user",
        "at",
        "reply",
        "empty_reply",
        "injected_prompt",
        "prompt_tokens",
        "cacheable_prompt_tokens",
        "cached_tokens",
        "tool_schemas",
        "tool_tokens",
        "tools_may_be_ignored",
        "completion_tokens",
        "memory_calls",
        "reply_call",
        "tool_round_calls",
        "timing",
        "state",
        "error",
        "error_kind",
        "counted_by",
        "approximate",
        "cut_by",
        "session",
        "probe_kind",
    }
    # The offline model's counts are made with its own encoder: exact, and named.
    assert turn["counted_by"] == "tiktoken:o200k_base" and turn["approximate"] is False
    assert {m["role"] for m in turn["injected_prompt"]} <= {"system", "human", "ai", "tool"}
    assert result["recall"] == {
        "passed": 3,
        "asked": 3,
        "failed": 0,
        "by_kind": {"same_conversation": {"passed": 3, "asked": 3}},
    }
    [session] = result["sessions"]  # one conversation: no break
    assert session["session"] == 1 and session["first_turn"] == 1 and session["after"] is None
    assert result["totals"]["prompt_tokens"] == sum(t["prompt_tokens"] for t in result["turns"])
    assert result["totals"]["model_calls"] == 16
    # Every call says what it shares with the earlier ones (issue 24); the offline model reports no cache.
    assert turn["reply_call"]["cacheable_prompt_tokens"] == turn["cacheable_prompt_tokens"] > 0
    assert turn["cached_tokens"] is None


def test_counted_by_names_the_encoding_when_tool_definitions_are_estimated(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An agent binds tools: its counts are still tiktoken's, with the encoding named, and approximate."""
    code, out, _ = run_cli(capsys, "replay", "--scenario", "name_recall", "--strategies", "agent", "--json")
    assert code == 0
    [result] = json.loads(out)["results"]
    turn = result["turns"][-1]
    assert turn["tool_tokens"] > 0
    assert turn["counted_by"] == "tiktoken:o200k_base"
    assert turn["approximate"] is True


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["replay", "--scenario", "name_recall", "--strategies", "nope"], "Unknown strategy 'nope'"),
        (["replay", "--scenario", "no_such", "--strategies", "buffer"], "Unknown scenario"),
        (
            ["replay", "--scenario", "name_recall", "--strategies", "buffer", "--param", "buffer.k=2"],
            "no parameter",
        ),
        (
            ["replay", "--scenario", "name_recall", "--strategies", "buffer", "--param", "buffer"],
            "id.name=value",
        ),
        (["replay", "--scenario", "name_recall", "--strategies", ""], "No strategy"),
    ],
)
def test_bad_input_gets_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert code == EXIT_BAD_INPUT
    assert fragment in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err
    assert out == ""


def test_out_of_range_parameters_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from memory_demos.strategies.registry import available_ids

    cases = [("window", "k=-1", "at least 0"), ("token_buffer", "max_token_limit=0", "at least 1")]
    checked = 0
    for strategy_id, assignment, fragment in cases:
        if strategy_id not in available_ids():
            continue
        code, _, err = run_cli(
            capsys,
            "replay",
            "--scenario",
            "name_recall",
            "--strategies",
            strategy_id,
            "--param",
            f"{strategy_id}.{assignment}",
        )
        assert code == EXIT_BAD_INPUT and fragment in err
        checked += 1
    assert checked == len(cases)


def test_empty_user_turn_in_a_scenario_file_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    scenario = tmp_path / "bad.yaml"
    scenario.write_text("name: bad\nlanguage: en\nturns:\n  - user: '   '\n", encoding="utf-8")
    code, _, err = run_cli(capsys, "replay", "--scenario", str(scenario), "--strategies", "buffer")
    assert code == EXIT_BAD_INPUT
    assert "Turn 1" in err


def test_param_assignments_group_by_strategy_and_name_only_strategies_run() -> None:
    assert param_assignments(["window.k=2", "window.extra=x", "trim.max_tokens=50"], ["window", "trim"]) == {
        "window": {"k": "2", "extra": "x"},
        "trim": {"max_tokens": "50"},
    }
    with pytest.raises(InputError, match=r"id\.name=value"):
        param_assignments(["=3"], ["window"])
    with pytest.raises(InputError, match="'trim', which is not among the strategies run"):
        param_assignments(["trim.max_tokens=50"], ["window"])


def test_replay_and_chat_take_the_same_param_syntax(capsys: pytest.CaptureFixture[str]) -> None:
    """One ``--param ID.NAME=VALUE`` for both commands: same help, same refusals, values parsed on build."""
    parser = build_parser()
    subcommands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    helps = {name: subcommands[name].format_help() for name in ("replay", "chat")}
    assert all("--param ID.NAME=VALUE" in text for text in helps.values()), helps

    chat = ["chat", "--strategy", "window", "--conversation", "c1", "--json"]
    code, out, _ = run_cli(capsys, *chat, "--param", "window.k=1", "My name is Mara.")
    assert code == 0 and json.loads(out)["state"]["k"] == 1
    for bad, fragment in [
        ("k=1", "id.name=value"),  # chat once took a bare NAME=VALUE; replay never did
        ("buffer.k=1", "not among the strategies run (window)"),
        ("window.k=-1", "window.k must be at least 0; got -1"),
    ]:
        for argv in (
            [*chat, "--param", bad, "hello"],
            ["replay", "--scenario", "name_recall", "--strategies", "window", "--param", bad],
        ):
            code, out, err = run_cli(capsys, *argv)
            assert code == EXIT_BAD_INPUT and fragment in err and out == "", (argv, err)


def test_module_entry_point_prints_no_traceback() -> None:
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "memory_demos",
            "replay",
            "--scenario",
            "name_recall",
            "--strategies",
            "bogus",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == EXIT_BAD_INPUT
    assert "Traceback" not in completed.stderr
    assert completed.stderr.startswith("error: Unknown strategy")


def test_server_backed_params_only_when_a_sql_url_is_configured() -> None:
    from memory_demos.strategies.registry import server_backed_params

    assert server_backed_params("history", None) == {}
    assert server_backed_params("history", "postgresql://u@127.0.0.1/db") == {"backend": "postgres"}
    assert server_backed_params("langgraph", "postgresql://u@127.0.0.1/db") == {"checkpointer": "postgres"}
    assert server_backed_params("buffer", "postgresql://u@127.0.0.1/db") == {}


def test_the_replay_table_keeps_its_columns_straight_for_a_long_strategy_id(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # background_memory (17 characters) used to push its row two columns to the right of the header.
    code, out, _ = run_cli(
        capsys, "replay", "--scenario", "name_recall", "--strategies", "buffer,background_memory"
    )
    assert code == 0
    header, rule, *rows = out.splitlines()[1:4]
    assert len(rule) == len(header) and set(rule) == {"-"}
    recall_end = header.index("recall") + len("recall")
    for row in rows:
        assert row[recall_end - 3 : recall_end] == "3/3", row  # each row's recall under the header's
    code, out, _ = run_cli(capsys, "strategies")
    lines = {line.split()[0]: line for line in out.splitlines()}
    assert lines["background_memory"].index(" modern") == lines["buffer"].index(" classic")


def test_the_strategy_column_is_15_wide_at_least_also_when_no_strategy_ran() -> None:
    # Replay, bench overhead and bench render share this rule; max(15, *ids) raised on an empty list.
    from memory_demos.cli_table import strategy_column_width

    assert strategy_column_width([]) == 15
    assert strategy_column_width(iter(())) == 15
    assert strategy_column_width(["buffer"]) == 15
    assert strategy_column_width(["buffer", "background_memory"]) == len("background_memory")
