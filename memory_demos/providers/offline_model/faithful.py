"""Whether the grammar's acknowledgement of a message may be said: it says only what the user said, of
every clause the reader read, names as written, nothing denied that was not; otherwise the user's own words
are said back."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_demos.providers.offline_model.clauses import split_sentences
from memory_demos.providers.offline_model.text import MID_CAPITAL
from memory_demos.providers.offline_model.words import QUESTION_STOP, WEAK, en_words, stem


def faithful(ack: str, said: str, clauses: Sequence[str]) -> bool:
    """The grammar's acknowledgement ``ack`` of the message ``said``, whose clauses the reader read."""
    return (
        _faithful(ack, said)
        and _well_formed(ack, said)
        and all(_spoken_of(clause, ack) for clause in clauses)
        and _cased_as_said(ack, said)
    )


_VALUE_TOKEN = re.compile(MID_CAPITAL + r"|\S*\d\S*")


def _faithful(ack: str, said: str) -> bool:
    """Whether the grammar's acknowledgement says only names and numbers the user said, and, of every
    sentence it speaks of, all of them ("your kids is Ava" after "my kids are Ava and Leo" is not)."""
    if not ack:
        return False
    acked = {t.strip(".,!?;:").lower() for t in ack.split()}
    stated = {t.strip(".,!?;:").lower() for t in _VALUE_TOKEN.findall(ack)} - {"got", "nice", "you", "your"}
    if not stated <= {t.strip(".,!?;:").lower() for t in said.split()}:
        return False
    if not stated and _VALUE_TOKEN.search(said):
        return False  # "your ears is ringing" for a message naming the Lumineers and seventy bucks
    for sentence in split_sentences(said):
        negated = {
            m.lower()
            for m in re.findall(r"\b(?:not|no longer|instead of)\s+(\S+?)[.,!?;]*(?:\s|$)", sentence)
        }
        told = {t.strip(".,!?;:").lower() for t in _VALUE_TOKEN.findall(sentence)} - {"i"} - negated
        if told & acked and not told <= acked:
            return False
        if any(any(c.isdigit() for c in t) and t not in acked for t in told):
            return False  # "been bouldering 3x a week" is not left out of it either
    return not any(_key_cut(found.group(1), said) for found in _YOUR_KEY.finditer(ack))


_YOUR_KEY = re.compile(r"\byour ((?:[\w'-]+ ){0,3}?[\w'-]+) (?:is|are)\b", re.I)


def _key_cut(key: str, said: str) -> bool:
    """ "your project right is a V4" for "my project right now is a V4": the key the grammar read is cut
    short of what the user said before "is"."""
    lowered = said.lower()
    return f"my {key.lower()} " in lowered and not re.search(
        rf"\bmy {re.escape(key)}(?:'s|\s+(?:is|are|was|were))\b", said, re.I
    )


def _cased_as_said(ack: str, said: str) -> bool:
    """Whether every name the user wrote with a capital that the acknowledgement says keeps its capital
    there ("your son arjun is Tuesday" for "my son Arjun" read a name as a word)."""
    names = set(re.findall(r"\b[A-Z][a-z]+\b", said[1:]))
    lost = {n.lower() for n in names} - {n.lower() for n in names if n in ack}
    return not lost & set(re.findall(r"\b[a-z]+\b", ack))


def _well_formed(ack: str, said: str) -> bool:
    """No word twice in a row ("for 8 people people"), no "I" or "mine" left unturned ("you like mine well
    done"), and no value denied that was not ("your locker combo isn't 14-32-7" for "… is 14-32-7, please
    don't let me forget it")."""
    if re.search(r"\b(\w+)\s+\1\b", ack, re.I) or re.search(
        r"\b(?:I|mine|me)\b", ack.removeprefix("Got it: ")
    ):
        return False
    for denied in re.finditer(r"(?:n't|\bnot)\s+(?:a\s+|an\s+|the\s+)?(\S*(?:\d|[A-Z])\S*)", ack):
        value = re.escape(denied.group(1).strip(".,;"))
        if not re.search(rf"(?:n't|\bnot|\bno)\s+(?:\S+\s+){{0,2}}{value}", said, re.I):
            return False
    return True


def _spoken_of(clause: str, ack: str) -> bool:
    """Whether the grammar's acknowledgement speaks of a clause the reader read ("your son's name is Theo"
    does not speak of "he carries an EpiPen"): one of its content words is in it."""
    acked = {stem(w) for w in en_words(ack)}
    content = {stem(w) for w in en_words(clause) if len(w) > 2} - QUESTION_STOP - WEAK
    return not content or bool(content & acked)
