"""What changed: negation, retraction and change words taken out of a clause and recorded as flags.

"I no longer live in Lisbon" becomes "S live in Lisbon", negated and changed; "These days I only
drink tea" becomes "S drink tea", changed and exclusive; "我已经不住北京了" becomes "S住北京", negated.
"""

from __future__ import annotations

import re

_EN_CHANGE = re.compile(
    r"\b(?:now|these\s+days|nowadays|currently|at\s+the\s+moment|at\s+present|any\s?more|instead)\b",
    re.IGNORECASE,
)
_EN_STRIP = re.compile(
    r"\b(?:just|recently|actually|also|really|still|originally|absolutely|totally|mostly|usually|"
    r"finally|officially|again)\s+",
    re.IGNORECASE,
)


_NO_LONGER = re.compile(r"\bno\s+longer\b|\bnot\b.*\bany\s?more\b|n't\b.*\bany\s?more\b|\bstopped\b", re.I)
_NO_LONGER_WORDS = re.compile(r"\bno\s+longer\s+|\bstopped\s+|\s*\bany\s?more\b", re.I)
_DO_NOT = re.compile(r"\b(?:do|does|did)\s+not\s+|\b(?:don't|doesn't|didn't)\s+", re.I)
_BE_NOT = re.compile(r"\b(?:am|is|are)\s+not\s+|(?<=S)'m\s+not\s+|\b(?:isn't|aren't)\s+")
_USED_TO = re.compile(r"\bused\s+to\s+", re.I)
_DONT_LIKE = re.compile(r"\b(?:don't|doesn't|do\s+not|does\s+not)\s+like\b", re.I)
_NEVER = re.compile(r"\b(?:do|does|did)\s+not\s+|\b(?:don't|doesn't|didn't|never)\s+", re.I)
# "fish but not red meat" denies the red meat, not the fish
_NOT = re.compile(r"(?<!\bbut)(?<!\band)(?<!,)\s+not\b|\s*n't\b", re.I)
_CHANGED = re.compile(r"\b(?:moved|relocated|turned|changed)\b", re.I)
_ONLY = re.compile(r"\bonly\s+", re.I)
# Every word any rule below looks for: most clauses have none and skip them all. Grouped by first
# letter, so at each word the engine tries one branch, not thirty.
_ANY_CHANGE_WORD = re.compile(
    r"\b(?:n(?:o(?:t|w(?:adays)?)?|ever)|a(?:ny\s?more|t|ctually|lso|bsolutely|gain)|s(?:topped|till)|"
    r"u(?:sed|sually)|t(?:hese|urned|otally)|c(?:urrently|hanged)|instead|m(?:oved|ostly)|"
    r"r(?:elocated|ecently|eally)|o(?:nly|riginally|fficially)|just|finally)\b|n't\b",
    re.IGNORECASE,
)
_NOW_WORDS = frozenset({"now", "these", "nowadays", "currently", "at", "any", "anymore", "instead"})
_CHANGED_WORDS = frozenset({"moved", "relocated", "turned", "changed"})
_STRIP_WORDS = frozenset(
    {"just", "recently", "actually", "also", "really", "still", "originally", "absolutely", "totally"}
    | {"mostly", "usually", "finally", "officially", "again"}
)
_CHANGE_WORDS = _NOW_WORDS | _CHANGED_WORDS | _STRIP_WORDS | {"no", "not", "never", "stopped", "used", "only"}
_WORDS = re.compile(r"\w+")
_SPACES = re.compile(r"\s{2,}")


class _Words:
    """The casefolded words of a clause: a pattern none of whose words are there cannot match.

    Each pattern below ignores case and looks for whole words, so its words are among the clause's
    casefolded words wherever it matches; "n't" is looked for as text. Casefolding keeps every letter
    the patterns use except "İ" and "ı": with those, every pattern is tried.
    """

    def __init__(self, text: str) -> None:
        self.folded = text.casefold()
        self.every = "İ" in text or "ı" in text
        self.words = frozenset(_WORDS.findall(self.folded))
        self.nt = "n't" in self.folded

    def any_of(self, words: frozenset[str] | set[str]) -> bool:
        return self.every or not self.words.isdisjoint(words)


def _has_change_word(text: str) -> bool:
    """Whether ``_ANY_CHANGE_WORD`` matches, asked of the text's words first (much faster)."""
    words = _Words(text)
    return (words.nt or words.any_of(_CHANGE_WORDS)) and _ANY_CHANGE_WORD.search(text) is not None


# Leaving a job: "S quit S's job as a nurse", "S retired", "S stopped working as a nurse". The job
# becomes a former one; with no job named, whichever job the prompt held (``ANY_VALUE``).
ANY_VALUE = "*"
_LEFT_JOB = re.compile(
    r"^S\s+(?:(?:have|has|had|just|recently)\s+)*(?:"
    r"(?:quit|left|lost|resigned\s+from|gave\s+up|walked\s+away\s+from)\s+(?:S's|my|his|her|their|your)\s+(?:job|work|position)"
    r"(?:\s+as\s+(?:an?\s+)?(?P<as>[a-z][\w -]*?))?"
    r"|stopped\s+working(?:\s+as\s+(?:an?\s+)?(?P<stopped>[a-z][\w -]*?))?"
    r"|(?:is\s+)?retired(?:\s+(?:as|from\s+being)\s+(?:an?\s+)?(?P<retired>[a-z][\w -]*?))?"
    r"|left\s+as\s+(?:an?\s+)?(?P<left>[a-z][\w -]*?)"
    r"|(?:quit|resigned)(?:\s+as\s+(?:an?\s+)?(?P<quit>[a-z][\w -]*?))?"
    r"|(?:got|was|were|has\s+been|have\s+been)\s+(?:fired|sacked|laid\s+off|let\s+go)"
    r"|no\s+longer\s+works?"
    r"|no\s+longer\s+(?:have|has)\s+(?:S's|my|his|her|their|your)\s+job"
    r"|is\s+(?:unemployed|out\s+of\s+work|between\s+jobs|jobless)"
    r")(?:\s+(?:last|this|a|in)\s+\w+|\s+(?:yesterday|today|recently|now|anymore)|\s+(?:a\s+)?(?:few\s+)?\w+\s+ago)*"
    r"\s*[.!]?$",
    re.IGNORECASE,
)
_LEFT_JOB_WORDS = frozenset({"quit", "left", "lost", "resigned", "gave", "walked", "stopped", "retired"})
_LEFT_JOB_WORDS |= {"unemployed", "out", "between", "jobless", "longer", "fired", "sacked", "laid", "let"}


def left_job(text: str) -> str | None:
    """ "S quit S's job as a nurse" -> "S works as nurse" (to be read negated); None for other clauses."""
    match = _LEFT_JOB.match(text)
    if match is None:
        return None
    job = next((match.group(g) for g in ("as", "stopped", "retired", "left", "quit") if match.group(g)), None)
    return f"S works as {job.strip() if job else ANY_VALUE}"


# A correction in one clause: "S's name is not Mara, it's Maria", "S is called Maria, not Mara".
_HEAD = r"(?P<head>\bS(?:'s\s+[a-z][\w ]{0,30}?\s+(?:is|are)|\s+is\s+(?:called|named)))"
_NOT_THIS_BUT = re.compile(
    _HEAD + r"(?:\s+not|n't)\s+(?P<old>[^,;]+?)\s*[,;]\s*(?:but\s+)?(?:it's\s+|it\s+is\s+|that's\s+)?"
    r"(?P<new>[^,;]+?)[.!]?$"
)
_THIS_NOT = re.compile(_HEAD + r"\s+(?P<new>[^,;]+?)\s*[,;]?\s+(?:and\s+)?not\s+(?P<old>[^,;]+?)[.!]?$")


def correction(text: str) -> tuple[str, str] | None:
    """ "S's name is not Mara, it's Maria" -> ("S's name is not Mara", "S's name is Maria"); else None."""
    if " not " not in text and "n't " not in text:
        return None
    match = _NOT_THIS_BUT.search(text) or _THIS_NOT.search(text)
    if match is None:
        return None
    head = match.group("head")
    return f"{head} not {match.group('old')}", f"{head} {match.group('new')}"


def normalize_en(text: str) -> tuple[str, bool, bool, bool]:
    """An English clause without its change words, and (negated, change, exclusive)."""
    folded = text.casefold()
    found_words = _WORDS.findall(folded)
    left = None if _LEFT_JOB_WORDS.isdisjoint(found_words) else left_job(text)
    if left is not None:
        return left, True, True, False
    return _without_change_words(text, folded, found_words)


def _without_change_words(text: str, folded: str, found_words: list[str]) -> tuple[str, bool, bool, bool]:
    """``normalize_en`` for every clause but a job left."""
    negated = change = exclusive = False
    plain = "n't" not in folded and "İ" not in text and "ı" not in text
    if (plain and _CHANGE_WORDS.isdisjoint(found_words)) or not _ANY_CHANGE_WORD.search(text):
        return (_SPACES.sub(" ", text) if "  " in text else text).strip(" ,.!?"), negated, change, exclusive
    words = _Words(text)
    # Edits below only remove words (or write "is"), so the first clause's words stay a superset.
    no_longer = words.any_of({"no"}) and words.any_of({"longer"})
    anymore = (words.nt or words.any_of({"not"})) and "any" in words.folded
    if (no_longer or anymore or words.any_of({"stopped"})) and _NO_LONGER.search(text):
        negated = change = True
        text = _BE_NOT.sub("is ", _DO_NOT.sub("", _NO_LONGER_WORDS.sub("", text)))
    elif words.any_of({"used"}) and _USED_TO.search(text):
        negated = change = True  # "used to": true once, not now
        text = _USED_TO.sub("", text)
    elif not (words.any_of({"like"}) and _DONT_LIKE.search(text)):
        if (words.nt or words.any_of({"not", "never"})) and _NEVER.search(text):
            negated = True
            text = _NEVER.sub("", text)
        elif (words.nt or words.any_of({"not"})) and _NOT.search(text):
            negated = True
            text = _NOT.sub("", text)
    now = words.any_of(_NOW_WORDS) and _EN_CHANGE.search(text)
    if now or (words.any_of(_CHANGED_WORDS) and _CHANGED.search(text)):
        change = True
        text = _EN_CHANGE.sub("", text)
    if words.any_of({"only"}) and _ONLY.search(text):
        exclusive = True
        text = _ONLY.sub("", text)
    if words.any_of(_STRIP_WORDS):
        text = _EN_STRIP.sub("", text)
    text = _SPACES.sub(" ", text).strip(" ,.!?")
    return text, negated, change, exclusive


_ZH_ANY_CHANGE_WORD = re.compile(
    "不|以前|原来|曾经|过去|之前|现在|目前|如今|改|换成|搬|刚|满|已经|只|也|还|都|一直|才|了|啦"
)
_ZH_NO_LONGER = re.compile("不再|已经不|没有再|不.+了$|不.+啦$")
_ZH_NO_LONGER_WORDS = re.compile("不再|已经不|没有再")
_ZH_NOT = re.compile("^(S.*?)不(?!喜欢.*[^了啦]$)")
_ZH_PLAIN_NOT = re.compile("^S(?:并|根本)?不(?=住|叫|是)")
_ZH_PAST = re.compile("以前|原来|曾经|过去|之前")
# 原来三点，挪到五点了: a clause whose value the rest of its own message replaces (本来 too, not 曾经)
FORMER_ZH = re.compile("原来|本来|之前|以前|一开始")
_ZH_CHANGE = re.compile("现在|目前|如今|改成|改为|换成|搬到|搬去|刚|满")
_ZH_TIME_WORDS = re.compile("以前|原来|曾经|过去|之前|现在|目前|如今|已经")
_ZH_ADVERBS = re.compile("(?<=S)(?:刚刚|刚|也|还|都|一直|只|才)+")
_ZH_PARTICLE = re.compile("[了啦]$")
_ZH_CHANGED_TO = re.compile("(?:改成|改为|换成)了?")


_ZH_WHEN = "(?:上周|上个月|上个星期|去年|今年|前年|昨天|前几天|最近|已经|刚刚|刚|早就)*"
_ZH_LEFT_JOB = re.compile(
    "^S" + _ZH_WHEN + "(?:(?:辞掉|辞去|辞了|丢掉|丢了|失去|离开|不干|放弃)了?(?:(?P<v>[^的，。]{1,8})的)?"
    "(?:工作|职位|饭碗)|(?:辞职|退休|失业|下岗|离职|被(?:辞退|解雇|开除|裁员|裁掉|炒鱿鱼|炒))(?:了|啦)?(?:，|$)|不再工作)"
)
_ZH_LEFT_JOB_HINT = re.compile("辞|被|退休|失|离|工作|岗")  # a cheap test before _ZH_LEFT_JOB


def normalize_zh(text: str) -> tuple[str, bool, bool, bool]:
    """A Chinese clause without its change words (不再, 已经不, 以前, 现在, 搬到, 改成...), and the flags."""
    if _ZH_LEFT_JOB_HINT.search(text):
        left = _ZH_LEFT_JOB.match(text)
        if left:
            return f"S做{left.group('v') or ANY_VALUE}", True, True, False
    if not _ZH_ANY_CHANGE_WORD.search(text):
        return text.strip(" 。！？!?"), False, False, False
    negated = change = exclusive = False
    if _ZH_NO_LONGER.search(text):
        negated = change = True
        text = _ZH_NO_LONGER_WORDS.sub("", text)
        text = _ZH_NOT.sub(r"\1", text)
    elif _ZH_PAST.search(text):
        negated = change = True
    elif _ZH_PLAIN_NOT.match(text):  # 我不住在北京: not so, and never said to be
        negated = True
        text = _ZH_PLAIN_NOT.sub("S", text, count=1)
    if _ZH_CHANGE.search(text):
        change = True
    if "只" in text:
        exclusive = True
    text = _ZH_TIME_WORDS.sub("", text)
    text = _ZH_ADVERBS.sub("", text)
    text = _ZH_PARTICLE.sub("", text)
    text = _ZH_CHANGED_TO.sub("是", text)
    return text.strip(" 。！？!?"), negated, change, exclusive
