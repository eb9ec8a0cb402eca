"""Who a clause is about: the patterns of relations, names and pronouns the reader looks for.

English: "my sister Priya", "Priya is my sister", "our parrot Captain", "he"/"she", a capital name before
a verb of a person; Chinese: 我哥哥, 我家狗叫旺财, a name that starts with a common surname, 他/她/它.
"""

from __future__ import annotations

import re

from memory_demos.providers.offline_model.corrections import SUBJECT_START
from memory_demos.providers.offline_model.lexicon import CJK, word_list
from memory_demos.providers.offline_model.words import RELATIONS, ZH_RELATIONS, stem

REL_EN = "|".join(sorted(RELATIONS | {"kids", "children", "parents"}, key=len, reverse=True))
# Family words said bare as a name ("dad passed a few years ago", "mum said no"), before a verb.
_BARE_FAMILY = (
    r"(?=(?i:mum|mom|dad|mummy|mommy|daddy|grandma|grandpa|granny|gran|nan|nana)\s+"
    r"(?i:[a-z]{2,}ed|is|was|has|had|just|said|says|can't|won't|will|can|[a-z]{2,}(?<![su])s)\b)"
)
ABOUT_EN = re.compile(
    r"^(?:(?:(?P<my>(?i:my|our))\s+(?:(?:older|younger|little|big|baby|best|oldest|youngest|twin|eldest)\s+)?|"
    + _BARE_FAMILY
    + r")(?P<rel>(?i:"
    + REL_EN
    + r"))(?:'s)?\b(?:,?\s+(?P<n>[A-Z][a-z]+)\b)?|(?P<pro>(?i:he|she|his|her|they|their))\b|"
    r"(?P<me>I|I'm|I've|I'd|I'll|(?i:me|my|we|we're|we've|our))\b|(?P<name>[A-Z][a-z]+)(?:'s)?\b)",
)
MY_PET = re.compile(  # "our cat Biscuit hates the flat, she hides": Biscuit is the "she"
    r"^(?i:my|our)\s+(?i:cat|dog|puppy|kitten|rabbit|bunny|hamster|parrot|tortoise|turtle)\s+(?P<pet>[A-Z][a-z]+)\b"
)
NOT_NAMES = frozenset(
    word_list(
        """The This That These Those There Here What Where When Who Why How Which It Its My Our Your You We
    They He She His Her And But So Also Then Now Today Tomorrow Yesterday Yes No Ok Okay Hi Hello Hey
    Thanks Please Just Actually Maybe Sorry Well Oh Is Are Do Does Did Can Could Would Will Should Let
    Not Every Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May
    June July August September October November December Oops Wait Scratch Forget Never Next Last If
    Any Anyone Anything Some Someone Something Everyone Everything Nothing Nobody All Both Each Another
    Other Sure Great Cool Nice Good Lol Btw Really Still Only Even Since After Before Because Though"""
    )
)
NAME_OF_REL = re.compile(r"\b(?:my|our)\s+(?P<rel>" + REL_EN + r")'s\s+name\s+is\s+(?P<n>[A-Z][a-z]+)", re.I)
OWN_NAMED = re.compile(
    r"\b(?i:my|our)\s+(?:(?!(?i:is|was|has)\b)(?i:[a-z]+)\s+)?(?P<noun>(?i:[a-z]+))(?:'s\s+name)?(?:\s+(?:is|was|'s)(?:\s+called|\s+named)?|,|\s+(?:called|named))?\s+(?P<n>[A-Z][a-z]+(?:-[A-Z]?[a-z]+)?)\b"
)
NOT_KINDS = frozenset(["name", "is", "was", "in", "at", "from", "to", "and", "the", "a", "an"])
REL_IS = re.compile(r"\b(?P<n>[A-Z][a-z]+)\s+is\s+my\s+(?:\w+\s+)?(?P<rel>" + REL_EN + r")\b")
ZH_REL = "|".join(ZH_RELATIONS)
# 我老婆生日是…: 生日 is what she has, not her name.
_ZH_THINGS = "生日|工作|名字|电话|手机|年龄|身高|体重|老家|爱好|专业|公司|学校|单位|属相|星座|血型"
ZH_NAME = (
    r"(?![在是住叫当做有的一两三这那今明昨每我你他她吃喝用买开去])(?!"
    + _ZH_THINGS
    + r")(?!["
    + CJK
    + r"]的)["
    + CJK
    + r"]{2,3}?"
)
# A name said on its own starts with a common surname or 小 / 老 / 阿 ("会议定在三点" names nobody).
ZH_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢"
    "姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤小老阿"
)
# Everyday words that start with a surname: 周末在奶茶店兼职 names no 周末.
_ZH_NOT_PERSON = "周[一二三四五六日天末]|小时|小区|小学|小孩|老家|老师|老板|马上|高中|高铁|方便|白天|钱包"
ZH_PERSON = r"(?!" + _ZH_NOT_PERSON + r")[" + ZH_SURNAMES + r"][" + CJK + r"]{1,2}?"
ZH_ABOUT = re.compile(
    r"^(?:(?:我的?)?(?P<rel>"
    + ZH_REL
    # a name not after 叫 looks like one: 我同事小刘, not 我妈高血压 or 我老板下个月
    + r")(?:叫|名字是|的名字是)?(?P<n>(?:(?<=[叫是])|(?="
    + ZH_PERSON
    + r"))"
    + ZH_NAME
    + r"(?=[是住在叫当做有的今喜对去也还最很从跟和说要会想刚已上下明，,。]|$))?"
    r"|(?P<pro>他|她|它)|(?P<me>我们|我|用户说：“我|用户)|(?P<name>"
    + ZH_PERSON
    + r")(?=住|叫|在|喜欢|今年|有|说|当|做|的[^\s，,]{0,4}是))"
)
ZH_OWN_NAMED = re.compile(
    r"我(?:家|的|们家)?(?:养的|的)?(?:一只|只)?(?P<noun>["
    + CJK
    + r"]{1,2}?)(?:叫|名字叫|名叫)(?P<n>["
    + CJK
    + r"]{2,3}?)(?=[，,。！!]|$)"
)
ZH_REL_INSIDE = re.compile(
    r"我的?(?:大学|高中|初中|小学|公司|以前的|新|老)?(?P<rel>"
    + ZH_REL
    + f")(?P<n>{ZH_PERSON}(?=[，,。！!\\s]|$))?"
)
EN_REL_INSIDE = re.compile(
    r"\b(?:my|our)\s+(?P<rel>" + REL_EN + r")\b(?:\s+(?P<n>(?-i:[A-Z][a-z]+))\b)?", re.I
)
REPORTED = re.compile(
    r"^(?:(?:my|our|the)\s+\w+|he|she|they|[A-Z][a-z]+)\s+"
    r"(?:said|says|told me|tells me|thinks|mentioned|texted|wrote|reckons)\s*(?:that\s+|:\s*)?",
    re.I,
)
# A clause that starts so speaks for itself, never of the clause before ("Let's discuss ...").
NO_SUBJECT_OF_ITS_OWN = re.compile(
    r"^(?:let's|let us|please|thanks|thank you)\b|" + SUBJECT_START.pattern, re.I
)
PERSON_VERB = re.compile(
    r"\s+(?:is|was|has|had|lives|lived|works|worked|likes|loves|hates|says|said|told|wants|needs|gets|got|moved|"
    r"teaches|studies|drives|plays|eats|drinks|takes|goes|went|comes|came|just|also|and\s+I|\(|"
    r"did|does|doesn't|didn't|will|won't|can|can't|isn't|wasn't|"
    r"[a-z]{2,}(?<![su])s\b(?!\s+(?:are|were|have)\b))",  # "Joel does the dishes", "Priyanka handles"
    re.I,
)
ZH_SUBJECTLESS = re.compile(
    "^(?:住|是|在|喜欢|有|今年|当|做|对|叫|会|要|想|养|开|学|不|也|还|每|刚|已经|以前|现在|平时|后来|最近|天天|就|都|一直|从小)"
)

_MALE = "brother father dad son husband boyfriend uncle grandpa grandfather nephew fiance hubby stepdad"
_FEMALE = "sister mother mom mum daughter wife girlfriend aunt grandma grandmother niece fiancee stepmom"
_MALE_ZH = "哥哥 弟弟 爸爸 老公 儿子 爷爷 外公 姥爷 叔叔 舅舅 男朋友 公公 岳父 表哥 表弟 堂哥 堂弟 老爸"
_FEMALE_ZH = (
    "姐姐 妹妹 妈妈 老婆 女儿 奶奶 外婆 姥姥 阿姨 姑姑 女朋友 婆婆 岳母 表姐 表妹 堂姐 堂妹 老妈 闺蜜"
)
MALE = frozenset([stem(w) for w in _MALE.split()] + word_list(_MALE_ZH))
FEMALE = frozenset([stem(w) for w in _FEMALE.split()] + word_list(_FEMALE_ZH))
GENDERED = MALE | FEMALE
PRONOUN_GENDER = {
    **dict.fromkeys(["he", "him", "his", "他"], MALE),
    **dict.fromkeys(["she", "her", "hers", "她"], FEMALE),
}
# "Biscuit is actually my sister's cat", "Biscuit isn't mine": a name that is not the user's own.
NOT_MINE = re.compile(
    r"^(?P<x>[A-Z][a-z]+)\s+(?:is|was)\s+(?:actually\s+|really\s+)?(?:my|our)\s+(?:\w+\s+)?\w+'s\b|"
    r"^(?P<y>[A-Z][a-z]+)\s+(?:is|was)n[o']t\s+(?:actually\s+)?(?:mine|ours)\b"
)


ASKING_ZH = re.compile("什么|啥|谁|哪|几|多少")  # no name: 我老公叫什么 names nobody 什么
THINGS_ARE = re.compile(r"^[a-z]+s\s+(?:are|were)\b")  # "lessons are on tuesdays": a subject of its own


def own_names_zh(clause: str) -> dict[str, str]:
    """The names a Chinese clause gives its nouns (我家狗叫旺财: 旺财, the dog); 我老公叫什么 names nobody."""
    found = ZH_OWN_NAMED.finditer(clause)
    return {m.group("n"): m.group("noun") for m in found if not ASKING_ZH.search(m.group("n"))}


MY_ZH_RELATION = re.compile(r"(?i)\b(?:my|our)\s*(?P<rel>" + ZH_REL + ")")  # "my 奶奶 lives in Chengdu"

# "the ferry leaves at 6", then "it's at 6:30": the thing a later "it" is
THING_IS = re.compile(
    r"^(?P<t>(?i:the|my|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s+(?i:is|are|was|were|'s|has|starts?|opens?|closes?|"
    r"costs?|leaves?|moved|got|will)\b"
)
IT_LEADS = re.compile(r"^(?:it|it's|its|that's)\b", re.I)
