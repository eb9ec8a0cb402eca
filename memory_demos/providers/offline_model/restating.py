"""A statement said back from the asker's side (I -> you, 我 -> 你), with whom it is about when the
clause itself does not say ("she is a doctor" after "my sister Priya": your sister Priya is a doctor)."""

from __future__ import annotations

import re

from memory_demos.providers.offline_model.clauses import before_subject
from memory_demos.providers.offline_model.lexicon import CJK
from memory_demos.providers.offline_model.reader import Said
from memory_demos.providers.offline_model.text import mostly_chinese
from memory_demos.providers.offline_model.words import ZH_RELATION_FORMS, to_asker


def _same_relation(said: Said) -> bool:
    """我妈今年52 of 我妈妈: the clause names its person itself, in another form (no 你妈妈你妈今年52)."""
    lead = re.match(f"[我你]([{CJK}]{{1,2}})", said.text)
    if lead is None:
        return False
    forms = {ZH_RELATION_FORMS.get(lead.group(1)), ZH_RELATION_FORMS.get(lead.group(1)[:1])} - {None}
    return any(form in said.subject for form in forms)


_NOTE_LINE = re.compile(f"^[-*•]?\\s*(?P<k>[{CJK}A-Za-z_ ]{{1,12}}?)\\s*[:：]\\s*(?P<v>.+)$")


_HE_OR_SHE = re.compile(r"(?i)(?:he|she)\b")


def restate(said: Said) -> str:
    if said.subject.lower() in {"he", "she", "his", "her", "him", "they", "them", "their"}:
        said = said._replace(subject="")  # no person named before it: "her name's Gloria", not "Her's name's"
    text = said.text
    note = _NOTE_LINE.match(text) if said.source == "system" else None
    if note and mostly_chinese(text):  # a stored fact's line, "- 门禁码: 4471": said as "你的门禁码是4471。"
        text = f"你的{note.group('k').strip()}是{note.group('v').strip()}"
    elif note:  # "- allergy: peanuts": "Your allergy: peanuts."
        text = f"my {note.group('k').strip().replace('_', ' ')}: {note.group('v').strip()}"
    if said.source == "retrieved" or said.source == "system" or said.source == "user":
        text = to_asker(text)
    if said.subject and (it := re.match(r"(?i)it(?:'s\b|\b(?!'))", said.text)):  # "it moved to friday"
        text = to_asker(said.subject) + (" is" if it.group(0).endswith("s") else "") + text[it.end() :]
    elif said.subject and (pronoun := _HE_OR_SHE.match(body := before_subject(text))):  # "she is a doctor"
        lead = text[: len(text) - len(body)].strip(" ,")  # "actually she's turning 9"
        rest = re.sub(r"^'s(?= (?:been|got)\b)", " has", body[pronoun.end() :])  # "she's been": has
        rest = re.sub(r"^'s\b", " is", rest)  # "she's a nurse": "Your sis is a nurse", not "sis's"
        subject = re.sub(r"'s$", "", to_asker(said.subject))  # "my mum's name is…"
        text = (f"{lead} {subject[:1].lower()}{subject[1:]}" if lead else subject) + rest
    elif said.subject and (pronoun := re.match(r"(?i)(?:his|her)\b", said.text)):  # "her favourite colour"
        text = re.sub(r"'s$", "", to_asker(said.subject)) + "'s" + text[pronoun.end() :]
    elif said.subject and not said.text.startswith(said.subject.split()[0]) and not _same_relation(said):
        subject = to_asker(said.subject)
        if mostly_chinese(text):
            subject = subject.replace("他", "").replace("她", "") or subject
            text = re.sub("^[他她它](?!们)", "", text)  # 她抢到的 after 我室友阿敏: 你室友阿敏抢到的
            text = text.removeprefix(said.subject.removeprefix("我"))  # 女儿下周三… of 我女儿
        text = f"{subject}{'' if re.search(f'[{CJK}]', text) else ' '}{text}"
    text = text.strip()
    end = "" if text.endswith((".", "!", "。", "！")) else ("。" if mostly_chinese(text) else ".")
    return text[:1].upper() + text[1:] + end
