"""What a strategy declares without being built: its ``StrategyInfo`` and each ``ParamSpec``.

The registry, the CLI and the pages read these to list, describe and check strategies; building one
(``strategies.base``) is a separate, heavier step.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

StrategyKind = Literal["classic", "modern"]
ThresholdRole = Literal["budget", "trigger", "keep"]
ThresholdUnit = Literal["tokens", "messages", "exchanges", "tool_results"]
# Which part of the prompt a token limit counts: all of it, the messages (not the system prompt or the tool
# definitions), or the earlier conversation only (what a memory keeps verbatim).
ThresholdScope = Literal["prompt", "messages", "history"]
# Whom a part of a memory belongs to: one conversation (a thread_id, a session_id, a memory object of its
# own), or the user, across all of their conversations (a LangGraph store namespace ("users", user_id, ...)).
MemoryScope = Literal["conversation", "user"]
# The parts a memory can keep; each is a catalogue key ``memory.part.<name>``.
MemoryPartName = Literal[
    "messages", "summary", "entities", "vectors", "facts", "exchanges", "blocks", "memories"
]


class InputError(ValueError):
    """A user message or parameter that cannot be used; the message says why."""


@dataclass(frozen=True)
class ParamSpec:
    """One tunable parameter of a strategy (its CLI name is ``<strategy id>.<name>``).

    ``help`` is English, ``help_zh`` Simplified Chinese (English is shown where it is missing).
    """

    name: str
    default: Any
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] | None = None
    # ("store", "redis"): the parameter has an effect only while that other parameter has that value;
    # ("ttl_seconds", "!0"): only while it has another value than that (it may name the parameter itself).
    applies_when: tuple[str, str] | None = None
    help_zh: str = ""

    @property
    def type_name(self) -> str:
        return "choice" if self.choices else type(self.default).__name__

    def help_in(self, language: str) -> str:
        """The parameter's tooltip in ``language`` (``en`` or ``zh``)."""
        return (self.help_zh if language == "zh" else "") or self.help

    def parse(self, raw: Any, strategy_id: str = "") -> Any:
        """Convert and range-check a value; raises ``InputError`` naming the parameter."""
        label = f"{strategy_id}.{self.name}" if strategy_id else self.name
        if self.choices is not None:
            value = str(raw)
            if value not in self.choices:
                raise InputError(f"{label} must be one of {', '.join(self.choices)}; got {value!r}")
            return value
        if isinstance(self.default, bool):
            text = str(raw).strip().lower()
            if text in {"1", "true", "yes", "on"}:
                return True
            if text in {"0", "false", "no", "off"}:
                return False
            raise InputError(f"{label} must be true or false; got {raw!r}")
        if isinstance(self.default, int):
            try:
                value = int(str(raw).strip()) if not isinstance(raw, int) else raw
            except ValueError:
                raise InputError(f"{label} must be a whole number; got {raw!r}") from None
            if self.minimum is not None and value < self.minimum:
                raise InputError(f"{label} must be at least {self.minimum}; got {value}")
            if self.maximum is not None and value > self.maximum:
                raise InputError(f"{label} must be at most {self.maximum}; got {value}")
            return value
        return str(raw)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "type": self.type_name,
            "default": self.default,
            "help": self.help,
            "help_zh": self.help_zh,
        }
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.maximum is not None:
            data["maximum"] = self.maximum
        if self.choices is not None:
            data["choices"] = list(self.choices)
        if self.applies_when is not None:
            data["applies_when"] = dict([self.applies_when])
        return data


@dataclass(frozen=True)
class Threshold:
    """A limit the strategy acts on, read from one of its parameters: a budget it keeps the prompt under,
    a trigger past which it summarises or clears, or how much it keeps. The gauge draws token limits as
    lines, named by ``param``; the others are listed beside it."""

    param: str
    role: ThresholdRole
    unit: ThresholdUnit = "tokens"
    scope: ThresholdScope = "prompt"
    off_when_zero: bool = False  # 0 switches this limit off (agent_trim's max_tokens=0: trim by k)

    def value(self, params: Mapping[str, Any]) -> int | None:
        """The limit with these parameter values; None when it is switched off or not set."""
        value = params.get(self.param)
        if isinstance(value, bool) or not isinstance(value, int):
            return None
        return None if self.off_when_zero and value == 0 else value


@dataclass(frozen=True)
class MemoryPart:
    """One thing a strategy keeps and whom it belongs to: what a new conversation of the same user starts
    without (``conversation``) or carries over (``user``). Data, not prose: views translate ``name``
    (``memory.part.<name>``) and ``scope`` (``memory.scope.<scope>``)."""

    name: MemoryPartName
    scope: MemoryScope

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "scope": self.scope}


CONVERSATION_MESSAGES = MemoryPart("messages", "conversation")


@dataclass(frozen=True)
class StrategyInfo:
    """What the registry knows about a strategy without building it, its texts in both languages included.

    ``title`` and ``summary`` are English; ``title_zh`` and ``summary_zh`` Simplified Chinese (English is
    shown where one is missing).
    """

    id: str
    title: str
    kind: StrategyKind
    langchain_classes: tuple[str, ...]
    summary: str
    params: tuple[ParamSpec, ...] = ()
    title_zh: str = ""
    summary_zh: str = ""
    thresholds: tuple[Threshold, ...] = ()  # the limits the gauge marks (each names one of ``params``)
    # What the memory keeps, each part with its owner: a conversation or the user (see ``MemoryPart``).
    keeps: tuple[MemoryPart, ...] = (CONVERSATION_MESSAGES,)

    @property
    def carries_over(self) -> tuple[MemoryPart, ...]:
        """The parts a new conversation of the same user starts with: those kept per user."""
        return tuple(part for part in self.keeps if part.scope == "user")

    @property
    def per_conversation(self) -> tuple[MemoryPart, ...]:
        """The parts a new conversation starts without, and the ones "Reset" clears."""
        return tuple(part for part in self.keeps if part.scope == "conversation")

    def title_in(self, language: str) -> str:
        """The strategy's name in ``language`` (``en`` or ``zh``)."""
        return (self.title_zh if language == "zh" else "") or self.title

    def summary_in(self, language: str) -> str:
        """The strategy's one-line description in ``language`` (``en`` or ``zh``)."""
        return (self.summary_zh if language == "zh" else "") or self.summary

    def param(self, name: str) -> ParamSpec:
        for spec in self.params:
            if spec.name == name:
                return spec
        known = ", ".join(f"{self.id}.{p.name}" for p in self.params) or "none"
        raise InputError(f"{self.id} has no parameter {name!r} (known: {known})")

    def defaults(self) -> dict[str, Any]:
        """Every parameter at its default value."""
        return {spec.name: spec.default for spec in self.params}

    def resolve_params(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Defaults merged with the overrides, each converted and range-checked (strings or typed values)."""
        values = self.defaults()
        for name, raw in (overrides or {}).items():
            values[name] = self.param(name).parse(raw, self.id)
        return values

    def params_in_effect(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """``values`` without the parameters that do nothing with the others' values (a pane header shows
        ``ttl_seconds`` only with ``store=redis``, a store's ``refresh_on_read`` only with a TTL)."""
        shown = {}
        for name, value in values.items():
            spec = next((p for p in self.params if p.name == name), None)
            condition = spec.applies_when if spec is not None else None
            if condition is None:
                shown[name] = value
                continue
            other, wanted = str(values.get(condition[0])), condition[1]
            if (other != wanted[1:]) if wanted.startswith("!") else (other == wanted):
                shown[name] = value
        return shown

    def thresholds_in_effect(self, values: Mapping[str, Any]) -> list[tuple[Threshold, int]]:
        """Each declared limit with its value under ``values`` (the ones switched off left out)."""
        found = []
        for threshold in self.thresholds:
            value = threshold.value(values)
            if value is not None:
                found.append((threshold, value))
        return found

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "kind": self.kind,
            "langchain_classes": list(self.langchain_classes),
            "summary": self.summary,
            "title_zh": self.title_zh,
            "summary_zh": self.summary_zh,
            "params": [spec.to_json() for spec in self.params],
            "thresholds": [
                {"param": th.param, "role": th.role, "unit": th.unit, "scope": th.scope}
                for th in self.thresholds
            ],
            "keeps": [part.to_json() for part in self.keeps],
        }
