"""English texts of the prompt-cache lesson: cacheable prefixes, cost with caching, the gauge's thresholds."""

from __future__ import annotations

TEXTS: dict[str, str] = {
    # What a strategy did to the cache over a conversation (providers.prompt_cache.cache_break_note).
    "cache.breaks.none": "prefix kept on every turn",
    "cache.breaks.every_turn_from": "cache broken every turn from turn {turn}",
    "cache.breaks.on_turns": "cache broken on turn {turns}",
    "cache.breaks.many": "cache broken {n} times, first on turn {turn}",
    "cache.breaks.too_few": "too few answered turns to tell",
    "cache.rule.raw": "any shared prefix counts, as on a local server",
    "cache.rule.steps": "counted from {min} tokens, in steps of {step}",
    # The Tokens view of a turn.
    "tokens.cacheable": "Cacheable prefix (estimate)",
    "tokens.cached_reported": "Cached, reported by the provider",
    "tokens.src.cache_estimate": "Shared with an earlier prompt of this pane; {rule}",
    "tokens.src.cache_provider": "Reported by the provider (prompt_tokens_details.cached_tokens)",
    "tokens.cache_explained": (
        "A provider can serve the start of a prompt from its cache when an earlier call began with the "
        "same tokens; those tokens are billed at the cached-input rate."
    ),
    # The pane, under its gauge.
    "pane.cached_share": "Prompt cache: {share} cacheable ({cacheable} of {total} tokens, estimate) "
    "· {breaks}",
    "pane.cached_reported": "The provider reported {reported} cached tokens ({share}).",
    # The Scorecard.
    "scorecard.price.cached": "cached input / 1M (USD)",
    "scorecard.col.cost_no_cache": "Est. cost, no caching",
    "scorecard.col.cost_cached": "Est. cost with caching",
    "scorecard.col.cached_input": "Cached input tokens",
    "scorecard.col.cache": "Prompt cache",
    "scorecard.cache_caption": (
        "With caching: the input tokens a prompt cache serves are priced at the model's cached-input rate. "
        "They are the provider's reported cached_tokens where it sent them, else the prefix each call "
        "shares with an earlier call of the same strategy ({rule})."
    ),
    "scorecard.cached_reported": "provider-reported",
    # Compare's cost section.
    "cost.cache_title": "Cost with and without prompt caching",
    "cost.cache_caption": (
        "Priced as {model} ({source}, {date}): input {input}, cached input {cached}, output {output} USD "
        "per million tokens. Cached input is the prefix each call shares with an earlier call of its pane "
        "({rule}), or the provider's own figure where it reported one."
    ),
    "cost.col.pane": "Pane",
    "cost.col.cached_share": "Cacheable share",
    "cost.col.no_cache": "Cost, no caching (USD)",
    "cost.col.with_cache": "Cost with caching (USD)",
    "cost.col.cache": "Prompt cache",
    # Thresholds on the gauge.
    "gauge.thresholds": "Limits: {limits}",
    "gauge.threshold": "Limit",
    "gauge.line": "{role} {value}",
    "threshold.budget": "budget",
    "threshold.trigger": "trigger",
    "threshold.keep": "keep",
    "threshold.unit.tokens": "{value} tokens",
    "threshold.unit.messages": "{value} messages",
    "threshold.unit.exchanges": "{value} exchanges",
    "threshold.unit.tool_results": "{value} tool results",
    "threshold.unit.tokens.one": "{value} token",
    "threshold.unit.messages.one": "{value} message",
    "threshold.unit.exchanges.one": "{value} exchange",
    "threshold.unit.tool_results.one": "{value} tool result",
    "threshold.words": "{param}={value} ({role}, {amount})",
    "price.source": "{address}, {tier}",
    "price.tier.standard": "standard tier",
    # The Failure lab's lesson.
    "failure.moving_prefix.title": "A memory note at the top of the prompt (the prompt cache is lost)",
    "failure.moving_prefix.explanation": (
        "Both set-ups send the same conversation and the same memory note: the facts so far, "
        "rewritten every turn as a running summary is. The naive one puts the note into the system "
        "message, at the very start of the prompt, so every turn changes the first message: no "
        "earlier prompt is a prefix of the next one, and a provider's prompt cache serves next to "
        "nothing. The answers are the same; the bill is not."
    ),
    "failure.moving_prefix.fix": (
        "Keep what changes at the end: the system message and the history stay put, the note goes "
        "just before the new question. Each prompt then starts with the whole previous one, and the"
        " cache serves it (billed at the cached-input rate on OpenAI, computed once on vLLM or "
        "llama.cpp). A summary refreshed only every few turns, or a window that drops turns in "
        "blocks, keeps the prefix the same way."
    ),
    "failure.harm.overbilled": "Billed again",
    "failure.verdict.cacheable_share": "Share of the prompt tokens a cache could serve",
    "failure.verdict.cacheable_per_turn": "Cacheable prefix per turn (tokens)",
    "failure.verdict.cost_cached": "Cost without → with caching",
}
