"""The general reader: the prompt cut into statements, each with its source, its order and whom it is about.

Corrections are applied as read ("Bob — no wait, Rob" reads "Rob"; "scratch that" takes a statement back),
questions and hypotheticals state nothing, and a clause without a subject speaks of the clause before it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from langchain_core.messages import BaseMessage

from memory_demos.providers.offline_model import clauses as cut
from memory_demos.providers.offline_model.corrections import (
    CALLS_OFF,
    CORRECTION_EN,
    CORRECTION_ZH,
    FORGET_ABOUT_EN,
    FORGET_ABOUT_ZH,
    FRAGMENT_LEAD,
    MAY_CORRECT,
    NOT_OLD,
    RESTATES,
    RETRACTS,
    VERB,
    ZH_FRAGMENT_LEAD,
    ZH_NOT_TAIL,
    ZH_SLIP,
    align,
    edit_newest_list,
    filled_ellipsis,
    is_fragment,
    newest_of_kind,
    value_like,
    without_value,
)
from memory_demos.providers.offline_model.knowledge import system_blocks
from memory_demos.providers.offline_model.lexicon import CJK
from memory_demos.providers.offline_model.people import (
    ABOUT_EN,
    ASKING_ZH,
    EN_REL_INSIDE,
    GENDERED,
    IT_LEADS,
    MY_PET,
    MY_ZH_RELATION,
    NAME_OF_REL,
    NO_SUBJECT_OF_ITS_OWN,
    NOT_KINDS,
    NOT_MINE,
    NOT_NAMES,
    OWN_NAMED,
    PERSON_VERB,
    PRONOUN_GENDER,
    REL_IS,
    REPORTED,
    THING_IS,
    THINGS_ARE,
    ZH_ABOUT,
    ZH_REL_INSIDE,
    ZH_SUBJECTLESS,
    own_names_zh,
)
from memory_demos.providers.offline_model.text import (
    HUMAN_SAID,
    content_text,
    mostly_chinese,
    note_statements,
    role_segments,
)
from memory_demos.providers.offline_model.words import ZH_RELATION_FORMS, casual, stem

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


class Reading:
    """What the reader keeps in mind across one prompt: the statements so far and who was named."""

    def __init__(self) -> None:
        self.said: list[Said] = []
        self.aliases: dict[str, str] = {}  # a name -> the relation it names ("Priya" -> "sister")
        self.last_person = ""
        self.last_subject = ""
        self.last_thing = ("", 0)  # the thing a clause spoke of last, and in which message
        self.user_messages = 0
        self.forgotten = ("", -1)  # what "forget what I said about ..." took back, and in which message

    def about(self, clause: str, previous: Said | None) -> tuple[str, str]:
        """(whom the clause is about, the words that say so) — the previous clause's for none."""
        if mostly_chinese(clause):
            return self._about_zh(clause, previous)
        body = cut.before_subject(self._people_named(clause))  # "actually she's …": she, not "actually"
        if mixed := MY_ZH_RELATION.match(body):
            self.last_person, self.last_subject = ZH_RELATION_FORMS[mixed.group("rel")], mixed.group(0)
            return self.last_person, self.last_subject
        found = self._subject_en(body)
        if found is None:
            if re.search(r"\b(?:I|I'm|my|me|we|our)\b", body):
                return USER, ""
            if (
                previous is not None
                and not NO_SUBJECT_OF_ITS_OWN.match(body)
                and not VERB.match(body)
                and not THINGS_ARE.match(body)  # "lessons are on tuesdays" after "my teacher is rosa"
            ):
                return previous.about, previous.subject
            return "", ""
        if found.group("rel"):
            relation = stem(found.group("rel"))
            if found.group("n"):
                self.aliases[found.group("n")] = relation
            self.last_person, self.last_subject = relation, found.group(0)
            return relation, found.group(0)
        if found.group("pro"):
            return self._pronoun(found.group("pro"))
        if found.group("me"):
            return USER, ""
        name = found.group("name")
        self.last_person, self.last_subject = self.aliases.get(name, name), name
        return self.last_person, name

    def _pronoun(self, pronoun: str) -> tuple[str, str]:
        """Whom "he"/"she"/他/她 means: the last person named, or of its gender ("my brother Kenji …, my
        sister Aiko …" then "he just got engaged": Kenji)."""
        gender = PRONOUN_GENDER.get(pronoun.lower())
        last = (self.last_person, self.last_subject or pronoun)
        if gender is None or self.aliases.get(self.last_person, self.last_person) not in GENDERED - gender:
            return last
        for said in reversed(self.said[-12:]):
            if self.aliases.get(said.about, said.about) in gender:
                self.last_person, self.last_subject = said.about, said.subject or said.about
                return self.last_person, self.last_subject
        return last

    def _subject_en(self, body: str) -> re.Match[str] | None:
        """The clause's subject, or None; a capital first word is a person only before a verb of one."""
        found = ABOUT_EN.match(body)
        name = found.group("name") if found is not None else None
        if not name or name in self.aliases or PERSON_VERB.match(body, found.end() if found else 0):
            return found if name not in NOT_NAMES else None  # "Any ideas?": "Any" is nobody
        if name not in NOT_NAMES and not EN_REL_INSIDE.search(body):  # "Aisha texted, she says …": Aisha
            self.last_person = self.last_subject = name
        return None  # "Study group with Emeka ...": a capital first word, not a person

    def _people_named(self, clause: str) -> str:
        """Note the people a clause names ("my sister's name is Priya"); the clause without a reporter."""
        for pattern in (NAME_OF_REL, REL_IS):
            for found in pattern.finditer(clause):
                self.aliases[found.group("n")] = stem(found.group("rel"))
        reported = REPORTED.match(clause)  # "my boss said the deadline is Friday": about the deadline
        body = clause[reported.end() :] if reported else clause
        for found in OWN_NAMED.finditer(body):  # "our parrot Captain", "my tutor is Min-ji"
            if found.group("noun").lower() not in NOT_KINDS:
                self.aliases.setdefault(found.group("n"), stem(found.group("noun")))
        if pet := MY_PET.match(body):  # the user's clause, but a "she" after it is the pet
            self.last_person = self.last_subject = pet.group("pet")
        inside = EN_REL_INSIDE.search(body)
        if inside and inside.start() > 0:
            self.last_person, self.last_subject = stem(inside.group("rel")), inside.group(0)
            if inside.group("n"):
                self.aliases[inside.group("n")] = self.last_person
        if reported and reported.group(0).split()[0][0].isupper() and not body[:1].isupper():
            self.last_person = self.last_subject = reported.group(0).split()[0]
        return body

    def _about_zh(self, clause: str, previous: Said | None) -> tuple[str, str]:
        self.aliases.update({n: r for n, r in own_names_zh(clause).items() if n not in self.aliases})
        found = ZH_ABOUT.match(clause)
        inside = ZH_REL_INSIDE.search(clause)
        if inside and inside.start() > 0:
            self.last_person = ZH_RELATION_FORMS[inside.group("rel")]
            self.last_subject = "我" + self.last_person + (inside.group("n") or "")
            if inside.group("n"):  # 跟我大学室友阿敏: 阿敏 is the roommate, and "她" after it
                self.aliases[inside.group("n")] = self.last_person
        if found is None:
            if previous is not None and ZH_SUBJECTLESS.match(clause):
                return previous.about, previous.subject
            return (USER, "") if "我" in clause else ("", "")
        if found.group("rel"):
            relation = ZH_RELATION_FORMS[found.group("rel")]
            if found.group("n") and not ASKING_ZH.search(found.group("n")):
                self.aliases[found.group("n")] = relation
            self.last_person, self.last_subject = relation, "我" + relation
            return relation, "我" + relation
        if found.group("pro"):
            return self._pronoun(found.group("pro"))
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
        clause = cut.tidy(clause)
        if not re.search(rf"[\w{CJK}]", clause):  # "！！" says nothing, and no clause leans on it
            return
        previous = self.said[-1] if self.said and self.said[-1].message >= message - 1 else None
        clause = filled_ellipsis(clause, self.said[-6:], source)
        about, subject = self.about(clause, previous)
        thing = THING_IS.match(clause)
        if thing and not cut.is_question(clause):
            self.last_thing = (thing.group("t"), message)
        elif IT_LEADS.match(clause) and self.last_thing[0] and self.last_thing[1] >= message - 2:
            subject = self.last_thing[0]  # "it moved to friday": the design review did
        self.said.append(
            Said(
                clause,
                source,
                len(self.said),
                about,
                subject,
                cut.is_question(clause),
                cut.supposes(clause),
                change,
                message=message,
            )
        )

    def forget_about(self, clause: str, source: str, message: int) -> bool:
        """ "forget what I said about shellfish": shellfish out of its statement, the retraction's words still
        read (LangMem's manager deletes what they name), not a denial after it; False for no retraction."""
        if source != "user":
            return False
        if self.forgotten[1] == message and RESTATES.search(clause):
            thing = self.forgotten[0].casefold()
            if thing in clause.casefold() or re.search(r"\b(?:it|them|that)\b|它", clause, re.I):
                return True
        found = (FORGET_ABOUT_ZH if mostly_chinese(clause) else FORGET_ABOUT_EN).search(clause)
        if found is None:
            return False
        thing, rest = found.group("x").strip(), clause[found.end() :].strip(" ,;.")
        target = self.last_fact(thing)
        self.forgotten = (thing, message)
        if target is not None:
            old = self.said[target]
            kept = without_value(old.text, thing)
            self.said[target] = old._replace(retracted=True, dropped=kept is None or old.message == message)
            if kept is not None:
                kept_said = old._replace(text=kept, order=len(self.said), message=message, rewritten=True)
                self.said.append(kept_said._replace(change=True))
        self.add(clause[: found.end()], source, message)
        if rest and not RESTATES.search(rest):
            self.add(rest, source, message)
        return True

    def edit_list(self, clause: str, source: str, message: int) -> bool:
        """ "add lemons", "remove the rice", 再加上苹果, 把大米去掉: the newest list said gets the change."""
        return source == "user" and edit_newest_list(self.said, clause, message)

    def moved_away(self, clause: str, source: str, message: int) -> None:
        """ "Biscuit is actually my sister's cat": Biscuit out of the user's own list that held it."""
        found = NOT_MINE.match(clause) if source == "user" else None
        thing = (found.group("x") or found.group("y")) if found else ""
        target = self.last_fact(thing) if found else None
        if found is None or target is None or self.said[target].about not in {USER, ""}:
            return
        old = self.said[target]
        kept = without_value(old.text, thing)
        if kept is not None:
            self.said[target] = old._replace(retracted=True)
            self.said.append(old._replace(text=kept, order=len(self.said), message=message, rewritten=True))

    def _corrected(self, fragment: str, old_value: str, *, chinese: bool) -> int | None:
        """The statement a correction corrects: the one naming the old value, else the newest holding a
        value of the fragment's kind (a time corrects the train's time, not the fare said after it)."""
        target = self.last_fact(old_value)
        if not fragment or old_value or target is None:
            return target
        standing = [(i, s.text) for i, s in enumerate(self.said) if s.source == "user" and not s.retracted]
        kind = newest_of_kind(standing[-8:], fragment, chinese=chinese)
        return target if kind is None else kind

    def correct(self, clause: str, source: str, message: int) -> bool:
        """Read a clause holding a correction; False when it holds none."""
        if source != "user" or not MAY_CORRECT.search(clause):
            return False
        chinese = mostly_chinese(clause)
        found = (CORRECTION_ZH if chinese else CORRECTION_EN).search(clause)
        if found is None or cut.is_question(clause):
            return False
        before, after = clause[: found.start()].strip(" ,—–-"), clause[found.end() :].strip(" ,.!—–-:;")
        pattern = CORRECTION_ZH if chinese else CORRECTION_EN
        while (inner := pattern.match(after)) is not None and inner.group("m"):  # "nah forget it"
            found, after = inner, after[inner.end() :].strip(" ,.!—–-:;")
        if before and found.group("m").startswith("改"):  # 我的订单号改成了B-02: a change said whole
            self.add(clause, source, message, change=True)
            return True
        if before:
            self.add(before, source, message)
        fragment = (ZH_FRAGMENT_LEAD if chinese else FRAGMENT_LEAD).sub("", after).strip(" ,.!")
        named = NOT_OLD.search(fragment)  # "it's Porto, not Lisbon": Porto, in Lisbon's place
        old_value = (named.group("old") or named.group("zh") or "").strip(" ,.!。") if named else ""
        fragment = fragment[: named.start()].strip(" ,，") if named else fragment
        fragment = value_like(old_value, fragment) or fragment  # "daniel is 36 not 34": 36
        target = self._corrected(fragment, old_value, chinese=chinese)
        if not fragment:
            if target is None and RETRACTS.search(found.group("m")):  # "never mind, that's not sure yet"
                target = self.last_fact()
            if RETRACTS.search(found.group("m")) and target is not None:
                self.said[target] = self.said[target]._replace(retracted=True, dropped=True)
            return True
        if target is not None and is_fragment(fragment, chinese=chinese):
            old = self.said[target]
            self.said[target] = old._replace(retracted=True, dropped=old.message == message)
            corrected = old.text.replace(old_value, fragment) if old_value else ""
            corrected = corrected or align(old.text, fragment, chinese=chinese)
            self.said.append(
                old._replace(
                    text=corrected, order=len(self.said), change=True, message=message, rewritten=True
                )
            )
            return True
        self._replaced(target, found.group("m"), after, message)
        return True

    def _replaced(self, target: int | None, marker: str, after: str, message: int) -> None:
        """A statement said in the place of another: "scratch that, it got cancelled" also takes it back."""
        if RETRACTS.search(marker) and CALLS_OFF.search(after):
            target = self.last_fact() if target is None else target
            if target is not None:
                self.said[target] = self.said[target]._replace(retracted=True, dropped=True)
        self.add(after, "user", message, change=True)

    def read(self, text: str, source: str, message: int) -> None:
        text = casual(text) if source == "user" else HUMAN_SAID.sub("\n\\1\\2\n", text)
        first = len(self.said)
        for sentence in cut.split_sentences(text):
            sentence, opened = ZH_NOT_TAIL.sub(r"\1", sentence), len(self.said)
            pending = ""  # a correction word standing alone ("不对，是上海") corrects the clause after it
            for clause in cut.clauses(sentence) if source != "retrieved" else [sentence]:
                clause = f"{pending} {clause}".strip() if pending else clause
                marker = (CORRECTION_ZH if re.search(f"[{CJK}]", clause) else CORRECTION_EN).fullmatch(clause)
                marker = marker or ZH_SLIP.fullmatch(clause)  # 哎呀输入法打错了，我姓章: a slip
                if marker and not RETRACTS.search(marker.group("m")):
                    pending = marker.group("m") if marker.re is ZH_SLIP else clause
                    continue
                pending = ""
                if not any(
                    read(clause, source, message)
                    for read in (self.forget_about, self.edit_list, self.correct)
                ):
                    self.moved_away(clause, source, message)
                    self.add(clause, source, message)
            self.said[opened:] = cut.with_consequences(self.said[opened:])
        self.said[first:] = cut.a_few_stated(self.said[first:])


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
                    reading.read(note_statements(segment.text), source, user_message)
        elif message.type == "human":
            for segment in role_segments(text, "human"):
                if segment.role == "human":
                    reading.read(segment.text, "user", user_message)
                    user_message += 1
                elif segment.role == "narrative":
                    reading.read(segment.text, "system", user_message)
    reading.user_messages = user_message
    return reading
