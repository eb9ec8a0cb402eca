"""``bench model --battery DIR``: everyday conversations played through real strategies, probes scored.

A battery is a folder of YAML files, each a list of conversations (``id``, ``topic``, ``language``,
``turns``; a turn has ``user`` and optionally ``expect`` (any of), ``expect_all``, ``reject`` and
``refuse``). Each conversation goes turn by turn through the registry's ``buffer`` strategy on the
offline model, and again through ``window`` with k=1 to count facts stated after they left the window.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from memory_demos.scenarios import answering_text, is_refusal


@dataclass(frozen=True)
class Probe:
    """One checked user message of a battery conversation."""

    user: str
    expect: tuple[str, ...] = ()
    expect_all: tuple[str, ...] = ()
    reject: tuple[str, ...] = ()
    refuse: bool = False

    @property
    def is_probe(self) -> bool:
        return bool(self.expect or self.expect_all or self.reject or self.refuse)

    @property
    def wanted(self) -> tuple[str, ...]:
        return (*self.expect, *self.expect_all)

    def passed(self, reply: str) -> bool:
        """Whether ``reply`` answers this probe as the battery expects."""
        lowered, claimed = reply.lower(), answering_text(reply).lower()
        if any(wrong.lower() in lowered for wrong in self.reject):
            return False
        if self.refuse:
            return refused(reply)
        if self.expect and not any(e.lower() in claimed for e in self.expect):
            return False
        return all(e.lower() in claimed for e in self.expect_all)


@dataclass(frozen=True)
class Conversation:
    """One battery conversation: its id, topic, language and turns."""

    id: str
    topic: str
    language: str
    turns: tuple[Probe, ...]


def refused(reply: str) -> bool:
    """A refusal: it says it cannot answer and claims nothing else."""
    return is_refusal(reply) and not answering_text(reply).strip(" .。")


def _strings(raw: Any) -> tuple[str, ...]:
    if raw is None:
        return ()
    return tuple(str(item) for item in (raw if isinstance(raw, list) else [raw]))


def load_battery(folder: Path) -> list[Conversation]:
    """Every conversation of every ``*.yaml`` / ``*.yml`` file in ``folder``, files in name order."""
    paths = sorted([*folder.glob("*.yaml"), *folder.glob("*.yml")])
    conversations: list[Conversation] = []
    for path in paths:
        for raw in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            turns = tuple(
                Probe(
                    str(turn["user"]),
                    _strings(turn.get("expect")),
                    _strings(turn.get("expect_all")),
                    _strings(turn.get("reject")),
                    bool(turn.get("refuse", False)),
                )
                for turn in raw["turns"]
            )
            conversations.append(
                Conversation(str(raw["id"]), str(raw.get("topic", "")), str(raw.get("language", "en")), turns)
            )
    return conversations


@dataclass
class Tally:
    """Counts for one language (or all)."""

    probes: int = 0
    passed: int = 0
    facts: int = 0
    facts_stated: int = 0
    refusals: int = 0
    refusals_right: int = 0
    gone: int = 0  # window k=1: probes whose fact had left the window
    leaked: int = 0  # ... and were answered with it all the same
    failures: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in (
            "probes",
            "passed",
            "facts",
            "facts_stated",
            "refusals",
            "refusals_right",
            "gone",
            "leaked",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.failures += other.failures


def _strategy(strategy_id: str, params: dict[str, Any] | None = None) -> Any:
    from memory_demos.lab_config import load_lab_config
    from memory_demos.providers.chat_models import ProviderConfig
    from memory_demos.strategies.base import StrategyContext
    from memory_demos.strategies.registry import build_strategy

    context = StrategyContext.from_config(load_lab_config(), provider=ProviderConfig())
    return build_strategy(strategy_id, context, params)


def play(
    conversation: Conversation, strategy_id: str = "buffer", params: dict[str, Any] | None = None
) -> list[Any]:
    """The turns of one conversation played through a fresh strategy."""
    # LangChain's deprecation notices are recorded (the strategy keeps them too), not printed among figures.
    with warnings.catch_warnings(record=True):
        strategy = _strategy(strategy_id, params)
        try:
            return [strategy.send(turn.user) for turn in conversation.turns]
        finally:
            strategy.close()


def score(conversation: Conversation, *, window: bool = True) -> Tally:
    """One conversation's probes through ``buffer`` (and, with ``window``, through ``window`` k=1)."""
    tally = Tally()
    for probe, turn in zip(conversation.turns, play(conversation), strict=True):
        if not probe.is_probe:
            continue
        ok = probe.passed(turn.reply)
        tally.probes += 1
        tally.passed += ok
        if probe.refuse:
            tally.refusals += 1
            tally.refusals_right += ok
        else:
            tally.facts += 1
            tally.facts_stated += ok
        if not ok:
            failed_call = f" [failed: {turn.error}]" if turn.error else ""  # not a reply, not a refusal
            tally.failures.append(f"{conversation.id}: {probe.user!r} -> {turn.reply!r}{failed_call}")
    if window:
        for probe, turn in zip(conversation.turns, play(conversation, "window", {"k": 1}), strict=True):
            if probe.refuse or not probe.wanted or turn.reply_call is None:
                continue
            prompt = " ".join(m.content for m in turn.reply_call.messages).lower()
            if any(w.lower() in prompt for w in probe.wanted):
                continue
            tally.gone += 1
            claimed = answering_text(turn.reply).lower()
            if any(w.lower() in claimed for w in probe.wanted):
                tally.leaked += 1
                tally.failures.append(
                    f"{conversation.id} (window k=1, fact gone): {probe.user!r} -> {turn.reply!r}"
                )
    return tally


def run_battery(conversations: Iterable[Conversation], *, window: bool = True) -> dict[str, Tally]:
    """Tallies per language ("en", "zh") and in all ("all")."""
    tallies = {"en": Tally(), "zh": Tally(), "all": Tally()}
    for conversation in conversations:
        tally = score(conversation, window=window)
        tallies.setdefault(conversation.language, Tally()).add(tally)
        tallies["all"].add(tally)
    return tallies


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f} %)" if whole else "-"


def battery_report(
    folder: Path, *, show_failures: bool = False, window: bool = True
) -> tuple[int, list[str]]:
    """Play the battery in ``folder``; print pass rates (English and Chinese apart). Returns (exit, lines)."""
    conversations = load_battery(folder)
    tallies = run_battery(conversations, window=window)
    lines = [f"Battery {folder}: {len(conversations)} conversations, offline model, strategy buffer"]
    lines.append(
        f"{'':<6} {'probes passed':>20} {'facts stated':>20} {'refusals right':>20} {'window k=1 leaks':>17}"
    )
    for language in ("en", "zh", "all"):
        tally = tallies.get(language, Tally())
        leaks = f"{tally.leaked}/{tally.gone}" if window else "-"
        lines.append(
            f"{language:<6} {_pct(tally.passed, tally.probes):>20} "
            f"{_pct(tally.facts_stated, tally.facts):>20} "
            f"{_pct(tally.refusals_right, tally.refusals):>20} {leaks:>17}"
        )
    if show_failures:
        lines += ["", "Failures:", *tallies["all"].failures]
    return 0, lines


def print_battery(folder: Path, *, show_failures: bool = False, window: bool = True) -> int:
    """``bench model --battery DIR``: print the battery's figures."""
    code, lines = battery_report(folder, show_failures=show_failures, window=window)
    print("\n".join(lines))
    return code


def pass_rates(conversations: Sequence[Conversation]) -> dict[str, float]:
    """Pass rate per language, without the window run (for tests)."""
    tallies = run_battery(conversations, window=False)
    return {lang: t.passed / t.probes for lang, t in tallies.items() if t.probes}
