"""Scripted conversations (YAML): loading, validation and the bundled set."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from memory_demos.i18n import t

MAX_SCENARIO_BYTES = 256 * 1024
MAX_TURNS = 300
MAX_DEPTH = 6
MAX_USER_CHARS = 4000


class ScenarioError(ValueError):
    """A scenario file that cannot be used; ``reason`` names the problem (``scenario.<reason>``).

    ``str()`` is English (the command line, logs); ``describe()`` is in the session's language.
    """

    def __init__(self, reason: str, **fields: object) -> None:
        self.reason = reason
        self.fields = {name: str(value) for name, value in fields.items()}
        super().__init__(self.describe("en"))

    def describe(self, language: str | None = None) -> str:
        """The problem in ``language`` (default: the session's)."""
        return t(f"scenario.{self.reason}", language, **self.fields)


# Sentences that say the model cannot answer. Their words never count as recall: "I don't know
# where you live in Lisbon" must not pass a probe expecting "Lisbon".
REFUSAL_MARKERS = (
    "i can't answer",
    "i cannot answer",
    "can't answer your",
    "i don't know",
    "i do not know",
    "i'm not sure",
    "isn't in what i was given",
    "says nothing about",
    "i don't have",
    "i do not have",
    "no information",
    "回答不了",
    "无法回答",
    "不知道",
    "没有关于",
    "收到的内容里没有",
)


def is_refusal(sentence: str) -> bool:
    """True when a sentence says the model cannot answer."""
    lowered = sentence.lower().replace("’", "'")
    return any(marker in lowered for marker in REFUSAL_MARKERS)


def answering_text(reply: str) -> str:
    """The reply without its refusal sentences: what it actually claims."""
    sentences = re.split(r"(?<=[.!?。！？])\s*", reply)
    return " ".join(sentence for sentence in sentences if sentence and not is_refusal(sentence))


@dataclass(frozen=True)
class ScenarioTurn:
    """One scripted user message, strings one of which the reply must contain, and strings it must not."""

    user: str
    expect: tuple[str, ...] = ()
    reject: tuple[str, ...] = ()

    @property
    def is_probe(self) -> bool:
        return bool(self.expect or self.reject)

    def recalled(self, reply: str) -> list[str]:
        """The expected strings the reply states (never counting a refusal's words)."""
        claimed = answering_text(reply).lower()
        return [expected for expected in self.expect if expected.lower() in claimed]

    def rejected(self, reply: str) -> list[str]:
        """The strings the reply contains although it must not."""
        lowered = reply.lower()
        return [wrong for wrong in self.reject if wrong.lower() in lowered]

    def passed(self, reply: str) -> bool:
        """Passes when it states an expected string (if any are given) and no rejected one.

        An empty (or whitespace) reply says nothing: it fails the probe, whatever it was to avoid.
        """
        if not reply.strip() or self.rejected(reply):
            return False
        return not self.expect or bool(self.recalled(reply))


@dataclass(frozen=True)
class Scenario:
    """A scripted conversation: its turns (some of them probes with expected answers) and its language."""

    name: str
    language: str
    turns: tuple[ScenarioTurn, ...]
    system: str | None = None
    description: str = ""
    source: str = field(default="", compare=False)

    @property
    def probes(self) -> int:
        return sum(1 for turn in self.turns if turn.is_probe)


def _check_events(text: str) -> None:
    """Refuse anchors, aliases, custom tags and deep nesting before anything is built."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise ScenarioError("anchors")
            tag = getattr(event, "tag", None)
            implicit = getattr(event, "implicit", True)
            explicit = not any(implicit) if isinstance(implicit, tuple) else not implicit
            if tag and explicit:
                raise ScenarioError("tag", tag=tag)
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise ScenarioError("too_deep", depth=MAX_DEPTH)
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError as exc:
        raise ScenarioError("not_yaml", detail=exc) from None


def _strings(raw: dict[str, Any], field_name: str, index: int) -> tuple[str, ...]:
    values = raw.get(field_name, [])
    if isinstance(values, str | int):
        values = [values]
    if not isinstance(values, list) or not all(isinstance(v, str | int) for v in values):
        raise ScenarioError("not_strings", index=index, field=field_name)
    return tuple(str(v) for v in values if str(v).strip())


def _decoded(text: str | bytes) -> str:
    """``text`` as a string within the size limit, checked before decoding when it comes as bytes."""
    if isinstance(text, bytes):
        if len(text) > MAX_SCENARIO_BYTES:
            raise ScenarioError("bytes_over", size=len(text), limit=MAX_SCENARIO_BYTES)
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ScenarioError("not_utf8") from None
    if len(text.encode("utf-8")) > MAX_SCENARIO_BYTES:
        raise ScenarioError("too_large", limit=MAX_SCENARIO_BYTES)
    return text


def _header(data: dict[str, Any]) -> tuple[str, str, str | None, str]:
    """The scenario's name, language, system prompt and description, each checked."""
    unknown = set(data) - {"name", "language", "system", "turns", "description"}
    if unknown:
        raise ScenarioError("unknown_fields", names=", ".join(sorted(map(str, unknown))))
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ScenarioError("name")
    language = data.get("language", "en")
    if language not in {"en", "zh"}:
        raise ScenarioError("language")
    system = data.get("system")
    if system is not None and not isinstance(system, str):
        raise ScenarioError("system")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise ScenarioError("description")
    return name.strip(), language, system, description


def _turn(raw: Any, index: int) -> ScenarioTurn:
    """Turn ``index`` (from 1): a mapping with ``user`` and optional ``expect`` and ``reject`` lists."""
    if not isinstance(raw, dict):
        raise ScenarioError("turn_not_mapping", index=index)
    extra = set(raw) - {"user", "expect", "reject"}
    if extra:
        raise ScenarioError("turn_unknown_fields", index=index, names=", ".join(sorted(map(str, extra))))
    user = raw.get("user")
    if not isinstance(user, str) or not user.strip():
        raise ScenarioError("user_empty", index=index)
    if len(user) > MAX_USER_CHARS:
        raise ScenarioError("user_too_long", index=index, limit=MAX_USER_CHARS)
    checks = {field_name: _strings(raw, field_name, index) for field_name in ("expect", "reject")}
    return ScenarioTurn(user=user, **checks)


def parse_scenario(text: str | bytes, source: str = "<text>") -> Scenario:
    """Parse and validate scenario YAML (safe loader, size and shape limits)."""
    text = _decoded(text)
    _check_events(text)
    try:
        data: Any = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ScenarioError("not_yaml", detail=exc) from None
    if not isinstance(data, dict):
        raise ScenarioError("not_mapping")
    name, language, system, description = _header(data)
    raw_turns = data.get("turns")
    if not isinstance(raw_turns, list) or not raw_turns:
        raise ScenarioError("turns_empty")
    if len(raw_turns) > MAX_TURNS:
        raise ScenarioError("too_many_turns", count=len(raw_turns), limit=MAX_TURNS)
    turns = tuple(_turn(raw, index) for index, raw in enumerate(raw_turns, start=1))
    return Scenario(name, language, turns, system, description, source)


def bundled_names() -> list[str]:
    """Names of the scenarios shipped with Memory Lab."""
    folder = resources.files(__name__)
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))


def load_scenario(name_or_path: str) -> Scenario:
    """A bundled scenario by name, or a YAML file by path."""
    if name_or_path in bundled_names():
        resource = resources.files(__name__).joinpath(f"{name_or_path}.yaml")
        return parse_scenario(resource.read_bytes(), source=name_or_path)
    path = Path(name_or_path)
    if path.suffix in {".yaml", ".yml"} or path.exists():
        if not path.is_file():
            raise ScenarioError("no_file", path=path)
        if path.stat().st_size > MAX_SCENARIO_BYTES:
            raise ScenarioError("path_too_large", path=path, limit=MAX_SCENARIO_BYTES)
        return parse_scenario(path.read_bytes(), source=str(path))
    raise ScenarioError("unknown", name=repr(name_or_path), bundled=", ".join(bundled_names()))
