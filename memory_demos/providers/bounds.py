"""The values a user may give a provider's bounds (timeout, max tokens, pane concurrency, context window).

Settings checks every typed value against these ranges before anything is applied, and reports each
value that is out of range with the range it must be in: nothing is clamped or replaced silently.

The context window's lowest value, 512 tokens, is the smallest window of the small local models one may
serve (older and tiny test models); below it a system prompt, one exchange and a reply no longer fit,
and the gauge would report nonsense (a prompt of 2,300 % of the window).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from memory_demos.providers.url_policy import MAX_TIMEOUT_SECONDS


@dataclass(frozen=True)
class SettingRange:
    """The numbers a setting accepts: ``lowest`` to ``highest``, and 0 when ``zero_means_auto``.

    Whole numbers only, unless ``fractions``; ``optional`` settings may be left empty (None).
    """

    name: str  # the ProviderConfig field it sets
    lowest: int
    highest: int
    zero_means_auto: bool = False
    fractions: bool = False
    optional: bool = False

    def accepts(self, value: float) -> bool:
        return (self.zero_means_auto and value == 0) or self.lowest <= value <= self.highest


TIMEOUT = SettingRange("timeout_seconds", 1, 600)
WORKSHOP_TIMEOUT = SettingRange("timeout_seconds", 1, int(MAX_TIMEOUT_SECONDS))  # the server waits no longer
MAX_TOKENS = SettingRange("max_tokens", 1, 32_768)
CONCURRENCY = SettingRange("max_concurrent_panes", 0, 8)
CONTEXT_WINDOW = SettingRange("context_window_tokens", 512, 10_000_000, zero_means_auto=True)
# Sampling temperature: OpenAI's range. Empty: the server's default (0.8 for llama-cpp-python, which made
# the same prompt give three different replies); replays and the Scorecard then use 0, so runs repeat.
TEMPERATURE = SettingRange("temperature", 0, 2, fractions=True, optional=True)
REPLAY_TEMPERATURE = 0.0


@dataclass(frozen=True)
class BoundProblem:
    """One refused value: which setting, what was given, and either its range or the window it overruns."""

    setting: SettingRange
    given: object
    window: int | None = None  # set when a reply limit leaves no room in the given context window


def bound_problems(values: Mapping[str, object], *, workshop: bool = False) -> list[BoundProblem]:
    """Every value of ``values`` (by ProviderConfig field name) that may not be used, in form order.

    A value that is not a whole number is refused like one out of range. ``max_tokens`` must also be
    smaller than a context window that was given, or no prompt would fit beside the reply.
    """
    ranges = (WORKSHOP_TIMEOUT if workshop else TIMEOUT, MAX_TOKENS, CONCURRENCY, CONTEXT_WINDOW, TEMPERATURE)
    problems = []
    accepted: dict[str, int] = {}
    for setting in ranges:
        if setting.name not in values:
            continue
        value = values[setting.name]
        if value is None and setting.optional:
            continue
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if number and setting.fractions and setting.accepts(float(value)):  # type: ignore[arg-type]
            continue
        whole = number and float(value).is_integer()  # type: ignore[arg-type]
        if whole and setting.accepts(int(value)):  # type: ignore[arg-type]
            accepted[setting.name] = int(value)  # type: ignore[arg-type]
        else:
            problems.append(BoundProblem(setting, value))
    window = accepted.get(CONTEXT_WINDOW.name, 0)
    reply = accepted.get(MAX_TOKENS.name)
    if window and reply is not None and reply >= window:
        problems.append(BoundProblem(MAX_TOKENS, reply, window=window))
    return problems
