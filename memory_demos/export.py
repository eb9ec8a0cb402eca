"""Exports of a replay: JSON (the replay's fixed shape), CSV (scorecard rows), a Markdown report, and a
runnable Python script that rebuilds the same strategies and replays the same messages.

The script imports ``memory_demos`` and prints every turn's injected prompt as JSON, so anyone can
check that the numbers on screen come from the code. It never contains an API key.
"""

from __future__ import annotations

import csv
import io
import json
import pprint
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from memory_demos.defaults import DEFAULT_SYSTEM_PROMPT
from memory_demos.i18n import t, translate
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.replay import ReplayResult
from memory_demos.scenarios import Scenario
from memory_demos.scorecard import (
    ESTIMATE_NOTE_KEY,
    PRICE_DATE,
    PRICE_SOURCE,
    PRICES_LABEL_KEY,
    Price,
    ScorecardRow,
)

CSV_COLUMNS: tuple[str, ...] = (
    "strategy",
    "recall_passed",
    "recall_asked",
    "prompt_tokens",
    "completion_tokens",
    "memory_tokens",
    "total_tokens",
    "input_tokens",
    "output_tokens",
    "model_calls",
    "errors",
    "estimated_cost_usd",
    "price_model",
    "mean_latency_seconds",
    "recall_failed",
    "cached_input_tokens",
    "cost_with_cache_usd",
)
StrategySpec = Mapping[str, Any]


def result_json(result: ReplayResult) -> str:
    """The replay as JSON, exactly the shape ``python -m memory_demos replay --json`` prints."""
    return json.dumps(result.to_json(), ensure_ascii=False, indent=2)


def scorecard_csv(rows: Iterable[ScorecardRow]) -> str:
    """The scorecard rows as CSV (one line per strategy)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(CSV_COLUMNS), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        data = row.to_dict()
        writer.writerow({column: data[column] for column in CSV_COLUMNS})
    return buffer.getvalue()


# Underscores inside a word (summary_buffer) are not emphasis in CommonMark: they stay as they are.
_MARKDOWN_SPECIALS = re.compile(r"([\\`*\[\]!|~]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z]))")


def _cell(value: Any) -> str:
    """Untrusted text as inert Markdown: line breaks flattened, HTML and Markdown syntax escaped.

    Scenario and price-table names come from uploads: without this, ``<img src=...>`` or
    ``![x](https://...)`` in a name would load a remote image wherever the report is viewed.
    """
    text = " ".join(str(value).split())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MARKDOWN_SPECIALS.sub(r"\\\1", text)


def _timeline_cell(entry: Mapping[str, Any], language: str) -> str:
    """A probe's outcome: the failed call's kind, what was recalled, or passed/missed."""
    if entry.get("outcome") == "failed":
        return t("export.md.call_failed", language, kind=entry.get("error_kind") or "other")
    if entry["passed"]:
        return ", ".join(entry["recalled"]) or t("export.md.passed", language)
    said = ", ".join(entry.get("rejected") or ())
    return t("export.md.missed_said", language, said=said) if said else t("export.md.missed", language)


def _table_head(columns_key: str, alignment: str, language: str) -> list[str]:
    """A Markdown table's header row (its column names in ``language``) and its alignment row."""
    return [f"| {t(columns_key, language)} |", alignment]


def markdown_report(
    result: ReplayResult,
    rows: Sequence[ScorecardRow],
    *,
    scenario: Scenario | None = None,
    prices: Sequence[Price] = (),
    timeline: Sequence[Mapping[str, Any]] = (),
    language: str = "en",
) -> str:
    """A self-contained Markdown report: the scorecard, the recall timeline and the price table used, its
    headings and labels in ``language`` (names, questions and replies as they are)."""
    strategies = ", ".join(_cell(run.strategy_id) for run in result.runs)
    temperature = _temperature_text(result.temperature, language)
    lines = [
        f"# {t('export.md.scorecard_title', language, scenario=_cell(result.scenario))}",
        "",
        f"- {t('export.md.provider', language, provider=_cell(result.provider))}",
        f"- {t('export.md.temperature', language, temperature=temperature)}",
        f"- {t('export.md.strategies', language, strategies=strategies)}",
    ]
    if scenario is not None:
        lines.append(f"- {t('export.md.turns', language, turns=len(scenario.turns), probes=scenario.probes)}")
        if scenario.description:
            lines.append(f"- {t('export.md.scenario', language, description=_cell(scenario.description))}")
    lines += [
        "",
        f"## {t('export.md.scorecard', language)}",
        "",
        *_table_head(
            "export.md.scorecard_columns",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|",
            language,
        ),
    ]
    for row in rows:
        cache_note = (
            t(row.cache_note_key, language, **dict(row.cache_note_args)) if row.cache_note_key else ""
        )
        lines.append(
            f"| {_cell(row.strategy)} | {row.recall} | {row.prompt_tokens} | {row.memory_tokens} | "
            f"{row.total_tokens} | {row.model_calls} | {row.errors} | {row.empty_replies} | "
            f"~{row.estimated_cost_usd:.6f} "
            f"({_cell(row.price_model)}) | ~{row.cost_with_cache_usd:.6f} | {cache_note} | "
            f"{row.mean_latency_seconds:.3f} |"
        )
    lines += ["", f"_{t(ESTIMATE_NOTE_KEY, language)}_", ""]
    if timeline:
        lines += [
            f"## {t('export.md.timeline', language)}",
            "",
            *_table_head("export.md.timeline_columns", "|---:|---|---|---|---|", language),
        ]
        for entry in timeline:
            recalled = _timeline_cell(entry, language)
            lines.append(
                f"| {entry['turn']} | {_cell(entry['question'])} | {_cell(entry['strategy'])} | "
                f"{_cell(', '.join(entry['expected']))} | {_cell(recalled)} |"
            )
        lines.append("")
    if prices:
        label = t(PRICES_LABEL_KEY, language, source=PRICE_SOURCE, date=PRICE_DATE)
        lines += [
            f"## {t('export.md.prices', language, label=label)}",
            "",
            *_table_head("export.md.price_columns", "|---|---:|---:|---:|", language),
        ]
        lines += [
            f"| {_cell(p.model)} | {p.input_per_million:g} | {p.output_per_million:g} | "
            f"{'' if p.cached_input_per_million is None else f'{p.cached_input_per_million:g}'} |"
            for p in prices
        ]
        lines.append("")
    return "\n".join(lines)


# -- the runnable script --------------------------------------------------------------------------

CONVERSATION_SCRIPT_NAME = "memory_lab_conversation.py"  # the Compare page's download


def conversation_markdown(result: ReplayResult, language: str = "en") -> str:
    """A Compare conversation as Markdown: per pane, every turn's message, reply and tokens (text escaped),
    its headings in ``language``."""
    lines = [f"# {t('export.md.conversation_title', language, provider=_cell(result.provider))}", ""]
    for number, run in enumerate(result.runs, start=1):
        params = ", ".join(f"{name}={value}" for name, value in run.params.items())
        lines += [
            f"## {number}. {_cell(run.strategy_id)}" + (f" ({_cell(params)})" if params else ""),
            "",
            *_table_head("export.md.conversation_columns", "|---:|---|---|---:|---:|---:|", language),
        ]
        for index, turn in enumerate(run.turns, start=1):
            reply = (
                turn.reply
                if turn.error is None
                else t("export.md.turn_failed", language, error=translate(turn.error, language))
            )
            lines.append(
                f"| {index} | {_cell(turn.user_text)} | {_cell(reply)} | {turn.prompt_tokens} | "
                f"{turn.memory_tokens} | {turn.total_tokens} |"
            )
        lines.append("")
    return "\n".join(lines)


_SCRIPT_TEMPLATE = '''\
#!/usr/bin/env python
"""Replay a conversation through Memory Lab strategies and print what each one injected into the prompt.

Generated by Memory Lab on {generated}. Run it from any folder, with Memory Lab's requirements installed:
``python {filename} > injected_prompts.json``. It finds Memory Lab's code (``memory_demos``) next to this
file, in MEMORY_LAB_HOME, or in the folder it was made in.
{key_note}
"""

import json
import os
import sys
from pathlib import Path

MADE_IN = {home}  # the Memory Lab folder that wrote this file (None: not said, e.g. a workshop server's)


def _find_memory_lab():
    """Put the Memory Lab folder (the one holding memory_demos/) on the import path, or exit saying how."""
    places = [Path(__file__).resolve().parent, os.environ.get("MEMORY_LAB_HOME"), MADE_IN]
    for place in places:
        if place and (Path(place) / "memory_demos").is_dir():
            sys.path.insert(0, str(Path(place).resolve()))
            return
    sys.exit("Memory Lab's code (memory_demos/) was not found: set MEMORY_LAB_HOME to the Memory Lab folder.")


_find_memory_lab()

from memory_demos.providers.chat_models import ProviderConfig  # noqa: E402 - found by _find_memory_lab
from memory_demos.strategies.base import StrategyContext  # noqa: E402
from memory_demos.strategies.registry import build_strategy  # noqa: E402

PROVIDER = {provider}
SYSTEM_PROMPT = {system_prompt}
LANGUAGE = {language}  # picks the embedding model of a retrieval strategy whose embeddings= is "auto"
STRATEGIES = {strategies}
USER_MESSAGES = {messages}


def replay_one(strategy_id, params):
    """Build one strategy with its parameters and send it every message; return what the model received."""
    context = StrategyContext(provider=PROVIDER, system_prompt=SYSTEM_PROMPT, language=LANGUAGE)
    strategy = build_strategy(strategy_id, context, params)
    conversations = [strategy]
    turns = []
    try:
        for text in USER_MESSAGES:
            if isinstance(text, dict):  # {{"session": "new"}}: the same user's next conversation
                strategy = strategy.new_conversation()
                conversations.append(strategy)
                continue
            turn = strategy.send(text)
            turns.append(
                {{
                    "user": text,
                    "reply": turn.reply,
                    "injected_prompt": [message.to_json() for message in turn.injected_prompt],
                    "prompt_tokens": turn.prompt_tokens,
                    "error": turn.error,
                }}
            )
    finally:
        for conversation in conversations:
            conversation.close()
    return {{"strategy": strategy_id, "params": params, "turns": turns}}


def main():
    results = [replay_one(spec["id"], spec["params"]) for spec in STRATEGIES]
    json.dump({{"results": results}}, sys.stdout, ensure_ascii=False, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''


def _literal(value: Any) -> str:
    """A Python literal for plain data (str, int, float, bool, None, lists, dicts): safe to paste in code."""
    return pprint.pformat(value, width=100, sort_dicts=False)


def _temperature_text(temperature: float | None, language: str = "en") -> str:
    return t("export.md.server_default", language) if temperature is None else f"{temperature:g}"


def _provider_literal(provider: ProviderConfig) -> str:
    """The provider's constructor call without the API key (the script reads OPENAI_API_KEY instead).

    A workshop model's base URL is the host's secret too: the script names the model only.
    """
    defaults = ProviderConfig()
    fields: dict[str, Any] = {"kind": provider.kind, "model": provider.model}
    if provider.base_url and not provider.hosted:
        fields["base_url"] = provider.base_url
    bounds = ("timeout_seconds", "max_tokens", "max_concurrent_panes", "context_window_tokens", "api_key_env")
    bounds += ("temperature",)
    for name in ("latency_ms", "fail_on_calls", "fail_purposes", "drift", *bounds):
        value = getattr(provider, name)
        if value != getattr(defaults, name):
            fields[name] = value
    arguments = ", ".join(f"{name}={_literal(value)}" for name, value in fields.items())
    return f"ProviderConfig({arguments})"


def _normalise_specs(
    specs: Iterable[StrategySpec | tuple[str, Mapping[str, Any]] | str],
) -> list[dict[str, Any]]:
    normalised = []
    for spec in specs:
        if isinstance(spec, str):
            strategy_id, params = spec, {}
        elif isinstance(spec, tuple):
            strategy_id, params = spec
        else:
            strategy_id, params = spec["id"], spec.get("params") or {}
        normalised.append({"id": str(strategy_id), "params": dict(params)})
    return normalised


def build_script(
    strategy_specs: Iterable[StrategySpec | tuple[str, Mapping[str, Any]] | str],
    user_messages: Sequence[str | dict[str, str]],
    *,
    provider: ProviderConfig | None = None,
    system_prompt: str | None = None,
    filename: str = "memory_lab_replay.py",
    language: str = "en",
) -> str:
    """A runnable script that rebuilds ``strategy_specs`` (``{"id", "params"}``) and replays the messages
    (in ``language``, which picks the embedding model of an ``embeddings=auto`` retrieval strategy); a
    ``{"session": "new"}`` among them starts the same user's next conversation there."""
    provider = provider or ProviderConfig()
    specs = _normalise_specs(strategy_specs)
    if not specs:
        raise ValueError("The script needs at least one strategy.")
    if not user_messages:
        raise ValueError("The script needs at least one user message.")
    if provider.hosted:
        key_note = (
            "It was made with the workshop's model, whose address and key stay on the workshop server: "
            "add base_url= to PROVIDER for a server of your own (and api_key_env='NAME' if it needs a key)."
        )
    elif provider.kind == "openai_compatible":
        key_note = (
            "No API key is in this file, and OPENAI_API_KEY is not sent to this server: if it needs a key, "
            "add api_key_env='NAME' to PROVIDER, NAME being the variable that holds it."
        )
    elif provider.kind != "offline":
        key_note = "The API key is not in this file: set OPENAI_API_KEY before running it."
    else:
        key_note = "It uses the offline teaching model: no network, no key."
    # The folder that made it lets the script run from anywhere on this machine; a workshop server's own
    # path is none of the attendee's business.
    home = None if provider.hosted else str(Path(__file__).resolve().parents[1])
    return _SCRIPT_TEMPLATE.format(
        home=_literal(home),
        generated=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        filename=filename,
        key_note=key_note,
        provider=_provider_literal(provider),
        system_prompt=_literal(system_prompt if system_prompt is not None else DEFAULT_SYSTEM_PROMPT),
        language=_literal(language),
        strategies=_literal(specs),
        messages=_literal(list(user_messages)),
    )


def export_stem(scenario: Scenario) -> str:
    """The name (without extension) of a scenario's downloads, e.g. ``memory_lab_name_recall``."""
    return "memory_lab_" + "".join(ch if ch.isalnum() else "_" for ch in scenario.name.lower())[:40]


def replay_script(result: ReplayResult, scenario: Scenario, provider: ProviderConfig | None = None) -> str:
    """The script that reproduces ``result``: same strategies, same resolved parameters, same messages.

    Its docstring names the file the Scorecard downloads it as (``export_stem(scenario) + ".py"``).
    """
    specs = [{"id": run.strategy_id, "params": dict(run.params)} for run in result.runs]
    # A session break becomes {"session": "new"} before its first message (its ``after:`` is not replayed:
    # the script runs on the wall clock).
    messages: list[str | dict[str, str]] = []
    for turn in scenario.turns:
        if turn.new_session:
            messages.append({"session": "new"})
        messages.append(turn.user)
    return build_script(
        specs,
        messages,
        provider=provider,
        system_prompt=scenario.system or DEFAULT_SYSTEM_PROMPT,
        filename=f"{export_stem(scenario)}.py",
        language=scenario.language,
    )


def export_conversation_script(
    strategy_specs: Iterable[StrategySpec | tuple[str, Mapping[str, Any]] | str],
    user_messages: Sequence[str],
    provider: ProviderConfig | None = None,
    system_prompt: str | None = None,
    language: str = "en",
) -> str:
    """The Compare page's conversation as a runnable script (its panes' strategies, the messages sent)."""
    return build_script(
        strategy_specs,
        user_messages,
        provider=provider,
        system_prompt=system_prompt,
        filename=CONVERSATION_SCRIPT_NAME,
        language=language,
    )
