"""Memory texts in the conversation's language (a Chinese conversation's summary is written in Chinese),
and an earlier middleware summary read as a summary, not as what the human said.

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
from memory_demos.providers.offline_model.lexicon import (
    DRIFT_DETAILS,
    LIST_KEYS,
    MAX_ENTITY_SENTENCES,
    ZH_RELATION_NAMES,
)
from memory_demos.providers.offline_model.sentences import split_sentences
from memory_demos.providers.offline_model.statements import USER
from memory_demos.providers.offline_model.text import mostly_chinese, role_segments, section_of

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


def fact_sentences_zh(knowledge: Knowledge, *, user_as: str = ZH_USER) -> list[str]:
    """One Chinese sentence per fact the knowledge holds, oldest update first; taken-back facts too.

    A changed fact of the user's is marked 现在 ("用户现在住在上海。"), as the English one is "now".
    """
    sentences: list[str] = []
    for subject in knowledge.subjects():
        display = user_as if subject == USER else _subject_zh(subject)
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


def drift_details(chinese: bool) -> list[tuple[str, str, str | None]]:
    """(sentence in the summary's language, its sentence in the other language, fact key) per detail."""
    pairs = zip(DRIFT_DETAILS, DRIFT_DETAILS_ZH, strict=True)
    return [(zh, en, key) if chinese else (en, zh, key) for (en, key), (zh, _) in pairs]


# --------------------------------------------------------------------------------------------
# Entity notes (ConversationEntityMemory's summaries) of a Chinese conversation

# A chatty answer puts a comma after its "好的" as the English one does after "Sure": one more piece.
CHATTY_ENTITIES_ZH = "好的, 这一行里的实体是："
CHATTY_NO_ENTITIES_ZH = "好的, 这一行里没有实体。"


def entity_note_zh(entity: str, knowledge: Knowledge, subject: str, kept: list[str], last_line: str) -> str:
    """The note on ``entity`` in Chinese, in sentences the reader reads back: 用户叫玛拉。玛拉住在里斯本。

    ``subject`` is whom ``entity`` stands for (``Knowledge.resolve``); ``kept`` the sentences of the old
    note that state no fact. A relation is 用户的姐姐叫王芳。, a name given up 玛拉不再是用户的名字：….
    """
    user = knowledge.beliefs.get(USER, {})
    name = user.get("name")
    if name and name.values and entity.casefold() in (v.casefold() for v in name.former):
        return f"{entity}不再是用户的名字：用户现在叫{name.values[-1]}。"
    if subject == USER:
        about = Knowledge()
        about.beliefs = {USER: user}
        named = (f"{entity}叫", f"{entity}现在叫", f"{entity}不再叫")
        new = [f"{ZH_USER}叫{entity}。"]
        new += [s for s in fact_sentences_zh(about, user_as=entity) if not s.startswith(named)]
    elif subject in knowledge.beliefs:
        about = Knowledge()
        about.beliefs = {subject: knowledge.beliefs[subject]}
        new = [
            f"{ZH_USER}的{ZH_RELATION_NAMES[key[: -len('_name')]]}叫{entity}。"
            for key, belief in user.items()
            if key.endswith("_name") and entity in belief.values and key[: -len("_name")] in ZH_RELATION_NAMES
        ]
        new += fact_sentences_zh(about)
    else:
        new = [s for s in fact_sentences_zh(knowledge) if entity in s and not s.startswith(entity)]
        if not new and not kept and entity in last_line:
            clause = next((c for c in split_sentences(last_line) if entity in c), "").strip().rstrip("。！？")
            if clause:
                new.append(f"{ZH_USER}提到了{entity}：“{clause[:80]}”。")
    return "".join([*new, *[s for s in kept if s not in new]][-MAX_ENTITY_SENTENCES:])


# --------------------------------------------------------------------------------------------
# SummarizationMiddleware's earlier summary

_EARLIER_SUMMARY = "Here is a summary of the conversation to date:"


def earlier_summary(transcript: str) -> tuple[str, str]:
    """(the summary an earlier summarisation left, the rest of the transcript): the earlier summary is
    a message of the conversation, and only its ``## SUMMARY`` section says anything about it (the
    headings and "None" are the prompt's format, never what the human said)."""
    earlier: list[str] = []
    rest: list[str] = []
    for segment in role_segments(transcript, "human"):
        if segment.role == "human" and segment.text.strip().startswith(_EARLIER_SUMMARY):
            section = section_of(segment.text, "## SUMMARY", "## ARTIFACTS").strip()
            earlier.append("" if section in {"None", "无"} else section)
        else:
            role = {"ai": "AI", "narrative": "System"}.get(segment.role, "Human")
            rest.append(f"{role}: {segment.text}")
    return "\n".join(earlier), "\n".join(rest)
