"""The migration guide: each classic memory class next to its modern replacement, run on the same inputs.

Every step is one module naming its two standalone programs, ``classic_version`` and ``modern_version``
(``Program``: a file in ``programs/`` importing only LangChain, LangGraph and the standard library; the
page shows its text, ``guide --export`` writes it, and the same text is what runs), the catalogue keys
of its texts (``TITLE_KEY``, ``SUMMARY_KEY``, ``PITFALL_KEYS``; see ``memory_demos.i18n``) and
``meant_to_match``. ``run_both`` plays the same scripted messages through both and compares, turn
by turn, the prompts the model really received, as recorded by ``CallCapture`` on each model; it also
records each side's replies, which a program replays at home with ``--replay``.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from langchain_core.language_models import BaseChatModel

from memory_demos.defaults import DEFAULT_SYSTEM_PROMPT as SYSTEM_PROMPT
from memory_demos.defaults import default_system_prompt
from memory_demos.deprecations import Deprecation, capture_deprecations
from memory_demos.i18n import Message
from memory_demos.migration import (
    buffer,
    combined,
    entity,
    history,
    retired,
    summary,
    summary_buffer,
    token_buffer,
    vector,
    window,
)
from memory_demos.migration.program import Program, Recorder, RecordingEmbeddings, recording_of
from memory_demos.providers.chat_models import ProviderConfig, build_chat_model
from memory_demos.tracing import REPLY, CallCapture
from memory_demos.turn import ModelCall, PromptMessage

# The guide's steps, one line each, in the guide's order; "retired" is the closing step (why the classic
# API went, and what to pick).
STEPS: tuple[ModuleType, ...] = (
    buffer,
    history,
    window,
    token_buffer,
    summary,
    summary_buffer,
    entity,
    vector,
    combined,
    retired,
)
STEP_IDS: tuple[str, ...] = tuple(step.STEP_ID for step in STEPS)
SAME_CONTEXT = Message("migration.prompts_same")
MAX_GUIDE_INPUTS = 12
# The verdicts of a turn a failed side left nothing to compare in (not a difference).
NOT_COMPARED_KEYS = frozenset(
    {"migration.not_compared.classic", "migration.not_compared.modern", "migration.not_compared.both"}
)


# A side of a step: a ``Program``, or (in a test) any function taking the model and the messages and
# returning the replies.
Version = Callable[[BaseChatModel, Iterable[str]], list[str]]


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
    # True for the turn a side raised in, and any after it: its prompt (if one was captured) got no answer.
    failed: bool = False

    @property
    def memory_tokens(self) -> int:
        return sum(call.total_tokens for call in self.memory_calls)

    def to_json(self) -> dict[str, Any]:
        return {
            "reply": self.reply,
            "injected_prompt": [message.to_json() for message in self.injected_prompt],
            "prompt_tokens": self.prompt_tokens,
            "tool_rounds": self.tool_rounds,
            "failed": self.failed,
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

    @property
    def compared(self) -> bool:
        """False when a failed side sent no prompt for this turn."""
        return self.equivalence.key not in NOT_COMPARED_KEYS

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
    # What each side's model (and embeddings) returned, as its program's ``--replay FILE`` reads it.
    classic_recording: dict[str, Any] = field(default_factory=dict)
    modern_recording: dict[str, Any] = field(default_factory=dict)

    @property
    def compared(self) -> bool:
        """False when a side failed: its prompts are missing or cut short, so there is nothing to compare."""
        return self.classic_error is None and self.modern_error is None

    @property
    def failed_side(self) -> str | None:
        """``classic``, ``modern`` or ``both`` when a side stopped with an error, else None."""
        if self.classic_error and self.modern_error:
            return "both"
        if self.classic_error:
            return "classic"
        return "modern" if self.modern_error else None

    @property
    def differing_turns(self) -> int:
        """Turns whose two prompts were both captured and differ."""
        return sum(1 for turn in self.turns if turn.compared and not turn.equivalence.same)

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
            "compared": self.compared,
            "all_same": self.all_same,
            "classic_deprecations": [item.to_json() for item in self.classic_deprecations],
            "modern_deprecations": [item.to_json() for item in self.modern_deprecations],
            "turns": [turn.to_json() for turn in self.turns],
        }


def load_step(step_id: str) -> ModuleType:
    """The module of one guide step."""
    for step in STEPS:
        if step_id == step.STEP_ID:
            return step
    raise KeyError(f"Unknown guide step {step_id!r}; known: {', '.join(STEP_IDS)}")


def all_steps() -> list[ModuleType]:
    """Every guide step, in order."""
    return list(STEPS)


def in_language(version: Version, language: str, messages: Sequence[str] | None = None) -> Version:
    """A program with the system prompt of ``language`` and ``messages`` (the step's in that language) as its
    own (the file as it is, for English); a test's plain function is returned as it is."""
    if isinstance(version, Program) and language != "en":
        return version.in_language(default_system_prompt(language), messages)
    return version


def _step_messages(step: GuideStep | ModuleType, language: str) -> tuple[str, ...] | None:
    """The step's scripted messages in ``language``, if it has them."""
    return getattr(step, f"DEFAULT_INPUTS_{language.upper()}", None)


def shown_programs(step: ModuleType, language: str = "en") -> tuple[Program, Program]:
    """The two programs a page shows (and runs) for a step in ``language``, classic first."""
    messages = _step_messages(step, language)
    return (
        in_language(step.classic_version, language, messages),
        in_language(step.modern_version, language, messages),
    )


def export_programs(directory: Path) -> list[Path]:
    """Write every step's programs, byte for byte as shown: ``<step>_classic.py``, ``<step>_modern.py``."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for step_id in STEP_IDS:
        for side, program in zip(("classic", "modern"), shown_programs(load_step(step_id)), strict=True):
            target = directory / f"{step_id}_{side}.py"
            target.write_bytes(program.text.encode("utf-8"))
            written.append(target)
    return written


def export_recordings(directory: Path) -> list[Path]:
    """Run every step on the offline model and write each side's replies as ``<step>_<side>.recording.json``,
    which that program's ``--replay FILE`` reads: the same prompts as the page, with no key."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for step_id in STEP_IDS:
        run = run_both(step_id)
        for side, recording in (("classic", run.classic_recording), ("modern", run.modern_recording)):
            target = directory / f"{step_id}_{side}.recording.json"
            target.write_text(json.dumps(recording, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
            written.append(target)
    return written


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


@dataclass(frozen=True)
class _SideResult:
    turns: list[VersionTurn]
    error: str | None
    recording: dict[str, Any]


def _play(
    version: Version, model: BaseChatModel, inputs: Iterable[str], recorder: Recorder
) -> tuple[list[str], dict[str, Any]]:
    """Run one side; a program searching by meaning also gets embeddings that keep their vectors."""
    if not isinstance(version, Program):
        return list(version(model, inputs)), recording_of(recorder, None)
    embeddings = None
    if version.takes_embeddings:
        # Lazy: loads the model. multilingual-e5-small, not MiniLM: the learner's messages may be English,
        # Chinese or both, and a step's lesson must not change with the language it is typed in.
        from memory_demos.providers.multilingual_embeddings import multilingual_embeddings

        embeddings = RecordingEmbeddings(multilingual_embeddings())
    replies = version(model, inputs, embeddings)
    return replies, recording_of(recorder, embeddings)


def _version_turns(version: Version, inputs: Sequence[str], provider: ProviderConfig) -> _SideResult:
    capture = CallCapture(
        provider.tokenizer.encoding_name,
        secrets=provider.secret_values(),
        generic_errors=provider.generic_errors,
    )
    recorder = Recorder()
    model = build_chat_model(provider, callbacks=[capture, recorder], streaming=False)
    marking = TurnMarkingInputs(inputs, capture)
    error: str | None = None
    replies: list[str] = []
    recording: dict[str, Any] = {}
    try:
        replies, recording = _play(version, model, marking, recorder)
    except Exception as exc:
        error = provider.describe(exc)
    finished_turns = len(marking.calls_per_turn)  # a turn is over once the version asked for the next
    marking.finish()
    turns: list[VersionTurn] = []
    for index, calls in enumerate(marking.calls_per_turn):
        reply_calls = [call for call in calls if call.purpose == REPLY]
        # The first reply call of a turn is the prompt memory built; later ones are tool rounds.
        reply_call = reply_calls[0] if reply_calls else None
        # A side that raised returned no replies: its finished turns show the last reply the model gave.
        answers = [call.output for call in reply_calls if not call.error]
        reply = replies[index] if index < len(replies) else (answers[-1] if answers else "")
        turns.append(
            VersionTurn(
                reply=reply,
                injected_prompt=reply_call.messages if reply_call else (),
                prompt_tokens=reply_call.prompt_tokens if reply_call else 0,
                memory_calls=tuple(call for call in calls if call.purpose != REPLY),
                tool_rounds=max(0, len(reply_calls) - 1),
                failed=error is not None and index >= finished_turns,
            )
        )
    return _SideResult(turns, error, recording)


def _turn_of(side: _SideResult, index: int) -> VersionTurn:
    """A side's turn ``index``; one it never reached is empty (and failed, when the side raised)."""
    if index < len(side.turns):
        return side.turns[index]
    return VersionTurn(reply="", injected_prompt=(), prompt_tokens=0, failed=side.error is not None)


def _turn_equivalence(classic: VersionTurn, modern: VersionTurn) -> Equivalence:
    """The verdict of one turn; a side that failed in this turn (its prompt missing, or sent and never
    answered) leaves nothing to compare, which is not a difference."""
    missing = (classic.failed, modern.failed)
    if all(missing):
        return Equivalence(False, "migration.not_compared.both")
    if missing[0]:
        return Equivalence(False, "migration.not_compared.classic")
    if missing[1]:
        return Equivalence(False, "migration.not_compared.modern")
    return compare_prompts(classic.injected_prompt, modern.injected_prompt)


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
    language: str = "en",
) -> MigrationRun:
    """Play ``inputs`` through the step's classic and modern versions and compare them turn by turn.

    ``language`` chooses the programs' system prompt, as ``shown_programs`` shows them.

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
    messages = _step_messages(module, language)
    classic = _version_turns(in_language(module.classic_version, language, messages), texts, provider)
    modern = _version_turns(in_language(module.modern_version, language, messages), texts, provider)
    # Captured while each side builds its memory, not around the whole run: a capture holds a process-wide
    # lock, and the run waits on the model.
    classic_deprecations, modern_deprecations = built_deprecations(module)
    run = MigrationRun(
        step_id=step_id,
        classic_error=classic.error,
        modern_error=modern.error,
        classic_deprecations=classic_deprecations,
        modern_deprecations=modern_deprecations,
        classic_recording=classic.recording,
        modern_recording=modern.recording,
    )
    for index, user in enumerate(texts):
        classic_turn = _turn_of(classic, index)
        modern_turn = _turn_of(modern, index)
        if not classic_turn.injected_prompt and not modern_turn.injected_prompt and not run.compared:
            break
        run.turns.append(
            TurnComparison(
                index=index + 1,
                user=user,
                classic=classic_turn,
                modern=modern_turn,
                diff=tuple(prompt_line_diff(classic_turn.injected_prompt, modern_turn.injected_prompt)),
                equivalence=_turn_equivalence(classic_turn, modern_turn),
            )
        )
    return run


__all__ = [
    "SAME_CONTEXT",
    "STEPS",
    "STEP_IDS",
    "SYSTEM_PROMPT",
    "Equivalence",
    "GuideStep",
    "MigrationRun",
    "Program",
    "TurnComparison",
    "VersionTurn",
    "all_steps",
    "built_deprecations",
    "compare_prompts",
    "export_programs",
    "in_language",
    "load_step",
    "prompt_line_diff",
    "prompt_lines",
    "run_both",
    "shown_programs",
]
