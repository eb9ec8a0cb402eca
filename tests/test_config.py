"""One place for each setting: the message-length limit, the pane count and the default system prompt."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_demos import defaults as config
from memory_demos import failure_lab, migration, runner
from memory_demos.lab_config import LabConfig, load_lab_config
from memory_demos.session import LabSession
from memory_demos.strategies.base import InputError, StrategyContext
from memory_demos.strategies.registry import build_strategy
from memory_demos.workshop import WorkshopConfig, WorkshopConfigError


def test_message_length_defaults_differ_by_mode_as_documented() -> None:
    assert WorkshopConfig.from_sources({}, {}).limits.max_message_chars == config.DEFAULT_MAX_MESSAGE_CHARS
    enabled = WorkshopConfig.from_sources({"workshop": {"enabled": True}}, {})
    assert enabled.limits.max_message_chars == 2000  # the README's [workshop.limits] value


@pytest.mark.parametrize("enabled", [False, True])
def test_message_length_is_read_the_same_way_in_both_modes(enabled: bool) -> None:
    from_env = WorkshopConfig.from_sources(
        {}, {"MEMORY_LAB_WORKSHOP": str(enabled), "MEMORY_LAB_MAX_MESSAGE_CHARS": "50"}
    )
    assert from_env.enabled is enabled
    assert from_env.limits.max_message_chars == 50
    secrets = {"workshop": {"enabled": enabled, "limits": {"max_message_chars": 300}}}
    assert (
        WorkshopConfig.from_sources(secrets, {"MEMORY_LAB_MAX_MESSAGE_CHARS": "50"}).limits.max_message_chars
        == 300
    )
    with pytest.raises(WorkshopConfigError, match="MEMORY_LAB_MAX_MESSAGE_CHARS"):
        WorkshopConfig.from_sources(
            {}, {"MEMORY_LAB_WORKSHOP": str(enabled), "MEMORY_LAB_MAX_MESSAGE_CHARS": "x"}
        )


def test_a_strategy_context_takes_its_settings_from_one_configuration(tmp_path: Path) -> None:
    lab = LabConfig.from_sources(
        None,
        {
            "MEMORY_LAB_DATA_DIR": str(tmp_path / "data"),
            "MEMORY_LAB_MAX_MESSAGE_CHARS": "77",
            "MEMORY_LAB_REDIS_URL": "redis://:pw@127.0.0.1:6379/0",
        },
    )
    context = StrategyContext.from_config(lab, user_id="ada")
    assert context.user_id == "ada" and context.storage == lab.storage and context.max_message_chars == 77
    assert context.folder() == tmp_path / "data" and (tmp_path / "data").stat().st_mode & 0o777 == 0o700
    strategy = build_strategy("buffer", context)
    with pytest.raises(InputError, match="the limit is 77"):
        strategy.send("x" * 78)
    assert strategy.send("x" * 77).ok


def test_a_context_built_without_a_configuration_has_the_process_configuration(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("MEMORY_LAB_WORKSHOP", raising=False)
    monkeypatch.setenv("MEMORY_LAB_MAX_MESSAGE_CHARS", "66")
    context, lab = StrategyContext(), load_lab_config()
    assert lab.max_message_chars == 66 == context.max_message_chars
    assert (context.data_dir, context.storage) == (lab.data_dir, lab.storage)
    assert StrategyContext(data_dir=None).folder() == lab.data_folder()  # None: the configuration's folder


def test_a_session_takes_its_limits_from_the_configuration_in_both_modes() -> None:
    session = LabSession({})
    session.configure(
        LabConfig(
            workshop=WorkshopConfig.from_sources({"workshop": {"limits": {"max_message_chars": 123}}}, {})
        )
    )
    assert session.limits.max_message_chars == 123
    assert session.limits.max_panes == config.MAX_PANES
    session.configure(LabConfig.from_sources({"workshop": {"enabled": True}}, {}))
    assert session.limits.max_message_chars == 2000


def test_one_default_system_prompt() -> None:
    assert runner.MAX_PANES is config.MAX_PANES
    assert migration.SYSTEM_PROMPT is config.DEFAULT_SYSTEM_PROMPT
    assert failure_lab.SYSTEM_PROMPT is config.DEFAULT_SYSTEM_PROMPT
    assert StrategyContext.__dataclass_fields__["system_prompt"].default is config.DEFAULT_SYSTEM_PROMPT


def test_one_configuration_is_built_from_explicit_secrets_and_environment(tmp_path: Path) -> None:
    environ = {
        "MEMORY_LAB_DATA_DIR": str(tmp_path / "data"),
        "MEMORY_LAB_SQL_URL": "postgresql://lab:pw@db.example/lab",
        "MEMORY_LAB_MAX_MESSAGE_CHARS": "900",
        "OPENAI_API_KEY": "sk-server-only",
    }
    lab = LabConfig.from_sources({"workshop": {"limits": {"max_turns_per_conversation": 7}}}, environ)
    assert lab.data_dir == tmp_path / "data" and not lab.data_dir.exists()  # made on first use only
    assert lab.storage.sql_url == environ["MEMORY_LAB_SQL_URL"] and lab.max_message_chars == 900
    assert lab.workshop.limits.max_turns_per_conversation == 7 and lab.max_panes == config.MAX_PANES
    assert lab.server_openai_key is True and "sk-server-only" not in repr(lab)
    assert LabConfig.from_sources(None, {}).server_openai_key is False
    assert LabConfig.from_sources(None, {}).data_dir == Path(config.DEFAULT_DATA_DIR)


def test_the_configuration_is_read_once_per_set_of_sources() -> None:
    first = load_lab_config({"workshop": {"enabled": True}}, {"MEMORY_LAB_MAX_TURNS": "5"})
    assert (
        load_lab_config({"workshop": {"enabled": True}}, {"MEMORY_LAB_MAX_TURNS": "5", "PATH": "/x"}) is first
    )
    changed = load_lab_config({"workshop": {"enabled": True}}, {"MEMORY_LAB_MAX_TURNS": "6"})
    assert changed is not first and changed.workshop.limits.max_turns_per_conversation == 6
    with pytest.raises(WorkshopConfigError, match="MEMORY_LAB_MAX_TURNS"):
        load_lab_config(None, {"MEMORY_LAB_MAX_TURNS": "many"})


def test_a_session_takes_storage_from_the_configuration_it_was_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMORY_LAB_SQL_URL", raising=False)
    session = LabSession({})
    assert session.strategy_context().storage.sql_url is None
    session.configure(LabConfig.from_sources(None, {"MEMORY_LAB_SQL_URL": "postgresql://lab@db/lab"}))
    assert session.strategy_context().storage.sql_url == "postgresql://lab@db/lab"
