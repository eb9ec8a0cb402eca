"""Which statement a clause leans on ("her name is Clover" after "adopted a rabbit!", 三岁了 after
我家狗叫旺财): the one before it, whose words count as its own when a question is weighed against it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_demos.providers.offline_model.clauses import supposes
from memory_demos.providers.offline_model.lexicon import CJK
from memory_demos.providers.offline_model.reader import USER, Said
from memory_demos.providers.offline_model.text import NOTE_LINE, mostly_chinese
from memory_demos.providers.offline_model.values import VALUES, ZH_TIME_ONLY, names_another_part
from memory_demos.providers.offline_model.words import en_words

LEANS_ON = re.compile(
    r"^(?:\W*(?:and|but|so|oh|also|plus)\s+)?(?:he|she|it|they|her|his|its|their|them|that|this|there|mine|ours|hers)\b",
    re.I,
)
# "name's Oliver", 我叫小明: short, but of the user, named outright; it leans on nothing before it.
_NAMES_THE_USER = re.compile(r"^\W*(?:(?:my\s+)?name(?:'s|\s+is)\s|call\s+me\s)|^我(?:的名字)?叫", re.I)


def _leans_on_before(said: Said) -> bool:
    """Whether a statement speaks of what the one before it named ("her name is Clover", "10 days")."""
    if (said.source == "system" and NOTE_LINE.match(said.text)) or _NAMES_THE_USER.match(said.text):
        return False
    if mostly_chinese(said.text):
        short = len(re.findall(f"[{CJK}]", said.text)) <= 4
        return (
            re.match("[他她它]|那", said.text) is not None
            or short
            or ZH_TIME_ONLY.fullmatch(said.text) is not None
        )
    return LEANS_ON.search(said.text) is not None or len(en_words(said.text)) <= 3


_TIME_AND_NUMBER = re.compile("早上|早晨|上午|中午|下午|晚上|夜里|[\\d一二两三四五六七八九十半点分个次片粒]")


def _after_in_message(said: Said, before: Sequence[Said]) -> bool:
    """A clause after a clause of its own message: a Chinese one with nobody of its own
    (上次打针起了一身疹子), an English one of the same person ("cutting sugar. my goal is 25 grams a day")."""
    if not before or before[0].message != said.message:
        return False
    if not mostly_chinese(said.text):
        return before[0].about in {"", said.about} and not mostly_chinese(before[0].text)
    if said.about != "":
        return False
    # 早上七点开门 晚上十点关门: a bare verb at another time of day still speaks of the clause before;
    # 早上吃降压药 晚上吃一片阿司匹林 names a thing of its own
    bare_verb = len(re.findall(f"[{CJK}]", _TIME_AND_NUMBER.sub("", said.text))) <= 3
    return bare_verb or not names_another_part(said.text, before[0].text, chinese=True)


def contexts(statements: Sequence[Said], *, wider: bool = False) -> list[Said | None]:
    """For each statement that leans on the one before ("adopted a rabbit!" … "her name is Clover"),
    the statement it leans on (with what that one leaned on, run together); None for the others."""
    found: list[Said | None] = []
    for index, said in enumerate(statements):
        context = None
        before = statements[index - 1 : index]
        leans = _leans_on_before(said) or (wider and _after_in_message(said, before))
        if leans and not said.question:
            for j in range(index - 1, max(index - 4, -1), -1):
                earlier = statements[j]
                if earlier.source != said.source or earlier.message < said.message - 1:
                    break
                if not re.search(rf"\w|[{CJK}]", earlier.text):
                    continue  # "!" on its own line
                if not (earlier.question or earlier.hypothetical or earlier.retracted):
                    before = found[j]
                    context = (
                        earlier if before is None else earlier._replace(text=f"{before.text} {earlier.text}")
                    )
                    break
        found.append(context)
    return found


def said_with_what_it_leans_on(said: Said, leaned: dict[int, Said | None], *, whole: bool = False) -> Said:
    """A bare value ("13905718826" after 我妈的手机号), or a short Chinese clause of the user's
    (每天一粒 after 维生素D我一直在吃, in one message), said with the clause it leans on; with ``whole``,
    any Chinese clause with the clause before it in its message (what the two say together answered)."""
    context = leaned.get(said.order)
    whole_zh = (
        whole
        and context is not None
        and (context.message, context.source) == (said.message, said.source)
        and mostly_chinese(said.text)
        and mostly_chinese(context.text)
        and leaned.get(context.order) is None
    )
    short_zh = (
        mostly_chinese(said.text)
        and (
            len(re.findall(f"[{CJK}]", said.text)) <= 4
            or (ZH_TIME_ONLY.fullmatch(said.text) is not None and not said.change)
        )
        and context is not None
        and context.message == said.message
        and {said.about, context.about} <= {"", USER}
        and not re.match("[他她]", said.text)
        and leaned.get(context.order) is None  # one clause before it, not a run of them
    )
    if context is None or (re.search(f"[A-Za-z{CJK}]", said.text) and not (short_zh or whole_zh)):
        return said
    return said._replace(text=f"{context.text}{'，' if mostly_chinese(context.text) else ', '}{said.text}")


_ITS_NAME = re.compile(r"^(?:叫|名叫|名字叫|(?:it's|its|it\s+is)\s+called\b|called\b|named\b)", re.I)


def with_its_name(said: Said, statements: Sequence[Said]) -> Said:
    """``said`` with the clause right after it in its message that names what it spoke of, said as one
    (吃降压药，叫氨氯地平: not "you are called 氨氯地平")."""
    after = [s for s in statements if s.order > said.order and not s.question][:1]
    same_message = after and after[0].message == said.message and after[0].source == said.source
    also = same_message and after[0].about in {"", said.about} and _ALSO.search(after[0].text) is not None
    if same_message and (_ITS_NAME.match(after[0].text) or also):
        return said._replace(text=f"{said.text}{'，' if mostly_chinese(said.text) else ', '}{after[0].text}")
    return said


# 我对花生过敏 还有芒果也不行: the clause after adds to what this one said ("… and mango too")
_ALSO = re.compile(
    r"^(?:还有|另外|而且)|^[^，,]{1,6}也(?:不行|不能|一样|是|过敏)|^\W*(?:and\s+)?(?:also|plus)\b|\btoo\W*$",
    re.I,
)


def adds_to_answer(wants: str, leaned: dict[int, Said | None], said: Said) -> bool:
    """Whether the clause ``said`` leans on adds to the answer (坐D3125 before 下午三点发车 for 坐哪趟车)
    rather than holding a value of its own of the kind asked (七点开门 before 十点关门 for 几点关门)."""
    context, has = leaned.get(said.order), VALUES.get(wants)
    return context is not None and (has is None or has.search(context.text) is None)


def only_a_value(wants: str, text: str) -> bool:
    """用了2小时05分 for 多久: a value of the kind asked, with no more than a verb besides."""
    has = VALUES.get(wants)
    return (
        has is not None
        and has.search(text) is not None
        and len(re.findall(f"[{CJK}]", has.sub("", text))) <= 2
    )


def with_what_follows(said: Said, statements: Sequence[Said]) -> Said:
    """A supposition ("if you won the lottery", 如果你中了彩票) said with the clauses that follow it in its
    message, what would then be (it alone answers nothing)."""
    if not supposes(said.text):
        return said
    after = [
        s.text for s in statements if s.message == said.message and s.order > said.order and not s.question
    ]
    joiner = "，" if mostly_chinese(said.text) else ", "
    return said._replace(text=joiner.join([said.text, *after[:2]])) if after else said
