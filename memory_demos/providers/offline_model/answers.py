"""Saying facts back: clauses in English and Chinese, refusals, acknowledgements, small talk."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memory_demos.providers.offline_model.lexicon import (
    _STOPWORDS,
    ALL_FACTS,
    DONT_KNOW_EN,
    DONT_KNOW_ZH,
)
from memory_demos.providers.offline_model.text import (
    _article,
    _capitalize,
    _display_key_en,
    _display_key_zh,
    _join_en,
    _normalize_quotes,
    _stable_hash,
    is_chinese,
)

# --------------------------------------------------------------------------------------------
# Rendering facts


@dataclass(frozen=True)
class Reply:
    """What the model answers: text, or tool calls (then the text is empty)."""

    text: str
    tool_calls: tuple[dict[str, Any], ...] = ()


def fact_clause(key: str, values: Sequence[str], subject: str = "you") -> str:
    """An English clause stating one fact; ``subject`` is "you", "the human" or an entity's name."""
    second = subject == "you"
    possessive = "your" if second else f"{subject}'s"
    verb_s = "" if second else "s"
    value = _join_en(values)
    if key == "name":
        if second:
            return f"your name is {value}"
        if subject == "the human":
            return f"the human's name is {value}"
        return f"{subject} is the human's name"
    if key == "city":
        return f"{subject} live{verb_s} in {value}"
    if key == "hometown":
        return "you're from " + value if second else f"{subject} is from {value}"
    if key == "likes":
        return f"{subject} like{verb_s} {value}"
    if key == "dislikes":
        return f"you don't like {value}" if second else f"{subject} dislikes {value}"
    if key == "job":
        return f"{subject} work{verb_s} as {_article(value)} {value}"
    if key == "age":
        return f"you're {value} years old" if second else f"{subject} is {value} years old"
    return f"{possessive} {_display_key_en(key)} is {value}"


def fact_clause_zh(key: str, values: Sequence[str]) -> str:
    """A Chinese second-person clause stating one fact."""
    value = "、".join(values)
    if key == "name":
        return f"你叫{value}"
    if key == "city":
        return f"你住在{value}"
    if key == "hometown":
        return f"你来自{value}"
    if key == "likes":
        return f"你喜欢{value}"
    if key == "dislikes":
        return f"你不喜欢{value}"
    if key == "age":
        return f"你{value}岁"
    if key.startswith("favourite_"):
        return f"你最喜欢的{_display_key_zh(key)}是{value}"
    return f"你的{_display_key_zh(key)}是{value}"


def _unknown_topic_en(key: str) -> str:
    topics = {
        "name": "your name",
        "city": "where you live",
        "hometown": "where you're from",
        "likes": "what you like",
        "dislikes": "what you dislike",
        "job": "what you do for work",
        "age": "how old you are",
        ALL_FACTS: "anything about you",
    }
    return topics.get(key, f"your {_display_key_en(key)}")


def _unknown_topic_zh(key: str) -> str:
    topics = {
        "name": "你的名字",
        "city": "你住在哪里",
        "hometown": "你来自哪里",
        "likes": "你喜欢什么",
        "dislikes": "你不喜欢什么",
        "age": "你多大",
        ALL_FACTS: "关于你的任何信息",
    }
    if key in topics:
        return topics[key]
    if key.startswith("favourite_"):
        return f"你最喜欢的{_display_key_zh(key)}是什么"
    return f"你的{_display_key_zh(key)}"


def dont_know(key: str, *, chinese: bool = False) -> str:
    """The reply when the prompt holds no such fact: forgetting made visible."""
    if chinese:
        return DONT_KNOW_ZH.format(topic=_unknown_topic_zh(key))
    return DONT_KNOW_EN.format(topic=_unknown_topic_en(key))


def _acknowledge(facts: dict[str, tuple[str, ...]], *, chinese: bool) -> str:
    if chinese:
        return "记住了，" + "，".join(fact_clause_zh(k, v) for k, v in facts.items()) + "。"
    parts: list[str] = []
    if "name" in facts:
        parts.append(f"Nice to meet you, {facts['name'][0]}!")
    others = [fact_clause(k, v) for k, v in facts.items() if k != "name"]
    if others:
        parts.append("Got it: " + "; ".join(others) + ".")
    return " ".join(parts)


def answer_recall(key: str, facts: dict[str, tuple[str, ...]], *, chinese: bool) -> str:
    """Answer a recall question from the facts found in the prompt, or say it is not there."""
    if key == ALL_FACTS:
        if not facts:
            return dont_know(ALL_FACTS, chinese=chinese)
        if chinese:
            return (
                "我收到的内容里关于你的信息："
                + "；".join(fact_clause_zh(k, v) for k, v in facts.items())
                + "。"
            )
        return (
            "Here is what I was given about you: "
            + "; ".join(fact_clause(k, v) for k, v in facts.items())
            + "."
        )
    found_key = _find_key(key, facts)
    if found_key is None:
        return dont_know(key, chinese=chinese)
    values = facts[found_key]
    clause = fact_clause_zh(found_key, values) if chinese else fact_clause(found_key, values)
    return _capitalize(clause) + ("。" if chinese else ".")


def _find_key(key: str, facts: dict[str, tuple[str, ...]]) -> str | None:
    if key in facts:
        return key
    fallbacks = {"city": "hometown", "hometown": "city"}
    if key in fallbacks and fallbacks[key] in facts:
        return fallbacks[key]
    if len(key) >= 3:
        candidates = [k for k in facts if k.startswith(f"{key}_") or k.endswith(f"_{key}")]
        if len(candidates) == 1:
            return candidates[0]
    return None


def topic_of(text: str) -> str:
    """A short, deterministic topic phrase taken from the text itself ("" when there is none)."""
    text = _normalize_quotes(text).strip()
    if is_chinese(text):
        cleaned = re.sub(r"[，。！？,.!?；;、：:\s]+", "", text)
        cleaned = re.sub(r"^(?:我觉得|我想|我们|请问|你觉得|今天|最近)+", "", cleaned)
        cleaned = re.sub(r"(?:吗|呢|吧|啊|呀|了)+$", "", cleaned)
        return cleaned[:10]
    about = re.search(r"\babout\s+(?P<t>[\w' -]{2,40}?)\s*(?:[?.!,;]|$)", text, re.IGNORECASE)
    if about:
        words = [w for w in about.group("t").split() if w.lower() not in {"the", "a", "an", "my", "your"}]
        if words:
            return " ".join(words[:4])
    tokens = re.findall(r"[A-Za-z][A-Za-z'-]+", text)
    if tokens:
        tokens[0] = tokens[0].lower()
    # No part-of-speech tagger here: dropping stop words and "-ed" verbs leaves mostly nouns.
    words = [w for w in tokens if w.lower() not in _STOPWORDS and len(w) > 2 and not w.lower().endswith("ed")]
    unique = list(dict.fromkeys(words))
    return _join_en(unique[:2])


def small_talk(text: str, *, chinese: bool) -> str:
    """A short, deterministic reply about the message's own topic; it never invents a fact."""
    plain = _normalize_quotes(text).strip().lower()
    variant = _stable_hash(plain)
    if chinese:
        if re.match(r"^(?:你好|您好|嗨|哈喽|早上好|晚上好)", plain):
            return "你好！想聊点什么？"
        if re.search("谢谢|多谢", plain):
            return "不客气！"
        if re.search("再见|拜拜", plain):
            return "再见！"
        topic = topic_of(text)
        if not topic:
            return "嗯，我在听。"
        if plain.endswith(("?", "？", "吗", "呢")):
            return f"我只能根据收到的内容回答，里面没有关于“{topic}”的信息。"
        return (
            "有意思——关于“{t}”，能再多说一点吗？",
            "明白了，“{t}”。还有什么想聊的？",
        )[variant % 2].format(t=topic)
    if (
        re.match(r"^(?:hi|hello|hey|good (?:morning|afternoon|evening)|greetings)\b", plain)
        and len(plain) < 30
    ):
        return "Hello! What would you like to talk about?"
    if re.match(r"^how\s+are\s+you\b", plain):
        return "I'm a rule-based offline model, so I'm always the same. What would you like to talk about?"
    if re.search(r"\b(?:thanks|thank you)\b", plain):
        return "You're welcome!"
    if re.match(r"^(?:bye|goodbye|see you)\b", plain):
        return "Goodbye!"
    topic = topic_of(text)
    if not topic:
        return "I see. Tell me more."
    if plain.endswith("?"):
        return f"I can only answer from what is in my prompt, and it says nothing about {topic}."
    templates = (
        "Interesting — tell me more about {t}.",
        "I see. What else would you like to say about {t}?",
        "Thanks for sharing that about {t}.",
    )
    return templates[variant % len(templates)].format(t=topic)
