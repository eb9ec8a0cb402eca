"""The migration guide: each classic memory class next to its modern replacement, run on the same inputs.

Every step is one module holding a ``classic_version(model, inputs)`` and a ``modern_version(model,
inputs)`` (small functions written to be read: the guide page shows their own source), the catalogue
keys of its texts (``TITLE_KEY``, ``SUMMARY_KEY``, ``PITFALL_KEYS``; see ``memory_demos.i18n``) and
``meant_to_match``. ``run_both`` plays the same scripted messages through both and compares, turn
by turn, the prompts the model really received, as recorded by ``CallCapture`` on each model.
"""

from __future__ import annotations

import difflib
import importlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol

from langchain_core.language_models import BaseChatModel

from memory_demos.config import DEFAULT_SYSTEM_PROMPT as SYSTEM_PROMPT
from memory_demos.deprecations import Deprecation, capture_deprecations
from memory_demos.i18n import Message
from memory_demos.providers.chat_models import ProviderConfig, build_chat_model
from memory_demos.tracing import REPLY, CallCapture
from memory_demos.turn import ModelCall, PromptMessage

# The guide's order; "retired" is the closing step (why the classic API went, and what to pick).
STEP_IDS: tuple[str, ...] = (
    "buffer",
    "history",
    "window",
    "token_buffer",
    "summary",
    "summary_buffer",
    "entity",
    "vector",
    "combined",
    "retired",
)
SAME_CONTEXT = Message("migration.prompts_same")
MAX_GUIDE_INPUTS = 12


@dataclass(frozen=True)
class Exchange:
    """What a version returns per turn: the user's message and the reply (the prompt comes from the trace)."""

    user: str
    reply: str


Version = Callable[[BaseChatModel, Iterable[str]], list[Exchange]]


class GuideStep(Protocol):
    """What ``run_both`` needs from a step module (a test may pass any object with these attributes)."""

    classic_version: Version
    modern_version: Version


@dataclass(frozen=True)
class VersionTurn:
    """One version's side of a turn: the captured reply prompt and the memory calls around it."""

    reply: str
    injected_prompt: tuple[PromptMessage, ...]
    prompt_tokens: int
    memory_calls: tuple[ModelCall, ...] = ()
    tool_rounds: int = 0

    @property
    def memory_tokens(self) -> int:
        return sum(call.total_tokens for call in self.memory_calls)

    def to_json(self) -> dict[str, Any]:
        return {
            "reply": self.reply,
            "injected_prompt": [message.to_json() for message in self.injected_prompt],
            "prompt_tokens": self.prompt_tokens,
            "tool_rounds": self.tool_rounds,
            "memory_calls": [
                {
                    "purpose": c.purpose,
                    "prompt_tokens": c.prompt_tokens,
                    "completion_tokens": c.completion_tokens,
                }
                for c in self.memory_calls
            ],
        }


@dataclass(frozen=True)
class Equivalence:
    """Whether two prompts carry the same context, and if not, where they first part (a catalogue text)."""

    same: bool
    key: str = "migration.prompts_same"
    fields: tuple[tuple[str, str | int], ...] = ()

    @property
    def message(self) -> Message:
        """The verdict as data: a view shows it in its language."""
        return Message(self.key, **dict(self.fields))

    def describe(self, language: str) -> str:
        """The verdict in ``language``."""
        return self.message.in_language(language)

    @property
    def text(self) -> str:
        """The verdict in English, as the JSON export and the command line give it."""
        return self.describe("en")


@dataclass(frozen=True)
class TurnComparison:
    """One scripted message played through both versions."""

    index: int
    user: str
    classic: VersionTurn
    modern: VersionTurn
    diff: tuple[str, ...]
    equivalence: Equivalence

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.index,
            "user": self.user,
            "classic": self.classic.to_json(),
            "modern": self.modern.to_json(),
            "diff": list(self.diff),
            "equivalence": self.equivalence.text,
        }


@dataclass
class MigrationRun:
    """Both versions of one step over the same inputs; an error names the version that raised."""

    step_id: str
    turns: list[TurnComparison] = field(default_factory=list)
    classic_error: str | None = None
    modern_error: str | None = None
    # The deprecation warnings LangChain raised while each version built its memory.
    classic_deprecations: tuple[Deprecation, ...] = ()
    modern_deprecations: tuple[Deprecation, ...] = ()

    @property
    def all_same(self) -> bool:
        """True when every turn's two prompts carry the same context (and neither version failed)."""
        return (
            bool(self.turns)
            and self.classic_error is None
            and self.modern_error is None
            and all(turn.equivalence.same for turn in self.turns)
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step_id,
            "classic_error": self.classic_error,
            "modern_error": self.modern_error,
            "all_same": self.all_same,
            "classic_deprecations": [item.to_json() for item in self.classic_deprecations],
            "modern_deprecations": [item.to_json() for item in self.modern_deprecations],
            "turns": [turn.to_json() for turn in self.turns],
        }


def load_step(step_id: str) -> ModuleType:
    """The module of one guide step."""
    if step_id not in STEP_IDS:
        raise KeyError(f"Unknown guide step {step_id!r}; known: {', '.join(STEP_IDS)}")
    return importlib.import_module(f"memory_demos.migration.{step_id}")


def all_steps() -> list[ModuleType]:
    """Every guide step, in order."""
    return [load_step(step_id) for step_id in STEP_IDS]


def shown_functions(step: ModuleType) -> list[Callable[..., Any]]:
    """The functions a page shows for a step: the pair first, then any extras the step lists."""
    pair = [step.classic_version, step.modern_version]
    return pair + list(getattr(step, "EXTRAS", ()))


# -- comparing prompts --------------------------------------------------------------------------


def prompt_lines(prompt: Sequence[PromptMessage]) -> list[str]:
    """A prompt as diffable lines: ``[role] text``, tool calls as JSON. A multi-line message keeps one
    role prefix; its further lines are indented under its text, so it still reads as one message."""
    lines: list[str] = []
    for message in prompt:
        prefix = f"[{message.role}] "
        first, *rest = message.content.splitlines() or [""]
        lines.append(prefix + first)
        lines.extend(" " * len(prefix) + line if line else "" for line in rest)
        if message.tool_calls:
            lines.append(
                f"[{message.role}] tool_calls={json.dumps(list(message.tool_calls), ensure_ascii=False)}"
            )
        if message.tool_call_id:
            lines.append(f"[{message.role}] tool_call_id={message.tool_call_id}")
    return lines


def prompt_line_diff(classic: Sequence[PromptMessage], modern: Sequence[PromptMessage]) -> list[str]:
    """A unified line diff of the two prompts (empty when they are identical)."""
    return list(
        difflib.unified_diff(
            prompt_lines(classic), prompt_lines(modern), "classic prompt", "modern prompt", lineterm="", n=2
        )
    )


def _message_key(message: PromptMessage) -> tuple[Any, ...]:
    return (
        message.role,
        message.content,
        json.dumps(list(message.tool_calls), sort_keys=True, default=str),
        message.tool_call_id,
    )


def _short(message: PromptMessage, limit: int = 90) -> str:
    text = " ".join(message.content.split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"[{message.role}] {text!r}"


def compare_prompts(classic: Sequence[PromptMessage], modern: Sequence[PromptMessage]) -> Equivalence:
    """``same context`` when both prompts hold the same messages in order; else where they first differ."""
    for index, (left, right) in enumerate(zip(classic, modern, strict=False), start=1):
        if _message_key(left) != _message_key(right):
            fields = (("index", index), ("classic", _short(left)), ("modern", _short(right)))
            return Equivalence(False, "migration.prompts_differ", fields)
    if len(classic) != len(modern):
        classic_longer = len(classic) > len(modern)
        longer = classic if classic_longer else modern
        key = "migration.prompts_only_classic" if classic_longer else "migration.prompts_only_modern"
        shorter_length = min(len(classic), len(modern))
        fields = (
            ("index", shorter_length + 1),
            ("extra", _short(longer[shorter_length])),
            ("classic_count", len(classic)),
            ("modern_count", len(modern)),
        )
        return Equivalence(False, key, fields)
    return Equivalence(True)


# -- running both -------------------------------------------------------------------------------


class TurnMarkingInputs:
    """The scripted messages, handed to a version one at a time; each request for the next message
    closes the previous turn, so the calls captured in between are that turn's calls.

    This is how ``run_both`` knows which captured call belongs to which turn without the versions
    doing anything but ``for user_text in inputs``.
    """

    def __init__(self, texts: Sequence[str], capture: CallCapture) -> None:
        self.texts = list(texts)
        self.capture = capture
        self.calls_per_turn: list[list[ModelCall]] = []

    def __len__(self) -> int:
        return len(self.texts)

    def __iter__(self) -> Iterator[str]:
        self.capture.drain()  # calls made while setting up belong to no turn
        for text in self.texts:
            yield text
            self.calls_per_turn.append(self.capture.drain())

    def finish(self) -> None:
        """Attach calls made after the last request (a version that stopped early, or raised)."""
        leftover = self.capture.drain()
        if leftover or len(self.calls_per_turn) < len(self.texts):
            if len(self.calls_per_turn) < len(self.texts):
                self.calls_per_turn.append(leftover)
            else:
                self.calls_per_turn[-1].extend(leftover)


def _version_turns(
    version: Version, inputs: Sequence[str], provider: ProviderConfig
) -> tuple[list[VersionTurn], str | None]:
    capture = CallCapture(
        provider.tokenizer.encoding_name,
        secrets=provider.secret_values(),
        generic_errors=provider.generic_errors,
    )
    model = build_chat_model(provider, callbacks=[capture], streaming=False)
    marking = TurnMarkingInputs(inputs, capture)
    error: str | None = None
    exchanges: list[Exchange] = []
    try:
        exchanges = version(model, marking)
    except Exception as exc:
        error = provider.describe(exc)
    marking.finish()
    turns: list[VersionTurn] = []
    for index, calls in enumerate(marking.calls_per_turn):
        reply_calls = [call for call in calls if call.purpose == REPLY]
        # The first reply call of a turn is the prompt memory built; later ones are tool rounds.
        reply_call = reply_calls[0] if reply_calls else None
        reply = exchanges[index].reply if index < len(exchanges) else ""
        turns.append(
            VersionTurn(
                reply=reply,
                injected_prompt=reply_call.messages if reply_call else (),
                prompt_tokens=reply_call.prompt_tokens if reply_call else 0,
                memory_calls=tuple(call for call in calls if call.purpose != REPLY),
                tool_rounds=max(0, len(reply_calls) - 1),
            )
        )
    return turns, error


def built_deprecations(
    step: GuideStep | ModuleType,
) -> tuple[tuple[Deprecation, ...], tuple[Deprecation, ...]]:
    """What LangChain warns when each version builds its memory: both run with no message, so no model
    is called. Lets a step show each side's status before anything is sent."""
    found = []
    for version in (step.classic_version, step.modern_version):
        model = build_chat_model(ProviderConfig(), streaming=False)
        with capture_deprecations() as raised:
            version(model, [])
        found.append(tuple(raised))
    return found[0], found[1]


def default_inputs(step: ModuleType, language: str) -> tuple[str, ...]:
    """The step's scripted messages in ``language`` (``DEFAULT_INPUTS_ZH``), else English."""
    return tuple(getattr(step, f"DEFAULT_INPUTS_{language.upper()}", step.DEFAULT_INPUTS))


def run_both(
    step: GuideStep | ModuleType | str,
    inputs: Sequence[str] | None = None,
    provider: ProviderConfig | None = None,
) -> MigrationRun:
    """Play ``inputs`` through the step's classic and modern versions and compare them turn by turn.

    Each version gets its own freshly built model carrying its own ``CallCapture``; the prompts
    compared are the ones those captures recorded, never rebuilt from a template.
    """
    module = load_step(step) if isinstance(step, str) else step
    step_id = str(getattr(module, "STEP_ID", getattr(module, "__name__", "custom")).rsplit(".", 1)[-1])
    texts = list(inputs if inputs is not None else getattr(module, "DEFAULT_INPUTS", ()))
    if not texts:
        raise ValueError("run_both needs at least one scripted message.")
    if len(texts) > MAX_GUIDE_INPUTS:
        raise ValueError(f"The guide plays at most {MAX_GUIDE_INPUTS} messages; got {len(texts)}.")
    provider = provider or ProviderConfig()
    classic_turns, classic_error = _version_turns(module.classic_version, texts, provider)
    modern_turns, modern_error = _version_turns(module.modern_version, texts, provider)
    # Captured while each side builds its memory, not around the whole run: a capture holds a process-wide
    # lock, and the run waits on the model.
    classic_deprecations, modern_deprecations = built_deprecations(module)
    run = MigrationRun(
        step_id=step_id,
        classic_error=classic_error,
        modern_error=modern_error,
        classic_deprecations=classic_deprecations,
        modern_deprecations=modern_deprecations,
    )
    empty = VersionTurn(reply="", injected_prompt=(), prompt_tokens=0)
    for index, user in enumerate(texts):
        classic = classic_turns[index] if index < len(classic_turns) else empty
        modern = modern_turns[index] if index < len(modern_turns) else empty
        if not classic.injected_prompt and not modern.injected_prompt and (classic_error or modern_error):
            break
        run.turns.append(
            TurnComparison(
                index=index + 1,
                user=user,
                classic=classic,
                modern=modern,
                diff=tuple(prompt_line_diff(classic.injected_prompt, modern.injected_prompt)),
                equivalence=compare_prompts(classic.injected_prompt, modern.injected_prompt),
            )
        )
    return run


__all__ = [
    "SAME_CONTEXT",
    "STEP_IDS",
    "SYSTEM_PROMPT",
    "Equivalence",
    "Exchange",
    "GuideStep",
    "MigrationRun",
    "TurnComparison",
    "VersionTurn",
    "all_steps",
    "built_deprecations",
    "compare_prompts",
    "load_step",
    "prompt_line_diff",
    "prompt_lines",
    "run_both",
    "shown_functions",
]
