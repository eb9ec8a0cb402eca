"""Which part of a prompt a provider can serve from its prompt cache: the prefix shared with an earlier call.

Providers cache the start of a prompt: a call whose prompt begins with the same tokens as a recent call
of the same model and tools is billed (OpenAI) or computed (vLLM, llama.cpp) only for what follows. Memory
strategies decide whether that prefix survives: a buffer appends, so the whole earlier prompt is the next
one's prefix; a sliding window or a rewritten summary changes an early message and the cache is lost from
there on. The rule each provider applies (minimum length, step) is the small sourced table below, beside
the context-window table.

The prompt is compared as the provider reads it: the tool definitions first, then each message in order,
each framed as OpenAI's chat format frames it (the same tokens ``providers.tokenizer`` counts). Messages
equal in role, text, tool calls and id are shared whole; at the first one that differs, the shared part is
its opening frame token, then what its role and (when the roles match) its text share.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from memory_demos.providers.tokenizer import (
    REPLY_PRIMING_TOKENS,
    encode,
)
from memory_demos.turn import ModelCall, PromptMessage, Turn

OPENAI_CACHING_PAGE = "platform.openai.com/docs/guides/prompt-caching (checked 1 December 2026)"
# Framing tokens before a message's text (start and separator), around the role's own tokens.
FRAME_TOKENS_BEFORE_TEXT = 2
# Earlier prompts a pane remembers as cache candidates (a provider keeps recent prefixes for minutes).
REMEMBERED_PROMPTS = 32
_OPENAI_ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}


@dataclass(frozen=True)
class CacheRule:
    """How a provider serves a shared prefix: nothing below ``min_tokens``, then in steps of ``step``."""

    provider: str  # a ProviderConfig kind: openai, openai_compatible, offline
    min_tokens: int
    step: int
    source: str

    def cacheable(self, shared_tokens: int) -> int:
        """The part of a ``shared_tokens`` prefix this provider can serve from its cache."""
        if shared_tokens < max(self.min_tokens, 1):
            return 0
        return shared_tokens - (shared_tokens - self.min_tokens) % self.step

    @property
    def raw(self) -> bool:
        """True when any shared prefix counts as it is (no minimum, steps of one token)."""
        return self.min_tokens <= 1 and self.step == 1

    def to_json(self) -> dict[str, object]:
        return {
            "provider": self.provider,
            "min_tokens": self.min_tokens,
            "step": self.step,
            "source": self.source,
        }


PROMPT_CACHE_RULES: tuple[CacheRule, ...] = (
    # "Caching is enabled for prompts of 1,024 tokens or longer; cache hits occur in increments of 128
    # tokens", reported as usage.prompt_tokens_details.cached_tokens.
    CacheRule("openai", 1_024, 128, OPENAI_CACHING_PAGE),
    # vLLM's automatic prefix caching and llama.cpp's cache_prompt reuse the KV cache of any shared prefix.
    CacheRule(
        "openai_compatible",
        1,
        1,
        "vLLM automatic prefix caching, llama.cpp server cache_prompt: any shared prefix is reused",
    ),
    CacheRule(
        "offline", 1, 1, "the offline teaching model: counted as a local server that reuses any prefix"
    ),
)


def cache_rule(provider_kind: str) -> CacheRule:
    """The table's rule for a provider kind; an unknown kind is treated as a local server (raw prefix)."""
    for rule in PROMPT_CACHE_RULES:
        if rule.provider == provider_kind:
            return rule
    return PROMPT_CACHE_RULES[1]


def message_text(message: PromptMessage) -> str:
    """A captured message's text as the tokenizer counted it: content, then its tool calls as JSON."""
    if not message.tool_calls:
        return message.content
    rendered = json.dumps(
        [{"name": c["name"], "args": c["args"], "id": c.get("id")} for c in message.tool_calls],
        ensure_ascii=False,
    )
    return f"{message.content}{rendered}" if message.content else rendered


def _same_message(a: PromptMessage, b: PromptMessage) -> bool:
    return (a.role, a.content, a.tool_calls, a.tool_call_id) == (
        b.role,
        b.content,
        b.tool_calls,
        b.tool_call_id,
    )


def _common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    length = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        length += 1
    return length


def shared_prefix_tokens(
    prompt: Sequence[PromptMessage],
    earlier: Sequence[PromptMessage],
    encoding_name: str,
    tool_tokens: int = 0,
) -> int:
    """The leading tokens ``prompt`` shares with ``earlier`` (same model and tools), tool definitions first.

    Message counts are the captured ones (``PromptMessage.tokens``), so a prompt shared whole comes to the
    call's prompt tokens, reply priming included.
    """
    shared = tool_tokens
    for message, before in zip(prompt, earlier, strict=False):
        if _same_message(message, before):
            shared += message.tokens
            continue
        # The first message that differs: its opening frame token, then whatever its role and text share.
        roles = [encode(_OPENAI_ROLES.get(m.role, m.role), encoding_name) for m in (message, before)]
        if roles[0] != roles[1]:
            return shared + 1 + _common_prefix(*roles)
        texts = (encode(message_text(message), encoding_name), encode(message_text(before), encoding_name))
        return shared + FRAME_TOKENS_BEFORE_TEXT + len(roles[0]) + _common_prefix(*texts)
    if prompt and len(prompt) == len(earlier):
        return shared + REPLY_PRIMING_TOKENS  # the same prompt again: all of it, priming included
    return shared


@dataclass(frozen=True)
class _Seen:
    model: str
    tools: str
    messages: tuple[PromptMessage, ...]


def _tools_key(call: ModelCall) -> str:
    return json.dumps(list(call.tools), sort_keys=True, ensure_ascii=False, default=str)


class PrefixTracker:
    """One pane's earlier prompts, to tell each new call what it shares with them (never shared by panes).

    A call is compared with every remembered call of the same model and tools (a provider keeps each
    recent prefix, not only the last); the longest shared prefix wins, and the provider's rule makes it
    ``cacheable_prompt_tokens``. Failed calls are annotated but not remembered (nothing was cached).
    """

    def __init__(self, model: str, rule: CacheRule, encoding_name: str) -> None:
        self.model = model
        self.rule = rule
        self.encoding_name = encoding_name
        self._seen: list[_Seen] = []

    def annotate(self, calls: Iterable[ModelCall]) -> list[ModelCall]:
        """``calls`` (in the order they were made) with their shared and cacheable prefix filled in."""
        annotated = []
        for call in calls:
            tools = _tools_key(call)
            shared = max(
                (
                    shared_prefix_tokens(call.messages, seen.messages, self.encoding_name, call.tool_tokens)
                    for seen in self._seen
                    if seen.model == self.model and seen.tools == tools
                ),
                default=0,
            )
            shared = min(shared, call.prompt_tokens) if call.prompt_tokens else shared
            if call.error is not None:
                shared = 0
            annotated.append(
                replace(
                    call, shared_prefix_tokens=shared, cacheable_prompt_tokens=self.rule.cacheable(shared)
                )
            )
            if call.error is None:
                self._seen.append(_Seen(self.model, tools, call.messages))
                del self._seen[:-REMEMBERED_PROMPTS]
        return annotated

    def forget(self) -> None:
        """Forget every earlier prompt (a pane started afresh)."""
        self._seen.clear()


# -- what a conversation's turns did to the cache ---------------------------------------------------------
# Catalogue keys of the cache-break note a view translates (``cache_break_note``).
BREAKS_NONE = "cache.breaks.none"
BREAKS_EVERY_TURN_FROM = "cache.breaks.every_turn_from"
BREAKS_ON_TURNS = "cache.breaks.on_turns"
BREAKS_TOO_FEW = "cache.breaks.too_few"
BREAKS_MANY = "cache.breaks.many"
LISTED_BREAKS = 4  # more broken turns than this are counted, not listed


def prompt_kept(earlier: ModelCall, later: ModelCall) -> bool:
    """True when ``later``'s prompt starts with all of ``earlier``'s messages (and the same tools): the
    earlier prompt's cache serves the later one up to where it grew."""
    kept = later.messages[: len(earlier.messages)]
    return (
        later.tools == earlier.tools
        and len(kept) == len(earlier.messages)
        and all(_same_message(a, b) for a, b in zip(kept, earlier.messages, strict=True))
    )


def broken_cache_turns(turns: Sequence[Turn]) -> list[int]:
    """The turns (numbered from 1) whose reply prompt no longer starts with the previous answered one's:
    the strategy changed or dropped an earlier message, and the cache is lost from there on."""
    broken = []
    previous: ModelCall | None = None
    for number, turn in enumerate(turns, start=1):
        call = turn.reply_call
        if call is None or not turn.ok:
            continue
        if previous is not None and not prompt_kept(previous, call):
            broken.append(number)
        previous = call
    return broken


def cache_break_note(turns: Sequence[Turn]) -> tuple[str, dict[str, object]]:
    """What the turns did to the cache, as a catalogue key and its values: kept on every turn, broken on
    every turn from turn N, broken on a few turns (listed) or on many (counted, from the first)."""
    answered = [number for number, turn in enumerate(turns, start=1) if turn.ok and turn.reply_call]
    if len(answered) < 2:
        return BREAKS_TOO_FEW, {}
    broken = broken_cache_turns(turns)
    if not broken:
        return BREAKS_NONE, {"turns": len(answered)}
    first = broken[0]
    if broken == [number for number in answered if number >= first] and len(broken) > 1:
        return BREAKS_EVERY_TURN_FROM, {"turn": first}
    if len(broken) > LISTED_BREAKS:
        return BREAKS_MANY, {"n": len(broken), "turn": first}
    return BREAKS_ON_TURNS, {"turns": ", ".join(str(number) for number in broken), "n": len(broken)}


@dataclass(frozen=True)
class CacheTotals:
    """A conversation's prompt tokens and how many of them a cache could serve, over every call."""

    prompt_tokens: int
    cacheable_tokens: int  # the estimate, from the captured prompts
    reported_tokens: int | None  # the provider's own cached_tokens, summed; None if it never reported any
    reported_calls: int = 0

    @property
    def cacheable_share(self) -> float:
        return self.cacheable_tokens / self.prompt_tokens if self.prompt_tokens else 0.0

    @property
    def reported_share(self) -> float | None:
        if self.reported_tokens is None:
            return None
        return self.reported_tokens / self.prompt_tokens if self.prompt_tokens else 0.0


def cache_totals(turns: Iterable[Turn]) -> CacheTotals:
    """Prompt tokens, cacheable tokens and reported cached tokens over every call of ``turns``."""
    prompt = cacheable = reported = reported_calls = 0
    for turn in turns:
        for call in turn.calls:
            prompt += call.prompt_tokens
            cacheable += call.cacheable_prompt_tokens
            if call.cached_tokens is not None:
                reported += call.cached_tokens
                reported_calls += 1
    return CacheTotals(prompt, cacheable, reported if reported_calls else None, reported_calls)
