"""The limits a pane's strategy acts on, placed on its gauge: a line per token limit, the rest in words.

Each strategy declares its limits as data (``StrategyInfo.thresholds``, each naming the parameter that
holds it); nothing here knows a strategy by name. A token limit that counts only part of the prompt is
drawn from where that part starts on the stacked bar (a history budget after the system prompt, tools,
summary, entities and retrieved text).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memory_demos.i18n import t
from memory_demos.prompt_sections import SECTIONS, Section
from memory_demos.strategies.info import StrategyInfo, Threshold

# Where each scope starts on the bar: after these sections.
_BEFORE_SCOPE: dict[str, tuple[Section, ...]] = {
    "prompt": (),
    "messages": ("system", "tools"),
    "history": SECTIONS[: SECTIONS.index("history")],
}


@dataclass(frozen=True)
class GaugeLine:
    """A vertical line on the gauge at ``position`` tokens, labelled ``label`` in the session's language
    (``budget 200``: short, to read beside the line); ``detail`` names its parameter (its tooltip)."""

    position: int
    label: str
    role: str
    detail: str = ""


def gauge_lines(
    info: StrategyInfo, params: Mapping[str, Any], totals: Mapping[Section, int]
) -> list[GaugeLine]:
    """The strategy's token limits as lines on the bar, each from where the part of the prompt it counts
    starts."""
    lines = []
    for threshold, value in info.thresholds_in_effect(params):
        if threshold.unit != "tokens":
            continue
        start = sum(totals.get(section, 0) for section in _BEFORE_SCOPE[threshold.scope])
        label = t("gauge.line", role=t(f"threshold.{threshold.role}"), value=f"{value:,}")
        lines.append(GaugeLine(start + value, label, threshold.role, threshold_words(threshold, value)))
    return lines


def threshold_words(threshold: Threshold, value: int) -> str:
    """``max_token_limit=200 (budget, 200 tokens)`` in the session's language (``k=1 (keep, 1 exchange)``:
    a limit of one is singular; Chinese punctuates the brackets its own way)."""
    unit_key = f"threshold.unit.{threshold.unit}" + (".one" if value == 1 else "")
    amount = t(unit_key, value=f"{value:,}")
    return t(
        "threshold.words",
        param=threshold.param,
        value=value,
        role=t(f"threshold.{threshold.role}"),
        amount=amount,
    )


def threshold_caption(info: StrategyInfo, params: Mapping[str, Any]) -> str | None:
    """Every limit the strategy acts on, with its parameter name; None for a strategy that declares none."""
    found = info.thresholds_in_effect(params)
    if not found:
        return None
    return t("gauge.thresholds", limits=" · ".join(threshold_words(th, value) for th, value in found))
