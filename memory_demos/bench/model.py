"""``bench model``: the offline teaching model's time per reply, its rules alone and the whole call."""

from __future__ import annotations

import statistics
import time
from typing import Any


def _conversation_of(tokens: int) -> list[Any]:
    """A ``buffer``-style prompt of about ``tokens`` tokens: scenario turns and the model's replies."""
    from langchain_core.messages import AIMessage, HumanMessage

    from memory_demos.providers.offline_model import OfflineTeachingModel
    from memory_demos.providers.tokenizer import count_messages_tokens
    from memory_demos.scenarios import bundled_names, load_scenario

    model = OfflineTeachingModel()
    turns = [turn.user for name in bundled_names() for turn in load_scenario(name).turns]
    messages: list[Any] = []
    index = 0
    while count_messages_tokens(messages, "o200k_base") < tokens - 30:
        messages.append(HumanMessage(turns[index % len(turns)]))
        messages.append(AIMessage(str(model.invoke(messages).content)))
        index += 1
    messages.append(HumanMessage("What's my name, and where do I live?"))
    return messages


def model_speed(repeats: int | None = None) -> int:
    """Time per reply of the offline teaching model: the rules alone and the whole LangChain call.

    CPU time (``time.process_time``) is printed beside wall time: on a shared machine wall time also
    counts the time other processes held the cores. The model reads each message's text once and keeps
    what it read (a conversation's prompt repeats every earlier message each turn): "cold" empties
    those caches before every reply, the other columns are replies in a conversation under way.
    """
    from memory_demos.providers.offline_model import OfflineTeachingModel, compose_reply, forget_readings
    from memory_demos.providers.tokenizer import count_messages_tokens

    repeats = repeats or 50
    model = OfflineTeachingModel()
    print(f"Offline teaching model, time per reply ({repeats} replies; prompt: bundled scenario turns)")
    print(
        f"{'prompt tokens':>13} {'messages':>9} {'rules CPU min':>14} {'rules CPU median':>17} "
        f"{'rules wall median':>18} {'invoke CPU median':>18} {'cold CPU median':>16}   (ms)"
    )
    for target in (200, 2000):
        messages = _conversation_of(target)
        rules_cpu, rules_wall, calls_cpu, cold_cpu = [], [], [], []
        for _ in range(repeats):
            forget_readings()
            cpu = time.process_time()
            compose_reply(messages)
            cold_cpu.append(time.process_time() - cpu)
            cpu, wall = time.process_time(), time.perf_counter()
            compose_reply(messages)
            rules_cpu.append(time.process_time() - cpu)
            rules_wall.append(time.perf_counter() - wall)
            cpu = time.process_time()
            model.invoke(messages)
            calls_cpu.append(time.process_time() - cpu)
        tokens = count_messages_tokens(messages, "o200k_base")
        print(
            f"{tokens:>13} {len(messages):>9} {min(rules_cpu) * 1000:>14.2f} "
            f"{statistics.median(rules_cpu) * 1000:>17.2f} {statistics.median(rules_wall) * 1000:>18.2f} "
            f"{statistics.median(calls_cpu) * 1000:>18.2f} {statistics.median(cold_cpu) * 1000:>16.2f}"
        )
    return 0
