"""What every failure demo shares: its result and catalogue entry types and the offline model it runs on."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from memory_demos.defaults import DEFAULT_SYSTEM_PROMPT as SYSTEM_PROMPT
from memory_demos.defaults import default_system_prompt
from memory_demos.i18n import Message
from memory_demos.providers.chat_models import CallGate, gated_callbacks
from memory_demos.tracing import CallCapture
from memory_demos.turn import ModelCall, Turn

if TYPE_CHECKING:
    from memory_demos.strategies.base import Strategy, StrategyContext

__all__ = [
    "ENCODING",
    "SYSTEM_PROMPT",
    "CallGate",
    "Demo",
    "DemoResult",
    "Verdict",
    "VerdictRow",
    "answer_row",
    "calls_by_purpose",
    "default_system_prompt",
    "demo_context",
    "demo_result",
    "offline_model",
    "tell_then_ask",
]

ENCODING = "o200k_base"


class DemoResult(TypedDict):
    """What every demo returns."""

    id: str
    naive: dict[str, Any]
    fixed: dict[str, Any]
    failed: bool
    fixed_ok: bool
    explanation: str
    fix: str


@dataclass(frozen=True)
class VerdictRow:
    """One line of a demo's verdict: what is checked (a catalogue key and its values) and the evidence
    each set-up produced, as data (text from the run, a number, a yes/no, a list): the page translates
    the label and shows the evidence as text."""

    label_key: str
    naive: Any
    fixed: Any
    label_args: tuple[tuple[str, str], ...] = ()


Verdict = Callable[[DemoResult], tuple[VerdictRow, ...]]


def answer_row(naive: dict[str, Any], fixed: dict[str, Any]) -> VerdictRow:
    """The verdict's last word in most demos: each set-up's answer to the question both runs asked."""
    return VerdictRow(
        "failure.verdict.answer",
        naive["answer"],
        fixed["answer"],
        label_args=(("question", naive["question"]),),
    )


@dataclass(frozen=True)
class Demo:
    """One failure mode: catalogue keys of its title, failure and fix, and the function that shows both."""

    id: str
    title_key: str
    explanation_key: str
    fix_key: str
    run: Callable[..., DemoResult]  # run(language, gate): gate guards the models it builds (workshop mode)
    code: tuple[Callable[..., Any], ...] = ()
    # What went wrong with the naive set-up (leaked, lost, invented, broken: ``failure.harm.<harm>``), and
    # the rows of evidence the page shows before the raw JSON.
    harm: str = "lost"
    verdict: Verdict | None = None
    # A catalogue key saying which part of the demo is scripted rather than real, shown before the run;
    # empty when the fault comes from a switch the explanation already names.
    scripted_key: str = ""


def offline_model(capture: CallCapture, gate: CallGate | None = None, **switches: Any) -> Any:
    """The offline teaching model carrying ``capture`` (after ``gate``, a workshop attendee's budget gate
    handed in by the page), with fault switches (drift, chatty_entities...)."""
    # Lazy: the offline model's rule set loads only when a demo runs.
    from memory_demos.providers.offline_model import OfflineTeachingModel

    return OfflineTeachingModel(callbacks=gated_callbacks(gate, ENCODING, [capture]), **switches)


def calls_by_purpose(calls: Iterable[ModelCall]) -> dict[str, int]:
    """How many of ``calls`` served each purpose (reply, entity extraction, summary...)."""
    counts: dict[str, int] = {}
    for call in calls:
        counts[call.purpose] = counts.get(call.purpose, 0) + 1
    return counts


def demo_result(
    demo: Demo, language: str, naive: dict[str, Any], fixed: dict[str, Any], failed: bool, ok: bool
) -> DemoResult:
    """``demo``'s result: both runs, whether each behaved, and its texts in ``language``."""
    return DemoResult(
        id=demo.id,
        naive=naive,
        fixed=fixed,
        failed=failed,
        fixed_ok=ok,
        explanation=Message(demo.explanation_key).in_language(language),
        fix=Message(demo.fix_key).in_language(language),
    )


def tell_then_ask(strategy: Strategy, statements: Iterable[str], question: str) -> tuple[list[Turn], Turn]:
    """Send ``statements`` one message each, then ``question``, and close the strategy: the turns told and
    the turn asked (a demo reads what memory kept from the last)."""
    try:
        told = [strategy.send(text) for text in statements]
        asked = strategy.send(question)
    finally:
        strategy.close()
    return told, asked


def demo_context(gate: CallGate | None, language: str, **fields: Any) -> StrategyContext:
    """The context a demo builds its strategies in: the offline model behind ``gate``, the conversation's
    ``language``, and any other ``StrategyContext`` fields (a user, a data folder)."""
    from memory_demos.providers.chat_models import ProviderConfig
    from memory_demos.strategies.base import StrategyContext

    fields.setdefault("system_prompt", default_system_prompt(language))
    return StrategyContext(provider=ProviderConfig(gate=gate), language=language, **fields)
