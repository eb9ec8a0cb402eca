"""One place for each setting: the message-length limit, the pane count and the default system prompt."""

from __future__ import annotations

import pytest

from memory_demos import config, failure_lab, migration, runner
from memory_demos.session import LabSession
from memory_demos.strategies.base import StrategyContext
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


def test_the_environment_reader_is_the_workshop_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMORY_LAB_WORKSHOP", raising=False)
    monkeypatch.setenv("MEMORY_LAB_MAX_MESSAGE_CHARS", "77")
    assert config.max_message_chars() == 77
    assert config.max_message_chars({}) == config.DEFAULT_MAX_MESSAGE_CHARS
    assert config.max_message_chars({"MEMORY_LAB_WORKSHOP": "1"}) == 2000


def test_a_session_takes_its_limits_from_the_configuration_in_both_modes() -> None:
    session = LabSession({})
    session.configure(WorkshopConfig.from_sources({"workshop": {"limits": {"max_message_chars": 123}}}, {}))
    assert session.limits.max_message_chars == 123
    assert session.limits.max_panes == config.MAX_PANES
    session.configure(WorkshopConfig.from_sources({"workshop": {"enabled": True}}, {}))
    assert session.limits.max_message_chars == 2000


def test_one_default_system_prompt() -> None:
    assert runner.MAX_PANES is config.MAX_PANES
    assert migration.SYSTEM_PROMPT is config.DEFAULT_SYSTEM_PROMPT
    assert failure_lab.SYSTEM_PROMPT is config.DEFAULT_SYSTEM_PROMPT
    assert StrategyContext.__dataclass_fields__["system_prompt"].default is config.DEFAULT_SYSTEM_PROMPT
