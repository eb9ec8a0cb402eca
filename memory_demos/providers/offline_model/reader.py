"""The general reader: the prompt cut into statements, each with its source, its order and whom it is about.

Corrections are applied as they are read ("My name is Bob — no wait, Rob" reads "My name is Rob";
"scratch that" takes the statement before it back), questions and hypotheticals are marked as stating
nothing, and a clause without a subject of its own speaks of the clause before it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from langchain_core.messages import BaseMessage

from memory_demos.providers.offline_model.clauses import clauses, is_question, split_sentences, tidy
from memory_demos.providers.offline_model.corrections import SUBJECT_START, VERB, align, is_fragment
from memory_demos.providers.offline_model.knowledge import system_blocks
from memory_demos.providers.offline_model.lexicon import CJK, word_list
from memory_demos.providers.offline_model.text import content_text, mostly_chinese, role_segments
from memory_demos.providers.offline_model.words import (
    RELATIONS,
    ZH_RELATION_FORMS,
    ZH_RELATIONS,
    casual,
    stem,
)

USER = "user"


class Said(NamedTuple):
    """One statement of the prompt (a clause), as the reader understood it."""

    text: str  # as said (casual spellings written out), a correction applied
    source: str  # "user", "system" (a note, a summary, stored facts) or "retrieved" (no order)
    order: int
    about: str  # USER, "" (nobody in particular), a relation ("sister", "哥哥") or a name
    subject: str  # the words naming whom it is about, for a clause that has none of its own
    question: bool = False
    hypothetical: bool = False
    change: bool = False
    retracted: bool = False
    message: int = 0  # which user message it came from (0-based), for questions about the conversation
    rewritten: bool = False  # a correction's value put in the place of the old one
    dropped: bool = False  # taken back with nothing in its place, or replaced within its own message


_HYPOTHETICAL = re.compile(
    r"^(?:\W*(?:and|but|so|well|oh)\s+)?(?:if|suppose|supposing|imagine|what if|say)\b|\bI wish\b|\bif I\b|"
    r"\bwould (?:love|like) to\b|如果|假如|要是|假设|想象|万一|的话",
    re.IGNORECASE,
)
# Corrections and retractions: what follows replaces what came before, or nothing does.
_CORRECTION_EN = re.compile(
    r"(?:^|[\s,.;:!—–-]+)(?P<m>no\s+wait|wait,?\s+no|(?:hmm|nah|oh|ah|er|um),?\s+no|actually\s+no|nope|"
    r"scratch\s+that|forget\s+(?:that|it|I\s+said\s+(?:that|it|anything))|ignore\s+that|never\s*mind|nah|"
    r"sorry,?\s+I\s+meant|I\s+meant|sorry(?=,?\s+(?:it's|its|it\s+is|that's|make))|(?<![\w']\s)actually|correction|"
    r"make\s+(?:that|it)|oops|or\s+rather|not\s+anymore|not\s+any\s+more|(?:ugh,?\s+)?typo)(?=[\s,.;:!—–-]|$)",
    re.IGNORECASE,
)
_CORRECTION_ZH = re.compile(
    r"(?P<m>不对|我是说|我的意思是|改成|改为|改到|其实|说错了|更正|哦不|不是不是|算了|当我没说|开玩笑的|开个玩笑|骗你的|别记了)[，,：:]?"
)
# Cheap scans first: most clauses hold no correction and suppose nothing.
_MAY_CORRECT = re.compile(
    r"(?i:wait|scratch|forget|ignore|never|mean|sorry|actually|correction|make|oops|rather|any|no|nah|typo)|不|是说|意思|其实|更正|算了|改|没说|玩笑|骗|别记"
)
_MAY_SUPPOSE = re.compile(r"(?i:if|suppose|imagine|wish|would|say)|如果|假|要是|想象|万一|的话")
_RETRACTS = re.compile(
    r"scratch|forget|ignore|never|nah|算了|当我没说|玩笑|骗你|别记|not\s+any", re.IGNORECASE
)
_FRAGMENT_LEAD = re.compile(
    r"^(?:(?:it's|its|it\s+is|it\s+was|that's|that\s+is|they're|to|is|are|was|no|wait|sorry|I\s+mean)\b[\s,]*)+",
    re.IGNORECASE,
)
_NOT_OLD = re.compile(r",?\s*(?:and\s+|but\s+)?not\s+(?P<old>.*)$|[，,\s]?不是(?P<zh>.*)$")
_ZH_NOT_TAIL = re.compile("[，,]\\s*(不是)")  # "是小红，不是小明" stays one clause
_ZH_FRAGMENT_LEAD = re.compile("^(?:是|应该是|其实是|叫|在)")
_REL_EN = "|".join(sorted(RELATIONS | {"kids", "children", "parents"}, key=len, reverse=True))
_ABOUT_EN = re.compile(
    r"^(?:(?P<my>(?i:my|our))\s+(?:(?:older|younger|little|big|baby|best|oldest|youngest|twin|eldest)\s+)?"
    r"(?P<rel>(?i:"
    + _REL_EN
    + r"))(?:'s)?\b(?:,?\s+(?P<n>[A-Z][a-z]+)\b)?|(?P<pro>(?i:he|she|his|her|they|their))\b|"
    r"(?P<me>I|I'm|I've|I'd|I'll|(?i:me|my|we|we're|we've|our))\b|(?P<name>[A-Z][a-z]+)(?:'s)?\b)",
)
_NOT_NAMES = frozenset(
    word_list(
        """The This That These Those There Here What Where When Who Why How Which It Its My Our Your You We
    They He She His Her And But So Also Then Now Today Tomorrow Yesterday Yes No Ok Okay Hi Hello Hey
    Thanks Please Just Actually Maybe Sorry Well Oh Is Are Do Does Did Can Could Would Will Should Let
    Not Every Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May
    June July August September October November December Oops Wait Scratch Forget Never Next Last If"""
    )
)
_NAME_OF_REL = re.compile(
    r"\b(?:my|our)\s+(?P<rel>" + _REL_EN + r")'s\s+name\s+is\s+(?P<n>[A-Z][a-z]+)", re.I
)
_OWN_NAMED = re.compile(
    r"\b(?i:my|our)\s+(?:(?!(?i:is|was|has)\b)(?i:[a-z]+)\s+)?(?P<noun>(?i:[a-z]+))(?:'s\s+name)?(?:\s+(?:is|was|'s)(?:\s+called|\s+named)?|,|\s+(?:called|named))?\s+(?P<n>[A-Z][a-z]+(?:-[A-Z]?[a-z]+)?)\b"
)
_NOT_KINDS = frozenset(["name", "is", "was", "in", "at", "from", "to", "and", "the", "a", "an"])
_REL_IS = re.compile(r"\b(?P<n>[A-Z][a-z]+)\s+is\s+my\s+(?:\w+\s+)?(?P<rel>" + _REL_EN + r")\b")
_ZH_REL = "|".join(ZH_RELATIONS)
_ZH_NAME = r"(?![在是住叫当做有的一两三这那今明昨每我你他她])[" + CJK + r"]{2,3}?"
# A name said on its own starts with a common surname or 小 / 老 / 阿 ("会议定在三点" names nobody).
_ZH_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢"
    "姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤小老阿"
)
_ZH_PERSON = r"[" + _ZH_SURNAMES + r"][" + CJK + r"]{1,2}?"
_ZH_ABOUT = re.compile(
    r"^(?:(?:我的?)?(?P<rel>"
    + _ZH_REL
    + r")(?:叫|名字是|的名字是)?(?P<n>"
    + _ZH_NAME
    + r"(?=[是住在叫当做有的今喜对去也还最很从跟和说要会想刚已上下明，,。]|$))?"
    r"|(?P<pro>他|她|它)|(?P<me>我们|我|用户说：“我|用户)|(?P<name>"
    + _ZH_PERSON
    + r")(?=住|叫|在|喜欢|今年|有|说|当|做|的[^\s，,]{0,4}是))"
)
_ZH_OWN_NAMED = re.compile(
    r"我(?:家|的|们家)?(?:养的|的)?(?:一只|只)?(?P<noun>["
    + CJK
    + r"]{1,2}?)(?:叫|名字叫|名叫)(?P<n>["
    + CJK
    + r"]{2,3}?)(?=[，,。！!]|$)"
)
_ZH_REL_INSIDE = re.compile(
    r"我的?(?:大学|高中|初中|小学|公司|以前的|新|老)?(?P<rel>" + _ZH_REL + f")(?P<n>{_ZH_PERSON}(?=[，,。！!\\s]|$))?"
)
_EN_REL_INSIDE = re.compile(
    r"\b(?:my|our)\s+(?P<rel>" + _REL_EN + r")\b(?:\s+(?P<n>(?-i:[A-Z][a-z]+))\b)?", re.I
)
_REPORTED = re.compile(
    r"^(?:(?:my|our|the)\s+\w+|he|she|they|[A-Z][a-z]+)\s+"
    r"(?:said|says|told me|tells me|thinks|mentioned|texted|wrote|reckons)\s*(?:that\s+|:\s*)?",
    re.I,
)
# A clause that starts so speaks for itself, never of the clause before ("Let's discuss ...").
_NO_SUBJECT_OF_ITS_OWN = re.compile(
    r"^(?:let's|let us|please|thanks|thank you)\b|" + SUBJECT_START.pattern, re.I
)
_PERSON_VERB = re.compile(
    r"\s+(?:is|was|has|had|lives|lived|works|worked|likes|loves|hates|says|said|told|wants|needs|gets|got|moved|"
    r"teaches|studies|drives|plays|eats|drinks|takes|goes|went|comes|came|just|also|and\s+I|\()",
    re.I,
)
_ZH_SUBJECTLESS = re.compile(
    "^(?:住|是|在|喜欢|有|今年|当|做|对|叫|会|要|想|养|开|学|不|也|还|每|刚|已经|以前|现在|平时|后来|最近|天天|就|都|一直|从小)"
)


_THING = re.compile(
    r"^(?P<t>(?i:the|my|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+(?i:is|are|was|were|'s|has|starts?|opens?|closes?|"
    r"costs?|leaves?|moved|got|will)\b"
)
_IT = re.compile(r"^(?:it|it's|its|that's)\b", re.I)


class Reading:
    """What the reader keeps in mind across one prompt: the statements so far and who was named."""

    def __init__(self) -> None:
        self.said: list[Said] = []
        self.aliases: dict[str, str] = {}  # a name -> the relation it names ("Priya" -> "sister")
        self.last_person = ""
        self.last_subject = ""
        self.last_thing = ("", 0)  # the thing a clause spoke of last, and in which message
        self.user_messages = 0

    def about(self, clause: str, previous: Said | None) -> tuple[str, str]:
        """(whom the clause is about, the words that say so) — the previous clause's for none."""
        if mostly_chinese(clause):
            return self._about_zh(clause, previous)
        body = self._people_named(clause)
        found = self._subject_en(body)
        if found is None:
            if re.search(r"\b(?:I|I'm|my|me|we|our)\b", body):
                return USER, ""
            if previous is not None and not _NO_SUBJECT_OF_ITS_OWN.match(body) and not VERB.match(body):
                return previous.about, previous.subject
            return "", ""
        if found.group("rel"):
            relation = stem(found.group("rel"))
            if found.group("n"):
                self.aliases[found.group("n")] = relation
            self.last_person, self.last_subject = relation, found.group(0)
            return relation, found.group(0)
        if found.group("pro"):
            return self.last_person, self.last_subject or found.group(0)
        if found.group("me"):
            return USER, ""
        name = found.group("name")
        self.last_person, self.last_subject = self.aliases.get(name, name), name
        return self.last_person, name

    def _subject_en(self, body: str) -> re.Match[str] | None:
        """The clause's subject, or None; a capital first word is a person only before a verb of one."""
        found = _ABOUT_EN.match(body)
        name = found.group("name") if found is not None else None
        if not name or name in self.aliases or _PERSON_VERB.match(body, found.end() if found else 0):
            return found
        if name not in _NOT_NAMES:  # "Aisha texted, she says ...": she is Aisha
            self.last_person = self.last_subject = name
        return None  # "Study group with Emeka ...": a capital first word, not a person

    def _people_named(self, clause: str) -> str:
        """Note the people a clause names ("my sister's name is Priya"); the clause without a reporter."""
        for pattern in (_NAME_OF_REL, _REL_IS):
            for found in pattern.finditer(clause):
                self.aliases[found.group("n")] = stem(found.group("rel"))
        reported = _REPORTED.match(clause)  # "my boss said the deadline is Friday": about the deadline
        body = clause[reported.end() :] if reported else clause
        for found in _OWN_NAMED.finditer(body):  # "our parrot Captain", "my tutor is Min-ji"
            if found.group("noun").lower() not in _NOT_KINDS:
                self.aliases.setdefault(found.group("n"), stem(found.group("noun")))
        inside = _EN_REL_INSIDE.search(body)
        if inside and inside.start() > 0:
            self.last_person, self.last_subject = stem(inside.group("rel")), inside.group(0)
            if inside.group("n"):
                self.aliases[inside.group("n")] = self.last_person
        if reported and reported.group(0).split()[0][0].isupper() and not body[:1].isupper():
            self.last_person = self.last_subject = reported.group(0).split()[0]
        return body

    def _about_zh(self, clause: str, previous: Said | None) -> tuple[str, str]:
        for named in _ZH_OWN_NAMED.finditer(clause):  # 我家狗叫旺财: 旺财 is the dog
            self.aliases.setdefault(named.group("n"), named.group("noun"))
        found = _ZH_ABOUT.match(clause)
        inside = _ZH_REL_INSIDE.search(clause)
        if inside and inside.start() > 0:
            self.last_person = ZH_RELATION_FORMS[inside.group("rel")]
            self.last_subject = "我" + self.last_person + (inside.group("n") or "")
            if inside.group("n"):  # 跟我大学室友阿敏: 阿敏 is the roommate, and "她" after it
                self.aliases[inside.group("n")] = self.last_person
        if found is None:
            if previous is not None and _ZH_SUBJECTLESS.match(clause):
                return previous.about, previous.subject
            return (USER, "") if "我" in clause else ("", "")
        if found.group("rel"):
            relation = ZH_RELATION_FORMS[found.group("rel")]
            if found.group("n"):
                self.aliases[found.group("n")] = relation
            self.last_person, self.last_subject = relation, "我" + relation
            return relation, "我" + relation
        if found.group("pro"):
            return self.last_person, self.last_subject or found.group(0)
        if found.group("me"):
            return USER, ""
        name = found.group("name")
        self.last_person, self.last_subject = self.aliases.get(name, name), name
        return self.last_person, name

    def last_fact(self, holding: str = "") -> int | None:
        """The newest user statement still standing (holding ``holding``): what "scratch that" takes back."""
        for i in range(len(self.said) - 1, -1, -1):
            said = self.said[i]
            standing = said.source == "user" and not (said.question or said.retracted or said.hypothetical)
            worth = len(re.findall(rf"[{CJK}]|\w+", said.text)) >= 3  # not "哎" or "ok"
            if standing and worth and holding.casefold() in said.text.casefold():
                return i
        return None

    def add(self, clause: str, source: str, message: int, *, change: bool = False) -> None:
        clause = tidy(clause)
        if not re.search(rf"[\w{CJK}]", clause):  # "！！" says nothing, and no clause leans on it
            return
        previous = self.said[-1] if self.said and self.said[-1].message >= message - 1 else None
        about, subject = self.about(clause, previous)
        thing = _THING.match(clause)
        if thing and not is_question(clause):
            self.last_thing = (thing.group("t"), message)
        elif _IT.match(clause) and self.last_thing[0] and self.last_thing[1] >= message - 2:
            subject = self.last_thing[0]  # "it moved to friday": the design review did
        self.said.append(
            Said(
                clause,
                source,
                len(self.said),
                about,
                subject,
                is_question(clause),
                bool(_MAY_SUPPOSE.search(clause) and _HYPOTHETICAL.search(clause)),
                change,
                message=message,
            )
        )

    def correct(self, clause: str, source: str, message: int) -> bool:
        """Read a clause holding a correction; False when it holds none."""
        if source != "user" or not _MAY_CORRECT.search(clause):
            return False
        chinese = mostly_chinese(clause)
        found = (_CORRECTION_ZH if chinese else _CORRECTION_EN).search(clause)
        if found is None or is_question(clause):
            return False
        before, after = clause[: found.start()].strip(" ,—–-"), clause[found.end() :].strip(" ,.!—–-:;")
        pattern = _CORRECTION_ZH if chinese else _CORRECTION_EN
        while (inner := pattern.match(after)) is not None and inner.group("m"):  # "nah forget it"
            found, after = inner, after[inner.end() :].strip(" ,.!—–-:;")
        if before and found.group("m").startswith("改"):  # 我的订单号改成了B-02: a change said whole
            self.add(clause, source, message, change=True)
            return True
        if before:
            self.add(before, source, message)
        fragment = (_ZH_FRAGMENT_LEAD if chinese else _FRAGMENT_LEAD).sub("", after).strip(" ,.!")
        named = _NOT_OLD.search(fragment)  # "it's Porto, not Lisbon": Porto, in Lisbon's place
        old_value = (named.group("old") or named.group("zh") or "").strip(" ,.!。") if named else ""
        fragment = fragment[: named.start()].strip(" ,，") if named else fragment
        target = self.last_fact(old_value)
        if not fragment:
            if target is None and _RETRACTS.search(found.group("m")):  # "never mind, that's not sure yet"
                target = self.last_fact()
            if _RETRACTS.search(found.group("m")) and target is not None:
                self.said[target] = self.said[target]._replace(retracted=True, dropped=True)
            return True
        if target is not None and is_fragment(fragment, chinese=chinese):
            old = self.said[target]
            self.said[target] = old._replace(retracted=True, dropped=old.message == message)
            corrected = (
                old.text.replace(old_value, fragment)
                if old_value
                else align(old.text, fragment, chinese=chinese)
            )
            self.said.append(
                old._replace(
                    text=corrected, order=len(self.said), change=True, message=message, rewritten=True
                )
            )
            return True
        self.add(after, source, message, change=True)
        return True

    def read(self, text: str, source: str, message: int) -> None:
        for sentence in split_sentences(casual(text) if source == "user" else text):
            sentence = _ZH_NOT_TAIL.sub(r"\1", sentence)
            pending = ""  # a correction word standing alone ("不对，是上海") corrects the clause after it
            for clause in clauses(sentence) if source != "retrieved" else [sentence]:
                clause = f"{pending} {clause}".strip() if pending else clause
                marker = (_CORRECTION_ZH if re.search(f"[{CJK}]", clause) else _CORRECTION_EN).fullmatch(
                    clause
                )
                if marker and not _RETRACTS.search(marker.group("m")):
                    pending = clause
                    continue
                pending = ""
                if not self.correct(clause, source, message):
                    self.add(clause, source, message)


_ASSISTANT_NOTE = re.compile(r"^\s*(?:you\s+are|you're|answer|be\s+|respond|reply|你是|请)", re.I)


def read_prompt(messages: Sequence[BaseMessage]) -> Reading:
    """Every statement of the prompt, in order; the assistant's own replies state nothing new."""
    reading = Reading()
    user_message = 0
    for message in messages:
        text = content_text(message)
        if message.type == "system":
            for block, in_order in system_blocks(text):
                retrieved = not in_order
                for segment in role_segments(block, "narrative"):
                    if segment.role == "ai":
                        continue
                    source = "retrieved" if retrieved else "user" if segment.role == "human" else "system"
                    kept = "\n".join(ln for ln in segment.text.splitlines() if not _ASSISTANT_NOTE.match(ln))
                    reading.read(kept, source, user_message)
        elif message.type == "human":
            for segment in role_segments(text, "human"):
                if segment.role == "human":
                    reading.read(segment.text, "user", user_message)
                    user_message += 1
                elif segment.role == "narrative":
                    reading.read(segment.text, "system", user_message)
    reading.user_messages = user_message
    return reading


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
