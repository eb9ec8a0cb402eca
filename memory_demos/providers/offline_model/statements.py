"""Who says what about whom: text cut into clauses, each about one subject, with what changed.

A clause's subject phrase is replaced by ``S`` ("I live in Lisbon" -> "S live in Lisbon", "Kofi's job
is nurse" -> "S's job is nurse", "我住在北京" -> "S住在北京") and its change words are taken out
and recorded (negated, changed, exclusive), so the fact rules are written once for every subject.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from memory_demos.providers.offline_model.changes import correction, normalize_en, normalize_zh
from memory_demos.providers.offline_model.lexicon import CJK, RELATIONS_EN, RELATIONS_ZH, ZH_INTRODUCED
from memory_demos.providers.offline_model.sentences import (
    NAME_EN,
    PREDICATE,
    ZH_VERBS,
    assistant_may_state_facts,
    changes_mind,
    clauses,
    is_question,
    quote,
    sentence_may_state,
    split_sentences,
)
from memory_demos.providers.offline_model.text import (
    first_matching,
    mostly_chinese,
    normalize_quotes,
    role_segments,
)

USER = "user"
ASSISTANT = "assistant"


class Statement(NamedTuple):
    """One clause about one subject: ``USER``, a person's name, or ``rel:brother`` (a relation, unnamed).

    A named tuple, not a dataclass: a reply builds about a hundred, and a tuple is built faster.
    """

    subject: str
    text: str
    source: str
    negated: bool = False
    change: bool = False
    exclusive: bool = False
    self_subject: bool = False  # the speaker talks about themselves ("I ...")


class _Context:
    """What a reader keeps in mind while reading one message."""

    __slots__ = ("last_person", "relations", "role", "speaker")

    def __init__(
        self,
        role: str,
        speaker: str,
        last_person: str | None = None,
        relations: list[tuple[str, str, str]] | None = None,
    ) -> None:
        self.role = role
        self.speaker = speaker
        self.last_person = last_person
        self.relations = [] if relations is None else relations  # (whose, relation, name)


_REL_EN = "|".join(sorted(RELATIONS_EN, key=len, reverse=True))
_REL_ZH = "|".join(sorted(RELATIONS_ZH, key=len, reverse=True))
_PERSON_EN = r"(?:" + NAME_EN + r"\b|[" + CJK + r"]{2,4})"  # a name in English text, maybe Chinese
# A Chinese name never starts with a verb, a particle or a number word: 在深圳, 不对, 一只 name nobody.
_ZH_NAME = (
    r"(?:(?![在是住叫当做有的不一两三四五六七八九十这那今明昨每也还都很对])[" + CJK + r"]{2,3}?|[A-Z][a-z]+)"
)
_EN_LEAD = re.compile(
    r"^(?:(?:and|but|so|then|well|oh|also|now|these days|nowadays|today|by the way|in fact|actually|"
    r"anyway|currently|big news|update|ok|okay|yes|no|hi|hello|hey|please)\b[\s,:!-]*)+",
    re.IGNORECASE,
)
_ZH_LEAD = re.compile(
    r"^(?:但是|不过|可是|而且|另外|对了|其实|所以|然后|还有|后来|最近|嗯|哦|好的|你好|嗨|现在|目前|如今|以前|原来|"
    r"曾经|过去|之前)+[，,]?"
)
_CONTINUES = re.compile(
    r"^(?:live[sd]?|living|work(?:s|ed)?|moved?|moves|is|am|was|has|have|had|like[sd]?|love[sd]?|"
    r"hate[sd]?|enjoys?|drinks?|eats?|plays?|speaks?|studies|study|comes?|turned|just|no\s+longer|"
    r"used\s+to|don't|doesn't|never|now|only|still|also)\b",
    re.IGNORECASE,
)
_ZH_INTRO = re.compile(r"我的?(?P<rel>" + _REL_ZH + r")(?P<n>" + _ZH_NAME + r"?)(?=" + ZH_VERBS + ")")
_ZH_MY_RELATION = re.compile(r"我的?(?P<rel>" + _REL_ZH + ")")
_ZH_NAMED = re.compile(r"(?P<n>" + _ZH_NAME + r")(?=" + ZH_VERBS + ")")
_ZH_NOT_NAMES = re.compile("现在|目前|今天|以前|原来|已经|最近|这里|那里|北京|上海")
_ZH_VERB_START = re.compile(ZH_VERBS)
_NOT_NOTE_NAMES = re.compile(r"(?i)(?:summary|note|context|notes|key|value)$")
_ENTITY_NOTE = re.compile(
    r"^\s*(?P<n>" + NAME_EN + r"(?:\s+" + NAME_EN + r")?|[" + CJK + r"]{2,4})[:：]\s*(?P<t>\S.*)$"
)


_ZH_PRONOUN_STARTS = frozenset("叫用我你他她")  # first characters of the prefixes _subject_zh knows
# --------------------------------------------------------------------------------------------
# Subjects

_EN_INTRO = re.compile(
    r"(?P<poss>(?i:my)|[Hh]is|[Hh]er|[Tt]heir|(?i:the\s+(?:user|human))'s)\s+(?P<rel>"
    + _REL_EN
    + r")(?:,)?\s+"
    r"(?P<n>" + NAME_EN + r")\b,?\s*"
)
_EN_INSIDE = re.compile(r"\b(?:(?P<my>[Mm]y)|(?P<i>I))\b")
# (pattern at the clause's start, who it names, what replaces it); "first" is the speaker.
_EN_SUBJECT_RULES: tuple[tuple[str, str | None, str], ...] = (
    (r"(?i:(?:you\s+can\s+)?call\s+me)\b", "first", "S is called"),
    (r"(?i:the\s+(?:human|user))(?:'s)", "user", "S's"),
    (r"(?i:the\s+(?:human|user))\b", "user", "S"),
    (r"(?i:my)\s+(?P<rel>" + _REL_EN + r")(?='s)", None, "rel"),
    (r"(?i:my)\s+(?P<rel>" + _REL_EN + r")\b(?!'s)(?!\s+(?:is\s+)?(?:called|named))", None, "relnom"),
    (r"(?i:my)\b", "first", "S's"),
    (r"I'm\b|I\s+am\b", "first", "S is"),
    (r"I\b", "first", "S"),
    (r"(?i:your)\b", "second", "S's"),
    (r"(?i:you're|you\s+are)\b", "second", "S is"),
    (r"(?i:you)\b", "second", "S"),
    (r"(?i:his|her)\b", "last", "S's"),
    (r"(?i:he|she)\b", "last", "S"),
    (r"(?P<n>" + _PERSON_EN + r")'s(?=\s+[\w ]{1,30}?\s+(?:is|are|was)\b)", None, "name's"),
    (r"(?P<n>" + _PERSON_EN + r")(?:'s)", None, "name is"),
    (r"(?P<n>" + _PERSON_EN + r")(?=\s+" + PREDICATE + ")", None, "name"),
)
_EN_SUBJECTS = tuple((re.compile(pattern), who, how) for pattern, who, how in _EN_SUBJECT_RULES)
_FIRST_EN_SUBJECT = first_matching([pattern for pattern, _, _ in _EN_SUBJECT_RULES])
_NAME_OF = re.compile(r"'s\s+name\b")
_ZH_NAME_IS = re.compile("(?:的名字)?叫|的名字是")
_ZH_NAME_IS_PREFIX = re.compile("^(?:的名字)?(?:叫|是)")
_PLACEHOLDER = re.compile(r"(?<![A-Za-z0-9_'])(?:叫)?S(?![A-Za-z0-9_])")
_RELATION_PREFIX = re.compile(r"^(?:我的?(?:" + _REL_ZH + r")|(?i:my)\s+(?:" + _REL_EN + r"))\s*")
_SPEAKER = re.compile(r"(" + NAME_EN + r"|[" + CJK + r"]{2,4})\W*$")


def _start(clause: str, lead_words: re.Pattern[str], context: _Context) -> tuple[str, str, str, str]:
    """(lead words, the rest, who "I" is, who "you" is): the assistant's "I" and the user's "you"."""
    lead = lead_words.match(clause)
    split = lead.end() if lead else 0
    first_person = context.speaker if context.role != "ai" else ASSISTANT
    second_person = USER if context.role == "ai" else ASSISTANT
    return clause[:split], clause[split:], first_person, second_person


def _named_relation(context: _Context, whose: str, relation: str) -> str | None:
    """The name given earlier in this text to ``whose`` relation ("my brother Kofi"), if any."""
    return next((n for o, r, n in reversed(context.relations) if (o, r) == (whose, relation)), None)


def _subject_en(clause: str, context: _Context, inherited: str | None) -> tuple[str, str, bool] | None:
    """(subject, the clause with ``S`` in its place, whether the speaker speaks of themselves).

    ``clause`` comes from a sentence whose quotes are already normalised.
    """
    lead_text, body, first_person, second_person = _start(clause, _EN_LEAD, context)
    intro = _EN_INTRO.match(body)
    if intro and intro.group("n") not in {"I"}:
        return _introduced_en(intro, context, lead_text + "S " + body[intro.end() :], first_person)
    first = _FIRST_EN_SUBJECT(body)
    if first is not None:
        pattern, who, replacement = _EN_SUBJECTS[first]
        match = pattern.match(body)
        assert match is not None  # the alternation matched this very pattern
        rest = body[match.end() :]
        if replacement in {"rel", "relnom"}:
            return _relation_subject_en(match, replacement, context, lead_text, rest, first_person)
        if replacement.startswith("name"):
            return _named_subject_en(match, replacement, context, lead_text, rest)
        people = {"first": first_person, "second": second_person, "user": USER, "last": context.last_person}
        subject = people.get(who or "")
        return _person_subject_en(subject, who, context, lead_text + replacement + rest, first_person)
    if inherited and _CONTINUES.match(body):
        return inherited, lead_text + "S " + body, inherited == context.speaker
    inside = _EN_INSIDE.search(body)
    if inside and first_person != ASSISTANT:
        placeholder = "S's" if inside.group("my") else "S"
        return first_person, body[: inside.start()] + placeholder + body[inside.end() :], True
    return None


def _introduced_en(
    intro: re.Match[str], context: _Context, text: str, first_person: str
) -> tuple[str, str, bool]:
    """An introduction ("my brother Kofi"): Kofi is the subject, remembered as the speaker's brother."""
    possessor = intro.group("poss").lower()
    whose = (
        first_person if possessor == "my" else USER if possessor.startswith("the") else context.last_person
    )
    if whose and whose != ASSISTANT:
        context.relations.append((whose, intro.group("rel").lower(), intro.group("n")))
    context.last_person = intro.group("n")
    return intro.group("n"), text, False


def _relation_subject_en(
    match: re.Match[str], replacement: str, context: _Context, lead_text: str, rest: str, first_person: str
) -> tuple[str, str, bool]:
    """A relation ("my brother"): by the name given to it earlier in the text, else ``rel:brother``."""
    relation = match.group("rel").lower()
    named = _named_relation(context, first_person, relation)
    # "my brother's name is Kofi" is a fact about me; "my brother's job" about him.
    if replacement == "rel" and _NAME_OF.match(rest):
        return first_person, lead_text + f"S's {relation} name" + rest[len("'s name") :], True
    return named or f"rel:{relation}", lead_text + "S" + rest, False


def _named_subject_en(
    match: re.Match[str], replacement: str, context: _Context, lead_text: str, rest: str
) -> tuple[str, str, bool] | None:
    """A capitalised name ("Anna lives ...") is the subject, unless it is a word such as "The"."""
    name = match.group("n")
    if name in {"I", "The", "My", "What", "Where", "Who", "How", "Hi", "Hello", "Yes", "No"}:
        return None
    context.last_person = name
    text = {"name's": "S's", "name is": "S is", "name": "S"}[replacement]
    return name, lead_text + text + rest, False


def _person_subject_en(
    subject: str | None, who: str | None, context: _Context, text: str, first_person: str
) -> tuple[str, str, bool] | None:
    """A pronoun or "the user": the person it stands for, if this text has named one."""
    if not subject:
        return None
    if who == "user":
        context.last_person = USER  # "The user is 30. She lives in Lisbon."
    return subject, text, subject == first_person and first_person != ASSISTANT


def _zh_relation_named(context: _Context, whose: str, relation: str, rest: str) -> str:
    """ "我哥哥叫王强": the statement, and 王强 kept in mind ("他" in the next clause is the brother)."""
    value = _ZH_NAME_IS_PREFIX.sub("", rest)
    if re.fullmatch(_ZH_NAME, value):
        context.relations.append((whose, relation, value))
        context.last_person = value
    return f"S's {relation} name is {value}"


def _subject_zh(clause: str, context: _Context, inherited: str | None) -> tuple[str, str, bool] | None:
    lead_text, body, first_person, second_person = _start(clause, _ZH_LEAD, context)
    intro = _ZH_INTRO.match(body)
    if intro and intro.group("n") and not intro.group("n").startswith(("叫", "的", "是", "住")):
        relation = RELATIONS_ZH[intro.group("rel")]
        context.relations.append((first_person, relation, intro.group("n")))
        context.last_person = intro.group("n")
        return intro.group("n"), lead_text + "S" + body[intro.end() :], False
    rel = _ZH_MY_RELATION.match(body)
    if rel:
        relation = RELATIONS_ZH[rel.group("rel")]
        rest = body[rel.end() :]
        if _ZH_NAME_IS.match(rest):
            return first_person, _zh_relation_named(context, first_person, relation, rest), True
        named = next(
            (n for o, r, n in reversed(context.relations) if (o, r) == (first_person, relation)), None
        )
        return named or f"rel:{relation}", lead_text + "S" + rest, False
    for prefix, subject in (
        ()
        if body[:1] not in _ZH_PRONOUN_STARTS
        else (
            ("叫我", first_person),
            ("用户", USER),
            ("我", first_person),
            ("你", second_person),
            ("他", context.last_person),
            ("她", context.last_person),
        )
    ):
        if body.startswith(prefix):
            if not subject:
                return None
            text = "叫S" if prefix == "叫我" else "S"
            return subject, lead_text + text + body[len(prefix) :], subject == first_person
    named = _ZH_NAMED.match(body)
    if named and not _ZH_NOT_NAMES.match(named.group("n")):
        context.last_person = named.group("n")
        return named.group("n"), lead_text + "S" + body[named.end() :], False
    if inherited and _ZH_VERB_START.match(body):
        return inherited, lead_text + "S" + body, inherited == context.speaker
    inside = body.find("我")
    if inside >= 0 and first_person != ASSISTANT:
        return first_person, body[:inside] + "S" + body[inside + 1 :], True
    return None


# --------------------------------------------------------------------------------------------
# Reading a text


def _clause_statements(
    clause: str, context: _Context, inherited: str | None, chinese: bool
) -> list[Statement]:
    known_relations = len(context.relations)
    found = (_subject_zh if chinese else _subject_en)(clause, context, inherited)
    if found is None:
        return []
    said = [
        Statement(whose, f"S's {relation} name is {name}", clause, self_subject=True)
        for whose, relation, name in context.relations[known_relations:]
    ]
    subject, text, self_subject = found
    if subject == ASSISTANT:
        return said
    corrected = None if chinese else correction(text)
    if corrected is not None:  # "not X, it's Y": X taken back, Y said in its place
        for part in corrected:
            said += [
                s._replace(change=True) for s in _normalized(subject, part, clause, self_subject, chinese)
            ]
        return said
    return said + _normalized(subject, text, clause, self_subject, chinese)


def _normalized(subject: str, text: str, clause: str, self_subject: bool, chinese: bool) -> list[Statement]:
    """The statement of one clause's text with ``S`` in it, its change words taken out."""
    text, negated, change, exclusive = (normalize_zh if chinese else normalize_en)(text)
    start = _PLACEHOLDER.search(text)
    if start is None:
        return []
    return [Statement(subject, text[start.start() :], clause, negated, change, exclusive, self_subject)]


def _noted(subject: str, clause: str) -> Iterator[Statement]:
    """A note's clause with no subject of its own ("Kofi: lives in Accra") speaks of the note's name."""
    chinese = mostly_chinese(clause)
    text, negated, change, exclusive = (normalize_zh if chinese else normalize_en)("S " + clause)
    yield Statement(subject, text, clause, negated, change, exclusive)


def _sentence_statements(sentence: str, context: _Context) -> list[Statement]:
    """The statements of one sentence, read eagerly (a list is cheaper than a chain of generators)."""
    sentence = normalize_quotes(sentence)
    chinese = mostly_chinese(sentence)
    if not sentence_may_state(sentence, chinese=chinese, assistant=context.role == "ai"):
        return []
    quoted = quote(sentence, chinese=chinese)
    if quoted:
        said = "说" if chinese else " said"
        found = _clause_statements(quoted.group("who") + said, context, None, chinese)
        named = _SPEAKER.search(_RELATION_PREFIX.sub("", quoted.group("who")))
        who = named.group(1) if named else context.last_person
        if who:
            inner = _Context(role="human", speaker=who, last_person=who, relations=context.relations)
            for part in clauses(quoted.group("q"), chinese=chinese):
                found += _clause_statements(part, inner, who, chinese)
        return found
    found = []
    inherited: str | None = None
    parts = clauses(sentence, chinese=chinese)
    changed_mind = changes_mind(sentence)
    asks_last = sentence.endswith(("?", "？"))
    introduced = False
    for clause in parts:
        if is_question(clause, chinese=chinese) or (asks_last and clause is parts[-1]):
            inherited = None
            continue
        if introduced and clause.startswith(("叫", "名字叫", "名叫")):  # 我养了一只猫，叫米粒: the cat's
            inherited = None
        introduced = chinese and ZH_INTRODUCED.search(clause) is not None
        for statement in _clause_statements(clause, context, inherited, chinese):
            inherited = statement.subject
            found.append(
                statement._replace(change=True) if changed_mind and not statement.change else statement
            )
    return found


def read_statements(
    text: str, *, role: str = "human", speaker: str = USER, last_person: str | None = None
) -> Iterator[Statement]:
    """Every statement in ``text``. "Human:"/"AI:" lines switch role; a "Kofi: ..." note speaks of Kofi.

    ``last_person``: whom "he"/"she" means at the start (the person an earlier message spoke of).
    """
    if role == "ai" and ":" not in text and not assistant_may_state_facts(text):
        return  # one assistant segment, and no sentence of it passes the assistant's test
    context = _Context(role=role, speaker=speaker, last_person=last_person)
    for segment in role_segments(text, role):
        context.role = segment.role
        for line in segment.text.splitlines():
            note = _ENTITY_NOTE.match(line) if segment.role == "narrative" else None
            if note and not _NOT_NOTE_NAMES.match(note.group("n")):
                context.last_person = note.group("n")
                for sentence in split_sentences(note.group("t")):
                    found = _sentence_statements(sentence, context)
                    yield from found
                    if not found:
                        yield from _noted(note.group("n"), sentence)
                continue
            for sentence in split_sentences(line):
                yield from _sentence_statements(sentence, context)
