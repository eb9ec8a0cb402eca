"""Small talk: a short reply about the message's own topic that never invents a fact or answers a question."""

from __future__ import annotations

import re

from memory_demos.providers.offline_model.lexicon import DONT_KNOW_EN, DONT_KNOW_ZH, STOPWORDS
from memory_demos.providers.offline_model.text import is_chinese, join_en, normalize_quotes, stable_hash

_ZH_TOPIC_CHARS = 12  # longer topics are cut and marked "…", never cut silently inside a word
_SUMMARY_OPENER = re.compile(
    r"^(?:(?:hi|hello|hey|thanks|thank you|ok|okay|so|well|oh|and|but|also)\b[\s,.!]*)+", re.IGNORECASE
)


def summary_topic(text: str, max_chars: int) -> str:
    """A readable topic phrase for a summary: "about X" if said, else the message's own words, cut at a
    word with "…" when longer than ``max_chars`` ("what makes a good cup of tea", not "makes & cup")."""
    text = normalize_quotes(text).strip()
    if is_chinese(text) or re.search(r"\babout\s+\w", text, re.IGNORECASE):
        return topic_of(text)
    phrase = _SUMMARY_OPENER.sub("", text).strip(" ?!.,;:")
    first, _, rest = phrase.partition(" ")
    if first.lower() in STOPWORDS and first != "I":
        phrase = " ".join(filter(None, (first.lower(), rest)))
    if len(phrase) <= max_chars:
        return phrase
    cut = phrase[: max_chars - 1].rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "…"


def _cut_zh(text: str) -> str:
    """A long Chinese topic cut before 的/和/在/是 or after 了 (word edges a reader sees), marked "…"."""
    head = text[:_ZH_TOPIC_CHARS]
    edges = [i for i, ch in enumerate(head) if ch in "的和在是跟"] + [
        i + 1 for i, ch in enumerate(head) if ch == "了"
    ]
    edge = max((i for i in edges if i >= 4), default=_ZH_TOPIC_CHARS - 1)
    return text[:edge] + "…"


def topic_of(text: str) -> str:
    """A short, deterministic topic phrase taken from the text itself ("" when there is none)."""
    text = normalize_quotes(text).strip()
    if is_chinese(text):
        cleaned = re.sub(r"[，。！？,.!?；;、：:\s]+", "", text)
        cleaned = re.sub(r"^(?:我觉得|我想|我们|请问|你觉得|今天|最近)+", "", cleaned)
        cleaned = re.sub(r"(?:吗|呢|吧|啊|呀|了)+$", "", cleaned)
        return cleaned if len(cleaned) <= _ZH_TOPIC_CHARS else _cut_zh(cleaned)
    about = re.search(r"\babout\s+(?P<t>[\w' -]{2,40}?)\s*(?:[?.!,;]|$)", text, re.IGNORECASE)
    if about:
        words = [w for w in about.group("t").split() if w.lower() not in {"the", "a", "an", "my", "your"}]
        if words:
            return " ".join(words[:4])
    tokens = re.findall(r"[A-Za-z][A-Za-z'-]+", text)
    if tokens:
        tokens[0] = tokens[0].lower()
    # No part-of-speech tagger here: dropping stop words and "-ed" verbs leaves mostly nouns.
    words = [w for w in tokens if w.lower() not in STOPWORDS and len(w) > 2 and not w.lower().endswith("ed")]
    unique = list(dict.fromkeys(words))
    return join_en(unique[:2])


def small_talk(text: str, *, chinese: bool) -> str:
    """A short, deterministic reply about the message's own topic; it never invents a fact."""
    plain = normalize_quotes(text).strip().lower()
    variant = stable_hash(plain)
    if chinese:
        return _small_talk_zh(text, plain, variant)
    return _small_talk_en(text, plain, variant)


# A greeting or thanks that opens a message; what follows it may still be a question.
_OPENER_ZH = re.compile(r"^(?:(?:你好|您好|嗨|哈喽|早上好|晚上好|谢谢你?|多谢|好的)[！!，,。.~\s]*)+")
_OPENER_EN = re.compile(
    r"^(?:(?:hi|hello|hey|good (?:morning|afternoon|evening)|greetings|thanks|thank you|many thanks|"
    r"ok|okay|great|cool)\b(?: so much| a lot| very much)?[\s,.!]*)+"
)
_WH_QUESTION = re.compile(
    r"^(?:what|where|who|which|when|how)(?:'s|\s+(?:is|are|was|were|do|does|did|am|can|could|will|would|"
    r"should|old|much|many|long))\b"
)
# A request the model cannot carry out from its prompt ("any tips for sleep", 推荐一本书): asked, not stated.
REQUEST = re.compile(
    r"^(?:(?:ok|so|and|also|please|pls|now|hey)[\s,]+)*(?:(?:tell|give|recommend|suggest|show|teach|explain|"
    r"write|list|share|describe)\s+(?:me|us|a|an|some|something|any)\b|any\s+(?:tips|ideas|suggestions|"
    r"advice|recommendations)\b|help\s+me\b|(?:keep|remember|note|save)\s+(?:this|that)\b)|^(?:请|麻烦你?|那)?(?:推荐|讲个|讲一|说个|说一|给我|帮我|介绍|来个|来一|告诉我|教我)",
    re.IGNORECASE,
)
_HOW_ARE_YOU = re.compile(r"^(?:how\s+are\s+you|how's\s+it\s+going|what's\s+up)\b")


def _small_talk_zh(text: str, plain: str, variant: int) -> str:
    """``small_talk`` in Chinese: greetings, thanks, farewells, else a word about the topic.

    A question after a greeting or thanks ("谢谢！奥斯陆的天气怎么样？") is not swallowed by it.
    """
    rest = _OPENER_ZH.sub("", plain)
    asks = rest.endswith(("?", "？", "吗", "呢")) or re.search("什么|哪|谁|多少|几|怎么样|如何", rest)
    if rest != plain and len(rest.strip("？?！!。，, ")) >= 2 and asks:
        return DONT_KNOW_ZH
    if re.match(r"^(?:你好|您好|嗨|哈喽|早上好|晚上好)", plain):
        return "你好！想聊点什么？"
    if re.search("谢谢|多谢", plain):
        return "不客气！"
    if re.search("再见|拜拜", plain):
        return "再见！"
    if REQUEST.match(rest):
        return DONT_KNOW_ZH
    topic = topic_of(text)
    if not topic:
        return "嗯，我在听。"
    if plain.endswith(("?", "？", "吗", "呢")):
        return DONT_KNOW_ZH
    return (
        "有意思——关于“{t}”，能再多说一点吗？",
        "明白了，“{t}”。还有什么想聊的？",
    )[variant % 2].format(t=topic)


def _small_talk_en(text: str, plain: str, variant: int) -> str:
    """``small_talk`` in English: greetings, "how are you", thanks, farewells, else a word about the topic.

    A question after a greeting or thanks ("Hi, any tips?", "Thanks, what's the weather") is not
    swallowed by it.
    """
    rest = _OPENER_EN.sub("", plain)
    if rest != plain and rest.strip(" ?!.,"):
        if _HOW_ARE_YOU.match(rest):
            return (
                "I'm a rule-based offline model, so I'm always the same. What would you like to talk about?"
            )
        if rest.endswith("?") or _WH_QUESTION.match(rest):
            return DONT_KNOW_EN
    if (
        re.match(r"^(?:hi|hello|hey|good (?:morning|afternoon|evening)|greetings)\b", plain)
        and len(plain) < 30
    ):
        return "Hello! What would you like to talk about?"
    if re.match(r"^how\s+are\s+you\b", plain):
        return "I'm a rule-based offline model, so I'm always the same. What would you like to talk about?"
    if plain.endswith("?") or REQUEST.match(rest):
        return DONT_KNOW_EN
    if re.search(r"\b(?:thanks|thank you)\b", plain):
        return "You're welcome!"
    if re.match(r"^(?:bye|goodbye|see you)\b", plain):
        return "Goodbye!"
    topic = topic_of(text)
    if not topic:
        return "I see. Tell me more."
    templates = (
        "Interesting — tell me more about {t}.",
        "I see. What else would you like to say about {t}?",
        "Thanks for sharing that about {t}.",
    )
    return templates[variant % len(templates)].format(t=topic)
