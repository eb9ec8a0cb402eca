"""Tool calls: the weather and order tools, answers from their results, memory-block edits, and what a
message states that LangMem's memory tools should keep."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from memory_demos.providers.offline_model.answers import Reply, fact_clause_zh
from memory_demos.providers.offline_model.facts import extract_facts
from memory_demos.providers.offline_model.knowledge import knowledge_of
from memory_demos.providers.offline_model.lexicon import (
    LIST_KEYS,
    NOT_PLACES,
    STOPWORDS,
    ZH_STOP_CHARS,
)
from memory_demos.providers.offline_model.memory_prompts import fact_sentences
from memory_demos.providers.offline_model.reader import Reading, Said, read_prompt
from memory_demos.providers.offline_model.statements import USER
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


# --------------------------------------------------------------------------------------------
# Memory blocks (Letta-style): what is worth keeping goes into the "human" block by tool call


_BLOCK_HEADER = re.compile(r"^(?P<label>[A-Za-z_][\w-]*) \((?P<used>\d+)/(?P<limit>\d+) characters\):$")
_BLOCK_EMPTY = "(empty)"
_REFUSED = re.compile(r"the (?P<label>[\w-]+) block has no room for this \((?P<used>\d+) of (?P<limit>\d+)")
APPEND_TOOL = "memory_append"
REPLACE_TOOL = "memory_replace"
HUMAN_BLOCK = "human"


class BlockEdits(NamedTuple):
    """A turn of block editing: the next tool call to make, or the prompt to answer and what to add."""

    call: Reply | None
    messages: list[BaseMessage]  # the prompt without its tool round: answered as if there were none
    refused: str = ""  # a sentence saying which edit the block refused, or ""


def prompt_blocks(messages: Sequence[BaseMessage]) -> dict[str, list[str]]:
    """The memory blocks the system message shows (``label (used/limit characters):`` and its lines)."""
    system = next((m for m in messages[:1] if m.type == "system"), None)
    blocks: dict[str, list[str]] = {}
    label = None
    for line in content_text(system).splitlines() if system is not None else ():
        header = _BLOCK_HEADER.match(line.strip())
        if header is not None:
            label = header.group("label")
            blocks[label] = []
        elif label is not None and line.strip() and line.strip() != _BLOCK_EMPTY:
            blocks[label].append(line.strip())
    return blocks


def _worth_keeping(messages: Sequence[BaseMessage]) -> list[Said]:
    """What the latest user message states that still stands: not a question, a supposition or taken back
    (what ``reply.acknowledgement`` says back: nothing when no statement is about anyone)."""
    reading = read_prompt(messages)
    current = reading.user_messages - 1
    standing = [
        s
        for s in reading.said
        if s.source == "user"
        and s.message == current
        and not (s.question or s.hypothetical or s.retracted or s.dropped)
    ]
    return standing if any(s.about for s in standing) else []


def block_notes(statements: Sequence[Said], *, chinese: bool) -> list[str]:
    """One note per fact, in the third person ("The human lives in Lisbon."); words no rule reads quoted.

    The facts are read from the statements together, so a clause that borrows the one before it
    ("我叫小明，住在上海") still says whom it is about.
    """
    said = ("，" if chinese else ". ").join(s.text.rstrip("。.") for s in statements)
    knowledge = knowledge_of([HumanMessage(said)]) if said else None
    notes: list[str] = []
    values: set[str] = set()
    for subject in knowledge.subjects() if knowledge is not None else ():
        if chinese and subject != USER:
            continue  # said back in the user's words below: the sentences here are English
        for key, belief in knowledge.beliefs[subject].items():
            values.update(v.casefold() for v in (*belief.values, *belief.former))
            if chinese and (belief.values or belief.former):  # a value now, else the one given up
                former = not belief.values
                notes.append(
                    fact_clause_zh(key, belief.values or belief.former, "用户", former=former) + "。"
                )
    if knowledge is not None and not chinese:
        notes = fact_sentences(knowledge)
    for statement in statements:  # what no fact rule reads, in the user's own words
        text = statement.text.rstrip("。.")
        if (not chinese or statement.about in (USER, "")) and any(v in text.casefold() for v in values):
            continue
        if chinese and statement.subject and statement.about != USER and statement.subject not in text:
            text = statement.subject + text  # "是一名医生" speaks of the clause before's person
        notes.append(f"用户说：“{text}。”" if chinese else f"The human said: “{text}.”")
    return list(dict.fromkeys(notes))


def _keys(note: str) -> set[tuple[str, str]]:
    """The (subject, key) pairs a note states, list keys left out (a second like adds, never replaces)."""
    return {(f.subject, f.key) for f in extract_facts(note, role="narrative") if f.key not in LIST_KEYS}


def _attempted(after: Sequence[BaseMessage]) -> list[dict[str, Any]]:
    return [call.get("args", {}) for m in after if isinstance(m, AIMessage) for call in m.tool_calls]


def _next_edit(
    messages: Sequence[BaseMessage], after: Sequence[BaseMessage], *, chinese: bool
) -> Reply | None:
    """The first edit the human block still needs for the latest message; None when it holds it all."""
    lines = prompt_blocks(messages).get(HUMAN_BLOCK, [])
    tried = _attempted(after)
    for note in block_notes(_worth_keeping(messages), chinese=chinese):
        if note in lines:
            continue
        keys = _keys(note)
        old = next((line for line in lines if keys and keys & _keys(line)), None)
        if old is not None:
            name, args = REPLACE_TOOL, {"label": HUMAN_BLOCK, "old_content": old, "new_content": note}
        else:
            name, args = APPEND_TOOL, {"label": HUMAN_BLOCK, "content": note}
        if args in tried:
            continue
        return Reply("", ({"name": name, "args": args, "id": _call_id(name, args, note)},))
    return None


def _refusal(result: ToolMessage, *, chinese: bool) -> str:
    """What the model tells the user when an edit was refused: which block, and how full it is."""
    found = _REFUSED.search(content_text(result))
    if found is None:
        return (
            "这条没能记下：工具拒绝了修改。"
            if chinese
            else "I could not save that: the tool refused the edit."
        )
    label, used, limit = found.group("label"), found.group("used"), found.group("limit")
    if chinese:
        return f"这条没能记下：{label} 记忆块放不下了（已用 {used}/{limit} 个字符）。"
    return (
        f"I could not save that: my {label} memory block has no room for it "
        f"({used} of {limit} characters used)."
    )


def block_edit_turn(
    messages: Sequence[BaseMessage], tools: Sequence[dict[str, Any]], *, chinese: bool
) -> BlockEdits | None:
    """The block tools' part of a reply: the next edit, or the prompt to answer once the edits are done.

    None when no block tool is bound, or when the latest round held another tool's results (those are
    answered from the results). An edit refused ends the editing: the reply says so.
    """
    names = set(tool_names(tools))
    if APPEND_TOOL not in names:
        return None
    last_human = max((i for i, m in enumerate(messages) if m.type == "human"), default=-1)
    before, after = list(messages[: last_human + 1]), list(messages[last_human + 1 :])
    calls = {c.get("id"): c.get("name") for m in after if isinstance(m, AIMessage) for c in m.tool_calls}
    results = [m for m in after if isinstance(m, ToolMessage)]
    if any(calls.get(r.tool_call_id) not in {APPEND_TOOL, REPLACE_TOOL} for r in results):
        return None
    refused = [r for r in results if r.status == "error" or content_text(r).startswith("Edit refused")]
    if refused:
        return BlockEdits(None, before, _refusal(refused[-1], chinese=chinese))
    call = _next_edit(messages, after, chinese=chinese)
    if call is not None:
        return BlockEdits(call, before)
    return BlockEdits(None, before) if results else None


# --------------------------------------------------------------------------------------------
# LangMem's memory tools: what a message states that is worth saving (planned in ``langmem_prompts``)

MANAGE_MEMORY = "manage_memory"
SEARCH_MEMORY = "search_memory"


def call_id(name: str, args: dict[str, Any], context: str) -> str:
    """A tool call's id: the same call in the same context always gets the same one."""
    return _call_id(name, args, context)


def statements_worth_keeping(reading: Reading, message: int) -> list[Said]:
    """What user message ``message`` states about someone and stands: no question, hypothetical or retraction.

    The reader's own judgement (the one ``reply.acknowledgement`` says back: a message whose standing
    clauses name nobody states nothing to keep, so small talk is not kept); "If I won the lottery…"
    supposes, "scratch that" takes back; a request ("Tell me a joke", 给我讲个笑话) states nothing.
    """
    standing = [
        s
        for s in reading.said
        if s.message == message
        and s.source == "user"
        and not (s.question or s.hypothetical or s.retracted or s.dropped)
        and not _REQUEST.match(s.text)
    ]
    if not any(s.about for s in standing):
        return []
    # A clause with no subject of its own (搬到上海了, 是一名医生) speaks of the one before it.
    kept, about, subject = [], "", ""
    for said in standing:
        if said.about:
            about, subject = said.about, said.subject
        elif about:
            said = said._replace(about=about, subject=subject)
        else:
            continue  # "Big news, …": before anyone is named, it is about nobody
        kept.append(said)
    return kept


_REQUEST = re.compile(
    r"^\s*(?:please\s+)?(?:tell|give|show|help|remind|let|send|find|write|explain|recommend|suggest)\b"
    r"|^\s*(?:请|给我|帮我|告诉我|让我|替我|麻烦)",
    re.IGNORECASE,
)
