"""Failure demo: a memory that rewrites the top of the prompt every turn loses the prompt cache.

Both set-ups send the same conversation and the same memory note (the facts so far, rewritten every turn,
as a summary is). The naive one puts the note into the system message, at the very start of the prompt:
every turn changes the first message, so no earlier prompt is a prefix of the next and nothing can be
served from a cache. The fix puts the note just before the new question: the system message and the
history stay where they were, each prompt starts with the whole previous one, and the cache serves it.
Same messages, same recall; a different bill.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from memory_demos.failure_lab.common import (
    ENCODING,
    CallGate,
    Demo,
    DemoResult,
    VerdictRow,
    answer_row,
    default_system_prompt,
    demo_result,
    offline_model,
)
from memory_demos.providers.prompt_cache import PrefixTracker, cache_rule, cache_totals
from memory_demos.scorecard import DEFAULT_PRICE_MODEL, DEFAULT_PRICES, find_price
from memory_demos.tracing import CallCapture
from memory_demos.turn import ModelCall, Turn

# Each language's conversation (statements, then a question), the word its answer needs, and how the
# memory note is headed (``{turn}``, ``{facts}``) and says it is empty.
CONVERSATIONS: dict[str, tuple[tuple[str, ...], str, str, str]] = {
    "en": (
        (
            "My name is Ada.",
            "I live in Lisbon.",
            "I work as a nurse.",
            "My favourite colour is green.",
            "I have a cat called Miso.",
            "I play the cello on Sundays.",
            "My sister is called Rosa.",
            "I am learning Japanese.",
            "What is my name?",
        ),
        "Ada",
        "Memory notes as of turn {turn}: {facts}",
        "none yet",
    ),
    "zh": (
        (
            "我叫林晓。",
            "我住在杭州。",
            "我是一名护士。",
            "我最喜欢的颜色是绿色。",
            "我养了一只猫，叫年糕。",
            "我每个周日都拉大提琴。",
            "我妹妹叫林雨。",
            "我在学日语。",
            "我叫什么名字？",
        ),
        "林晓",
        "截至第 {turn} 轮的记忆笔记：{facts}",
        "暂无",
    ),
}
CONVERSATION, QUESTION_EXPECTS, _, _ = CONVERSATIONS["en"]
NOTE_FIRST, NOTE_LAST = "note_first", "note_last"  # where the set-up puts its memory note
ModelFactory = Callable[[CallCapture], Any]


def memory_note(statements: Sequence[str], language: str = "en") -> str:
    """The memory note of a turn: the facts so far, rewritten whole every turn with its turn in the heading
    (as a running summary, or a note that carries the date, is)."""
    _, _, heading, empty = CONVERSATIONS.get(language, CONVERSATIONS["en"])
    joiner = "" if language == "zh" else " "
    facts = joiner.join(statements) if statements else empty
    return heading.format(turn=len(statements) + 1, facts=facts)


def _prompt(placement: str, history: list[Any], note: str, user_text: str, language: str = "en") -> list[Any]:
    from langchain_core.messages import HumanMessage, SystemMessage

    system = default_system_prompt(language)
    if placement == NOTE_FIRST:
        return [SystemMessage(f"{system}\n\n{note}"), *history, HumanMessage(user_text)]
    return [SystemMessage(system), *history, SystemMessage(note), HumanMessage(user_text)]


def play(
    placement: str, model_factory: ModelFactory, provider_kind: str = "offline", language: str = "en"
) -> dict[str, Any]:
    """The conversation with the note at ``placement``: every call with its cacheable prefix, the cost with
    and without caching (priced as the default price model), and the last answer."""
    from langchain_core.messages import AIMessage, HumanMessage

    conversation, expects, _, _ = CONVERSATIONS.get(language, CONVERSATIONS["en"])
    capture = CallCapture(ENCODING)
    model = model_factory(capture)
    tracker = PrefixTracker("demo", cache_rule(provider_kind), ENCODING)
    history: list[Any] = []
    calls: list[ModelCall] = []
    answer = ""
    for number, user_text in enumerate(conversation):
        note = memory_note(conversation[:number], language)
        answer = str(model.invoke(_prompt(placement, history, note, user_text, language)).content)
        calls += tracker.annotate(capture.drain())
        history += [HumanMessage(user_text), AIMessage(answer)]
    turns = [
        Turn(user_text=text, reply="", seconds=0.0, reply_call=call)
        for text, call in zip(conversation, calls, strict=True)
    ]
    totals = cache_totals(turns)
    price = find_price(DEFAULT_PRICES, DEFAULT_PRICE_MODEL)
    output = sum(call.completion_tokens for call in calls)
    cached = sum(call.cached_input_tokens for call in calls)
    return {
        "placement": placement,
        "question": conversation[-1],
        "answer": answer,
        "recalled": expects in answer,
        "prompt_tokens": totals.prompt_tokens,
        "cacheable_tokens": totals.cacheable_tokens,
        "reported_cached_tokens": totals.reported_tokens,
        "cacheable_share": round(totals.cacheable_share, 3),
        "per_turn_cacheable": " · ".join(str(call.cacheable_prompt_tokens) for call in calls),
        "price_model": price.model,
        "cost_usd": price.cost(totals.prompt_tokens, output),
        "cost_with_cache_usd": price.cost(totals.prompt_tokens, output, cached),
    }


def moving_prefix(language: str = "en", gate: CallGate | None = None) -> DemoResult:
    """The note at the top breaks the cache every turn; the note before the question keeps it."""
    factory: ModelFactory = lambda capture: offline_model(capture, gate)  # noqa: E731
    naive = play(NOTE_FIRST, factory, language=language)
    fixed = play(NOTE_LAST, factory, language=language)
    failed = naive["cacheable_share"] < 0.25
    ok = fixed["cacheable_share"] > 2 * naive["cacheable_share"] and fixed["recalled"] == naive["recalled"]
    return demo_result(DEMO, language, naive, fixed, failed, ok)


def verdict(result: DemoResult) -> tuple[VerdictRow, ...]:
    """Same answer, a different share of the prompt a cache serves, and a different bill."""
    naive, fixed = result["naive"], result["fixed"]

    def money(run: dict[str, Any]) -> str:
        return f"~${run['cost_usd']:.6f} → ~${run['cost_with_cache_usd']:.6f} ({run['price_model']})"

    return (
        answer_row(naive, fixed),
        VerdictRow(
            "failure.verdict.cacheable_share",
            f"{naive['cacheable_share']:.0%}",
            f"{fixed['cacheable_share']:.0%}",
        ),
        VerdictRow(
            "failure.verdict.cacheable_per_turn", naive["per_turn_cacheable"], fixed["per_turn_cacheable"]
        ),
        VerdictRow("failure.verdict.cost_cached", money(naive), money(fixed)),
    )


DEMO = Demo(
    "moving_prefix",
    "failure.moving_prefix.title",
    "failure.moving_prefix.explanation",
    "failure.moving_prefix.fix",
    moving_prefix,
    (memory_note, _prompt, play),
    harm="overbilled",
    verdict=verdict,
)
