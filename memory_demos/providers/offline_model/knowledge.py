"""What the prompt says is true now, per person: facts folded in order, changes applied, conflicts kept.

Messages are in order, so a later fact replaces an earlier one. Lines retrieved by similarity are
not: between them only a fact said as a change ("now", "moved to", "no longer") is newer, and two
different values with nothing to order them are a conflict, reported as such.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from langchain_core.messages import BaseMessage

from memory_demos.providers.offline_model.changes import ANY_VALUE
from memory_demos.providers.offline_model.facts import ANY_KEY, SAME_KEY, Fact, extract_facts
from memory_demos.providers.offline_model.lexicon import LIST_KEYS, MAX_LIST_VALUES, OPPOSITE_KEYS
from memory_demos.providers.offline_model.rules import BIRTHDAY
from memory_demos.providers.offline_model.statements import USER
from memory_demos.providers.offline_model.text import content_text
from memory_demos.providers.tokenizer import message_text

# A system-text header after which lines come in similarity order, not time order.
_UNORDERED_HEADER = re.compile(r"retriev|similar|relevant|检索|相关", re.IGNORECASE)


@dataclass
class Belief:
    """One key of one person: the values true now, values taken back, and values in conflict."""

    values: list[str] = field(default_factory=list)
    former: list[str] = field(default_factory=list)  # true once, no longer
    denied: list[str] = field(default_factory=list)  # said not to be so ("I don't live in Berlin")
    conflict: list[str] = field(default_factory=list)
    settled_by_change: bool = False  # set by a fact said as a change: unordered facts cannot undo it
    replaced: bool = False  # the value replaced a different one: a summary says "now"


def _same(a: str, b: str) -> bool:
    return a.casefold() == b.casefold()


def _deny(belief: Belief, fact: Fact) -> None:
    """A negated fact: the value leaves the belief; a value never held is denied, a held one is former.

    ``ANY_VALUE`` ("I quit my job", no job named) makes every value held a former one.
    """
    if fact.value == ANY_VALUE:
        held = [*belief.values, *belief.conflict] or ([] if belief.former else [ANY_VALUE])
        belief.former = list(dict.fromkeys([*belief.former, *held]))
        belief.values, belief.conflict = [], []
        return
    held = any(_same(v, fact.value) for v in [*belief.values, *belief.conflict, *belief.former])
    belief.values = [v for v in belief.values if not _same(v, fact.value)]
    belief.conflict = [v for v in belief.conflict if not _same(v, fact.value)]
    if len(belief.conflict) == 1:
        belief.values, belief.conflict = belief.conflict, []
    if not (held or fact.change):
        belief.denied = [*[v for v in belief.denied if not _same(v, fact.value)], fact.value]
    elif not any(_same(v, fact.value) for v in belief.former):
        belief.former.append(fact.value)


def _have_birthday(belief: Belief) -> None:
    """A birthday was announced: a known age goes up by one."""
    if belief.values and belief.values[-1].isdigit():
        belief.values = [str(int(belief.values[-1]) + 1)]


def _assert_value(belief: Belief, fact: Fact, *, ordered: bool) -> None:
    """A single-valued fact: the new value, or (unordered, disagreeing, no change said) a conflict."""
    value = fact.value
    unordered_disagreement = (
        not ordered and belief.values and not _same(belief.values[-1], value) and not belief.settled_by_change
    )
    if (unordered_disagreement or (not ordered and belief.conflict)) and not fact.change:
        belief.conflict = list(dict.fromkeys([*belief.conflict, *belief.values, value]))
        belief.values = []
        return
    if not ordered and belief.settled_by_change and not fact.change:
        return
    if belief.values and not _same(belief.values[-1], value):
        belief.replaced = True  # the value it replaced was true before: "Where did I live before?"
        belief.former = [*[v for v in belief.former if not _same(v, value)], *belief.values]
    belief.values, belief.conflict = [value], []
    belief.settled_by_change = fact.change


class Knowledge:
    """Beliefs per subject and key, built from facts in the order the prompt gives them."""

    def __init__(self) -> None:
        self.beliefs: dict[str, dict[str, Belief]] = {}
        self._emptied: list[tuple[str, str]] = []  # (subject, key) the last "forget" emptied

    # -- building -----------------------------------------------------------------------------

    def _belief(self, subject: str, key: str) -> Belief:
        per_subject = self.beliefs.setdefault(subject, {})
        belief = per_subject.pop(key, None) or Belief()
        per_subject[key] = belief  # re-inserted: dict order is the order of last update
        return belief

    def _apply(self, fact: Fact, *, ordered: bool) -> None:
        """Fold one fact into the beliefs: a forget, a denial, a birthday, a list value or a single value."""
        subject = self.resolve(fact.subject)
        if subject != fact.subject:
            fact = fact._replace(subject=subject)
        if fact.key == ANY_KEY:
            self._forget(fact)
            return
        if fact.key == SAME_KEY:  # "it's Maria, not Mara": Maria where Mara just was
            emptied, self._emptied = self._emptied, []
            for subject, key in emptied:
                self._apply(fact._replace(key=key, subject=subject), ordered=ordered)
            return
        belief = self._belief(fact.subject, fact.key)
        if fact.negated:
            _deny(belief, fact)
            return
        belief.former = [v for v in belief.former if not _same(v, fact.value)]
        belief.denied = [v for v in belief.denied if not _same(v, fact.value)]
        if fact.key == "age" and fact.value == BIRTHDAY:
            _have_birthday(belief)
        elif fact.key in LIST_KEYS:
            self._add_listed(belief, fact)
        else:
            _assert_value(belief, fact, ordered=ordered)

    def _forget(self, fact: Fact) -> None:
        """ "Forget X", "it's Y, not X": X leaves every current value (anyone's, when the user said it)."""
        self._emptied = []
        subjects = list(self.beliefs) if fact.subject == USER else [fact.subject]
        for subject in subjects:
            for key, belief in self.beliefs.get(subject, {}).items():
                if any(_same(v, fact.value) for v in belief.values):
                    belief.values = [v for v in belief.values if not _same(v, fact.value)]
                    belief.former.append(fact.value)
                    self._emptied.append((subject, key))

    def _add_listed(self, belief: Belief, fact: Fact) -> None:
        """A value of a list key (likes, ...) joins the list and leaves the opposite key's list."""
        value = fact.value
        kept = [] if fact.exclusive else [v for v in belief.values if not _same(v, value)]
        belief.values = [*kept, value][-MAX_LIST_VALUES:]
        opposite = OPPOSITE_KEYS.get(fact.key)
        if opposite and opposite in self.beliefs.get(fact.subject, {}):
            other = self.beliefs[fact.subject][opposite]
            other.values = [v for v in other.values if not _same(v, value)]

    def add_ordered(self, facts: Sequence[Fact]) -> None:
        """Facts in the order they were said: each one is newer than the ones before."""
        for fact in facts:
            self._apply(fact, ordered=True)

    def add_unordered(self, facts: Sequence[Fact]) -> None:
        """Facts with no order among them (or with what came before): only changes are newer."""
        for fact in sorted(facts, key=lambda f: (f.change, f.negated)):
            self._apply(fact, ordered=False)

    # -- reading ------------------------------------------------------------------------------

    def resolve(self, subject: str) -> str:
        """The subject a name or relation stands for: the user's own name is the user."""
        if subject == USER:
            return USER
        user = self.beliefs.get(USER, {})
        name = user.get("name")
        if name and any(_same(subject, v) for v in name.values):
            return USER
        if subject.startswith("rel:"):
            named = user.get(f"{subject[4:]}_name")
            if named and named.values:
                return named.values[-1]
        return subject

    def merged(self) -> None:
        """Fold facts said about aliases (the user's name, a named relation) into one subject each."""
        for subject in list(self.beliefs):
            target = self.resolve(subject)
            if target == subject:
                continue
            for key, belief in self.beliefs.pop(subject).items():
                into = self._belief(target, key)
                for value in belief.values:
                    if key in LIST_KEYS:
                        into.values = [*[v for v in into.values if not _same(v, value)], value]
                    else:
                        into.values = [value]
                into.former += [v for v in belief.former if v not in into.former]

    def belief(self, subject: str, key: str) -> Belief | None:
        """The belief about one key of one subject, if the prompt said anything about it."""
        return self.beliefs.get(self.resolve(subject), {}).get(key)

    def current(self, subject: str = USER) -> dict[str, tuple[str, ...]]:
        """Key -> values true now (conflicts and retracted keys left out), in order of last update."""
        return {
            key: tuple(b.values) for key, b in self.beliefs.get(self.resolve(subject), {}).items() if b.values
        }

    def subjects(self) -> list[str]:
        """Everyone the prompt holds a fact about, the user first."""
        return sorted(self.beliefs, key=lambda s: s != USER)


def system_blocks(text: str) -> list[tuple[str, bool]]:
    """A system text cut at its headers: (block, lines in time order?)."""
    blocks: list[tuple[str, bool]] = []
    ordered, lines = True, []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.endswith((":", "：")) and len(stripped) < 120 and not re.match(r"^\w+:\s*$", stripped):
            blocks.append(("\n".join(lines), ordered))
            ordered, lines = not _UNORDERED_HEADER.search(stripped), []
            continue
        lines.append(line)
    blocks.append(("\n".join(lines), ordered))
    return [(block, in_order) for block, in_order in blocks if block.strip()]


def knowledge_of(messages: Sequence[BaseMessage]) -> Knowledge:
    """Everything the prompt says about anyone, in the order a reader can tell."""
    knowledge = Knowledge()
    last_person: str | None = None  # "He moved to Kumasi" speaks of the person the last message named
    for message in messages:
        if message.type in {"system", "tool"}:
            for block, in_order in system_blocks(content_text(message)):
                facts = extract_facts(block, role="narrative")
                (knowledge.add_ordered if in_order else knowledge.add_unordered)(facts)
        else:
            # A human message has no tool calls to render; message_text would look for them.
            text = content_text(message) if message.type in {"ai", "human"} else message_text(message)
            role = "ai" if message.type == "ai" else "human"
            facts = extract_facts(text, role=role, last_person=last_person)
            knowledge.add_ordered(facts)
            last_person = next((f.subject for f in reversed(facts) if f.subject != USER), last_person)
    knowledge.merged()
    return knowledge


def facts_in_messages(messages: Sequence[BaseMessage]) -> dict[str, tuple[str, ...]]:
    """Everything the prompt says is true of the user now."""
    return knowledge_of(messages).current(USER)


def merge_facts(facts: Iterable[Fact], subject: str = USER) -> dict[str, tuple[str, ...]]:
    """What is true of ``subject`` now, read in order: key -> values, ordered by last update."""
    knowledge = Knowledge()
    knowledge.add_ordered(list(facts))
    return knowledge.current(subject)
