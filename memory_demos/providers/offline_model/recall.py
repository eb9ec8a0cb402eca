"""Answering from the statements that bear on a question, said back from the asker's side.

A statement bears on a question when it speaks of the same person and holds the question's content
words (after normalisation, related words folded; Chinese by character pairs) and the kind of thing
asked for (a time for "when", a number for "how many", a place for "where", a name for "who").
The newest statement on a topic wins; when nothing bears on the question, there is no answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_demos.providers.offline_model.asks import Ask
from memory_demos.providers.offline_model.changes import FORMER_ZH
from memory_demos.providers.offline_model.leaning import (
    adds_to_answer,
    contexts,
    only_a_value,
    said_with_what_it_leans_on,
    with_its_name,
    with_what_follows,
)
from memory_demos.providers.offline_model.lexicon import CJK, NATIONALITIES
from memory_demos.providers.offline_model.loose import (
    OPEN_KINDS,
    YES_NO,
    asks_what_it_lacks,
    holds_a_question_word,
    loose_answer,
    zh_coverage,
)
from memory_demos.providers.offline_model.parts import answered_by_another_part, counted_unsaid, focused
from memory_demos.providers.offline_model.reader import USER, Said
from memory_demos.providers.offline_model.restating import restate
from memory_demos.providers.offline_model.said_words import statement_words
from memory_demos.providers.offline_model.text import MID_CAPITAL, mostly_chinese
from memory_demos.providers.offline_model.unsaid import (
    favourite_statements,
    names_an_unsaid_kind,
    names_the_one_named,
    speaks_of_no_particular,
)
from memory_demos.providers.offline_model.values import (
    KIND_VALUES,
    KIND_WORDS,
    NAMED_BY_MEMBERS,
    ZH_TIME_ONLY,
    lacks_unit_asked,
    names_another_part,
)
from memory_demos.providers.offline_model.values import VALUES as _HAS
from memory_demos.providers.offline_model.words import (
    QUESTION_STOP,
    WEAK,
    en_words,
    names_another_relation,
    stem,
    zh_grams,
)

_ZH_VERBS = re.compile("[有吃喝用养开学做去买住玩看读考带穿戴打种练弹]")
_NAMES_SELF = re.compile(
    r"\b(?:my|his|her|their)\s+(?:\w+\s+)?name\b|^\W*name'?s\b|\b(?:I'm|I\s+am|call\s+me|called\s+me)\s+[A-Z]|"
    r"(?:^|\s)(?:我|他|她)(?:的名字)?叫|(?:^|\s)(?:我|他|她)姓|我的名字|叫我|^\S+\s+(?:is|was)\s+called|^[A-Z][a-z]+\s+here\b",
    re.I,
)


def _about_fits(ask: Ask, said: Said, aliases: dict[str, str]) -> bool:
    wanted = aliases.get(ask.about, ask.about)
    if wanted == "":  # "when does school finish?" asks of nobody: anyone's statement may answer
        return True
    if wanted == USER:
        # "who am I meeting?": Sam; "who am I?" asks of the user alone
        return said.about in {"", USER} or (ask.wants == "person" and bool(ask.words | ask.weak))
    if said.about == wanted:
        return True
    return wanted.lower() in said.text.lower() or any(
        name.lower() in said.text.lower() for name, rel in aliases.items() if rel == wanted
    )


def needed_words(ask: Ask, vocabulary: frozenset[str]) -> set[str]:
    """The words a statement must hold to bear on ``ask``.

    ``vocabulary``: every word of the prompt. A modifier said nowhere ("phone" of "phone number") may
    go unsaid, and so may the kind asked for ("what condition do I have?") when a verb is left to match.
    """
    needed = set(ask.words or ask.weak)
    if YES_NO.search(ask.text):  # "am I allergic to anything?" names no thing of its own
        needed -= {stem(w) for w in ("anything", "something", "anyone", "someone", "anybody", "somebody")}
    if ask.wants == "name":
        needed -= {"name", "call", "叫", "名字", "@名字", "姓"}
    elif ask.wants == "job":
        needed -= {"@工作", "work", "do"}
    elif ask.wants == "age":  # 爷爷多大岁数了 is answered by 我爷爷今年八十五了
        needed -= {"岁数", "年纪", "年龄", "纪多", "大岁"}
    if needed - ask.modifiers:
        needed -= ask.modifiers - vocabulary
    unsaid = ask.kinds & needed - vocabulary
    if not ask.chinese:
        unsaid &= OPEN_KINDS  # "which hospital?" never said: no statement names one
        unsaid -= NAMED_BY_MEMBERS  # "what breed is Miso?": a breed must be named (a beagle), not a cat
    rest = (needed - unsaid) | (set(ask.weak) & vocabulary)
    if unsaid and rest and (not ask.chinese or any(_ZH_VERBS.search(w) for w in rest)):
        return rest
    return needed


def _names_the_user(text: str) -> bool:
    """ "I'm Mara", "call me Mara", 我叫小明 — not "I'm Brazilian"."""
    found = _NAMES_SELF.search(text)
    return found is not None and not any(w in NATIONALITIES for w in text[found.start() :].split()[:4])


def _coverage(ask: Ask, needed: set[str], words: set[str], text: str) -> float:
    """How much of what the question needs a statement holds, 0 to 1 (weak words count less).

    English words by stem; Chinese by characters (see ``zh_coverage``).
    """
    if not needed:
        self_name = ask.wants == "name" and ask.about == USER
        return float(bool(ask.wants and ask.about) and (not self_name or _names_the_user(text)))

    def weight(word: str) -> float:
        return 0.4 if word in ask.weak or word in WEAK else 1.0

    total = sum(weight(w) for w in needed)
    if ask.chinese:
        return zh_coverage(needed, words, text)
    strong = {w for w in needed if weight(w) == 1.0}
    if len(strong - words) > (1 if len(strong) >= 3 else 0):
        return 0.0
    if strong and strong <= words:  # "who takes warfarin?" is answered by "grandma is on warfarin"
        return max(sum(weight(w) for w in needed & words) / total, 0.75)
    return sum(weight(w) for w in needed & words) / total


def _kind_is(ask: Ask, said: Said) -> bool:
    """会议室是B-302 answers 在哪个会议室: the kind asked for is named, its value said after 是/叫."""
    kinds = [k for k in ask.kinds if re.fullmatch(f"[{CJK}]{{2}}", k)]
    return ask.chinese and any(re.search(f"{k}(?:是|叫)[^{CJK}]*[A-Za-z0-9]", said.text) for k in kinds)


def has_value(ask: Ask, text: str, aliases: dict[str, str], said_about: str = "") -> bool:
    """Whether ``text`` holds a value of the kind ``ask`` wants; a person other than the one asked about
    for "who" ("who is she marrying?" is not answered by "Siobhan is getting married")."""
    has = _HAS[ask.wants]
    if ask.wants == "person" and said_about not in {"", USER, ask.about} and ask.about in {"", USER}:
        return True  # "Ben is bringing his kid", "she has the bigger room": its subject is the person
    if ask.wants not in {"person", "name"} or ask.about in {"", USER}:
        return has.search(text) is not None
    forms = {ask.about.lower(), aliases.get(ask.about, "").lower()}
    if ask.wants == "person":  # "who is Hiroshi's wife": not Hiroshi; "my brother's name": Hiroshi
        forms |= {n.lower() for n, r in aliases.items() if r == ask.about}
    return any(m.group(0).lower() not in forms for m in has.finditer(text))


def _leaning_wider(
    ask: Ask, statements: Sequence[Said], aliases: dict[str, str], needed: set[str], wide: list[Said | None]
) -> list[tuple[float, Said]]:
    """When no statement bears on the question: a clause read with the clause before it in its message
    (我对青霉素过敏，上次打针起了一身疹子 answers 上次过敏是什么反应; "cutting sugar. my goal is 25 g a day"
    answers "what's my daily sugar goal"), as long as its own words bear on the question, it names no
    other proper name than the question's, and the two hold one of a Chinese question's words whole."""
    found = []
    for said, context in zip(statements, wide, strict=True):  # ``wide``: contexts(statements, wider=True)
        score = bearing(ask, said, aliases, needed, context)
        if (
            score > 0
            and _own_words_bear(ask, said, needed)
            and holds_a_question_word(needed, said.text if context is None else context.text + said.text)
        ):
            found.append((score, said))
    return found


def _own_words_bear(ask: Ask, said: Said, needed: set[str]) -> bool:
    if ask.chinese:  # a name, a time or a place alone (叫阿福, 周三上午十点, 在万达酒店) has no words to bear
        return (
            ask.wants == "name"
            or ZH_TIME_ONLY.fullmatch(said.text) is not None
            or (ask.wants == "place" and re.match("(?:就|也|还)?在", said.text) is not None)
            or only_a_value(ask.wants, said.text)
            or zh_coverage(needed, statement_words(said, True), said.text) > 0
        )
    asked, own = _proper_names(ask.text), _proper_names(said.text)
    return bool(needed & statement_words(said, False)) and not (asked - own and own - asked)


def _proper_names(text: str) -> set[str]:
    return {w.lower() for w in re.findall(MID_CAPITAL, text.strip())} - {"i"}


def _asked_kinds(ask: Ask) -> set[str]:
    """The kinds of value a question names ("what colour ...", "what dose ..."): a statement must hold one."""
    if ask.chinese:
        return set()
    return {KIND_WORDS[w] for w in ask.kinds if w in KIND_WORDS} & {"colour", "dose", "often", "address"}


def _least_covered(ask: Ask) -> float:
    """How much of a question a statement must hold; all of a yes-or-no question, which names its whole
    fact (我对海鲜过敏吗 is not answered by 我对花粉过敏)."""
    if YES_NO.search(ask.text):
        return 1.0
    return 0.75 if ask.wants == "person" else 0.55 if ask.chinese else 0.5


def bearing(
    ask: Ask, said: Said, aliases: dict[str, str], needed: set[str], context: Said | None = None
) -> float:
    """How much a statement bears on a question (``needed``: see ``needed_words``): 0 for not at all.

    ``context``: the statement it leans on, whose words count as its own (the value must be its own).
    """
    if said.question or said.hypothetical or said.retracted:
        return 0.0
    if not _about_fits(ask, said, aliases) and not (
        context is not None
        and said.about == ""
        and _about_fits(ask, context, aliases)
        and not (ask.chinese and names_another_relation(said.text, aliases.get(ask.about, ask.about)))
    ):
        return 0.0
    # a bare number ("13905718826" after 我妈的手机号) is read in the question's language
    chinese = mostly_chinese(said.text) if re.search(f"[A-Za-z{CJK}]", said.text) else ask.chinese
    words = statement_words(said, chinese)
    if context is not None:
        words = words | statement_words(context, chinese)
    if chinese != ask.chinese and not ask.words & words:
        return 0.0
    has = _HAS.get(ask.wants)
    if has is not None and not has_value(ask, said.text, aliases, said.about) and not _kind_is(ask, said):
        return 0.0
    if any(not KIND_VALUES[k].search(said.text) for k in _asked_kinds(ask)):
        return 0.0  # "what colour is my corolla?" is not answered by "I drive a 2009 corolla"
    if asks_what_it_lacks(ask.text, said.text) or not names_the_one_named(ask.text, said.text):
        return 0.0
    text = said.text if context is None else f"{context.text} {said.text}"
    if names_another_part(ask.text, text, chinese=ask.chinese) or (
        ask.chinese and lacks_unit_asked(ask.text, text)
    ):
        return 0.0
    covered = _coverage(ask, needed, words, text)
    if covered < _least_covered(ask):
        return 0.0
    bonus = 0.5 * len(ask.extra & words) + (0.5 if has is not None else 0.0)
    bonus += 0.5 if _says_the_known_name(ask, said, aliases) else 0.0
    return covered * max(len(needed), 1) + bonus + (0.25 if said.about == ask.about else 0.0) + 0.1


def _says_the_known_name(ask: Ask, said: Said, aliases: dict[str, str]) -> bool:
    """ "what's my brother's name", and the statement holds the name the brother goes by."""
    if ask.wants != "name" or ask.about in {"", USER}:
        return False
    return any(person == ask.about and name in said.text for name, person in aliases.items())


def _frame(said: Said) -> set[str]:
    """A statement's words without its values: two statements with one frame speak of one topic."""
    if mostly_chinese(said.text):
        return {g for g in zh_grams(said.text) if not re.search(r"[\d一二两三四五六七八九十]", g)}
    return {stem(w) for w in en_words(said.text) if w[:1].islower() and not w[:1].isdigit()} - QUESTION_STOP


def _newest_on_topic(candidates: list[tuple[float, Said]], needed: set[str]) -> list[Said]:
    """The statements to answer with: the best, and others as good that no newer one replaced.

    A newer statement replaces an older one that speaks of the same thing (the same frame), or that
    holds no more of the question's words than it does.
    """
    best = max(score for score, _ in candidates)
    chosen = sorted((s for score, s in candidates if score >= best - 0.25), key=lambda s: s.order)
    kept: list[Said] = []
    for said in chosen:
        frame = _frame(said)
        asked = needed & statement_words(said, mostly_chinese(said.text))
        replaced = [
            k
            for k in kept
            if said.change
            or (frame and len(frame & _frame(k)) / max(len(frame | _frame(k)), 1) >= 0.5)
            or (
                asked
                and needed & statement_words(k, mostly_chinese(k.text)) <= asked
                and k.source == said.source
            )
            or (k.message == said.message and k.source == said.source and FORMER_ZH.match(k.text))
        ]
        if replaced and not re.search(r"\b(?:also|too|as well)\b|也|还", said.text):
            kept = [k for k in kept if k not in replaced]
        kept.append(said)
    if len(kept) > 3:  # those holding the question's words themselves first, then the newest
        holding = [k for k in kept if needed & statement_words(k, mostly_chinese(k.text))][-3:]
        others = [k for k in kept if k not in holding]
        room = 3 - len(holding)
        kept = sorted(holding + (others[-room:] if room else []), key=lambda s: s.order)
    return kept[-3:]


_SUPPOSING = re.compile(r"\b(?:would|if)\b|\b(?:I|you|we)'d\b|如果|要是|假如|的话", re.I)


def answer(ask: Ask, statements: Sequence[Said], aliases: dict[str, str], *, current: int) -> str | None:
    """The statements that bear on ``ask``, said back from the asker's side; None when none does."""
    chinese = ask.chinese
    vocabulary = frozenset().union(*(statement_words(s, chinese) for s in statements if not s.question))
    needed = needed_words(ask, vocabulary)
    asked = ask.text.lower().strip(" ?？")
    statements = [  # never the question itself ("and the zip" read as the statement "the zip")
        s
        for s in statements
        if s.text.lower().strip(" ?？.") != asked
        and not (s.message >= current and s.text.lower().strip(" ?？.") in asked)
        and not speaks_of_no_particular(ask.text, s.text)
    ]
    liked = favourite_statements(ask.text, statements, vocabulary, chinese=chinese)
    if liked is None:
        return None
    statements = liked
    if chinese and names_an_unsaid_kind(ask.text, statements):
        return None
    if _SUPPOSING.search(ask.text):  # "what would I name my boat?" asks of what the user supposed
        statements = [s._replace(hypothetical=False) for s in statements]
    leaning = contexts(statements)
    scored = [
        (bearing(ask, said, aliases, needed, context), said)
        for said, context in zip(statements, leaning, strict=True)
    ]
    candidates = [(score, said) for score, said in scored if score > 0]
    wider = not candidates
    if wider:  # the clause before in its message counts too; the answer is then said with it
        leaning = contexts(statements, wider=True)
        candidates = _leaning_wider(ask, statements, aliases, needed, leaning)
    if not candidates and counted_unsaid(ask, vocabulary):
        return None  # "how much ram does the thinkpad have?" when no ram was spoken of
    if not candidates:
        found = loose_answer(
            ask.text,
            ask.words | ask.weak,
            ask.extra,
            ask.wants,
            ask.about,
            statements,
            aliases,
            chinese=ask.chinese,
            current=current,
        )
        return restate(with_what_follows(found, statements)) if found is not None else None
    joiner = "" if ask.chinese else " "
    chosen = _newest_on_topic(candidates, needed)
    chosen = [said for said in chosen if not answered_by_another_part(said, ask, needed)]
    if not chosen:
        return None
    leaned = dict(zip((s.order for s in statements), leaning, strict=True))
    said_back = [
        with_its_name(
            focused(
                said_with_what_it_leans_on(s, leaned, whole=wider and adds_to_answer(ask.wants, leaned, s)),
                ask,
                needed,
            ),
            statements,
        )
        for s in chosen
    ]
    said_back = [with_what_follows(s, statements) for s in said_back]  # "if you won…": and then?
    whole = [s.text for s in said_back]  # 叫《茶馆》 said with the clause before it is not said again
    said_back = [s for s in said_back if not any(s.text != w and s.text in w for w in whole)]
    return joiner.join(dict.fromkeys(restate(said) for said in said_back))
