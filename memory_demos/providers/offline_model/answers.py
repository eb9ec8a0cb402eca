"""Saying facts back: clauses about anyone in English and Chinese, answers, refusals, acknowledgements."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from memory_demos.providers.offline_model.changes import ANY_VALUE
from memory_demos.providers.offline_model.facts import ANY_KEY, SAME_KEY, Fact
from memory_demos.providers.offline_model.knowledge import Belief, Knowledge
from memory_demos.providers.offline_model.lexicon import (
    ALL_FACTS,
    CONFLICT_EN,
    CONFLICT_ZH,
    DONT_KNOW_ALL_EN,
    DONT_KNOW_ALL_ZH,
    DONT_KNOW_EN,
    DONT_KNOW_NTH_EN,
    DONT_KNOW_NTH_ZH,
    DONT_KNOW_ZH,
    HABIT_VERBS,
    LIST_KEYS,
    OPPOSITE_KEYS,
    ORDINALS_EN,
    ORDINALS_ZH,
    ZH_ANIMALS,
    ZH_HABIT_VERBS,
    ZH_RELATION_NAMES,
)
from memory_demos.providers.offline_model.questions import Question
from memory_demos.providers.offline_model.statements import USER
from memory_demos.providers.offline_model.text import (
    article_for,
    capitalized,
    display_key_en,
    display_key_zh,
    join_en,
)
from memory_demos.providers.offline_model.value_questions import WHO

_HABIT_BASE = {key: verb for verb, key in HABIT_VERBS.items()}
_ZH_HABIT = {key: verb for verb, key in ZH_HABIT_VERBS.items()}
_ZH_NAMED = {**{v: k for k, v in ZH_ANIMALS.items() if len(k) == 1}, **ZH_RELATION_NAMES}


@dataclass(frozen=True)
class Reply:
    """What the model answers: text, or tool calls (then the text is empty)."""

    text: str
    tool_calls: tuple[dict[str, Any], ...] = ()


def fact_clause(key: str, values: Sequence[str], subject: str = "you", *, former: bool = False) -> str:
    """An English clause stating one fact; ``subject`` is "you", "the human", a name or "your brother".

    ``former``: the fact was taken back ("you no longer live in Lisbon").
    """
    second = subject == "you"
    possessive = "your" if second else f"{subject}'s"
    verb_s = "" if second else "s"
    be = "you're" if second else f"{subject} is"
    no = "no longer " if former else ""
    value = " or ".join(values) if former else join_en(values)
    if key == "name":
        if second or subject == "the human":
            return f"{possessive} name is {no}{value}"
        return f"{subject} is the human's name"
    if key == "city":
        return f"{subject} {no}live{verb_s} in {value}"
    if key == "hometown":
        return f"{be} {'not ' if former else ''}from {value}"
    if key in {"likes", "dislikes"}:
        return _liking_clause(key, value, subject, former=former)
    if key in _HABIT_BASE:
        verb = _HABIT_BASE[key]
        return f"{subject} {no}{verb if second else key} {value}"
    if key == "job":
        return _job_clause(values, subject, former=former)
    if key == "age":
        return f"{be} {no}{value} years old"
    if key == "nationality":
        return f"{be} {no}{value}"
    return f"{possessive} {display_key_en(key)} is {no}{value}"


def _job_clause(values: Sequence[str], subject: str, *, former: bool) -> str:
    """``fact_clause`` for ``job``; a job left with none named reads "you no longer have your job"."""
    second = subject == "you"
    if former and ANY_VALUE in values:
        return f"{subject} no longer {'have your' if second else 'has their'} job"
    value = " or ".join(values) if former else join_en(values)
    works = f"{'no longer ' if former else ''}work{'' if second else 's'}"
    return f"{subject} {works} as {article_for(value)} {value}"


def _liking_clause(key: str, value: str, subject: str, *, former: bool) -> str:
    """``fact_clause`` for ``likes`` and ``dislikes``: "you don't like tea", "Anna no longer likes tea"."""
    second = subject == "you"
    if key == "dislikes" and not former:
        return f"you don't like {value}" if second else f"{subject} dislikes {value}"
    verb = "like" if key == "likes" else "dislike"
    return f"{subject} {'no longer ' if former else ''}{verb}{'' if second else 's'} {value}"


def fact_clause_zh(key: str, values: Sequence[str], subject: str = "你", *, former: bool = False) -> str:
    """A Chinese clause stating one fact about ``subject`` ("你", a name, "你哥哥")."""
    value = "、".join(values)
    no = "不再" if former else ""
    if key == "name":
        return f"{subject}{no}叫{value}"
    if key == "city":
        return f"{subject}{'已经不' if former else ''}住在{value}"
    if key == "hometown":
        return f"{subject}{'不是' if former else ''}来自{value}"
    if key == "likes":
        return f"{subject}{no}喜欢{value}"
    if key == "dislikes":
        return f"{subject}{'不再讨厌' if former else '不喜欢'}{value}"
    if key in _ZH_HABIT:
        return f"{subject}{'不再' if former else ''}{_ZH_HABIT[key]}{value}"
    if key == "age":
        return f"{subject}{'不再是' if former else ''}{value}岁"
    if key.endswith("_name") and key[: -len("_name")] in _ZH_NAMED:
        return f"{subject}的{_ZH_NAMED[key[: -len('_name')]]}{no}叫{value}"
    if key.startswith("favourite_"):
        return f"{subject}最喜欢的{display_key_zh(key)}{'不再' if former else ''}是{value}"
    return _generic_clause_zh(key, values, subject, former=former)


def _generic_clause_zh(key: str, values: Sequence[str], subject: str, *, former: bool) -> str:
    """``fact_clause_zh`` for other keys: "你的订单号是A-1"; a job left with none named: "你不再工作了"."""
    if former and ANY_VALUE in values:
        return f"{subject}不再工作了"
    return f"{subject}的{display_key_zh(key)}{'不再' if former else ''}是{'、'.join(values)}"


def dont_know(key: str = ALL_FACTS, *, chinese: bool = False, questions: int = 1) -> str:
    """The reply when the prompt holds no such fact. It names no topic, so it repeats no question words."""
    if questions > 1:
        return DONT_KNOW_ALL_ZH if chinese else DONT_KNOW_ALL_EN
    return DONT_KNOW_ZH if chinese else DONT_KNOW_EN


def _display(question_subject: str, knowledge: Knowledge, *, chinese: bool) -> str:
    if question_subject == USER:
        return "你" if chinese else "you"
    resolved = knowledge.resolve(question_subject)
    if question_subject.startswith("rel:"):
        relation = question_subject[4:]
        if chinese:
            named = "" if resolved == question_subject else resolved
            return f"你{ZH_RELATION_NAMES.get(relation, relation)}{named}"
        name = "" if resolved == question_subject else f" {resolved}"
        return f"your {relation}{name}"
    return question_subject


def _clause(key: str, values: Sequence[str], subject: str, *, chinese: bool, former: bool = False) -> str:
    if chinese:
        return fact_clause_zh(key, values, subject, former=former)
    return fact_clause(key, values, subject, former=former)


def _find_belief(knowledge: Knowledge, subject: str, key: str) -> tuple[str, Belief] | None:
    per_subject = knowledge.beliefs.get(knowledge.resolve(subject), {})
    belief = per_subject.get(key)
    if belief and (belief.values or belief.conflict or belief.former):
        return key, belief
    fallbacks = {"city": "hometown", "hometown": "city"}
    if key in fallbacks and per_subject.get(fallbacks[key]) and per_subject[fallbacks[key]].values:
        return fallbacks[key], per_subject[fallbacks[key]]
    if len(key) >= 3:
        candidates = [k for k, b in per_subject.items() if b.values and k.startswith(f"{key}_")]
        if len(candidates) == 1:
            return candidates[0], per_subject[candidates[0]]
    return (key, belief) if belief and belief.denied else None


def answer_question(question: Question, knowledge: Knowledge, *, chinese: bool) -> str | None:
    """The answer to one recall question, from the prompt's knowledge; None when the prompt has none."""
    if question.key is None:
        return None
    if question.value is not None:
        return _value_answer(question, knowledge, chinese=chinese)
    if question.past:
        return _past_answer(question, knowledge, chinese=chinese)
    subject = _display(question.subject, knowledge, chinese=chinese)
    if question.key == ALL_FACTS:
        return _all_facts_answer(knowledge, question.subject, subject, chinese=chinese)
    found = _find_belief(knowledge, question.subject, question.key)
    if found is None:
        return None
    key, belief = found
    return _belief_answer(key, belief, subject, chinese=chinese)


def _held(values: Sequence[str], value: str) -> str | None:
    """The value as the prompt spells it, if ``values`` holds it ("a nurse" holds "nurse")."""
    wanted = value.casefold()
    return next((v for v in values if v.casefold().removeprefix("a ").removeprefix("an ") == wanted), None)


def _past_answer(question: Question, knowledge: Knowledge, *, chinese: bool) -> str | None:
    """ "Where did I live before?": the former value; None when the prompt names none (never the current)."""
    belief = knowledge.belief(question.subject, question.key or "")
    former = [v for v in belief.former if v != ANY_VALUE] if belief else []
    if not former:
        return None
    subject = _display(question.subject, knowledge, chinese=chinese)
    if chinese:
        return f"{subject}以前{fact_clause_zh(question.key or '', former, '')}。"
    value = " or ".join(former)
    used_to = {
        "city": f"{subject} used to live in {value}",
        "job": f"{subject} used to work as {article_for(value)} {value}",
        "name": f"{'your' if subject == 'you' else subject + chr(39) + 's'} name used to be {value}",
    }
    return capitalized(used_to[question.key or ""]) + "."


def _who_answer(key: str, value: str, knowledge: Knowledge, *, chinese: bool) -> str | None:
    """ "Who lives in Accra?": everyone the prompt says does (or no longer does); None for nobody."""
    said = []
    for subject in knowledge.subjects():
        belief = knowledge.beliefs[subject].get(key)
        if belief is None:
            continue
        display = _display(subject, knowledge, chinese=chinese)
        held, former = _held(belief.values, value), _held(belief.former, value)
        if held or former:
            clause = _clause(key, [held or former or value], display, chinese=chinese, former=not held)
            said.append(capitalized(clause) + ("。" if chinese else "."))
    return ("" if chinese else " ").join(said) or None


def _value_answer(question: Question, knowledge: Knowledge, *, chinese: bool) -> str | None:
    """ "Who lives in Accra?" -> who does; "Does Kofi live in Lisbon?" -> yes or no, with the fact.

    None (a refusal) when the prompt says nothing that settles it.
    """
    assert question.key is not None and question.value is not None
    key, value = question.key, question.value
    if question.subject == WHO:
        return _who_answer(key, value, knowledge, chinese=chinese)
    subject = _display(question.subject, knowledge, chinese=chinese)
    end = "。" if chinese else "."
    yes, no = ("是的，", "不，") if chinese else ("Yes, ", "No, ")
    opposite = knowledge.belief(question.subject, OPPOSITE_KEYS.get(key, ""))
    if opposite and _held(opposite.values, value):  # "Do I like coffee?" after "I don't like coffee"
        return no + _clause(OPPOSITE_KEYS[key], [value], subject, chinese=chinese) + end
    belief = knowledge.belief(question.subject, key)
    if belief is None:
        return None
    if belief.values and _held(belief.values, value):
        return yes + _clause(key, belief.values, subject, chinese=chinese) + end
    if key in LIST_KEYS and not (_held(belief.former, value) or _held(belief.denied, value)):
        return None  # liking tea says nothing about coffee
    if belief.values:
        clause = _clause(key, belief.values, subject, chinese=chinese)
        return no + clause + ("" if chinese or not _held(belief.former, value) else " now") + end
    if belief.conflict:
        return _belief_answer(key, belief, subject, chinese=chinese)
    former = _held(belief.former, value)
    if former:
        return no + _clause(key, [former], subject, chinese=chinese, former=True) + end
    if _held(belief.denied, value):
        return (
            no + (f"据我收到的内容，不是{value}" if chinese else f"what I was given says not {value}") + end
        )
    return None


def _all_facts_answer(knowledge: Knowledge, who: str, subject: str, *, chinese: bool) -> str | None:
    """Every current fact about ``who`` (shown as ``subject``) in one sentence; None when there is none."""
    facts = knowledge.current(who)
    if not facts:
        return None
    clauses = [_clause(k, v, subject, chinese=chinese) for k, v in facts.items()]
    if chinese:
        return f"我收到的内容里关于{subject}的信息：" + "；".join(clauses) + "。"
    about = "you" if subject == "you" else subject
    return f"Here is what I was given about {about}: " + "; ".join(clauses) + "."


def _belief_answer(key: str, belief: Belief, subject: str, *, chinese: bool) -> str:
    """What the prompt says about one fact: its value, a conflict, a denial, or only a former value."""
    end = "。" if chinese else "."
    if belief.values:
        return capitalized(_clause(key, belief.values, subject, chinese=chinese)) + end
    if belief.conflict:
        options = ("还是" if chinese else " or ").join(f"“{v}”" for v in belief.conflict)
        return (CONFLICT_ZH if chinese else CONFLICT_EN).format(options=options)
    if not belief.former:
        if chinese:
            return f"据我收到的内容，不是{'、'.join(belief.denied)}，但没有提到是什么。"
        return f"What I was given says not {' or '.join(belief.denied)}, and nothing says what instead."
    clause = capitalized(_clause(key, belief.former, subject, chinese=chinese, former=True))
    if chinese:
        return f"据我收到的内容，{clause}，但没有提到现在的情况。"
    return f"{clause}, and nothing I was given says what replaced it."


def dont_know_nth(index: int, *, chinese: bool) -> str:
    """The refusal of one question among several, naming only its position."""
    if chinese:
        return DONT_KNOW_NTH_ZH.format(nth=ORDINALS_ZH[min(index, len(ORDINALS_ZH) - 1)])
    return DONT_KNOW_NTH_EN.format(nth=ORDINALS_EN[min(index, len(ORDINALS_EN) - 1)])


def answer_questions(questions: Sequence[Question], knowledge: Knowledge, *, chinese: bool) -> str:
    """Answers to every question, in order; an unanswerable one gets a refusal naming only its position."""
    answers = [answer_question(q, knowledge, chinese=chinese) for q in questions]
    if len(answers) == 1:
        return answers[0] or dont_know(chinese=chinese)
    parts = [answer or dont_know_nth(index, chinese=chinese) for index, answer in enumerate(answers)]
    return ("" if chinese else " ").join(parts)


def answer_recall(key: str, facts: dict[str, tuple[str, ...]], *, chinese: bool) -> str:
    """Answer one recall question about the user from a key -> values mapping."""
    knowledge = Knowledge()
    knowledge.add_ordered([Fact(k, v, "") for k, values in facts.items() for v in values])
    return answers_or_refusal(Question(USER, key, ""), knowledge, chinese=chinese)


def answers_or_refusal(question: Question, knowledge: Knowledge, *, chinese: bool) -> str:
    """One question's answer, or the refusal."""
    return answer_question(question, knowledge, chinese=chinese) or dont_know(chinese=chinese)


def acknowledge(facts: Sequence[Fact], *, chinese: bool) -> str:
    """Confirm what the user just said, about whomever it was said, changes included."""
    knowledge = Knowledge()
    knowledge.add_ordered(list(facts))
    # "It's Maria, not Mara" names no key: which fact it corrects, only the conversation shows.
    corrections = [
        f"是{new.value}，不是{old.value}" if chinese else f"{new.value}, not {old.value}"
        for old, new in pairwise(facts)
        if old.key == ANY_KEY and new.key == SAME_KEY
    ]
    clauses: list[str] = []
    greeting = ""
    for subject in knowledge.subjects():
        display = (
            ("你" if chinese else "you") if subject == USER else _display(subject, knowledge, chinese=chinese)
        )
        for key, belief in knowledge.beliefs[subject].items():
            correcting = belief.former or belief.denied  # "not Mara, it's Maria": no greeting
            if subject == USER and key == "name" and belief.values and not chinese and not correcting:
                greeting = f"Nice to meet you, {belief.values[-1]}!"
                continue
            if belief.values:
                clauses.append(_clause(key, belief.values, display, chinese=chinese))
            elif belief.former:
                clauses.append(_clause(key, belief.former, display, chinese=chinese, former=True))
            elif belief.denied:
                clauses.append(_denied_clause(key, belief.denied, display, chinese=chinese))
    clauses = clauses or corrections
    if chinese:
        return "记住了，" + "，".join(clauses) + "。" if clauses else ""
    parts = [greeting] if greeting else []
    if clauses:
        parts.append("Got it: " + "; ".join(clauses) + ".")
    return " ".join(parts)


def _denied_clause(key: str, values: Sequence[str], subject: str, *, chinese: bool) -> str:
    """A sentence for a fact said not to be so: "you don't live in Lisbon", 你不住在里斯本."""
    if chinese:
        value = "、".join(values)
        negated = {"city": f"不住在{value}", "name": f"不叫{value}", "job": f"不是{value}"}
        return subject + negated.get(key, f"的{display_key_zh(key)}不是{value}")
    second = subject == "you"
    value = " or ".join(values)
    do = "don't" if second else "doesn't"
    be = "you're not" if second else f"{subject} is not"
    if key == "city":
        return f"{subject} {do} live in {value}"
    if key == "job":
        return f"{subject} {do} work as {article_for(value)} {value}"
    if key == "hometown":
        return f"{be} from {value}"
    if key in {"age", "nationality"}:
        return f"{be} {value}{' years old' if key == 'age' else ''}"
    if key in _HABIT_BASE:
        return f"{subject} {do} {_HABIT_BASE[key]} {value}"
    if key == "likes":
        return f"{subject} {do} like {value}"
    if key == "name" and (second or subject == "the human"):
        return f"{'your' if second else 'the human' + chr(39) + 's'} name isn't {value}"
    if key == "name":
        return f"{value} isn't {subject}'s name"
    possessive = "your" if second else f"{subject}'s"
    return f"{possessive} {display_key_en(key)} isn't {value}"
