"""What a value of each kind looks like in a statement (a time, a dose, an age, a colour ...), and the
words of a question that name the kind it asks for."""

from __future__ import annotations

import re

from memory_demos.providers.offline_model.lexicon import CJK

_NUMBER_WORDS = (
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty"
)
_ZH_NUMBER = "一二两三四五六七八九十百半"
_CALENDAR = r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\b"
VALUES = {  # what a value of each kind the strict reading asks for looks like
    "reason": re.compile(r"\b(?:because|since|cause|'cause|cos|so that|due to)\b|因为|由于|所以|为了", re.I),
    "duration": re.compile(
        rf"(?:\d+|\b(?:{_NUMBER_WORDS}|a|an|half an?|a few|couple of)\b)\s*(?:more\s+|extra\s+)?"
        rf"(?:minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?|years?|yrs?|nights?)\b|[\d{_ZH_NUMBER}]+\s*(?:个)?(?:分钟|小时|钟头|天|周|星期|个月|月|年|晚)|"
        rf"半(?:个)?(?:小时|天|年|月)",
        re.I,
    ),
    "clock": re.compile(
        r"\d{1,2}[:.]\d\d|\d\s*(?:am|pm|a\.m|p\.m)\b|"
        r"\b(?:noon|midnight|o'clock|half past|quarter (?:past|to)|"
        r"morning|afternoon|evening|night)|\bat\s+\d|[\d一二两三四五六七八九十]+点|中午|半夜|凌晨|早上|晚上|下午|上午",
        re.I,
    ),
    "time": re.compile(
        r"\d|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|"
        r"\b(?:today|tomorrow|tonight|yesterday|morning|afternoon|evening|noon|midnight|week|weekend|month|year|"
        r"spring|summer|autumn|fall|winter|christmas|o'clock)\b|[点号月日周年天]|星期|今天|明天|后天|昨天|早上|晚上|下午|上午|中午|周末",
        re.I,
    ),
    "number": re.compile(
        r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|"
        r"hundred|dozen|couple|a few|several|once|twice|single|no)\b|[一二两三四五六七八九十百千万]",
        re.I,
    ),
    "money": re.compile(r"\d|[$€£¥]|\b(?:free|hundred|thousand)\b|[块元钱]", re.I),
    "place": re.compile(r"\b(?:in|at|to|from|near|on)\s+\w|(?<!^)\b[A-Z][a-z]+|[在住去到从来自市省区县路街]"),
    "person": re.compile(r"(?<!^)\b(?!" + _CALENDAR + r")[A-Z][a-z]+|[" + CJK + r"]"),
    "name": re.compile(r"(?<!^)\b(?!" + _CALENDAR + r")[A-Z][a-z]+|\bnamed?\b|\bcalled\b|叫|名字"),
    "job": re.compile(
        r"[是当做干]|工作|上班|\b(?:is|am|are|was|'s|'m)\s+(?:a|an)\s|\bworks?\b|\bjob\b|\bteach|\bstud(?:y|ies|ent)\b"
        r"|\bruns?\b|\bowns?\b|\bmanag|\bretired\b",
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
        rf"\b\d{{1,3}}\b(?!\s*(?::|am\b|pm\b|%|mg|kg|km|th\b|st\b|nd\b|rd\b))|\b(?:{_NUMBER_WORDS})\b|"
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
        r"\b\d+[a-z]?\s+(?:[A-Z][a-z]+\s+){1,3}(?:Street|St|Road|Rd|Close|Avenue|Ave|Lane|Ln|Way|Drive|Dr|Place|"
        r"Court|Crescent|Terrace|Square|Boulevard|Blvd)\b|[\u4e00-\u9fff]{1,6}(?:路|街|巷|道)\d*号?",
    ),
    "colour": re.compile(
        r"\b(?:red|blue|green|yellow|black|white|grey|gray|pink|purple|orange|brown|silver|gold|teal|navy|beige|"
        r"cream|maroon|turquoise)\b|[红蓝绿黄黑白灰粉紫橙棕金银]色",
        re.I,
    ),
    "job": re.compile(
        r"\b(?:I'm|I\s+am|is|he's|she's|was|'s)\s+(?:a|an|the)\s+(?!bit\b|little\b|lot\b|big\b|huge\b|fan\b|mess\b)"
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
