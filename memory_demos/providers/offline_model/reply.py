"""The whole reply: which kind of prompt this is, and what the model says to it."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, ToolMessage

from memory_demos.prompt_markers import (
    ENTITY_EXTRACTION_MARKER,
    ENTITY_SUMMARY_MARKER,
    FACT_EXTRACTION_MARKER,
    MIDDLEWARE_SUMMARY_MARKER,
    SUMMARY_MARKER,
    purpose_from_tags,
)
from memory_demos.providers.offline_model.answers import (
    Reply,
    acknowledge,
    answer_question,
    answer_questions,
    dont_know,
    dont_know_nth,
)
from memory_demos.providers.offline_model.asking import (
    answer_follow_up,
    conversation_answer,
    question_parts,
    unwrapped,
)
from memory_demos.providers.offline_model.asks import Ask, analyse
from memory_demos.providers.offline_model.fact_extraction import fact_extraction_reply
from memory_demos.providers.offline_model.facts import extract_facts
from memory_demos.providers.offline_model.faithful import faithful
from memory_demos.providers.offline_model.knowledge import Knowledge, knowledge_of
from memory_demos.providers.offline_model.langmem_prompts import langmem_reply
from memory_demos.providers.offline_model.lexicon import (
    CJK,
    DONT_KNOW_ALL_EN,
    DONT_KNOW_ALL_ZH,
    DONT_KNOW_EN,
    DONT_KNOW_ZH,
)
from memory_demos.providers.offline_model.memory_prompts import (
    entity_extraction_reply,
    entity_summary_reply,
    middleware_summary_reply,
    summary_prompt_reply,
)
from memory_demos.providers.offline_model.questions import find_questions
from memory_demos.providers.offline_model.reader import Reading, Said, read_prompt
from memory_demos.providers.offline_model.recall import answer
from memory_demos.providers.offline_model.small_talk import REQUEST, small_talk
from memory_demos.providers.offline_model.statements import USER
from memory_demos.providers.offline_model.text import content_text, mostly_chinese, role_segments
from memory_demos.providers.offline_model.tools import (
    answer_from_tools,
    block_edit_turn,
    plan_tool_call,
    tool_names,
)
from memory_demos.providers.offline_model.words import casual, to_asker

# --------------------------------------------------------------------------------------------
# The whole reply


def latest_user_text(messages: Sequence[BaseMessage]) -> str:
    """The user's latest words, also when a classic template holds the whole conversation in one message."""
    humans = [m for m in messages if m.type == "human"]
    if not humans:
        return ""
    text = content_text(humans[-1])
    segments = role_segments(text, "narrative")
    human_segments = [s for s in segments if s.role == "human"]
    if len(segments) > 1 and human_segments:
        return human_segments[-1].text.strip()
    return text.strip()


# Each memory prompt by its template's own shape: (marker, where the marker must be, labels it holds,
# how it ends). A user who only quotes a marker in a chat message is not sending that prompt.
_TEMPLATE_SHAPES: tuple[tuple[str, int, tuple[str, ...], str], ...] = (
    (FACT_EXTRACTION_MARKER, 0, ("\nMessage:\n",), ""),
    (MIDDLEWARE_SUMMARY_MARKER, 40, ("Messages to summarize:",), "</messages>"),
    (ENTITY_EXTRACTION_MARKER, 300, ("Last line of conversation (for extraction):",), "Output:"),
    (ENTITY_SUMMARY_MARKER, 300, ("\nEntity to summarize:",), "Updated summary:"),
    (SUMMARY_MARKER, 0, ("\nCurrent summary:", "\nNew lines of conversation:"), "New summary:"),
)


def _prompt_kind(messages: Sequence[BaseMessage]) -> tuple[str, str] | None:
    """(marker, the template's text) when a message is one of the memory prompts, by its whole shape."""
    for message in {id(m): m for m in (*messages[:1], *messages[-1:])}.values():
        text = content_text(message).strip()
        for marker, within, labels, ending in _TEMPLATE_SHAPES:
            at = text.find(marker, 0, within + len(marker))
            if at >= 0 and all(label in text for label in labels) and text.endswith(ending):
                return marker, text
    return None


def call_purpose(tags: list[str] | None) -> str:
    """What a call is for (for ``fail_purposes``): its caller's purpose tag, never its text."""
    return purpose_from_tags(tags)


def _memory_prompt_reply(
    kind: str, prompt: str, messages: Sequence[BaseMessage], *, drift: bool, chatty_entities: bool
) -> str:
    """The answer to a memory's own prompt (fact or entity extraction, a summary), by its marker."""
    answers: dict[str, Callable[[], str]] = {
        FACT_EXTRACTION_MARKER: lambda: fact_extraction_reply(prompt, messages),
        MIDDLEWARE_SUMMARY_MARKER: lambda: middleware_summary_reply(prompt),
        ENTITY_EXTRACTION_MARKER: lambda: entity_extraction_reply(prompt, chatty=chatty_entities),
        ENTITY_SUMMARY_MARKER: lambda: entity_summary_reply(prompt),
    }
    return answers.get(kind, lambda: summary_prompt_reply(prompt, drift=drift))()


def compose_reply(
    messages: Sequence[BaseMessage],
    *,
    tools: Sequence[dict[str, Any]] = (),
    drift: bool = False,
    chatty_entities: bool = False,
) -> Reply:
    """Everything the model says, as a pure function of its prompt (and its switches)."""
    langmem = langmem_reply(messages, tools, compose_reply)  # LangMem's manager prompt and memory tools
    if langmem is not None:
        return langmem
    found = _prompt_kind(messages)
    if found is not None:
        kind, prompt = found
        return Reply(
            _memory_prompt_reply(kind, prompt, messages, drift=drift, chatty_entities=chatty_entities)
        )

    raw = latest_user_text(messages)
    chinese = mostly_chinese(raw)
    edits = block_edit_turn(messages, tools, chinese=chinese)  # memory blocks: edit first, then answer
    if edits is not None:
        said = edits.call or compose_reply(edits.messages, drift=drift, chatty_entities=chatty_entities)
        return Reply(("" if chinese else " ").join(filter(None, (said.text, edits.refused))), said.tool_calls)
    last_human = max((i for i, m in enumerate(messages) if m.type == "human"), default=-1)
    after = messages[last_human + 1 :]
    if any(isinstance(m, ToolMessage) for m in after) and isinstance(messages[-1], ToolMessage):
        return Reply(answer_from_tools(after, chinese=chinese))
    reading = read_prompt(messages)
    read_messages = _as_read(messages, reading)
    text = latest_user_text(read_messages)
    knowledge = knowledge_of(read_messages)
    if tools and not any(isinstance(m, ToolMessage) for m in after):
        planned = plan_tool_call(text, tool_names(tools), knowledge.current(USER), chinese=chinese)
        if planned is not None:
            return planned
    before = [s for s in reading.said if s.source == "user" and s.message == reading.user_messages - 2]
    parts = question_parts(raw, after_question=any(s.question for s in before))
    if parts:
        answered = _answers(parts, text, reading, knowledge, chinese=chinese)
        refusals = (DONT_KNOW_EN[:12], DONT_KNOW_ZH[:6], DONT_KNOW_ALL_EN[:12], DONT_KNOW_ALL_ZH[:6])
        if answered.startswith(refusals):
            stated = acknowledgement(text, reading, chinese=chinese, statements_only=True)
            return Reply(f"{stated}{'' if chinese else ' '}{answered}" if stated else answered)
        return Reply(answered)
    questions = find_questions(text)
    if any(question.key is not None for question in questions):
        return Reply(answer_questions(questions, knowledge, chinese=chinese))
    return Reply(acknowledgement(text, reading, chinese=chinese))


_ACKNOWLEDGEMENTS = (
    "Got it: ",
    "Nice to meet you, ",
    "记住了，",
    "OK, I'll set that aside.",
    "好的，那句不算。",
)


def _as_read(messages: Sequence[BaseMessage], reading: Reading) -> list[BaseMessage]:
    """The messages as the reader read them: each plain user message with its corrections applied."""
    humans = [m for m in messages if m.type == "human"]
    if len(humans) != reading.user_messages:  # a classic template: one message holds the conversation
        return list(messages)
    if humans and humans[-1] is not messages[-1]:  # a tool round or an agent's own turn: as it is
        return list(messages)
    read: list[BaseMessage] = []
    index = 0
    for message in messages:
        if message.type == "ai" and content_text(message).startswith(_ACKNOWLEDGEMENTS):
            continue  # the model's own acknowledgement says back what the user's message said
        if message.type == "human":
            text = corrected_text(reading, index, content_text(message))
            read.append(HumanMessage(text) if text != content_text(message) else message)
            index += 1
        else:
            read.append(message)
    return read


def _answers(
    parts: Sequence[str], text: str, reading: Reading, knowledge: Knowledge, *, chinese: bool
) -> str:
    """An answer to every question: the grammar's where it is sure, else the general reader's."""
    current = reading.user_messages - 1
    statements = reading.said
    asked = [s for s in statements if s.question and s.source == "user" and s.message < current]
    people = frozenset(
        p
        for p in {s.about for s in statements if s.about not in {"", USER} and not s.question}
        | set(reading.aliases)
        if not re.search("什么|啥|哪|谁|几|多少|呢|吗", p)
    )
    previous: Ask | None = None
    for question in asked[-3:]:  # "几点" then "哪天来着" after "我约了啥": both ask of the appointment
        alone = analyse(question.text, None, people)
        previous = alone if alone.words or previous is None else analyse(question.text, previous, people)
    grammar = find_questions(text)
    if len(grammar) >= len(parts):  # the grammar's parts: "她" in a second question is the first's person
        pairs = [(q.text, [q] if q.key is not None else []) for q in grammar]
    else:
        pairs = [(part, [q for q in find_questions(part) if q.key is not None]) for part in parts]
    answers: list[str | None] = []
    for part, keyed in pairs:
        ask = _of_whom_the_reader_read(analyse(unwrapped(part), previous, people), part, statements, current)
        said = conversation_answer(part, statements, current=current)
        if said is None:
            sure = [answer_question(q, knowledge, chinese=chinese) for q in keyed]
            sure = [a for a in sure if a and not a.startswith((DONT_KNOW_EN[:12], DONT_KNOW_ZH[:6]))]
            said = " ".join(sure) or answer(ask, _said_of(part, statements), reading.aliases, current=current)
        if said is None and previous is not None:
            said = answer_follow_up(
                part, previous, statements, reading.aliases, current=current, people=people
            )
        answers.append(said)
        previous = ask
    if len(answers) == 1:
        return answers[0] or dont_know(chinese=chinese)
    if not any(answers):
        return dont_know(chinese=chinese, questions=len(answers))
    said_back = [  # one statement answering two parts is said once ("会议改到哪天了 几点")
        a or dont_know_nth(index, chinese=chinese)
        for index, a in enumerate(answers)
        if not a or a not in answers[:index]
    ]
    return ("" if chinese else " ").join(said_back)


def _said_of(part: str, statements: Sequence[Said]) -> Sequence[Said]:
    """The statements a question may be answered from: what the user supposed too, when it asks what they
    said (我说中奖了先买啥, "what did I say I'd buy")."""
    if unwrapped(part) == part:
        return statements
    return [s._replace(hypothetical=False) for s in statements]


# 他 or she as the one the question asks of; "打算送她什么" asks what I give her
_THIRD_PERSON = re.compile(
    r"^(?:那么?)?[他她](?!们)|\b(?:he|she)\b|^\W*(?:and|what about|how about)\s+(?:her|him)\b", re.I
)
_FIRST_PERSON = re.compile(r"我|\b(?:I|me|my|I'm)\b", re.I)


def _of_whom_the_reader_read(ask: Ask, part: str, statements: Sequence[Said], current: int) -> Ask:
    """她呢 after 我喜欢哪个季节 asks of the girlfriend the reader took 她 for, never of the user."""
    if ask.about != USER or not _THIRD_PERSON.search(part) or _FIRST_PERSON.search(part):
        return ask  # "what did I get her": of what I did
    for said in statements:
        if said.question and said.message == current and said.about not in {"", USER} and said.text in part:
            return ask._replace(about=said.about)
    return ask


_PLEASANTRY = re.compile(
    r"^\W*(?:thanks|thank you|ok|okay|cool|great|nice|lol|haha|hi|hello|hey|bye|"
    r"谢谢|你好|哈+|嗯+|好的|好|早上好|晚安|再见)\W*$",
    re.I,
)


def _says_something(text: str) -> bool:
    """Whether a statement with nobody as its subject still says something worth saying back."""
    if _PLEASANTRY.match(text):
        return False
    if mostly_chinese(text):
        return len(re.findall(f"[{CJK}]", text)) >= 4
    return len(re.findall(r"\w+", text)) >= 3


def acknowledgement(text: str, reading: Reading, *, chinese: bool, statements_only: bool = False) -> str:
    """A reply to a statement: the grammar's when faithful, else the user's own words said back.

    ``statements_only``: the message also asks; "" when it states nothing (no small talk).
    """
    current = [s for s in reading.said if s.message == reading.user_messages - 1 and s.source == "user"]
    standing = [s for s in current if not (s.retracted or s.question or s.hypothetical)]
    standing = [s for s in standing if not REQUEST.match(s.text)]
    standing = [s for s in standing if s.about or (not statements_only and _says_something(s.text))]
    if statements_only and not standing:
        return ""  # "did i like the movie" asks: the grammar would read a fact into it
    if not chinese:
        stated = acknowledge(extract_facts(text), chinese=False)
        if faithful(stated, text, [s.text for s in standing]):
            return stated
    if not standing:
        if any(s.retracted for s in reading.said if s.message == reading.user_messages - 1):
            return "好的，那句不算。" if chinese else "OK, I'll set that aside."
        return small_talk(text, chinese=chinese)
    restated = [to_asker(s.text) for s in standing]
    said = (
        "，".join(r.rstrip("。") for r in restated) if chinese else "; ".join(r.rstrip(".") for r in restated)
    )
    end = "" if said.endswith(("!", "！")) else "。" if chinese else "."  # "switch！" needs no 。 after it
    return ("记住了，" if chinese else "Got it: ") + said + end


def stream_chunks(text: str) -> list[str]:
    """Word-sized pieces (two ideographs at a time for Chinese) that join back to ``text`` exactly."""
    cjk = f"[{CJK}\u3000-\u303f\uff00-\uffef]"
    pieces = re.findall(rf"\s*(?:{cjk}{{1,2}}|[^\s{CJK}\u3000-\u303f\uff00-\uffef]+)|\s+$", text)
    return pieces if "".join(pieces) == text else [text]


def corrected_text(reading: Reading, message: int, text: str) -> str:
    """One user message as the reader read it: casual spellings written out, corrections applied."""
    said = [s for s in reading.said if s.message == message and s.source == "user"]
    if not any(s.dropped or s.rewritten or s.hypothetical for s in said):
        return casual(text)
    return " ".join(  # a supposition states nothing: the grammar must not read "if I lived in Paris"
        s.text + ("" if s.text.endswith((".", "?", "!", "。", "？")) else ".")
        for s in said
        if not (s.dropped or s.hypothetical)
    )
