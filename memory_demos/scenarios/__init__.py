"""Scripted conversations (YAML): loading, validation and the bundled set."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import timedelta
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from memory_demos.clock import parse_duration
from memory_demos.i18n import t

MAX_SCENARIO_BYTES = 256 * 1024
MAX_TURNS = 300
MAX_DEPTH = 6
MAX_USER_CHARS = 4000

# What a probe tests, for the scorecard's groups. A probe may name its kind; otherwise it is inferred
# (``ScenarioTurn.probe_kind``).
PROBE_KINDS = ("same_conversation", "across_conversations", "after_change", "after_time", "should_refuse")


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
    sentences = re.split(r"(?<=[.!?])\s+|(?<=[。！？])\s*", reply)  # "2.5 baths." is one sentence
    return " ".join(sentence for sentence in sentences if sentence and not is_refusal(sentence))


@dataclass(frozen=True)
class ScenarioTurn:
    """One scripted user message, strings one of which the reply must contain, and strings it must not.

    ``session`` numbers the conversation the message belongs to (1, then one more after each
    ``- session: new``); the first message of a later session has ``new_session`` set and, when the break
    said ``after: 3 days``, the simulated time that passed (``gap``, written as ``after``). ``abstain``:
    no session told the answer, so the reply must say it cannot answer.
    """

    user: str
    expect: tuple[str, ...] = ()
    reject: tuple[str, ...] = ()
    session: int = 1
    new_session: bool = False
    after: str = ""
    gap: timedelta | None = None
    abstain: bool = False
    kind: str | None = None  # one of PROBE_KINDS, as the scenario wrote it (None: inferred)

    @property
    def is_probe(self) -> bool:
        return bool(self.expect or self.reject or self.abstain)

    @property
    def probe_kind(self) -> str | None:
        """What the probe tests (None for a message that is no probe): as written (``kind``; only a
        scenario knows that a question is about time passing, ``after_time``), else should_refuse for an
        abstention, after_change for a probe that rejects an old answer, across_conversations in a later
        session, same_conversation in the first."""
        if not self.is_probe:
            return None
        if self.kind is not None:
            return self.kind
        if self.abstain:
            return "should_refuse"
        if self.reject:
            return "after_change"
        return "across_conversations" if self.session > 1 else "same_conversation"

    def recalled(self, reply: str) -> list[str]:
        """The expected strings the reply states (never counting a refusal's words)."""
        claimed = answering_text(reply).lower()
        return [expected for expected in self.expect if expected.lower() in claimed]

    def rejected(self, reply: str) -> list[str]:
        """The strings the reply contains although it must not."""
        lowered = reply.lower()
        return [wrong for wrong in self.reject if wrong.lower() in lowered]

    def refused(self, reply: str) -> bool:
        """True when the reply says it cannot answer (one of its sentences is a refusal)."""
        return any(is_refusal(sentence) for sentence in re.split(r"(?<=[.!?。！？])\s*", reply) if sentence)

    def passed(self, reply: str) -> bool:
        """Passes when it states an expected string (if any are given) and no rejected one; an abstention
        passes when the reply says it cannot answer and states no rejected string.

        An empty (or whitespace) reply says nothing: it fails the probe, whatever it was to avoid.
        """
        if not reply.strip() or self.rejected(reply):
            return False
        if self.abstain and not self.refused(reply):
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

    @property
    def sessions(self) -> int:
        """How many conversations the scenario has (1 without a ``- session: new``)."""
        return self.turns[-1].session if self.turns else 1


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
    """Turn ``index`` (from 1): a mapping with ``user``, optional ``expect`` and ``reject`` lists, optional
    ``abstain: true`` and ``kind``."""
    if not isinstance(raw, dict):
        raise ScenarioError("turn_not_mapping", index=index)
    extra = set(raw) - {"user", "expect", "reject", "abstain", "kind"}
    if extra:
        raise ScenarioError("turn_unknown_fields", index=index, names=", ".join(sorted(map(str, extra))))
    user = raw.get("user")
    if not isinstance(user, str) or not user.strip():
        raise ScenarioError("user_empty", index=index)
    if len(user) > MAX_USER_CHARS:
        raise ScenarioError("user_too_long", index=index, limit=MAX_USER_CHARS)
    checks = {field_name: _strings(raw, field_name, index) for field_name in ("expect", "reject")}
    abstain = raw.get("abstain", False)
    if not isinstance(abstain, bool):
        raise ScenarioError("abstain_not_bool", index=index)
    if abstain and checks["expect"]:
        raise ScenarioError("abstain_with_expect", index=index)
    kind = raw.get("kind")
    if kind is not None and kind not in PROBE_KINDS:
        raise ScenarioError("kind_unknown", index=index, value=kind, kinds=", ".join(PROBE_KINDS))
    if kind is not None and not (checks["expect"] or checks["reject"] or abstain):
        raise ScenarioError("kind_without_probe", index=index)
    return ScenarioTurn(user=user, abstain=abstain, kind=kind, **checks)


def _session_break(raw: dict[str, Any], index: int) -> tuple[str, timedelta | None]:
    """Item ``index``: ``{session: new}`` with an optional ``after`` duration, as (its text, its length)."""
    if set(raw) - {"session", "after"} or raw.get("session") != "new":
        raise ScenarioError("session_form", index=index)
    if "after" not in raw:
        return "", None
    text = str(raw["after"])
    gap = parse_duration(text)
    if gap is None:
        raise ScenarioError("after_invalid", index=index, value=text)
    return text.strip(), gap


def _turns(raw_turns: list[Any]) -> tuple[ScenarioTurn, ...]:
    """The scenario's messages, each knowing its session; ``- session: new`` items start the next one."""
    turns: list[ScenarioTurn] = []
    session, pending = 1, None
    for index, raw in enumerate(raw_turns, start=1):
        if isinstance(raw, dict) and "session" in raw:
            if not turns:
                raise ScenarioError("session_first", index=index)
            if pending is not None:
                raise ScenarioError("session_twice", index=index)
            pending = _session_break(raw, index)
            continue
        turn = _turn(raw, index)
        if pending is not None:
            session += 1
            after, gap = pending
            turn = replace(turn, new_session=True, after=after, gap=gap)
            pending = None
        turns.append(replace(turn, session=session))
    if pending is not None:
        raise ScenarioError("session_last")
    return tuple(turns)


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
    turns = _turns(raw_turns)
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
