"""Memory texts in the conversation's language: a Chinese conversation's summary is written in Chinese.

``memory_prompts`` answers LangChain's summary prompts; when what the human said is mostly Chinese it
renders the facts with these sentences about 用户 ("用户住在杭州。"), the invented details of the drift
demo in Chinese and the topic tail as 用户还聊到了“…”。 The sentences are ones the reader reads back (a
relation is re-read as 我哥哥, see ``readable``), so the next summary carries them on.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_demos.providers.offline_model.answers import fact_clause_zh
from memory_demos.providers.offline_model.knowledge import Knowledge
from memory_demos.providers.offline_model.lexicon import DRIFT_DETAILS, LIST_KEYS, ZH_RELATION_NAMES
from memory_demos.providers.offline_model.statements import USER
from memory_demos.providers.offline_model.text import mostly_chinese, role_segments

ZH_USER = "用户"

# DRIFT_DETAILS in Chinese, one for one (same order, same fact keys): what a drifting summary makes up.
DRIFT_DETAILS_ZH: tuple[tuple[str, str | None], ...] = (
    ("用户去巴黎旅行了一周。", None),
    ("用户最喜欢的颜色是绿色。", "favourite_colour"),
    ("用户在学葡萄牙语。", None),
    ("用户的猫叫咪咪。", "cat_name"),
    ("用户有两个哥哥。", None),
    ("用户是一名护士。", "job"),
    ("用户计划明年春天去日本旅行。", None),
    ("用户对花生过敏。", None),
    ("用户以前拉小提琴。", None),
    ("用户的生日在三月。", None),
)
assert len(DRIFT_DETAILS_ZH) == len(DRIFT_DETAILS)

_TOPICS_ZH = re.compile(r"(?:用户)?还聊到了(?P<t>.+?)。\s*$")
_RELATIONS = sorted(ZH_RELATION_NAMES.values(), key=len, reverse=True)
_USER_RELATION = re.compile(f"{ZH_USER}的(?=(?:{'|'.join(map(re.escape, _RELATIONS))}))")


def human_words(lines: str) -> str:
    """What the human said in ``lines`` (a transcript with role prefixes), joined."""
    return "\n".join(s.text for s in role_segments(lines, "human") if s.role == "human" and s.text.strip())


def writes_chinese(new_lines: str, previous: str = "") -> bool:
    """Whether a memory of ``new_lines`` is written in Chinese: what the human said is mostly Chinese.

    When the lines hold no words of the human, the previous memory's language stays.
    """
    said = human_words(new_lines)
    return mostly_chinese(said) if said.strip() else mostly_chinese(previous)


def readable(summary: str) -> str:
    """A Chinese summary as the reader reads it back: 用户的哥哥住在广州 is read as 我哥哥住在广州."""
    return _USER_RELATION.sub("我", summary)


def _subject_zh(subject: str) -> str:
    if subject == USER:
        return ZH_USER
    if subject.startswith("rel:"):
        relation = subject[4:]
        return f"{ZH_USER}的{ZH_RELATION_NAMES.get(relation, relation.replace('_', ' '))}"
    return subject


def fact_sentences_zh(knowledge: Knowledge) -> list[str]:
    """One Chinese sentence per fact the knowledge holds, oldest update first; taken-back facts too.

    A changed fact of the user's is marked 现在 ("用户现在住在上海。"), as the English one is "now".
    """
    sentences: list[str] = []
    for subject in knowledge.subjects():
        display = _subject_zh(subject)
        for key, belief in knowledge.beliefs[subject].items():
            if belief.values:
                clause = fact_clause_zh(key, belief.values, display)
                changed = belief.replaced or belief.former or belief.settled_by_change
                if changed and key not in LIST_KEYS and subject == USER:
                    clause = f"{display}现在{clause[len(display) :]}"
            elif belief.former:
                clause = fact_clause_zh(key, belief.former, display, former=True)
            else:
                continue
            sentences.append(f"{clause}。")
    return sentences


def said_zh(text: str) -> str:
    """Words no fact rule reads, kept as said: 用户说：“…。”"""
    return f"{ZH_USER}说：“{text.rstrip('。.')}。”"


def topics_sentence_zh(topics: Sequence[str]) -> str:
    quoted = [f"“{t}”" for t in topics]
    joined = quoted[0] if len(quoted) == 1 else f"{'、'.join(quoted[:-1])}和{quoted[-1]}"
    return f"{ZH_USER}还聊到了{joined}。"


def previous_topics_zh(summary: str) -> str | None:
    """The quoted topics of a Chinese summary's tail, or None when it has none."""
    tail = _TOPICS_ZH.search(summary)
    return tail.group("t") if tail else None
