"""Battery cases for the QA review's wrong answers (issue 9 follow-up), in English and Chinese.

A job left (quit, left, lost, retired, stopped; 辞职, 辞掉, 不做…了, 退休), a name corrected in one
clause, "who" questions that name a value, and yes/no questions. Then the last leftovers: negations
acknowledged as sentences ("you don't live in Lisbon", 你不住在北京), 是Y，不是X corrections, a third
person fired (got fired, 被辞退), and "What did I do before?" / 我以前做什么工作？ Each pattern
comes with siblings and is filled with several names, places and jobs, so a rule that fits one
spelling fails.
"""

from __future__ import annotations

from tests.offline_battery import PEOPLE_EN, PEOPLE_ZH, STORED, SUMMARY, Case, _c

JOBS_EN = ["nurse", "teacher", "baker", "pilot", "dentist"]
JOBS_ZH = ["护士", "老师", "医生", "工程师", "会计师"]
NEW_NAMES_EN = ["Maria", "Jonah", "Priyanka", "Helena", "Inez"]
NEW_NAMES_ZH = ["小李", "小芳", "李明", "韩梅", "王丽"]
_LEFT_JOB_EN = [
    "I quit my job as a {job} last week.",
    "I left my job as a {job}.",
    "I stopped working as a {job}.",
    "I lost my job.",
    "I retired last year.",
    "I'm retired now.",
    "I got fired last month.",
    "I resigned.",
]
_LEFT_JOB_ZH = [
    "我上周辞掉了{job}的工作。",
    "我辞职了。",
    "我不做{job}了。",
    "我退休了。",
    "我已经不当{job}了。",
    "我已经离职了。",
]


def _left_job_en(name: str, city: str, rel: str, person: str, job: str, new_job: str) -> list[Case]:
    intro = f"Hi, I'm {name}, I live in {city} and work as a {job}."
    cases = [
        _c([intro, left.format(job=job)], "What's my job?", ["no longer"], ["You work as", "You're a"])
        for left in _LEFT_JOB_EN
    ]
    return [
        *cases,
        _c(
            [intro, f"I quit my job as a {job}.", f"Now I work as a {new_job}."],
            "What's my job?",
            [new_job],
            [job],
        ),
        _c([intro, f"I quit my job as a {job}."], f"Am I a {job}?", ["No"], ["Yes"]),
        _c([intro, f"I quit my job as a {job}."], "What was my job before?", [f"used to work as a {job}"]),
        _c([intro, "I quit my job."], "Where do I live?", [city]),
        _c(
            [f"My {rel} {person} works as a {job}.", f"{person} quit his job."],
            f"What does {person} do?",
            reject=[f"{person} works as"],
        ),
        _c(
            [],
            "What's my job?",
            ["no longer", job],
            ["You work as"],
            system=f"{STORED}\njob: no longer {job}",
        ),
        _c(
            [],
            "What's my job?",
            ["no longer", job],
            ["You work as"],
            system=f"{SUMMARY}\nThe human lives in {city}. The human no longer works as a {job}.",
        ),
    ]


def _left_job_zh(name: str, city: str, rel: str, person: str, job: str) -> list[Case]:
    intro = f"我叫{name}，我住在{city}，是一名{job}。"
    cases = [
        _c([intro, left.format(job=job)], "我的工作是什么？", ["不再"], [f"你的工作是{job}"])
        for left in _LEFT_JOB_ZH
    ]
    return [
        *cases,
        _c([intro, f"我辞掉了{job}的工作。"], "我住在哪里？", [city]),
        _c(
            [f"我{rel}{person}是一名{job}。", f"{person}辞职了。"],
            f"{person}做什么工作？",
            reject=[f"是{job}。"],
        ),
        _c([], "我的工作是什么？", ["不再", job], system=f"{STORED}\njob: no longer {job}"),
    ]


def _names_en(name: str, new: str) -> list[Case]:
    corrections = [
        f"Actually my name is not {name}, it's {new}.",
        f"My name isn't {name}, it's {new}.",
        f"I'm not {name}, I'm {new}.",
        f"Call me {new}, not {name}.",
        f"My name is {new}, not {name}.",
        f"Please call me {new}.",
        f"Sorry, it's {new}, not {name}.",
    ]
    cases = [
        _c([f"Hi, I'm {name}.", said], "What's my name?", [new], [f"Your name is {name}."])
        for said in corrections
    ]
    return [
        *cases,
        _c([f"My name is {name}."], corrections[0], [f"your name is {new}"], ["It's", "Nice to meet"]),
        _c([f"My name is {name}.", corrections[1]], f"Is my name {name}?", ["No", new]),
    ]


def _names_zh(name: str, new: str) -> list[Case]:
    return [
        _c([f"我叫{name}。", f"我不叫{name}，我叫{new}。"], "我叫什么名字？", [new], [f"你叫{name}。"]),
        _c([f"我叫{name}。", f"我的名字不是{name}，是{new}。"], "我叫什么名字？", [new], [f"你叫{name}。"]),
        _c([f"我叫{name}。", f"我不叫{name}，我叫{new}。"], f"我叫{name}吗？", ["不", new]),
        _c([f"我叫{name}。", f"叫我{new}吧。"], "我叫什么名字？", [new], [f"你叫{name}。", "吧"]),
    ]


def _who_and_whether_en(name: str, city: str, city2: str, rel: str, person: str, job: str) -> list[Case]:
    brother = f"My {rel} {person} lives in {city} and works as a {job}."
    return [
        _c([brother], f"Who lives in {city}?", [person, city]),
        _c([brother], f"Who works as a {job}?", [person]),
        _c([brother], f"Who is a {job}?", [person]),
        _c([brother], f"Who lives in {city2}?", refuse=True),
        _c([f"I live in {city2}.", brother], f"Who lives in {city2}?", [f"You live in {city2}"], [person]),
        _c([brother], f"Does {person} live in {city2}?", ["No", f"{person} lives in {city}"]),
        _c([brother], f"Does {person} live in {city}?", ["Yes", city]),
        _c([brother], f"Does {person} work as a {job}?", ["Yes"]),
        _c(
            [f"I live in {city}.", f"I no longer live in {city}, I moved to {city2}."],
            f"Do I still live in {city}?",
            ["No", city2],
        ),
        _c([f"I live in {city}."], f"Do I live in {city}?", ["Yes", city]),
        _c([f"I live in {city}."], f"Do I live in {city2}?", ["No", city]),
        _c([f"My name is {name}."], f"Do I live in {city}?", refuse=True),
        _c([f"My name is {name}."], f"Is my name {name}?", ["Yes", name]),
        _c([f"I live in {city}."], "Where did I live before?", refuse=True),
        _c(
            [f"I live in {city}.", f"Oops, it's {city2}, not {city}."],
            "Where do I live?",
            [city2],
            [f"in {city}"],
        ),
        _c(
            [brother, f"Sorry, it's {city2}, not {city}."],
            f"Where does {person} live?",
            [city2],
            [f"in {city}"],
        ),
        _c([f"I live in {city}.", f"I moved to {city2}."], "Where did I live before?", [city], [city2]),
        _c([f"I live in {city}.", f"I moved to {city2}."], f"Who lives in {city}?", ["no longer"]),
        _c(["I like green tea."], "Do I like coffee?", refuse=True),
        _c(["I like green tea.", "I don't like coffee."], "Do I like coffee?", ["No"]),
        _c(["I like green tea."], "Do I like green tea?", ["Yes"]),
    ]


def _who_and_whether_zh(name: str, city: str, city2: str, rel: str, person: str, job: str) -> list[Case]:
    relative = f"我{rel}{person}住在{city}，是一名{job}。"
    return [
        _c([relative], f"谁住在{city}？", [person, city]),
        _c([relative], f"谁是{job}？", [person]),
        _c([relative], f"谁住在{city2}？", refuse=True),
        _c([relative], f"{person}住在{city2}吗？", ["不", f"{person}住在{city}"]),
        _c([relative], f"{person}住在{city}吗？", ["是的", city]),
        _c([f"我住在{city}。", f"我已经不住{city}了，搬到{city2}了。"], f"我还住在{city}吗？", ["不", city2]),
        _c([f"我住在{city}。"], f"我住在{city}吗？", ["是的", city]),
        _c([f"我叫{name}。"], f"我住在{city}吗？", refuse=True),
        _c([f"我住在{city}。"], "我以前住在哪里？", refuse=True),
        _c([f"我住在{city}。", f"我搬到{city2}了。"], "我以前住在哪里？", [city], [city2]),
    ]


def _leftovers_en(name: str, city: str, city2: str, rel: str, person: str, job: str) -> list[Case]:
    """A negation acknowledged as a sentence, third-person firing, "what did I do before?"."""
    works = f"My {rel} {person} works as a {job}."
    return [
        _c(
            [f"I live in {city2}."],
            f"I don't live in {city}.",
            [f"you don't live in {city}"],
            ["Got it: not"],
        ),
        _c([], f"I'm not a {job}.", [f"you don't work as a {job}"], ["Got it: not"]),
        _c([], f"My name isn't {name}.", [f"your name isn't {name}"], ["Got it: not"]),
        _c([], f"{person} doesn't live in {city}.", [f"{person} doesn't live in {city}"], ["Got it: not"]),
        *[
            _c([works, fired], f"What does {person} do?", ["no longer", job], [f"{person} works as"])
            for fired in (f"{person} got fired.", f"{person} lost his job.", f"{person} was fired last week.")
        ],
        _c([f"I work as a {job}.", "I quit my job."], "What did I do before?", [f"used to work as a {job}"]),
        _c([f"I work as a {job}."], "What did I do before?", refuse=True),
        _c([f"I live in {city}.", f"I moved to {city2}."], "What did I do before?", refuse=True),
    ]


def _leftovers_zh(name: str, new: str, city: str, city2: str, rel: str, person: str, job: str) -> list[Case]:
    """是Y，不是X corrections, 我不住在… acknowledged, 被辞退, 我以前做什么工作？"""
    return [
        *[
            _c([f"我叫{name}。", said], "我叫什么名字？", [new], [f"你叫{name}。"])
            for said in (f"不对，是{new}，不是{name}。", f"是{new}，不是{name}。", f"不是{name}，是{new}。")
        ],
        _c([f"我叫{name}。", f"不对，是{new}，不是{name}。"], f"我叫{name}吗？", ["不", new]),
        _c([f"我住在{city}。", f"不对，是{city2}，不是{city}。"], "我住在哪里？", [city2], [f"住在{city}。"]),
        _c([f"我住在{city2}。"], f"我不住在{city}。", [f"你不住在{city}"], ["“"]),
        _c([], f"我不是{job}。", [f"你不是{job}"], ["“"]),
        _c([f"我住在{city2}。", f"我不住在{city}。"], "我住在哪里？", [city2]),
        _c([f"我不住在{city}。"], "我住在哪里？", [f"不是{city}"]),
        _c([f"我{rel}{person}是一名{job}。", f"{person}被辞退了。"], f"{person}做什么工作？", ["不再", job]),
        _c([f"我{rel}{person}是一名{job}。", f"{person}被开除了。"], f"{person}是{job}吗？", ["不"]),
        _c([f"我是一名{job}。", "我辞职了。"], "我以前做什么工作？", [job]),
        _c([f"我是一名{job}。", "我辞职了。"], "我以前是做什么的？", [job]),
        _c([f"我是一名{job}。"], "我以前做什么工作？", refuse=True),
    ]


def correction_cases() -> list[Case]:
    """Every case of this file."""
    cases: list[Case] = []
    for index, (
        (name, city, city2, rel, person, _),
        (zh_name, zh_city, zh_city2, zh_rel, zh_person, _),
    ) in enumerate(zip(PEOPLE_EN, PEOPLE_ZH, strict=True)):
        job, zh_job = JOBS_EN[index], JOBS_ZH[index]
        cases += _left_job_en(name, city, rel, person, job, JOBS_EN[(index + 1) % len(JOBS_EN)])
        cases += _left_job_zh(zh_name, zh_city, zh_rel, zh_person, zh_job)
        cases += _names_en(name, NEW_NAMES_EN[index]) + _names_zh(zh_name, NEW_NAMES_ZH[index])
        cases += _who_and_whether_en(name, city, city2, rel, person, job)
        cases += _who_and_whether_zh(zh_name, zh_city, zh_city2, zh_rel, zh_person, zh_job)
        cases += _leftovers_en(name, city, city2, rel, person, job)
        cases += _leftovers_zh(zh_name, NEW_NAMES_ZH[index], zh_city, zh_city2, zh_rel, zh_person, zh_job)
    return cases
