"""Words as the general reader compares them: casual typing undone, word forms and related words folded,
Chinese cut into character pairs, and a statement turned to the asker's side (I -> you, 我 -> 你)."""

from __future__ import annotations

import re

from memory_demos.providers.offline_model.lexicon import CJK, RELATIONS_EN, RELATIONS_ZH, pairs, word_list
from memory_demos.providers.offline_model.memo import read_once

# Casual spellings and dropped apostrophes, as people type them ("whats", "im", "u").
_CASUAL = pairs(
    """whats=what's wats=what's wheres=where's whos=who's hows=how's whens=when's thats=that's im=I'm
    ive=I've dont=don't doesnt=doesn't didnt=didn't cant=can't wont=won't isnt=isn't arent=aren't
    wasnt=wasn't havent=haven't u=you ya=you ur=your yr=your pls=please plz=please bc=because
    cuz=because tmrw=tomorrow tmr=tomorrow tomorow=tomorrow wanna=want_to gonna=going_to
    gotta=got_to b4=before teh=the adress=address wat=what wht=what wen=when wher=where n=and
    abt=about fav=favourite fave=favourite yrs=years ppl=people thx=thanks tho=though gf=girlfriend
    bf=boyfriend i=I i'm=I'm i've=I've i'll=I'll i'd=I'd shes=she's hes=he's theyre=they're youre=you're
    couldnt=couldn't wouldnt=wouldn't shouldnt=shouldn't r=are bfs=boyfriend's gfs=girlfriend's"""
)
_CASUAL_RE = re.compile(
    r"(?<![\w'-])(?:" + "|".join(map(re.escape, _CASUAL)) + r")(?![\w-]|'(?!s\b))", re.IGNORECASE
)  # "bf's name"
# "name's oliver", "name Oliver" introduce; "name of the band" asks
_NAMES_IS = re.compile(
    r"^(?:(?:hey|hi|hello|oh|ok|so|and)\W+)*(?:name'?s\s+(?!of\b)(?=\w)|names?\s+(?=(?-i:[A-Z])))",
    re.IGNORECASE,
)


# "hi im maya, ...": a greeting, then I'm and one lower-case word that is no state ("hi im tired").
_STATES = word_list(
    """tired back new fine good ok okay here home sick bored hungry busy sorry happy sad free ready done late
    confused stuck lost curious excited nervous stressed exhausted sleepy awake so just not also still really
    very a an the from in at on going trying looking working planning thinking feeling glad great"""
)
_GREETING = r"(?:hey|hi|hello|hiya|yo)\W+"
_NAME_ENDS = r"(?=\s*(?:[,.!]|$|\s+(?:and|btw|here|from)\b))"
_GREETED_NAME = re.compile(
    r"^(?P<lead>"
    + _GREETING
    + r"(?:there\W+)?I'm\s+)(?P<n>(?!(?:"
    + "|".join(_STATES)
    + r")\b)[a-z]{2,})"
    + _NAME_ENDS
)
# "yo its kez, ...", "hey it's Jay here": a greeting, then it's and a name ("hi it's me" names nobody).
_GREETED_ITS = re.compile(
    r"^(?P<lead>" + _GREETING + r")(?:it'?s|this\s+is)\s+"
    r"(?P<n>(?!(?:"
    + "|".join(["me", "us", "cold", "hot", "raining", *_STATES])
    + r")\b)[A-Za-z]{2,})"
    + _NAME_ENDS,
    re.IGNORECASE,
)
# "my aunties name", "my nans birthday": a possessive typed without its apostrophe
_BARE_POSSESSIVE = re.compile(
    r"\b(?P<who>(?:my|his|her|our|their)\s+(?:"
    + "|".join(sorted(RELATIONS_EN | {"auntie", "aunty", "nan", "nana", "granny"}, key=len, reverse=True))
    + r"))s\s+(?=(?:name|birthday|bday|age|phone|number|email|address|job|car|dog|cat|house|wife|husband|"
    r"favou?rite|fave?|kids?|son|daughter|allergy|flight|school|work)\b)",
    re.IGNORECASE,
)
_IN_LAW = re.compile(r"\b(mother|father|sister|brother|son|daughter)[ -]in[ -]law\b", re.I)


@read_once
def casual(text: str) -> str:
    """``text`` with casual spellings written out ("whats my name" -> "what's my name")."""
    text = text.replace("’", "'").replace("‘", "'")
    if "俺" in text or "咱" in text:  # 俺 is a northern 我; 咱 a 我们 that takes the listener in
        text = text.replace("俺们", "我们").replace("俺", "我").replace("咱们", "我们").replace("咱", "我们")
    text = _IN_LAW.sub(lambda m: f"{m.group(1)}-in-law", text)
    text = _BARE_POSSESSIVE.sub(lambda m: m.group("who") + "'s ", text)
    text = _CASUAL_RE.sub(
        lambda m: _CASUAL.get(m.group(0).lower(), m.group(0)) if m.group(0) != "U" else "you", text
    )
    text = _GREETED_NAME.sub(lambda m: m.group("lead") + m.group("n").capitalize(), text)
    text = _GREETED_ITS.sub(lambda m: m.group("lead") + "my name is " + m.group("n").capitalize(), text)
    return _NAMES_IS.sub(
        lambda m: m.group(0)[: len(m.group(0)) - len(m.group(0).lstrip())] + "my name is ", text
    )


# Word forms that suffix rules miss, and related words that answer each other's questions.
_IRREGULAR = pairs(
    """children=kid child=kid kids=kid people=person men=man women=woman left=leave went=go gone=go
    ate=eat drank=drink drove=drive flew=fly born=birth bought=buy paid=pay spent=spend met=meet
    took=take taken=take got=get saw=see told=say said=say favorite=favourite color=colour mum=mom
    mother=mom mommy=mom father=dad daddy=dad bro=brother sis=sister grandmother=grandma
    granny=grandma grandfather=grandpa neighbor=neighbour coworker=colleague co-worker=colleague
    going=go doing=do has=have had=have does=do did=do goes=go used=use
    mon=monday tue=tuesday tues=tuesday wed=wednesday thu=thursday thur=thursday
    thurs=thursday fri=friday bed=bedroom bath=bathroom apt=apartment combo=combination
    bday=birthday b-day=birthday plane=flight planes=flight"""
)
_RELATED = (
    "allergy allergic allergi allerg allergen",
    "live move stay reside based home",
    "have get",
    "work job employ employer company office career profession occupation firm role position",
    "name call",
    "birth birthday bday",
    "cost price pay spend charge fee worth expensive cheap",
    "like love enjoy fond favourite prefer",
    "hate dislike",
    "medication medicine med pill prescription drug tablet dose",
    "phone mobile cell",
    "study student major course degree school university college class uni masters phd msc bsc mba",
    "leave depart departure",
    "switch change become went turn",
    "lend lent loan borrow",
    "teach taught lesson tutor",
    "scared terrified afraid fear frighten",
    "goal target aim",
    "wedding married marry",
    "arrive arrival land reach destination",
    "start begin",
    "meet meeting",
    "appointment appt",
    "exam test",
    "flight fly",
    "vet veterinarian",
    "dog puppy pup",
    "cat kitten kitty",
    "car vehicle",
    "trip travel vacation holiday journey",
    "layover connect stopover transfer",
    "finish end till until",
    "person guest visitor attendee",
    "password passcode",
    "hobby pastime",
    "boss manager supervisor",
    "friend buddy pal",
    "wife husband spouse partner",
    "doctor dr physician",
    "eat food",
    "speak language",
    "age old",
    "vegetarian vegan meat",
)
_GROUP: dict[str, str] = {word: group.split()[0] for group in _RELATED for word in group.split()}
RELATED_HEADS = frozenset(_GROUP.values())  # the word naming each group of related words ("allergy")
_ZH_RELATED = (
    "过敏",
    "住 搬 家 地址 住址 门牌号 门牌",
    "工作 职业 上班 当 做 岗位 职位 职务 打卡",
    "名字 叫",
    "生日 出生 满",
    "价格 多少钱 价钱 钱 花 块 元",
    "喜欢 爱 爱好 兴趣 迷上",
    "药 吃药 服用",
    "手机 电话",
    "专业 学习 读 学 上学 学校 幼儿园 小学 初中 高中 中学 大学",
    "对象 老公 老婆 男朋友 女朋友 爱人 未婚夫 未婚妻",
    "酒店 饭店 宾馆 旅馆 民宿",
    "会议 开会 例会 周会 组会",
    "起床 起",
    "睡觉 睡",
    "早餐 早饭 早上 早晨",
    "最多 不超过",
    "每天 天天",
    "碰 接触",
    "负责 管",
    "房租 月租 租金",
    "航班 飞机 机票 起飞 登机",
    "火车 高铁 动车",
    "教 老师 讲课",
)
ZH_KEYWORDS: dict[str, str] = {word: group.split()[0] for group in _ZH_RELATED for word in group.split()}


def _unsuffixed(word: str) -> str:
    """``word`` without a plural, -ing or -ed ending (and a doubled final consonant)."""
    if len(word) <= 4:
        return (
            word[:-1]
            if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is"))
            else word
        )
    if word.endswith("ies"):
        word = word[:-3] + "y"
    elif word.endswith(("sses", "shes", "ches", "xes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word.endswith("ing") and len(word) > 5:
        word = word[:-3]
    elif word.endswith("ed") and len(word) > 4 and not word.endswith("eed"):  # "breed", "need"
        word = word[:-2]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]
    return word


@read_once
def stem(word: str) -> str:
    """A crude stem: lower case, possessive and plural gone, -ing/-ed gone, related words folded."""
    word = word.lower().strip("'")
    word = _IRREGULAR.get(word.removesuffix("'s"), word.removesuffix("'s"))
    if word in _GROUP or word in RELATIONS_EN:
        return _GROUP.get(word, word)
    if word.endswith("in") and len(word) > 5 and word[-3] not in "aeiou":  # "meetin", "stayin"
        word += "g"
    word = _IRREGULAR.get(_unsuffixed(word), _unsuffixed(word))
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return _GROUP.get(word, _GROUP.get(word + "e", word))


# Words a question is made of that say nothing of its topic.
QUESTION_STOP = frozenset(
    word_list(
        """what what's where where's when when's who who's whom whose which why how how's is are am was were
    do does did i i'm me my mine myself you your yours the a an of to in on at for from with about again
    remind tell please can could would will know remember there that this it its it's they their them he
    she his her him and or so ok okay hey hi btw any some now currently still exactly be been being has
    had say said let us we our just really actually um oh well also if then than one ones all should
    shall may might must exact precise right lol haha btw pls ngl tbh anyway wait hmm hm uh erm ah"""
    )
)
_WEAK_WORDS = word_list(
    """have get make go take big much many long old often time kind type thing things day date year price
    cost number amount name place city called named happen happening plan planning"""
)
# Their stems too, where a stem only drops an ending ("takes" is as weak as "take").
WEAK = frozenset(_WEAK_WORDS) | {stem(w) for w in _WEAK_WORDS if w.startswith(stem(w))}
# a Chinese word in English ("the 包子 were 3 yuan") is a word too
_EN_WORD = re.compile(r"[A-Za-z0-9$€£¥][\w$€£¥:.,'-]*[\w]|[A-Za-z0-9]|[" + CJK + "]+")


def en_words(text: str) -> list[str]:
    """The English words of ``text``, amounts and times kept whole ("$1,299", "9:40")."""
    return _EN_WORD.findall(text)


ZH_FUNCTION_CHARS = "的了是我你他她它们吗呢吧啊呀嘛么在和与跟也都就还很又对不要个一这那"
_ZH_QUESTION_WORDS = re.compile(
    "叫什么名字|叫啥名字|叫什么|叫啥|什么名字|啥名字|来着|一般|平时|通常|大概|到底|干嘛|干啥|周几|星期几|礼拜几|啥时候|哪天|哪年|哪月|哪一天|几[点号个岁天次月年位只台分本件条]|多重|多高|多远|多长|为啥|为什么|啥|咋|多大|多重|多久|多高|多远|多长|做什么|干什么|什么工作|什么时候|什么|多少钱|多少|哪里|哪儿|哪个|哪[家所间位种款本趟辆件条张只门]|哪些|哪|谁|几点|几号|几个|几|怎么样|怎么|如何|为什么|是否|请问|"
    "知道|记得|告诉|一下|现在|目前|打算|吗|呢|吧|啊|呀|？|\\?|，|,|。|！|!"
)
_HOME_WORD_ENDS = "里人乡庭具务长门属电"  # 家里, 家人, 家乡…: words of their own
_CJK_RUN = re.compile(f"[{CJK}]+")
_ZH_STOP_SPLIT = re.compile(f"[{ZH_FUNCTION_CHARS}]+")


def zh_grams(text: str, *, question: bool = False) -> set[str]:
    """Chinese content as character pairs (and related-word groups); a statement's single characters too;
    the English words among them whole.

    A question's words and particles are cut out first, and its runs split at function characters.
    """
    if question:
        text = _ZH_QUESTION_WORDS.sub(" ", text)
    grams: set[str] = set()
    for run in _CJK_RUN.findall(text):
        grams.update(
            "@" + group
            for word, group in ZH_KEYWORDS.items()
            if word in run and (len(word) > 1 or not question)
        )
        if not question:
            grams.update(run)
            grams.update(run[i : i + 2] for i in range(len(run) - 1))
            continue
        for piece in _ZH_STOP_SPLIT.split(run):
            if piece.startswith("家") and len(piece) > 1 and piece[1] not in _HOME_WORD_ENDS:
                piece = piece[1:]  # 我家狗叫啥: 家 is "my household's", as 的 is
            grams.update(piece[i : i + 2] for i in range(len(piece) - 1)) if len(piece) > 1 else grams.add(
                piece
            )
            if piece in ZH_KEYWORDS:  # 住 asked alone (住在哪里) is the 住 of 搬到重庆 too
                grams.add("@" + ZH_KEYWORDS[piece])
    grams.update(w.lower() for w in _LATIN_WORD.findall(text))  # "meeting几点", "我boss叫啥"
    grams.discard("")
    return grams


_LATIN_WORD = re.compile("[A-Za-z][A-Za-z0-9]+")

# --------------------------------------------------------------------------------------------
# The asker's side

_FLIP_EN = pairs(
    """i=you me=you my=your mine=yours myself=yourself i'm=you're i've=you've i'll=you'll i'd=you'd
    we=you us=you our=your ours=yours we're=you're we've=you've we'll=you'll ourselves=yourselves"""
)
_FLIP_RE = re.compile(r"(?<![\w'])(?:" + "|".join(map(re.escape, _FLIP_EN)) + r")(?![\w'])", re.IGNORECASE)
_OBJECT_YOU = re.compile(
    r"\b((?:give|gave|tell|told|send|sent|show|showed|ask|asked|remind|reminded|let|to|for|with|from)\s+)you\b",
    re.IGNORECASE,
)
_YOU_AM = re.compile(r"\byou (am|was)\b")
_HUMAN = re.compile(r"\b(?:the (?:human|user))('s)?(?=\W|$)", re.IGNORECASE)
_HUMAN_VERB = re.compile(r"\byou (is|was|has|does|isn't|wasn't|hasn't|doesn't|\w+(?<!s)s)\b")
_THIRD_VERBS = {
    "is": "are",
    "was": "were",
    "has": "have",
    "does": "do",
    "isn't": "aren't",
    "wasn't": "weren't",
}
_THIRD_VERBS |= {"hasn't": "haven't", "doesn't": "don't"}


def _plain_verb(verb: str) -> str:
    if verb in _THIRD_VERBS:
        return _THIRD_VERBS[verb]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith(("ches", "shes", "sses", "xes", "oes")):
        return verb[:-2]
    return verb[:-1]


def to_asker_en(text: str) -> str:
    """The user's words said back to them: "I'm allergic to peanuts" -> "you're allergic to peanuts"."""
    if _HUMAN.search(text):  # a note about "the human" speaks of the user in the third person
        text = _HUMAN.sub(lambda m: "your" if m.group(1) else "you", text)
        text = _HUMAN_VERB.sub(lambda m: "you " + _plain_verb(m.group(1)), text)
        return text
    text = _OBJECT_YOU.sub(lambda m: m.group(1) + "\x00", text)  # the assistant: "give you" -> "give me"
    flipped = _FLIP_RE.sub(lambda m: _FLIP_EN[m.group(0).lower()], text).replace("\x00", "me")
    return _YOU_AM.sub(lambda m: "you are" if m.group(1) == "am" else "you were", flipped)


def to_asker_zh(text: str) -> str:
    """我 -> 你 (我们 -> 你们); a note's 用户 is 你 too."""
    return text.replace("我", "你").replace("用户", "你")


@read_once
def to_asker(text: str) -> str:
    """A statement turned to the asker's side, in its own language."""
    return to_asker_zh(to_asker_en(text)) if _CJK_RUN.search(text) else to_asker_en(text)


RELATIONS = frozenset(
    RELATIONS_EN | {"kid", "mom", "dad", "grandma", "grandpa", "partner", "sibling", "parent"}
)
# Chinese relations as people say them, each with the one form the reader keeps (哥 -> 哥哥).
ZH_RELATION_FORMS = {
    **{word: word for word in RELATIONS_ZH},
    **pairs(
        "哥=哥哥 姐=姐姐 弟=弟弟 妹=妹妹 妈=妈妈 爸=爸爸 老妈=妈妈 老爸=爸爸 媳妇=老婆 媳妇儿=老婆 闺女=女儿 "
        "男友=男朋友 女友=女朋友 舍友=室友"
    ),
    **{
        w: w
        for w in word_list(
            "奶奶 爷爷 外婆 外公 姥姥 姥爷 叔叔 阿姨 舅舅 孩子 宝宝 老大 老二 老三 闺蜜 上司 领导 经理 房东"
        )
    },
}
ZH_RELATIONS = tuple(sorted(ZH_RELATION_FORMS, key=len, reverse=True))


def names_another_relation(text: str, wanted: str) -> bool:
    """Whether ``text`` names a Chinese relation, and not ``wanted`` (个五岁的女儿叫朵朵 is not 老公's)."""
    named = {ZH_RELATION_FORMS[r] for r in ZH_RELATIONS if r in text}
    return bool(named) and wanted not in named
