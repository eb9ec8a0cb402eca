"""The flags shared by ``replay`` and ``chat``: ``--param`` and the provider, with what they describe.

``--param ID.NAME=VALUE`` has one syntax for every command; the values stay strings here and are
converted and checked once, by ``registry.parse_params`` when the strategy is built.

Keys follow the same rule as Settings: ``OPENAI_API_KEY`` is read only for OpenAI itself. A custom
base URL gets no key, hence no ``Authorization`` header, unless ``--api-key-env NAME`` names the
variable that holds one.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from memory_demos.providers.api_keys import key_from_environment
from memory_demos.providers.bounds import (
    CONCURRENCY,
    CONTEXT_WINDOW,
    MAX_TOKENS,
    TEMPERATURE,
    TIMEOUT,
    SettingRange,
)
from memory_demos.providers.chat_models import DEFAULT_MAX_TOKENS, DEFAULT_TIMEOUT_SECONDS, ProviderConfig
from memory_demos.providers.context_window import with_server_context_window
from memory_demos.strategies.base import InputError

PROVIDERS = ("offline", "openai", "openai_compatible")
DEFAULT_COMPATIBLE_MODEL = "llama3.1"


PARAM_METAVAR = "ID.NAME=VALUE"


def add_param_argument(parser: argparse.ArgumentParser) -> None:
    """``--param ID.NAME=VALUE``, repeatable, the same for every command."""
    parser.add_argument(
        "--param",
        action="append",
        metavar=PARAM_METAVAR,
        help="a strategy parameter, e.g. window.k=2 (see `strategies` for each strategy's parameters)",
    )


def param_assignments(items: Sequence[str] | None, strategy_ids: Sequence[str]) -> dict[str, dict[str, str]]:
    """``["window.k=2", ...]`` → ``{"window": {"k": "2"}}``; each id must be one the command runs.

    Only the syntax is checked here: the values are parsed when each strategy is built.
    """
    params: dict[str, dict[str, str]] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        strategy_id, dot, name = key.strip().partition(".")
        if not sep or not dot or not strategy_id or not name:
            raise InputError(f"--param must look like id.name=value (e.g. window.k=2); got {item!r}")
        if strategy_id not in strategy_ids:
            run = ", ".join(strategy_ids)
            raise InputError(f"--param names {strategy_id!r}, which is not among the strategies run ({run})")
        params.setdefault(strategy_id, {})[name.strip()] = value.strip()
    return params


def range_words(setting: SettingRange) -> str:
    """How a range reads in a message: ``from 1 to 600``, or ``0 (automatic) or from 512 to ...``."""
    words = f"from {setting.lowest:,} to {setting.highest:,}"
    if setting.fractions:
        words += " (fractions allowed)"
    return f"0 (automatic) or {words}" if setting.zero_means_auto else words


def _within(setting: SettingRange, kind: type) -> Callable[[str], Any]:
    """An argparse type that accepts what Settings accepts for ``setting``, from ``bounds.py``.

    argparse names the flag and exits with status 2 when this raises ``ArgumentTypeError``.
    """

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not setting.accepts(value):
            raise argparse.ArgumentTypeError(f"must be {range_words(setting)}; got {text!r}")
        return value

    return parse


def add_provider_arguments(parser: argparse.ArgumentParser) -> None:
    """``--provider``, ``--model``, ``--base-url`` and the bounds every real provider needs."""
    parser.add_argument("--provider", default="offline", choices=PROVIDERS)
    parser.add_argument("--model", default=None)
    parser.add_argument("--base-url", default=None)
    parser.add_argument(
        "--api-key-env",
        default=None,
        metavar="NAME",
        help="the environment variable holding the key (default: OPENAI_API_KEY for --provider openai, "
        "none for a custom base URL)",
    )
    parser.add_argument(
        "--timeout",
        type=_within(TIMEOUT, float),
        default=DEFAULT_TIMEOUT_SECONDS,
        help="seconds to wait for the server, and at most to stream one reply "
        f"(default {DEFAULT_TIMEOUT_SECONDS:g})",
    )
    parser.add_argument(
        "--max-tokens",
        type=_within(MAX_TOKENS, int),
        default=DEFAULT_MAX_TOKENS,
        help="tokens per reply at most; a longer reply is kept, marked as cut "
        f"(default {DEFAULT_MAX_TOKENS})",
    )
    parser.add_argument(
        "--concurrency",
        type=_within(CONCURRENCY, int),
        default=1,
        help="model calls at most N at a time, 0 for all at once (1 for a server that serves one request "
        "at a time)",
    )
    parser.add_argument(
        "--temperature",
        type=_within(TEMPERATURE, float),
        default=None,
        help="sampling temperature, 0 to 2 (default: 0 for replay, so runs repeat; the server's own for "
        "chat)",
    )
    parser.add_argument(
        "--context-window",
        type=_within(CONTEXT_WINDOW, int),
        default=None,
        help="the model's context window in tokens, 0 for automatic (default: known models, else ask the "
        "server)",
    )


def provider_from_args(args: argparse.Namespace, *, latency_ms: int = 0) -> ProviderConfig:
    """The ``ProviderConfig`` the flags describe; ``InputError`` for a combination that cannot work."""
    bounds = {
        "timeout_seconds": args.timeout,
        "max_tokens": args.max_tokens,
        "max_concurrent_panes": args.concurrency,
        "temperature": getattr(args, "temperature", None),
    }
    if args.context_window:
        if args.max_tokens >= args.context_window:
            raise InputError(
                f"--max-tokens {args.max_tokens} must be smaller than --context-window "
                f"{args.context_window}, or no prompt fits beside the reply"
            )
        bounds |= {"context_window_tokens": args.context_window, "context_window_source": "--context-window"}
    if args.provider == "offline":
        return ProviderConfig(latency_ms=latency_ms, **bounds)
    if args.api_key_env and key_from_environment(args.api_key_env) is None:
        raise InputError(f"--api-key-env names {args.api_key_env}, which is not set")
    keys = {"api_key_env": args.api_key_env}  # None: OPENAI_API_KEY for OpenAI, no key elsewhere
    if args.provider == "openai":
        return ProviderConfig(kind="openai", model=args.model or "gpt-4o-mini", **keys, **bounds)
    if not args.base_url:
        raise InputError("--provider openai_compatible needs --base-url")
    config = ProviderConfig(
        kind="openai_compatible",
        model=args.model or DEFAULT_COMPATIBLE_MODEL,
        base_url=args.base_url,
        **keys,
        **bounds,
    )
    return config if args.context_window else with_server_context_window(config)
