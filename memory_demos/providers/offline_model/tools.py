"""Tool calls: the weather and order tools, and answers from their results."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from memory_demos.providers.offline_model.answers import Reply
from memory_demos.providers.offline_model.lexicon import (
    NOT_PLACES,
    STOPWORDS,
    ZH_STOP_CHARS,
)
from memory_demos.providers.offline_model.text import (
    clean_place,
    content_text,
    is_chinese,
)

# --------------------------------------------------------------------------------------------
# Tools


def tool_names(tools: Sequence[dict[str, Any]]) -> list[str]:
    names = []
    for tool in tools:
        function = tool.get("function", tool) if isinstance(tool, dict) else {}
        if isinstance(function, dict) and function.get("name"):
            names.append(str(function["name"]))
    return names


def _weather_city(text: str, facts: dict[str, tuple[str, ...]]) -> str | None:
    if is_chinese(text):
        before = text.split("天气", 1)[0]
        before = re.split(f"[{ZH_STOP_CHARS}]", before)[-1]
        before = re.sub("今天|明天|后天|现在|目前|最近|这周|本周", "", before).rstrip("的")
        before = re.sub(
            r"^(?:请问|帮我|给我|查一下|查查|查|看看|看一下|一下|我想知道|想知道|告诉我)+",
            "",
            before,
        )
        if before and "我" not in before and not re.search("这里|这边|本地", before):
            return before[-4:]
    else:
        match = re.search(r"\b(?:in|for|at)\s+(?P<v>[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*){0,2})", text)
        if match:
            city = clean_place(match.group("v"))
            if city and city.lower() not in STOPWORDS and city.lower() not in NOT_PLACES:
                return city
    known = facts.get("city") or facts.get("hometown")
    return known[0] if known else None


def _order_id(text: str, facts: dict[str, tuple[str, ...]]) -> str | None:
    match = re.search(r"(?:#\s*|\b)(?P<id>[A-Za-z]{1,4}-?\d{2,}|\d{4,})\b", text)
    if match:
        return match.group("id")
    known = facts.get("order_number")
    return known[0] if known else None


def _call_id(name: str, args: dict[str, Any], context: str) -> str:
    digest = hashlib.sha1(f"{name}|{json.dumps(args, sort_keys=True)}|{context}".encode()).hexdigest()
    return f"call_{digest[:12]}"


def plan_tool_call(
    text: str,
    tool_names: Sequence[str],
    facts: dict[str, tuple[str, ...]],
    *,
    chinese: bool,
) -> Reply | None:
    """A tool call when the user asks for the weather or an order's status and a matching tool is bound."""
    lowered = text.lower()
    weather_tool = next((n for n in tool_names if "weather" in n.lower()), None)
    order_tool = next((n for n in tool_names if "order" in n.lower()), None)
    asks_weather = bool(
        re.search(r"\bweather\b", lowered)
        and re.search(r"\?|\b(?:what|how|check|tell|is it)\b", lowered)
        and not re.search(r"\b(?:in general|think about|opinion)\b", lowered)
    ) or bool(re.search("天气.*(?:怎么样|如何|吗|？|\\?)|查.*天气", text))
    if weather_tool and asks_weather:
        city = _weather_city(text, facts)
        if city is None:
            return Reply(
                "你想查哪个城市的天气？" if chinese else "Which city should I check the weather for?"
            )
        args = {"city": city}
        return Reply(
            "",
            (
                {
                    "name": weather_tool,
                    "args": args,
                    "id": _call_id(weather_tool, args, text),
                },
            ),
        )
    asks_order = bool(
        re.search("订单.*(?:状态|到哪|在哪|物流|发货|怎么样|查)|(?:查|看).*订单", text)
        or (
            re.search(r"\border\b", lowered)
            and re.search(r"status|where|track|arriv|ship|deliver|late", lowered)
        )
    )
    if order_tool and asks_order:
        order_id = _order_id(text, facts)
        if order_id is None:
            return Reply("你的订单号是多少？" if chinese else "What's your order number?")
        args = {"order_id": order_id}
        return Reply(
            "",
            (
                {
                    "name": order_tool,
                    "args": args,
                    "id": _call_id(order_tool, args, text),
                },
            ),
        )
    return None


def answer_from_tools(messages: Sequence[BaseMessage], *, chinese: bool) -> str:
    """Answer from the tool results that follow the latest human message."""
    calls: dict[str, dict[str, Any]] = {}
    answers: list[str] = []
    for message in messages:
        if isinstance(message, AIMessage):
            calls.update({call.get("id") or "": call for call in message.tool_calls})
        elif isinstance(message, ToolMessage):
            content = content_text(message).strip().rstrip(".")
            call = calls.get(message.tool_call_id, {})
            name = str(call.get("name", message.name or "tool"))
            args = call.get("args", {})
            if "weather" in name.lower() and "city" in args:
                answers.append(
                    f"{args['city']}的天气：{content}。"
                    if chinese
                    else f"The weather in {args['city']}: {content}."
                )
            elif "order" in name.lower() and "order_id" in args:
                answers.append(
                    f"订单{args['order_id']}：{content}。"
                    if chinese
                    else f"Order {args['order_id']}: {content}."
                )
            else:
                answers.append(f"{name}：{content}。" if chinese else f"The {name} tool says: {content}.")
    return " ".join(answers)
