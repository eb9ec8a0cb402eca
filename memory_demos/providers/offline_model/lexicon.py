"""Word lists and key tables of the offline teaching model, English and Chinese."""

from __future__ import annotations

import re

ENCODING_NAME = "o200k_base"
DEFAULT_MODEL_NAME = "offline-teaching-model"
MAX_SUMMARY_FACTS = 12
MAX_SUMMARY_TOPICS = 4
MAX_TOPIC_CHARS = 40
MAX_LIST_VALUES = 6
MAX_ENTITY_SENTENCES = 8

# Refusals name no topic, so they never repeat a question's words (nor pass a recall check by accident).
DONT_KNOW_EN = "I can't answer that from what I was given."
DONT_KNOW_ZH = "这个我回答不了：我收到的内容里没有。"
DONT_KNOW_ALL_EN = "I can't answer those questions from what I was given."
DONT_KNOW_ALL_ZH = "这些问题我回答不了：我收到的内容里没有。"
DONT_KNOW_NTH_EN = "I can't answer your {nth} question from what I was given."
DONT_KNOW_NTH_ZH = "你的第{nth}个问题我回答不了：我收到的内容里没有。"
ORDINALS_EN = ("first", "second", "third", "fourth", "fifth", "sixth")
ORDINALS_ZH = ("一", "二", "三", "四", "五", "六")
CONFLICT_EN = "What I was given disagrees, and nothing says which is newer: {options}."
CONFLICT_ZH = "我收到的内容互相矛盾，也看不出哪个更新：{options}。"
ALL_FACTS = "*"


def word_list(words: str) -> list[str]:
    """Words written as one string, split at white space (a table stays readable and short)."""
    return words.split()


def pairs(text: str) -> dict[str, str]:
    """A table written as ``key=value`` words ("_" for a space in a value)."""
    return {key: value.replace("_", " ") for key, value in (pair.split("=", 1) for pair in text.split())}


# Habits read from "I drink/eat/play ... X": the verb and the fact key it gives.
HABIT_VERBS = {
    "drink": "drinks",
    "eat": "eats",
    "play": "plays",
    "speak": "speaks",
    "study": "studies",
    "drive": "drives",
    "read": "reads",
    "watch": "watches",
    "cook": "cooks",
    "teach": "teaches",
    "own": "owns",
    "collect": "collects",
    "wear": "wears",
}
HABIT_FORMS = {
    **{verb: verb for verb in HABIT_VERBS},
    "drinks": "drink",
    "eats": "eat",
    "plays": "play",
    "speaks": "speak",
    "studies": "study",
    "drives": "drive",
    "reads": "read",
    "watches": "watch",
    "cooks": "cook",
    "teaches": "teach",
    "owns": "own",
    "collects": "collect",
    "wears": "wear",
    "drinking": "drink",
    "eating": "eat",
    "playing": "play",
    "speaking": "speak",
    "studying": "study",
    "driving": "drive",
    "reading": "read",
    "watching": "watch",
    "cooking": "cook",
    "teaching": "teach",
    "collecting": "collect",
    "wearing": "wear",
}
ZH_HABIT_VERBS = {
    "喝": "drinks",
    "吃": "eats",
    "玩": "plays",
    "说": "speaks",
    "开": "drives",
    "看": "watches",
}

# Family, friends and colleagues: "my brother Kofi", "我哥哥小王".
RELATIONS_EN = frozenset(
    word_list("""brother sister mother mom mum father dad friend colleague coworker boss wife husband
    partner son daughter cousin neighbour neighbor uncle aunt grandmother grandfather grandma grandpa
    roommate flatmate teacher girlfriend boyfriend fiance fiancee niece nephew manager mother-in-law
    father-in-law sister-in-law brother-in-law son-in-law daughter-in-law bro sis""")
)
RELATIONS_ZH = {
    "哥哥": "brother",
    "弟弟": "younger_brother",
    "姐姐": "sister",
    "妹妹": "younger_sister",
    "妈妈": "mother",
    "母亲": "mother",
    "爸爸": "father",
    "父亲": "father",
    "朋友": "friend",
    "好朋友": "friend",
    "同事": "colleague",
    "老板": "boss",
    "妻子": "wife",
    "老婆": "wife",
    "丈夫": "husband",
    "老公": "husband",
    "儿子": "son",
    "女儿": "daughter",
    "邻居": "neighbour",
    "室友": "roommate",
    "老师": "teacher",
    "表哥": "cousin",
    "表姐": "cousin",
    "男朋友": "boyfriend",
    "女朋友": "girlfriend",
}
ZH_RELATION_NAMES = {
    "brother": "哥哥",
    "younger_brother": "弟弟",
    "sister": "姐姐",
    "younger_sister": "妹妹",
    "mother": "妈妈",
    "father": "爸爸",
    "friend": "朋友",
    "colleague": "同事",
    "boss": "老板",
    "wife": "妻子",
    "husband": "丈夫",
    "son": "儿子",
    "daughter": "女儿",
    "neighbour": "邻居",
    "roommate": "室友",
    "teacher": "老师",
    "cousin": "表哥",
    "boyfriend": "男朋友",
    "girlfriend": "女朋友",
}

# "I'm Brazilian" states a nationality, never a name.
NATIONALITIES = frozenset(
    word_list("""American Argentinian Australian Austrian Belgian Brazilian British Canadian Chilean
    Chinese Colombian Croatian Cuban Czech Danish Dutch Egyptian English Estonian Ethiopian Filipino
    Finnish French German Ghanaian Greek Hungarian Icelandic Indian Indonesian Iranian Irish Israeli
    Italian Jamaican Japanese Kenyan Korean Latvian Lebanese Lithuanian Malaysian Mexican Moroccan
    Nigerian Norwegian Pakistani Peruvian Polish Portuguese Romanian Russian Scottish Serbian
    Singaporean Slovak Spanish Swedish Swiss Taiwanese Thai Turkish Ukrainian Venezuelan Vietnamese
    Welsh""")
)

# Keys whose facts accumulate instead of replacing each other.
LIST_KEYS = frozenset({"likes", "dislikes", "nationality", *HABIT_VERBS.values()})
OPPOSITE_KEYS = {"likes": "dislikes", "dislikes": "likes"}

# Invented details for drift mode: (sentence, the fact key it would claim, if any).
DRIFT_DETAILS: tuple[tuple[str, str | None], ...] = (
    ("The human travelled to Paris for a week.", None),
    ("The human's favourite colour is green.", "favourite_colour"),
    ("The human is learning Portuguese.", None),
    ("The human's cat's name is Whiskers.", "cat_name"),
    ("The human has two older brothers.", None),
    ("The human works as a nurse.", "job"),
    ("The human is planning a trip to Japan next spring.", None),
    ("The human is allergic to peanuts.", None),
    ("The human used to play the violin.", None),
    ("The human's birthday is in March.", "birthday"),
)


CJK = "\u3400-\u4dbf\u4e00-\u9fff"
CJK_RE = re.compile(f"[{CJK}]")
WORD_RE_TEXT = r"[^\W\d_][\w'’-]*"
ZH_VALUE = r"[^\s，。！？,!?；;、]{1,40}"
ZH_STOP_CHARS = "，。！？,!?；;、 \n"

AI_ROLES = frozenset({"ai", "assistant", "output", "response", "answer", "you"})

KV_EXCLUDED_KEYS = frozenset(
    {
        "summary",
        "output",
        "note",
        "context",
        "example",
        "http",
        "https",
        "message",
        "messages",
        "entity",
    }
)

NAME_STOP = frozenset(
    word_list("""a an the fine good ok okay sorry tired hungry here back ready happy sad busy not just so
    very from in at looking going trying glad sure new great well also still really
    interested curious thinking working learning doing feeling afraid alright allowed able
    about actually already always bored excited fed done home late later lost married single
    sick sleepy thirsty sure today tomorrow tonight unsure confused calling writing asking
    wondering planning moving living staying leaving coming i me you he she it we they my
    your his her their our what who where when why how and but or please maybe anytime
    whenever if yes no hi hello hey thanks thank btw fyi lol haha tho though too anyway of""")
)
PLACE_STOP = frozenset(
    word_list("""a an the my our this that here there it same small big house flat apartment city town
    village country home area place part suburb centre center middle north south east west""")
)
PLACE_JOINERS = frozenset({"de", "da", "do", "del", "of", "upon", "on", "am", "la", "le"})
VALUE_STOP = frozenset(
    word_list("""not going so very too really kind pretty fine good great ok okay bad busy over gone what
    where who how unknown secret broken""")
)
THING_STOP = frozenset(
    word_list("""day week life question problem point head mind guess bad pleasure turn fault bad english
    internet computer phone bad pleasure opinion answer plan idea mistake""")
)
PRONOUNS = frozenset({"it", "that", "this", "them", "you", "him", "her", "those", "these", "everything"})
ZH_QUESTION_RE = re.compile("什么|多少|哪|谁|啥|几|吗|呢|怎么")
ZH_PRONOUNS = frozenset({"你", "他", "她", "它", "你们", "他们", "这个", "那个"})

ZH_THINGS = {
    "名字": "name",
    "订单号": "order_number",
    "订单编号": "order_number",
    "订单号码": "order_number",
    "生日": "birthday",
    "邮箱": "email",
    "电子邮箱": "email",
    "电子邮件": "email",
    "电话": "phone_number",
    "电话号码": "phone_number",
    "手机号": "phone_number",
    "手机号码": "phone_number",
    "工作": "job",
    "职业": "job",
    "年龄": "age",
    "狗的名字": "dog_name",
    "狗狗的名字": "dog_name",
    "猫的名字": "cat_name",
    "猫咪的名字": "cat_name",
    "城市": "city",
}
ZH_FAVOURITE_THINGS = {
    "食物": "food",
    "菜": "food",
    "颜色": "colour",
    "运动": "sport",
    "电影": "movie",
    "书": "book",
    "音乐": "music",
    "歌": "song",
    "城市": "city",
    "水果": "fruit",
    "饮料": "drink",
    "动物": "animal",
}
ZH_ANIMALS = {"狗": "dog", "狗狗": "dog", "猫": "cat", "猫咪": "cat"}
ZH_DISPLAY = {
    "name": "名字",
    "order_number": "订单号",
    "birthday": "生日",
    "email": "邮箱",
    "phone_number": "电话号码",
    "job": "工作",
    "age": "年龄",
    "dog_name": "狗的名字",
    "cat_name": "猫的名字",
    "city": "城市",
    "hometown": "家乡",
    **{value: key for key, value in ZH_FAVOURITE_THINGS.items() if key not in {"菜", "城市"}},
    "colour": "颜色",
}
KEY_ALIASES = {
    "order_id": "order_number",
    "order_no": "order_number",
    "order_num": "order_number",
    "order_nr": "order_number",
    "email_address": "email",
    "e_mail": "email",
    "phone": "phone_number",
    "mobile_number": "phone_number",
    "phone_no": "phone_number",
    "birth_date": "birthday",
    "date_of_birth": "birthday",
    "home_town": "hometown",
    "home_city": "city",
    "first_name": "name",
    "full_name": "name",
    "dogs_name": "dog_name",
    "cats_name": "cat_name",
    "occupation": "job",
    "profession": "job",
    "location": "city",
    "lives_in": "city",
    "from": "hometown",
    "favourite_color": "favourite_colour",
}


STOPWORDS = frozenset(
    word_list("""a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just let like me more most my myself no nor not now of off on once
    only or other our ours out over own same she should so some such than that the their
    theirs them then there these they this those through to too under until up very was we
    were what when where which while who whom why will with would you your yours today
    tomorrow really think know tell want need get got go going make much many thing things
    something anything yeah yes okay ok well also lot maybe please thanks thank hi hello hey
    actually kind sort bit pretty quite always never ever every still even way said say says
    told talk talked talking did does sure right good great nice cool fine bad better best
    lets let's i'm it's that's what's don't can't i've i'd i'll you're went yesterday last
    next week year been saw made came took gave feel feeling felt love hate thought""")
)


ENTITY_EDGE_WORDS = frozenset(
    word_list("""Hi Hello Hey Yes No Thanks Thank My The Please Dear Oh Well So And But What Where Who
    When Why How Do Does Is Are Can Could Would Will Should Today Tomorrow Yesterday Sure
    Okay Ok OK Also Now Then I I'm I've I'd I'll Im It It's This That There Here We You Your
    He She They Our Let Just Actually Maybe Good Great Nice""")
)


# Words that follow "weather in/for" without naming a place ("weather in general").
NOT_PLACES = frozenset(
    {
        "general",
        "spring",
        "summer",
        "autumn",
        "fall",
        "winter",
        "the",
        "a",
        "my",
        "your",
    }
)

# A clause that ends introducing someone or something (养了一只猫, 有个女儿): a following 叫X names it.
ZH_INTRODUCED = re.compile(
    "[一两几][只个条位辆台匹头本][" + CJK + "]{1,4}$|[养有买生]了?[只个条位辆台]?[" + CJK + "]{1,3}$"
)

# Places said by name alone (我觉得上海更好, 先大理再丽江): where a Chinese "where" may be answered
# without 在/去/住 before the name.
_ZH_PLACE_NAMES = (
    "北京 上海 天津 重庆 广州 深圳 杭州 南京 苏州 成都 武汉 西安 长沙 郑州 青岛 厦门 大连 沈阳 哈尔滨 "
    "长春 济南 合肥 福州 南昌 昆明 贵阳 南宁 海口 三亚 兰州 西宁 银川 乌鲁木齐 拉萨 呼和浩特 太原 石家庄 "
    "宁波 温州 无锡 佛山 东莞 珠海 桂林 大理 丽江 香港 澳门 台北 "
    "云南 四川 广东 广西 浙江 江苏 福建 山东 河南 河北 湖南 湖北 安徽 江西 山西 陕西 甘肃 贵州 海南 "
    "新疆 西藏 内蒙古 东北 黑龙江 吉林 辽宁 宁夏 青海 台湾 "
    "日本 东京 大阪 京都 韩国 首尔 泰国 曼谷 清迈 新加坡 马来西亚 越南 印尼 巴厘岛 印度 美国 纽约 洛杉矶 "
    "旧金山 西雅图 加拿大 多伦多 温哥华 英国 伦敦 法国 巴黎 德国 柏林 慕尼黑 意大利 罗马 西班牙 荷兰 "
    "瑞士 澳大利亚 澳洲 悉尼 墨尔本 新西兰 俄罗斯 迪拜 欧洲 美洲 非洲"
)
ZH_PLACES = _ZH_PLACE_NAMES.split()
