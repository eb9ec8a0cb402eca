"""What a value of each kind looks like in a statement (a time, a dose, an age, a colour ...), and the
words of a question that name the kind it asks for."""

from __future__ import annotations

import re

from memory_demos.providers.offline_model.lexicon import CJK, RELATIONS_EN, ZH_PLACES
from memory_demos.providers.offline_model.memo import read_once
from memory_demos.providers.offline_model.words import stem

# Words after a number that leave it an age ("five years old", "five next month"); any other word makes it
# a count ("two goldfish", "three kids").
_AGE_NEXT = r"(?:years?|months?|old|and|now|next|this|last|soon|tomorrow|today|but|yet|already)\b"
_NUMBER_WORDS = (
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty"
)
_ZH_NUMBER = "一二两三四五六七八九十百半"
CALENDAR = (  # a day or a month, in full or short ("Marcus" and "Maya" are neither)
    r"(?i:Mon(?:day)?|Tue(?:s|sday)?|Wed(?:nesday)?|Thu(?:rs|rsday)?|Fri(?:day)?|Sat(?:urday)?|Sun(?:day)?|"
    r"Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t|tember)?|"
    r"Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)s?\b"
)
HOLIDAYS = r"元旦|春节|除夕|元宵|清明|五一|端午|六一|七夕|中秋|国庆|圣诞|情人节|\b(?:christmas|easter)\b"
VALUES = {  # what a value of each kind the strict reading asks for looks like
    # 咪咪几岁了 wants an age (三岁, 两个月), not the 一 of 一只猫
    "age": re.compile(  # "turned 60", "she's five", 八十五了; not "two goldfish"
        rf"[\d{_ZH_NUMBER}]+\s*(?:岁|个月)|今年[\d{_ZH_NUMBER}]+|\d+(?![\d月号日点:：年块元])|"
        rf"\b(?:{_NUMBER_WORDS})\b(?!\s+(?!{_AGE_NEXT})[a-z]{{3,}})",
        re.I,
    ),
    "reason": re.compile(r"\b(?:because|since|cause|'cause|cos|so that|due to)\b|因为|由于|所以|为了", re.I),
    "duration": re.compile(
        rf"(?:\d+|\b(?:{_NUMBER_WORDS}|a|an|half an?|a few|couple of)\b)\s*(?:more\s+|extra\s+)?"
        rf"(?:minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?|years?|yrs?|nights?)\b|"
        rf"[\d{_ZH_NUMBER}]+\s*(?:个)?(?:小时|钟头)(?:零?[\d{_ZH_NUMBER}]+分(?:钟)?)?|"  # 2小时05分
        rf"[\d{_ZH_NUMBER}]+\s*(?:个)?(?:分钟|天|周|星期|个月|月|年|晚)|"
        rf"半(?:个)?(?:小时|天|年|月)",
        re.I,
    ),
    "clock": re.compile(
        r"\d{1,2}[:.]\d\d|\d\s*(?:am|pm|a\.m|p\.m)\b|"
        r"\b(?:noon|midnight|o'clock|half past|quarter (?:past|to)|"
        r"morning|afternoon|evening|night)|\bat\s+\d|[\d一二两三四五六七八九十]+点|中午|半夜|凌晨|早上|晚上|下午|上午",
        re.I,
    ),
    "time": re.compile(  # a date or a time, not the 25 of "25 people invited"
        r"\d(?:st|nd|rd|th)\b|\d\s*(?:am|pm|a\.m|p\.m)|\d[:./-]\d|\b(?:19|20)\d\d\b|\b(?:at|on|by|before|after|until|till|from|between)\s+(?:the\s+)?\d|\b(?:day|week)\s+\d|"
        r"\d+\s*(?:days?|weeks?|months?|years?|hours?|mins?|minutes?)\b|[\d一二两三四五六七八九十]\s*[点号月日周年天]|"
        r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|"
        r"\b(?:today|tomorrow|tonight|yesterday|morning|afternoon|evening|noon|midnight|week|weekend|month|year|"
        r"spring|summer|autumn|fall|winter|o'clock)\b|[点号月日周年天]|星期|今天|明天|后天|昨天|早上|晚上|下午|上午|中午|周末|睡前|饭前|饭后|睡觉前|"
        + HOLIDAYS,
        re.I,
    ),
    "day": re.compile(  # a day: a date or a weekday, not a clock time or a month alone
        rf"\d(?:st|nd|rd|th)\b|\b\d{{1,2}}[/.-]\d{{1,2}}\b|\b(?:{CALENDAR})\s*\d|\d{{1,2}}\s+(?:{CALENDAR})|"
        r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day|\b(?:today|tomorrow|tonight|yesterday|weekend)\b|\bday\s+\d|"
        r"[\d一二两三四五六七八九十]+\s*[号日]|(?:周|星期|礼拜)[一二三四五六日天末]|今天|明天|后天|昨天|前天|大后天|月底|月初|"
        + HOLIDAYS,
        re.I,
    ),
    "year": re.compile(
        r"\b(?:19|20)\d\d\b|\b(?:last|this|next)\s+year\b|[\d一二〇零两三四五六七八九十]+年|去年|今年|明年|前年"
    ),
    "number": re.compile(
        r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|"
        r"hundred|dozen|couple|a few|several|once|twice|single|no)\b|[一二两三四五六七八九十百千万]"
        r"|半[片粒颗勺杯碗个块斤]",  # 半片: half a pill is a number too
        re.I,
    ),
    "money": re.compile(  # an amount, not the 1 of "renews 1 Dec" or the 25 of "25 people"
        rf"[$€£¥₹]|\d\s*(?:k|grand|bucks?|dollars?|euros?|pounds?|quid|yuan|rmb|usd|eur|gbp)\b|"
        rf"(?<![\d.,:])\d[\d,]*(?:\.\d+)?(?![\d.,:]|\s*(?:st|nd|rd|th|am|pm|people|guests|persons?|kids|times|"
        rf"{CALENDAR}))|"
        r"\b(?:free|hundred|thousand)\b|[块元钱万]"
        # 三百, 两千三, 一百五: a round Chinese amount, not 三百米 or 一百五十斤
        r"|[一二两三四五六七八九十][百千][一二两三四五六七八九]?(?![十百千米斤里克人个次页岁年天分秒度])",
        re.I,
    ),
    "place": re.compile(  # not "on the 20th", "at 6", "in May"
        r"\b(?:in|at|to|from|near|on|behind|under|inside|outside|next to|opposite)\s+"
        rf"(?!(?:the\s+)?\d|{CALENDAR})\w"
        r"|(?<!^)\b(?!" + CALENDAR + r")[A-Z][a-z]+|[在住去到从来自市省区县路街]|是[" + CJK + r"]{2,4}人"
        r"|回(?:老家)?(?!老家)[" + CJK + r"]{2,4}$"  # 回老家哈尔滨, not 回老家要五个小时
        r"|^(?:先|再|然后|接着|最后)[" + CJK + r"]{2,4}$"  # 先到昆明，再去大理，最后丽江: a stop of a route
        r"|" + "|".join(ZH_PLACES)
    ),
    "code": re.compile(  # UA 857, 12F, B-302, 20471: not a time (7:15) or 十一点二十
        r"(?<![\d:.])(?:[A-Za-z]{1,3}[-\s]?\d{1,6}[A-Za-z]?|\d+[A-Za-z]|\d{3,})(?![\d:.])"
    ),
    "weight": re.compile(rf"[\d.{_ZH_NUMBER}千万]+\s*(?:斤|公斤|千克|kg|克|磅|lbs?)", re.I),
    "distance": re.compile(  # 离公司多远: 走路十分钟 says it too
        rf"[\d.{_ZH_NUMBER}千万]+\s*(?:公里|千米|米|里|km|miles?|分钟|个?小时|站)", re.I
    ),
    "person": re.compile(  # "for my niece", "from my aunt": a relation is a person too
        r"(?<!^)\b(?!" + CALENDAR + r")[A-Z][a-z]+|\b(?i:dr|doctor)\.?\s+[a-z]{3,}|[" + CJK + r"]"
        r"|\b(?i:my|his|her|our|their)\s+(?i:"
        + "|".join(sorted(RELATIONS_EN, key=len, reverse=True))
        + r")\b"
    ),
    "name": re.compile(  # 组长是Lisa: a name right after a Chinese character too
        r"(?<!^)(?<![A-Za-z])(?<!\bin )(?<!\bto )(?<!\bfrom )(?!" + CALENDAR + r")[A-Z][a-z]+"
        r"|\bnamed?\b|\bcalled\b|叫|名|姓|(?:"
        + "|".join(f"(?<={r} )" for r in sorted(RELATIONS_EN))
        + ")["
        + CJK
        + r"]{2,4}\b"  # "my teacher 王老师"
    ),
    "job": re.compile(
        r"[是当做干]|工作|上班|\b(?:is|am|are|was|'s|'m)\s+(?:a|an)\s|\bworks?\b|\bjob\b|\bteach|\bstud(?:y|ies|ent)\b"
        r"|\bruns?\b|\bowns?\b|\bmanag|\bretired\b|\bat\s+(?:uni|university|college|school)\b|\bas\s+(?:a|an)\s",
        re.I,
    ),
}

# What a value of each kind looks like in a statement.
KIND_VALUES: dict[str, re.Pattern[str]] = {
    "dose": re.compile(
        rf"\d+(?:\.\d+)?\s?(?:mg|mcg|µg|ml|g|iu|units?)\b|\b(?:half|{_NUMBER_WORDS}|\d)\s+(?:pills?|tablets?|"
        rf"capsules?|puffs?|drops?)\b|[\d{_ZH_NUMBER}]+\s*(?:粒|片|包|毫克|毫升|滴|颗|支)",
        re.I,
    ),
    "often": re.compile(
        rf"\b(?:once|twice|thrice|(?:\d|{_NUMBER_WORDS})\s*(?:x|times))\b|\bevery\b|\b(?:daily|weekly|monthly|"
        rf"nightly)\b|\b(?:a|per)\s+(?:day|week|month|night)\b|[\d{_ZH_NUMBER}]+次|每天|每周|每晚|每月|天天",
        re.I,
    ),
    "age": re.compile(
        rf"\b\d{{1,3}}\b(?!\s*(?::|am\b|pm\b|%|mg|kg|km|th\b|st\b|nd\b|rd\b))|"
        rf"\b(?:{_NUMBER_WORDS})\b(?!\s+(?!{_AGE_NEXT})[a-z]{{3,}})|"
        rf"[\d{_ZH_NUMBER}]+\s*(?:岁|了)|今年[\d{_ZH_NUMBER}]+",
        re.I,
    ),
    "clock": re.compile(
        rf"\d{{1,2}}[:.]\d\d|\d\s*(?:am|pm|a\.m|p\.m)\b|"
        rf"\b(?:noon|midnight|o'clock|half past|quarter (?:past|to))\b|"
        rf"[\d{_ZH_NUMBER}]+点|中午|半夜|凌晨",
        re.I,
    ),
    "address": re.compile(
        r"(?:\b\d+[a-z]?\s+)?\b(?:[A-Z][a-z]+\s+){1,3}(?:Street|St|Road|Rd|Close|Avenue|Ave|Lane|Ln|Way|Drive|Dr|Place|"
        r"Court|Crescent|Terrace|Square|Boulevard|Blvd)\b|[\u4e00-\u9fff]{1,6}(?:路|街|巷|道)\d*号?",
    ),
    "colour": re.compile(
        r"\b(?:red|blue|green|yellow|black|white|grey|gray|pink|purple|orange|brown|silver|gold|teal|navy|beige|"
        r"cream|maroon|turquoise)\b|[红蓝绿黄黑白灰粉紫橙棕金银]色",
        re.I,
    ),
    "job": re.compile(
        r"\b(?:I'm|I\s+am|is|he's|she's|was|'s|been|became)\s+(?:a|an|the)\s+(?!bit\b|little\b|lot\b|big\b|huge\b|fan\b|mess\b)"
        r"[a-z\u4e00-\u9fff]|\bwork(?:s|ed|ing)?\s+(?:as|at|in|for|on)\b|"
        r"\b(?:retired|unemployed|freelance)|当|是[^，,。]{0,6}(?:师|员|生|家|工|长)|做[^，,。]{1,6}|在[^，,。]{1,8}(?:上班|工作)",
        re.I,
    ),
}
# A question's words that name the kind of value it wants, by stem.
KIND_WORDS = {
    "dose": "dose",
    "dosage": "dose",
    "medication": "dose",
    "often": "often",
    "frequency": "often",
    "age": "age",
    "old": "age",
    "colour": "colour",
    "street": "address",
    "address": "address",
    "postcode": "address",
    "work": "job",
    "rol": "job",
    "role": "job",
    "position": "job",
}
ZH_KIND_WORDS = {
    "多大": "age",
    "几岁": "age",
    "几次": "often",
    "多少次": "often",
    "几点": "clock",
    "颜色": "colour",
}

# Members of kinds that are said without the kind's name: "I have a Pixel 8" answers "what phone do I
# have?", 养了只金毛 answers 什么品种. A capital first letter marks a member that is an everyday word too
# (only "a Switch" is a console, "switch" is not).
_DOGS = (
    "retriever labrador Lab beagle poodle husky corgi terrier spaniel shepherd bulldog collie pug dachshund "
    "chihuahua schnauzer labradoodle cockapoo greyhound whippet rottweiler dalmatian shiba"
)
_CATS = "siamese persian ragdoll tabby sphynx bengal coon"
_MEMBERS_EN = {
    "phone": "iphone pixel Galaxy samsung nokia xiaomi huawei oneplus motorola android",
    "laptop": "macbook thinkpad xps Surface chromebook lenovo dell asus acer zenbook",
    "console": "ps5 ps4 playstation xbox Switch nintendo",
    "car": "toyota honda ford tesla bmw audi mercedes volkswagen vw Golf corolla civic yaris prius kia "
    "hyundai nissan mazda subaru volvo jeep fiat skoda peugeot renault Mini porsche camry rav4 Polo",
    "breed": f"{_DOGS} {_CATS}",
    "airline": "emirates ryanair easyjet lufthansa Delta United klm qantas airways qatar cathay jetblue "
    "southwest wizz",
    "condition": "asthma diabetes eczema migraine migraines arthritis epilepsy coeliac celiac adhd anxiety "
    "depression hypertension ibs psoriasis",
    "sport": "football soccer tennis basketball swimming running cycling climbing bouldering golf yoga rugby "
    "cricket hockey badminton volleyball boxing skiing surfing baseball pilates",
    "instrument": "piano guitar violin drums cello flute saxophone sax ukulele trumpet clarinet harp",
    "language": "english spanish french german mandarin chinese japanese korean italian portuguese arabic "
    "hindi russian dutch cantonese swedish polish turkish",
    "subject": "maths math physics chemistry biology history economics econometrics statistics stats "
    "calculus geography philosophy psychology",
    "sign": "aries taurus gemini Cancer Leo virgo libra scorpio sagittarius capricorn aquarius pisces",
    "pronoun": "she/her he/him they/them",
    "dog": f"{_DOGS} puppy",
    "cat": f"{_CATS} kitten",
    "hobby": "pottery knitting painting photography gardening baking chess crochet climbing bouldering "
    "woodworking sewing drawing birdwatching",
    "pet": "dog cat puppy kitten hamster rabbit bunny goldfish parrot budgie tortoise turtle gecko lizard "
    "snake ferret",
    "diet": "keto vegan vegetarian paleo pescatarian fasting low-carb gluten-free halal kosher",
    "antibiotic": "amoxicillin penicillin azithromycin doxycycline cephalexin ciprofloxacin augmentin",
    "painkiller": "ibuprofen paracetamol acetaminophen aspirin tylenol advil naproxen codeine",
    "coffee": "latte cappuccino espresso americano mocha macchiato cortado",
    "tea": "matcha oolong chai sencha rooibos chamomile",
    "seafood": "salmon prawn prawns shrimp crab lobster tuna oyster oysters mussels squid cod",
    "dessert": "cake cheesecake tiramisu brownie brownies pudding gelato",
    "brand": "hp Apple samsung sony lg dell lenovo asus acer canon epson nike adidas puma ikea "
    "dyson bosch philips trek Giant Specialized",
}
# Kinds said by naming a member, never by the kind's name alone: "what breed is Miso?" wants a breed.
NAMED_BY_MEMBERS = frozenset(
    stem(k) for k in ["breed", "phone", "laptop", "console", "car", "airline", "brand"]
)
_DOGS_ZH = "金毛 拉布拉多 柯基 泰迪 哈士奇 柴犬 边牧 萨摩耶 比熊 博美 法斗 雪纳瑞 德牧 阿拉斯加"
_CATS_ZH = "布偶 英短 美短 橘猫 暹罗 加菲 狸花 蓝猫 无毛猫"
_MEMBERS_ZH = {
    "手机": "苹果 iPhone 华为 小米 三星 荣耀 OPPO vivo 一加 Pixel",
    "电脑": "MacBook 联想 戴尔 ThinkPad 拯救者",
    "车": "特斯拉 比亚迪 丰田 本田 大众 宝马 奔驰 奥迪 蔚来 理想 小鹏 五菱 日产 吉利 长安 "
    "卡罗拉 思域 凯美瑞 轩逸 电驴",
    "狗": _DOGS_ZH,
    "猫": _CATS_ZH,
    "品种": f"{_DOGS_ZH} {_CATS_ZH} 中华田园",
    "宠物": f"狗 猫 仓鼠 兔子 鹦鹉 乌龟 金鱼 {_DOGS_ZH} {_CATS_ZH}",
    "运动": "跑步 游泳 篮球 足球 羽毛球 乒乓球 网球 瑜伽 健身 爬山 骑行 滑雪 攀岩 普拉提",
    "乐器": "钢琴 吉他 小提琴 古筝 二胡 架子鼓 尤克里里 长笛",
    "病": "哮喘 糖尿病 高血压 鼻炎 胃炎 湿疹 偏头痛 抑郁",
    "牌子": "苹果 华为 小米 耐克 阿迪 优衣库 农夫山泉 怡宝 百岁山 元气森林 喜茶 瑞幸 星巴克 戴森",
    "编辑器": "VSCode VS Code vim emacs PyCharm Cursor",
    "语言": "英语 日语 韩语 法语 德语 西班牙语 粤语 普通话 Python Java",
    "年级": "一年级 二年级 三年级 四年级 五年级 六年级 初一 初二 初三 高一 高二 高三 大一 大二 大三 大四",
    "补剂": "维生素 鱼油 钙片 蛋白粉 益生菌 叶酸 褪黑素",
    "季节": "春天 夏天 秋天 冬天 春季 夏季 秋季 冬季",
    "学校": "北大 清华 浙大 复旦 交大 人大 南大 武大 中大 川大 同济 北航 "
    "哈工大 UCLA NYU MIT 哈佛 斯坦福 牛津 剑桥",
    "工作": "医生 牙医 兽医 老师 教师 教授 护士 律师 工程师 程序员 会计 司机 厨师 警察 设计师 销售 "
    "经理 店长 公务员 记者 编辑 主播 快递员 外卖员 服务员 保安 电工 理发师 研究员 翻译 导游 演员 "
    "歌手 画家 作家 农民 军人 药剂师 消防员 飞行员 空姐 建筑师 会计师",
}


def _member_index() -> dict[str, tuple[str, ...]]:
    index: dict[str, list[str]] = {}
    for kind, members in _MEMBERS_EN.items():
        for member in members.split():
            index.setdefault(member if member[:1].isupper() else member.lower(), []).append(kind)
    return {member: tuple(kinds) for member, kinds in index.items()}


_MEMBER_KINDS = _member_index()


def kinds_named(words: list[str]) -> set[str]:
    """The kinds whose members ``words`` name ("Pixel" → phone; "Switch" but not "switch" → console)."""
    kinds: set[str] = set()
    for word in words:
        kinds.update(_MEMBER_KINDS.get(word, ()) or _MEMBER_KINDS.get(word.lower(), ()))
    return kinds


@read_once
def zh_kinds_named(text: str) -> str:
    """The Chinese kinds whose members ``text`` names, run together (养了只金毛 → 品种); a range of times
    names its ends (晚上十点到早上六点 says when it starts and when it ends)."""
    lowered = text.lower()
    named = "".join(
        kind for kind, members in _MEMBERS_ZH.items() if any(m.lower() in lowered for m in members.split())
    )
    named += "".join(kind for kind, types in _NAMED_TYPES_ZH.items() if types.search(text))
    return named + (" 开始 结束" if _ZH_TIME_RANGE.search(text) else "")


# A type of a kind said after a name of its own (实验小学, 人大附中) is one of that kind; 读高中 is none.
_NAMED_TYPES_ZH = {
    "学校": re.compile(
        f"(?<=[{CJK}A-Za-z0-9])(?<![读上在去到了的个念])(?:小学|中学|高中|初中|大学|学院|幼儿园|附中|附小)"
    ),
}


_ZH_CLOCK = (
    "(?:[上中下]午|早上|晚上|凌晨)?[\\d一二两三四五六七八九十]+(?:点|:|：)[\\d一二三四五六七八九十半]*"
)
_ZH_TIME_RANGE = re.compile(f"{_ZH_CLOCK}(?:到|至|-|~){_ZH_CLOCK}")
EN_TIME_RANGE = re.compile(  # 10pm to 6am, 12:30 to 1:15, 9-5:30; not "2 to 3 people"
    r"\b\d{1,2}(?::\d\d)?\s*(?:am|pm)?\s*(?:-|–|to|until|till)\s*(?:\d{1,2}:\d\d|\d{1,2}\s*(?:am|pm)\b)", re.I
)


# Words of one set name parts that exclude each other: a question that names one is not answered by a
# statement that names only another ("晚上有啥安排" is not answered by "上午十点开会").
_APART_ZH = (
    "早上|早晨|早饭|早餐 上午 中午|午饭|午餐 下午 晚上|晚饭|晚餐|夜里",
    "今天 明天 昨天 后天 前天",
    "白班 夜班|晚班",
    "周一|星期一|礼拜一 周二|星期二|礼拜二 周三|星期三|礼拜三 周四|星期四|礼拜四 周五|星期五|礼拜五 "
    "周六|星期六|礼拜六 周日|周天|星期日|星期天|礼拜天",
    "工作日|周[一二三四五]|星期[一二三四五]|礼拜[一二三四五] 周末|周六|周日|周天|星期[六日天]|礼拜[六天]",
    "开门|营业 关门|打烊",
    "上班 下班",
    "开始|开场 结束|散场",
    "出发|发车|起飞 到达|抵达|落地",
    "这周|本周 上周|上个星期 下周|下个星期",
    "这个月|本月 上个月|上月 下个月|下月",
    "今年 去年 明年",
)
_APART_EN = (
    "morning|breakfast afternoon|lunch evening|tonight|dinner|night",
    "today tomorrow|tmrw yesterday",
    "monday|mon tuesday|tue|tues wednesday|wed thursday|thu|thurs friday|fri saturday|sat sunday|sun",
    "weekdays?|monday|mon|tuesday|tues?|wednesday|wed|thursday|thu|thurs|friday|fri "
    "weekends?|saturday|sat|sunday|sun",
    "open|opens|opening close|closes|closing",
    "day\\s+shifts?|on\\s+days night\\s+shifts?|nightshifts?|on\\s+nights",
    "this\\s+week last\\s+week next\\s+week",
    "this\\s+month last\\s+month next\\s+month",
    "this\\s+year last\\s+year next\\s+year",
    "leaves?|leaving|departs?|departure arrives?|arriving|arrival|lands?|landing|gets?\\s+in(?:to)?",
)


def _apart_sets(chinese: bool) -> list[list[re.Pattern[str]]]:
    if chinese:
        return [[re.compile(f"(?<![一每两几])(?:{m})") for m in s.split()] for s in _APART_ZH]
    return [[re.compile(rf"(?i)\b(?:{m})\b") for m in s.split()] for s in _APART_EN]


_APART = {True: _apart_sets(True), False: _apart_sets(False)}


_ZH_NUMBERED = re.compile(f"([{CJK}]{{2}})([一二三四五六七八九十]|\\d+)(?![一二三四五六七八九十\\d])")


def names_another_part(question: str, text: str, *, chinese: bool) -> bool:
    """Whether ``text`` names only other parts of a set the question names a part of (see _APART_ZH), or
    only another of a numbered kind (科目二 for 科目三)."""
    numbered = _ZH_NUMBERED.search(question) if chinese else None
    others = [found.group(1) for found in _ZH_NUMBERED.finditer(text)] if numbered else []
    if numbered and numbered.group(0) not in text and numbered.group(1) in others:
        return True
    for members in _APART[chinese]:
        asked = [m for m in members if m.search(question)]
        if asked and not any(m.search(text) for m in asked) and any(m.search(text) for m in members):
            return True
    return False


# 报告要写多少页 asks for pages: a number of another unit (下周一, 早上十点) is no answer.
_UNIT_ASKED_ZH = re.compile(
    "(?:几|多少)(?P<u>页|张|斤|公斤|米|层|楼|岁|次|本|件|条|台|辆|只|瓶|杯|片|粒|包|盒|G|g|GB)"
)


def lacks_unit_asked(question: str, text: str) -> bool:
    """Whether a Chinese question asks for a number of a unit ``text`` never says."""
    asked = _UNIT_ASKED_ZH.search(question)
    return asked is not None and asked.group("u").lower() not in text.lower()


# 周三上午十点, 现在挪到四点了: a clause that is only a time (or a time it was moved to), no words of its own.
ZH_TIME_ONLY = re.compile(
    "(?:现在|改成|改到|挪到|推到|提前到|推迟到|换到|变成|又|就)*"
    "(?:(?:[\\d一二两三四五六七八九十百点半分钟:：]|[上中下]午|早上|晚上|凌晨|周|星期|礼拜|月|号|日|今天|明天|后天)+"
    "(?:到|至|-|~)?)+"
    "(?:了|吧|啊|哈)?"
)
