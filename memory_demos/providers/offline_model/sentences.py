"""Text cut into sentences and clauses, and the cheap tests that skip text stating no fact.

Most messages in a long prompt are questions, small talk or the assistant speaking of itself. The
tests here answer "can this state a fact at all?" and "can this split at all?" with one fast scan,
so ``statements`` does its clause work only where it can find something.
"""

from __future__ import annotations

import re

from memory_demos.providers.offline_model.lexicon import CJK
from memory_demos.providers.offline_model.text import normalize_quotes

NAME_EN = r"[A-Z][a-z][\w'-]*"
ZH_VERBS = (
    r"住|搬|来自|是|今年|喜欢|不|讨厌|做|当|在|的|叫|刚|已经|现在|也|还|最|说|只|喝|吃|满|过|以前|原来|"
    r"辞|退休|失业|离职|被"
)
PREDICATE = (
    r"(?:is|was|has|had|lives|lived|moved|works|worked|likes|loves|hates|enjoys|drinks|eats|plays|speaks|"
    r"studies|comes|turned|just|no\s+longer|used\s+to|doesn't|does|never|now|only|still|also|recently|"
    r"quit|retired|resigned|stopped|lost|got)\b"
)
_CLAUSE_BREAK = re.compile(
    r"\s*(?:[,;:—–]\s*(?:and\s+|but\s+|so\s+|then\s+)?|\s+(?:and|&|but|so|whereas|while)\s+)"
    r"(?=(?:now|these days|nowadays|then|also|still|currently)?\s*"
    r"(?:I\b|I'm|my\b|My\b|you\b|your\b|[A-Z][a-z]+\b|"
    r"he\b|she\b|He\b|She\b|his\b|her\b|live[sd]?\b|works?\b|moved\b|is\b|likes?\b|loves?\b|drinks?\b|"
    r"eats?\b|plays?\b|speaks?\b|turned\b|just\b|no\s+longer\b|used\s+to\b|don't\b|doesn't\b|only\b|"
    r"comes?\b|has\b))"
)
_QUOTE_EN = re.compile(
    r"^(?P<who>.{0,40}?\b" + NAME_EN + r")\s+(?:said|says|told\s+me|tells\s+me|wrote|writes)"
    r"(?:\s+that)?\s*[:,]?\s*[\"“]?(?P<q>[^\"”]+)[\"”]?\s*$"
)
_QUOTE_ZH = re.compile(r"^(?P<who>.{0,12}?)(?:说|告诉我)[：:，,]?\s*[“\"「]?(?P<q>[^”\"」]+)[”\"」]?$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])|\n+")
# Where _SENTENCE_END or _CLAUSE_BREAK could split at all. Each starts with a character set, which
# the regex engine scans for quickly, so the common one-sentence, one-clause text skips the split.
_MAY_END_SENTENCE = re.compile(r"[.!?。！？\n](?:(?<=[。！？\n])|\s)")
_MAY_BREAK_CLAUSE = re.compile(r"[,;:—–\s](?:(?<=[,;:—–])|(?:and|&|but|so|whereas|while)\s)")
_ZH_CLAUSE_END = re.compile(r"[，,；;。！!？?]|(?:但是|不过|可是)")
_CHANGED_MIND = re.compile(r"changed\s+my\s+mind|改主意|说错了|更正", re.IGNORECASE)
_BULLET = re.compile(r"^(?:[-*•·]|\d+[.)])\s+")
_BULLET_STARTS = frozenset("-*•·")  # or a digit (str.isdigit holds every \d and more)

# A sentence with none of these states no fact: skipped before any clause work.
_THIRD_PERSON = r"(?:[A-Z][a-z][\w'-]*|[" + CJK + r"]{2,4})(?:'s)?\s+" + PREDICATE
_EN_MAY_STATE = re.compile(
    r"\b(?:I|[Mm]y|[Yy]ou|[Yy]our|[Hh]e|[Ss]he|[Hh]is|[Hh]er|human|user|[Cc]all\s+me)\b|" + _THIRD_PERSON
)
# The assistant's own "I" is about the assistant: its lines state facts only in the second or third person.
_EN_MAY_STATE_AI = re.compile(r"\b(?:[Yy]ou|[Yy]our|[Hh]e|[Ss]he|[Hh]is|[Hh]er)\b|" + _THIRD_PERSON)
_ZH_MAY_STATE = re.compile(ZH_VERBS + "|生日|下岗")


def may_state_facts(text: str) -> bool:
    """False when no sentence of ``text`` can state a fact: such text is skipped before any clause work."""
    # ASCII text holds no ideograph: the Chinese test cannot match it.
    return bool((not text.isascii() and _ZH_MAY_STATE.search(text)) or _EN_MAY_STATE.search(text))


def assistant_may_state_facts(text: str) -> bool:
    """False when no sentence of the assistant's ``text`` (no role lines) can state a fact."""
    return bool(
        "<message type=" in text
        or (not text.isascii() and _ZH_MAY_STATE.search(text))
        or _EN_MAY_STATE_AI.search(normalize_quotes(text))
    )


def sentence_may_state(sentence: str, *, chinese: bool, assistant: bool) -> bool:
    """False when one sentence (quotes normalised) cannot state a fact."""
    pattern = _ZH_MAY_STATE if chinese else _EN_MAY_STATE_AI if assistant else _EN_MAY_STATE
    return pattern.search(sentence) is not None


_ZH_ASKS = re.compile("什么|多少|哪|谁|啥|吗[？?]?$|几岁|几号|[？?]$")


_EN_ASKS_FIRST = re.compile(  # typed without "?": "do i eat red meat", "whats my name"
    r"^\W*(?:(?:and|so|but|n|ok|also)\s+)?(?:(?:do|does|did|am|is|are|was|were|can|could|will|would|have|"
    r"has|should)\s+(?:i|you|u|he|she|we|they|my|it)\b|(?:what|where|when|who|which|how|why)(?:'s)?\s+"
    r"(?:do|does|did|is|are|am|was|were|can|will|my|i)\b|(?:whats|wheres|whens|whos|hows)\b)",
    re.I,
)


def is_question(clause: str, *, chinese: bool) -> bool:
    """Whether a clause asks something (it then states no fact)."""
    if chinese:
        return bool(_ZH_ASKS.search(clause))
    return clause.rstrip().endswith("?") or _EN_ASKS_FIRST.match(clause) is not None


def quote(sentence: str, *, chinese: bool) -> re.Match[str] | None:
    """ "Anna said: I live in Rome": ``who`` said it and the quoted words ``q``; None for other sentences."""
    if chinese:
        return _QUOTE_ZH.match(sentence) if "说" in sentence or "告诉我" in sentence else None
    says = "said" in sentence or "says" in sentence or "told" in sentence or "tells" in sentence
    return _QUOTE_EN.match(sentence) if says or "wrote" in sentence or "writes" in sentence else None


def changes_mind(sentence: str) -> bool:
    """ "I changed my mind: ...", 改主意: what follows replaces what was said before."""
    # "changed" casefolds whole wherever the case-insensitive pattern could match it.
    chinese = "改主意" in sentence or "说错了" in sentence or "更正" in sentence
    if not chinese and "changed" not in sentence.casefold():
        return False
    return _CHANGED_MIND.search(sentence) is not None


def split_sentences(text: str) -> list[str]:
    """Sentences, split after . ! ? 。！？ and at line breaks."""
    parts = _SENTENCE_END.split(text) if _MAY_END_SENTENCE.search(text) else (text,)
    stripped = [part.strip() for part in parts if part and part.strip()]
    return [
        _BULLET.sub("", part) if part[0] in _BULLET_STARTS or part[0].isdigit() else part for part in stripped
    ]


def clauses(sentence: str, *, chinese: bool) -> list[str]:
    """A sentence's clauses: at commas and conjunctions before a new subject; at Chinese punctuation."""
    if chinese:
        parts = _ZH_CLAUSE_END.split(sentence)
    elif _MAY_BREAK_CLAUSE.search(sentence):
        parts = _CLAUSE_BREAK.split(sentence)
    else:
        parts = [sentence]
    return [part.strip() for part in parts if part and part.strip()]
