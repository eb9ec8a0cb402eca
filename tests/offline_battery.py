"""The offline teaching model's battery: prompts a person reads easily, with the answer a person would give.

Each case is a conversation (earlier user messages, replied to by the model itself, as ``buffer``
would keep them), optionally system text (entity notes, a summary, stored facts, retrieved lines),
then one question. ``expect``: every string must be in the answer; ``reject``: none may be;
``refuse``: the answer is the model's refusal. Patterns are written once and filled with several
names, places and values, so a rule that only works for one spelling fails.
"""

from __future__ import annotations

from dataclasses import dataclass

NOTES = "Notes on the people, places and things just mentioned (from the entity store):"
SUMMARY = "Summary of the earlier conversation:"
STORED = "Known facts about the user (from the long-term store):"
RETRIEVED = "Possibly relevant earlier lines (retrieved by similarity):"


@dataclass(frozen=True)
class Case:
    """One battery case."""

    turns: tuple[str, ...]
    question: str
    expect: tuple[str, ...] = ()
    reject: tuple[str, ...] = ()
    refuse: bool = False
    system: str = ""

    @property
    def chinese(self) -> bool:
        return any("\u4e00" <= ch <= "\u9fff" for ch in self.question)


def _c(turns: list[str], question: str, expect=(), reject=(), refuse=False, system="") -> Case:
    return Case(tuple(turns), question, tuple(expect), tuple(reject), refuse, system)


PEOPLE_EN = [
    ("Mara", "Lisbon", "Porto", "brother", "Kofi", 30),
    ("Jonas", "Berlin", "Hamburg", "sister", "Anika", 41),
    ("Priya", "Toronto", "Ottawa", "friend", "Tomas", 27),
    ("Lena", "Oslo", "Bergen", "colleague", "Diego", 35),
    ("Ines", "Madrid", "Seville", "cousin", "Yuki", 52),
]
DRINKS_EN = ["green tea", "water", "mint tea", "orange juice", "oat milk"]


def english_cases() -> list[Case]:
    cases: list[Case] = []
    for index, (name, city, city2, rel, person, age) in enumerate(PEOPLE_EN):
        drink = DRINKS_EN[index]
        cases += [
            _c([f"Hi, my name is {name}."], "What's my name?", [name]),
            _c([f"I live in {city}."], "Where do I live?", [city]),
            _c(
                [f"I live in {city}.", f"I moved to {city2} last month."], "Where do I live?", [city2], [city]
            ),
            _c(
                [f"I live in {city}.", f"I no longer live in {city}."],
                "Where do I live?",
                ["no longer"],
                [f"You live in {city}"],
            ),
            _c([f"I used to live in {city}, now I live in {city2}."], "Where do I live?", [city2], [city]),
            _c(
                [f"My {rel} {person} lives in {city} and works as a nurse."],
                f"Where does {person} live?",
                [city],
            ),
            _c(
                [f"My {rel} {person} lives in {city} and works as a nurse."],
                f"What does {person} do?",
                ["nurse"],
            ),
            _c(
                [f"My {rel} {person} lives in {city} and works as a nurse."],
                f"What's my {rel}'s name?",
                [person],
            ),
            _c(
                [f"My {rel} {person} lives in {city} and works as a nurse."],
                f"Where does my {rel} live?",
                [city],
            ),
            _c(
                [f"My {rel} {person} lives in {city} and works as a nurse."],
                "Where do I live?",
                refuse=True,
                reject=[city],
            ),
            _c(
                [f'My colleague {person} said: "I live in {city}."'],
                "Where do I live?",
                refuse=True,
                reject=[city],
            ),
            _c([f'My colleague {person} said: "I live in {city}."'], f"Where does {person} live?", [city]),
            _c([f"I'm {name}. I'm from {city}."], "What's my name and where am I from?", [name, city]),
            _c(
                [f"I'm {name}.", f"I live in {city2}."], "Where do I live, and what's my name?", [city2, name]
            ),
            _c([f"I'm {age}.", f"I just turned {age + 1}."], "How old am I?", [str(age + 1)], [str(age)]),
            _c([f"I'm {age}.", "Today is my birthday!"], "How old am I?", [str(age + 1)], [f"{age} years"]),
            _c(["I am Brazilian."], "What's my name?", refuse=True, reject=["Brazilian"]),
            _c([f"My dog's name is {person}."], "What's my name?", refuse=True, reject=[person]),
            _c([f"My dog's name is {person}."], "What's my dog's name?", [person]),
            _c(
                [],
                f"Where does {person} live?",
                [city],
                system=f"{NOTES}\n{person}: {person} lives in {city} and works as a teacher.",
            ),
            _c(
                [],
                f"What does {person} do?",
                ["teacher"],
                system=f"{NOTES}\n{person}: {person} lives in {city} and works as a teacher.",
            ),
            _c(
                [],
                "Where do I live?",
                [city],
                system=f"{SUMMARY}\nThe human's name is {name}. The human lives in {city}.",
            ),
            _c([], "What's my name?", [name], system=f"{STORED}\n- name: {name}\n- city: {city}"),
            _c(
                [],
                "Where do I live?",
                [city, city2, "disagrees"],
                system=f"{RETRIEVED}\nHuman: I live in {city}.\nAI: Got it.\nHuman: I live in {city2}.",
            ),
            _c(
                [],
                "Where do I live?",
                [city2],
                [city],
                system=f"{RETRIEVED}\nHuman: I moved to {city2}.\nHuman: I live in {city}.",
            ),
            _c([f"I live in {city}."], "What's my order number?", refuse=True, reject=[city]),
            _c([f"My {rel} {person} lives in {city}."], "Where does Zed live?", refuse=True, reject=[city]),
            _c(
                [
                    "I used to love coffee, but I don't drink coffee anymore. These days I only drink "
                    + drink
                    + "."
                ],
                "What do I drink these days?",
                [drink],
                ["coffee"],
            ),
            _c(
                ["My favourite colour is blue.", "I changed my mind: my favourite colour is green."],
                "What's my favourite colour?",
                ["green"],
                ["blue"],
            ),
            _c(
                [f"My order number is A-{index}1.", f"My order number is now B-{index}2."],
                "What's my order number?",
                [f"B-{index}2"],
                [f"A-{index}1"],
            ),
            _c(
                [f"I live in {city}.", f"Forget what I said about {city}."],
                "Where do I live?",
                reject=[f"You live in {city}"],
            ),
            _c(["I like tea and jazz.", "I don't like jazz anymore."], "What do I like?", ["tea"], ["jazz"]),
            _c([f"My sister {person} is {age}. She lives in {city}."], f"How old is {person}?", [str(age)]),
            _c([f"My sister {person} is {age}. She lives in {city}."], f"Where does {person} live?", [city]),
            _c([f"{person} told me she lives in {city2}."], f"Where does {person} live?", [city2]),
            _c([f"I'm {name} and I work as an architect."], "What do I do for work?", ["architect"]),
            _c(
                [f"I don't live in {city}."],
                "Where do I live?",
                [f"not {city}"],
                ["no longer", f"You live in {city}"],
            ),
            _c(
                [f"My brother {person} lives in {city}.", f"He moved to {city2}."],
                f"Where does {person} live?",
                [city2],
                [city],
            ),
            # A summary written by an LLM (SummarizationMiddleware puts it in a human message).
            _c(
                [
                    f"Here is a summary of the conversation to date:\n\n## SUMMARY\nThe user's name is {name}. "
                    f"The user no longer lives in {city}. Her {rel} {person} lives in {city2} and works as a nurse.",
                    "Thanks.",
                ],
                f"What's my {rel}'s name, and where does {person} live?",
                [person, city2],
            ),
            _c(
                [
                    f"Here is a summary of the conversation to date:\n\n## SUMMARY\nThe user's name is {name}. "
                    f"The user no longer lives in {city}.",
                ],
                "Where do I live?",
                ["no longer"],
                [f"You live in {city}"],
            ),
            # A summary that says "now" is newer than a retrieved old line.
            _c(
                [],
                "Where do I live?",
                [city2],
                [city],
                system=f"{SUMMARY}\nThe human now lives in {city2}.\n\n{RETRIEVED}\nHuman: I live in {city}.",
            ),
            # Notes from a store searched by similarity: no order between them, but a move is a change.
            _c(
                [],
                "Where do I live?",
                [city2],
                [city],
                system=f"Memories (by similarity):\n- The user lives in {city}.\n- The user moved to {city2}.",
            ),
        ]
    return cases


PEOPLE_ZH = [
    ("小明", "北京", "上海", "哥哥", "小王", 30),
    ("小红", "杭州", "广州", "姐姐", "小丽", 41),
    ("李雷", "南京", "深圳", "朋友", "张伟", 27),
    ("韩梅梅", "成都", "重庆", "同事", "安娜", 35),
    ("王芳", "西安", "武汉", "妹妹", "小美", 52),
]
DRINKS_ZH = ["绿茶", "白开水", "红茶", "橙汁", "牛奶"]


def chinese_cases() -> list[Case]:
    cases: list[Case] = []
    for index, (name, city, city2, rel, person, age) in enumerate(PEOPLE_ZH):
        drink = DRINKS_ZH[index]
        cases += [
            _c([f"我叫{name}。"], "我叫什么名字？", [name]),
            _c([f"我叫{name}。"], "你好，我是谁？", [name], ["回答不了"]),
            _c([f"我住在{city}。"], "我住在哪里？", [city]),
            _c([f"我住在{city}。", f"我搬到{city2}了。"], "我住在哪里？", [city2], [city]),
            _c([f"我住在{city}。", f"我现在不住在{city}了。"], "我住在哪里？", ["已经不"], [f"你住在{city}"]),
            _c([f"我已经不住{city}了，搬到{city2}了。"], "我住在哪里？", [city2], [city]),
            _c([f"我以前住在{city}，现在住在{city2}。"], "我住在哪里？", [city2], [city]),
            _c(["我喜欢咖啡。", "我不喜欢咖啡了。"], "我喜欢什么？", ["不再喜欢"], ["你喜欢咖啡"]),
            _c([f"我{rel}{person}住在{city}，是一名医生。"], f"{person}住在哪里？", [city]),
            _c([f"我{rel}{person}住在{city}，是一名医生。"], f"{person}做什么工作？", ["医生"]),
            _c([f"我{rel}{person}住在{city}，是一名医生。"], f"我{rel}叫什么？", [person]),
            _c([f"我{rel}{person}住在{city}，是一名医生。"], f"我{rel}住在哪里？", [city]),
            _c([f"我{rel}{person}住在{city}，是一名医生。"], "我住在哪里？", refuse=True, reject=[city]),
            _c([f"我同事{person}说：“我住在{city}。”"], "我住在哪里？", refuse=True, reject=[city]),
            _c([f"我同事{person}说：“我住在{city}。”"], f"{person}住在哪里？", [city]),
            _c([f"我叫{name}，来自{city}。"], "我叫什么，来自哪里？", [name, city]),
            _c([f"我叫{name}。", f"我住在{city2}。"], "我住在哪里？还有我叫什么？", [city2, name]),
            _c([f"我今年{age}岁。", f"我刚满{age + 1}岁。"], "我多大？", [str(age + 1)], [f"{age}岁"]),
            _c([f"我今年{age}岁。", "今天是我的生日！"], "我今年几岁？", [str(age + 1)], [f"{age}岁"]),
            _c(["我的狗叫旺财。"], "我叫什么名字？", refuse=True, reject=["旺财"]),
            _c(["我的狗叫旺财。"], "我的狗叫什么？", ["旺财"]),
            _c([], f"{person}住在哪里？", [city], system=f"{NOTES}\n{person}：{person}住在{city}。"),
            _c(
                [],
                "我住在哪里？",
                [city],
                system=f"{SUMMARY}\nThe human's name is {name}. The human lives in {city}.",
            ),
            _c([], "我叫什么名字？", [name], system=f"{STORED}\n- name: {name}\n- city: {city}"),
            _c([], "我住在哪里？", [city], system=f"对话摘要：\n用户叫{name}。用户住在{city}。"),
            _c([], "我叫什么名字？", [name], system=f"对话摘要：\n用户叫{name}。用户住在{city}。"),
            _c(
                [],
                "我住在哪里？",
                [city, city2, "矛盾"],
                system=f"{RETRIEVED}\nHuman: 我住在{city}。\nAI: 记住了。\nHuman: 我住在{city2}。",
            ),
            _c([f"我住在{city}。"], "我的订单号是什么？", refuse=True, reject=[city]),
            _c([f"我以前喝咖啡，现在只喝{drink}。"], "我现在喝什么？", [drink], ["咖啡"]),
            _c(
                [f"我的订单号是A-{index}1。", f"我的订单号改成了B-{index}2。"],
                "我的订单号是什么？",
                [f"B-{index}2"],
                [f"A-{index}1"],
            ),
            _c(
                ["我最喜欢的颜色是蓝色。", "我改主意了，我最喜欢的颜色是绿色。"],
                "我最喜欢的颜色是什么？",
                ["绿色"],
                ["蓝色"],
            ),
        ]
    return cases


def greeting_and_people_cases() -> list[Case]:
    """A greeting or thanks with a question, and several people in one question (issue 9's last two
    wrong answers and their siblings), in both languages."""
    cases: list[Case] = []
    retrieved_en = f"{RETRIEVED}\ninput: What's the weather in Lisbon?\noutput: I can't answer that from what I was given."
    retrieved_zh = f"{RETRIEVED}\ninput: 里斯本的天气怎么样？\noutput: 这个我回答不了：我收到的内容里没有。"
    for (name, city, city2, _, person, _), (zh_name, zh_city, zh_city2, _, zh_person, _) in zip(
        PEOPLE_EN, PEOPLE_ZH, strict=True
    ):
        intro = f"Hi! I'm {name}, I work as a nurse. My sister {person} lives in {city}."
        zh_intro = f"你好！我叫{zh_name}，我是一名护士。我姐姐{zh_person}住在{zh_city}。"
        cases += [
            _c([intro], f"Who is {person} and what does {name} do?", [city, "nurse"]),
            _c([intro, f"I live in {city2}."], f"Where do {name} and {person} live?", [city2, city]),
            _c([intro, f"I live in {city2}."], f"Where do {person} and I live?", [city, city2]),
            _c([intro], f"Who are {name} and {person}?", ["nurse", city]),
            _c([intro], "Where does my sister live and what's her name?", [city, person]),
            _c([intro], "Thanks, what's my name", [name], ["welcome"]),
            _c([intro], "Thanks! What's my job?", ["nurse"], ["welcome"]),
            _c([f"I live in {city2}."], "Hello, where do I live?", [city2]),
            _c(
                [],
                f"Thanks! What's the weather in {city2}?",
                refuse=True,
                reject=["welcome"],
                system=retrieved_en,
            ),
            _c([], "Thanks, what's the weather like today", refuse=True, reject=["welcome"]),
            _c([], "Hi, any tips?", refuse=True, reject=["Hello"]),
            _c([zh_intro], f"{zh_person}是谁？{zh_name}是做什么的？", [zh_city, "护士"]),
            _c([zh_intro, f"我住在{zh_city2}。"], f"{zh_person}和{zh_name}住在哪里？", [zh_city, zh_city2]),
            _c([zh_intro, f"我住在{zh_city2}。"], f"{zh_person}和我住在哪里？", [zh_city, zh_city2]),
            _c([zh_intro], "我姐姐住在哪里？她叫什么名字？", [zh_city, zh_person]),
            _c([zh_intro], "谢谢！我叫什么名字？", [zh_name], ["不客气"]),
            _c([f"我住在{zh_city2}。"], "你好，我住在哪里？", [zh_city2]),
            _c([], f"谢谢！{zh_city2}的天气怎么样？", refuse=True, reject=["不客气"], system=retrieved_zh),
            _c([], "你好，今天天气怎么样？", refuse=True, reject=["想聊点什么"]),
        ]
    return cases


CASES = english_cases() + chinese_cases() + greeting_and_people_cases()
