"""The CLI's provider flags accept exactly the ranges Settings accepts (``providers/bounds.py``)."""

from __future__ import annotations

import pytest

from memory_demos.__main__ import EXIT_BAD_INPUT, build_parser, main
from memory_demos.cli_options import range_words
from memory_demos.providers.bounds import CONCURRENCY, CONTEXT_WINDOW, MAX_TOKENS, TIMEOUT, SettingRange

FLAGS = [("--timeout", TIMEOUT), ("--max-tokens", MAX_TOKENS), ("--concurrency", CONCURRENCY)]
FLAGS += [("--context-window", CONTEXT_WINDOW)]
COMMANDS = {
    "replay": ["replay", "--scenario", "name_recall", "--strategies", "buffer"],
    "chat": ["chat", "--strategy", "buffer", "--conversation", "c1", "--user", "hi"],
}


def out_of_range(setting: SettingRange) -> list[int]:
    below = [] if setting.lowest == 0 else [setting.lowest - 1]
    if setting.zero_means_auto:
        below = [setting.lowest - 1, -1]
    return [*below, setting.highest + 1]


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize(("flag", "setting"), FLAGS, ids=[flag for flag, _ in FLAGS])
def test_a_value_outside_the_settings_range_exits_2_naming_the_flag_and_range(
    capsys: pytest.CaptureFixture[str], command: str, flag: str, setting: SettingRange
) -> None:
    for value in out_of_range(setting):
        with pytest.raises(SystemExit) as exited:
            build_parser().parse_args([*COMMANDS[command], flag, str(value)])
        assert exited.value.code == EXIT_BAD_INPUT
        err = capsys.readouterr().err
        assert flag in err
        assert range_words(setting) in err
        assert "Traceback" not in err


@pytest.mark.parametrize(("flag", "setting"), FLAGS, ids=[flag for flag, _ in FLAGS])
def test_the_ends_of_the_range_are_accepted(flag: str, setting: SettingRange) -> None:
    ends = [setting.lowest, setting.highest] + ([0] if setting.zero_means_auto else [])
    for value in ends:
        args = build_parser().parse_args([*COMMANDS["replay"], flag, str(value)])
        assert getattr(args, flag.removeprefix("--").replace("-", "_")) == value


def test_words_and_non_numbers_are_refused_with_the_range(capsys: pytest.CaptureFixture[str]) -> None:
    for text in ("soon", "nan", "inf", "2.5"):
        with pytest.raises(SystemExit):
            build_parser().parse_args([*COMMANDS["replay"], "--max-tokens", text])
        assert range_words(MAX_TOKENS) in capsys.readouterr().err
    with pytest.raises(SystemExit):
        build_parser().parse_args([*COMMANDS["replay"], "--timeout", "nan"])
    assert range_words(TIMEOUT) in capsys.readouterr().err


def test_a_reply_limit_as_large_as_the_context_window_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    window = CONTEXT_WINDOW.lowest
    code = main([*COMMANDS["replay"], "--context-window", str(window), "--max-tokens", str(window)])
    err = capsys.readouterr().err
    assert code == EXIT_BAD_INPUT
    assert "--max-tokens" in err and "--context-window" in err
    assert len(err.strip().splitlines()) == 1


def test_help_states_zero_where_settings_reads_it_as_automatic(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["chat", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "0 for all at once" in help_text
    assert "0 for automatic" in help_text
