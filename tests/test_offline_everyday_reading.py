"""Everyday conversations the offline model misread before (the fourth day's QA walk and dev batteries):
each answer holds the value said, leaves out the one replaced or another person's, or refuses."""

from __future__ import annotations

import pytest

from memory_demos.scenarios import is_refusal
from tests.test_offline_battery import converse

CASES = [
    # (turns, question, any of these in the reply (None: a refusal), none of these in it)
    (("我家在海淀区中关村南大街27号 5单元301",), "门牌号多少", ("301",), ()),
    (("我住7号楼1单元902", "小区门口有个超市"), "我家门牌号", ("902",), ()),
    (("我住7号楼1单元902",), "邮编多少", None, ()),
    (("家里无线网密码 abc12345",), "无线网密码", ("abc12345",), ()),
    (("我英文名叫Amy，中文名叫王芳",), "我的英文名", ("Amy",), ("王芳",)),
    (
        ("went pescatarian last spring, mostly salmon and mussels now",),
        "what seafood do I usually have",
        ("mussels",),
        (),
    ),
    (("had an oat latte this morning, $4.50",), "how much was my coffee", ("4.50",), ()),
    (("游泳卡一年两千四，教练课另外收，一节两百",), "教练课一节多少钱", ("两百",), ("两千四",)),
    (("修电脑的师傅收了我一百五",), "修电脑花了多少", ("一百五",), ()),
    (("我每天跑步三百米热身",), "热身花了多少钱", None, ()),
    (("周末要带狗去洗澡，周六下午三点",), "几点去", ("三点",), ()),
    (("周末要带狗去洗澡，周六下午三点",), "宠物店叫什么", None, ()),
    (("胃不舒服，饭后吃半粒奥美拉唑",), "饭后吃多少", ("半粒",), ()),
    (("明天上午要去医院拔牙",), "哪个医院", None, ()),
    (("明天上午要去华西医院拔牙",), "哪个医院", ("华西",), ()),
    (("这周五带孩子去学校开家长会",), "孩子在哪所学校", None, ()),
    (("我家狗叫旺财，五岁了",), "它多重", None, ("五岁",)),
    (("我家狗叫旺财，五岁了，体重二十斤",), "旺财多重", ("二十斤",), ("五岁",)),
    (("车开了三万公里了",), "车开了多少公里", ("三万公里",), ()),
    (("住的酒店离地铁站走路五分钟",), "酒店离地铁站多远", ("五分钟",), ()),
    (("the film starts at 9:10 so let's eat first",), "which film are we seeing", None, ()),
    (
        ("we're seeing Oppenheimer, the film starts at 9:10",),
        "which film are we seeing",
        ("Oppenheimer",),
        (),
    ),
    (("the hotel is a ten minute walk from the station",), "what hotel am i staying at", None, ()),
    (("staying at a hotel called the Grand, ten minutes from the station",), "what hotel", ("Grand",), ()),
    (("my train leaves at 8:05 from platform 4",), "what's my seat number", None, ()),
    (("flight BA 283 boards at 10:40",), "what's my flight number", ("BA 283",), ()),
    (("航班是早上七点五十起飞",), "航班号多少", None, ()),
    (
        ("two flatmates, Sam and Lee. Sam does the laundry, Lee pays the rent",),
        "who pays the rent",
        ("Lee",),
        ("Sam",),
    ),
    (("Tuesday mornings are busy for me",), "who is Tuesday", None, ()),
    (("我表妹今年考上了复旦，学法律",), "我表妹考上了哪个学校", ("复旦",), ()),
    (("我表妹还在读高中",), "我表妹在哪个学校", None, ()),
    (("女儿下周三开家长会",), "谁开家长会", ("你女儿下周三",), ("女儿女儿",)),
    (("我们单位早上九点打卡，五点半下班",), "几点上班", ("九点",), ("五点半",)),
    (("周日要去驾校考科目三，教练让七点半前到",), "科目二什么时候考", None, ()),
    (("下周去考科目一，上午九点",), "科目一几点", ("九点",), ()),
    (("我最近迷上了攀岩，每周三晚上去",), "我的爱好是啥", ("攀岩",), ()),
    (("我们组阿杰负责设计，小周管运维",), "谁负责运维", ("小周",), ("阿杰",)),
    (("医生说我湿疹，让少接触洗洁精",), "医生让我少碰什么", ("洗洁精",), ()),
    (("我租了个两居室，月租六千二",), "房租多少", ("六千二",), ()),
    (("我姐下周三去面试，我哥周五飞上海出差", "我姐哪天面试"), "我哥呢", ("周五",), ("周三",)),
    (("no more desserts for me till the wedding",), "what's my favourite dessert", None, ()),
    (("my favourite dessert is tiramisu",), "what's my favourite dessert", ("tiramisu",), ()),
    (("the coach to Bristol leaves Victoria at 9:15",), "what time does it arrive", None, ()),
    (("spent about 200 on food this week",), "how much did i spend on food last week", None, ()),
    (("上周体检花了八百，这周看牙花了三百",), "上周花了多少", ("八百",), ("三百",)),
    (("五一去四川，先到成都，再去乐山，最后峨眉山",), "最后去哪", ("峨眉山",), ("乐山",)),
    (("我的工号是B2291，工位在八楼",), "工号", ("B2291",), ("八楼",)),
    (("我觉得杭州的春天最舒服，北京的风沙太大了",), "我对北京的看法", ("风沙",), ("春天",)),
    (("我弟的手机号，13812345678，别弄丢了",), "我弟手机号多少", ("13812345678",), ()),
    (
        ("finished my antibiotics yesterday finally. 10 days of amoxicillin",),
        "what antibiotic was i on?",
        ("amoxicillin",),
        (),
    ),
    (("my doctor put me on ibuprofen for the knee",), "what painkiller am i taking", ("ibuprofen",), ()),
    (("I take ibuprofen sometimes",), "what antibiotic am i on", None, ()),
    (("最近在减肥，晚上不吃主食，早上一个鸡蛋一杯燕麦",), "我早餐吃啥？", ("鸡蛋",), ("主食",)),
    (("我每天早上吃两片全麦面包",), "早饭吃什么", ("面包",), ()),
    (("医生给我开了布洛芬，说疼的时候吃一片，一天不超过三片",), "一天最多吃几片？", ("三片",), ()),
    (("我每天吃鱼油",), "我吃什么补剂", ("鱼油",), ()),
    (
        ("i like my coffee black, no sugar. tea i take with milk though",),
        "what's my favourite coffee shop",
        None,
        (),
    ),
    (("my favourite coffee shop is Blue Door",), "what's my favourite coffee shop", ("Blue Door",), ()),
    (("我老婆生日是5月18号，我是10月2号",), "我生日哪天？", ("10月2",), ("5月18",)),
    (("我老婆生日是5月18号，我是10月2号",), "我老婆生日呢", ("5月18",), ("10月2",)),
    (("我弟弟身高一米八，我是一米七",), "我身高多少", ("一米七",), ("一米八",)),
    (("my sister's flight lands at 6pm and mine is at 9",), "when does my flight land", ("9",), ("6pm",)),
    (("oh and grandma's is the 30th of January",), "whens my grandma's birthday", None, ()),
    (
        ("mom's birthday is May 14", "oh and grandma's is the 30th of January"),
        "whens my grandma's birthday",
        ("30th",),
        ("May",),
    ),
    (
        ("mom's birthday is May 14 and dad's is October 2", "when is my dad's birthday"),
        "and mom's",
        ("May 14",),
        ("October",),
    ),
    (("我周一到周四上班，周五休息，周末在奶茶店兼职", "我周五干嘛"), "周末呢", ("奶茶",), ("休息",)),
    (("周六上午去医院体检",), "周六干嘛", ("体检",), ()),
    (("我老板下个月要出差，我同事小刘也去",), "小刘是谁", ("同事",), ("老板",)),
    (("春节回老家哈尔滨 听说零下二十多度",), "我老家在哪", ("哈尔滨",), ()),
    (("国庆回成都",), "我回哪里", ("成都",), ()),
    (("坐高铁回老家要五个小时",), "我老家在哪", None, ()),
    (("楼下健身房早上七点开门 晚上十点关门",), "健身房几点关门", ("十点",), ("七点",)),
    (("图书馆上午九点开门，晚上九点半关门",), "图书馆几点关门", ("九点半",), ()),
    (("我儿子幼儿园六一有表演",), "表演哪天", ("六一",), ()),
    (("国庆带爸妈去三亚",), "啥时候去三亚", ("国庆",), ()),
    (("我下周三下午三点约了牙医", "我约了啥", "几点"), "哪天来着", ("周三",), ()),
    (
        ("dentist appointment on friday at 4:15", "when is the dentist?", "what time?"),
        "and which day?",
        ("friday",),
        (),
    ),
    (
        ("we're seeing the band at 8, their name is Wolf Alice",),
        "name of the band",
        ("Wolf Alice",),
        ("meet",),
    ),
    (
        ("rent is 1800 and the electric bill is about 90",),
        "roughly what's the electric bill",
        ("90",),
        ("Got it",),
    ),
    (("my sister is coming to stay on friday, until sunday", "who's coming?"), "until when", ("sunday",), ()),
    (("hey name's oliver",), "whats my name", ("Oliver",), ()),
    (("老大是儿子叫豆豆，上初二",), "豆豆上几年级", ("初二",), ()),
    (("我女儿今年上三年级了",), "她几年级", ("三年级",), ()),
    (("我妈今年六十了，刚退休，现在天天跳广场舞",), "她现在每天干嘛", ("广场舞",), ()),
    (("我跟阿杰打算国庆去云南 先大理再丽江", "大概玩七天吧"), "打算玩几天", ("七天",), ()),
    (("记一下我妈的手机号，13905718826，她老换号我都记不住",), "我妈手机号多少", ("13905718826",), ()),
    (("记一下我妈的手机号，13905718826",), "我爸手机号呢", None, ()),
    (("我的工号，20471",), "我工号多少", ("20471",), ()),
    (("hey! name's Oliver btw. I'm allergic to peanuts",), "whats my name", ("Oliver",), ("btw",)),
    (
        ("我叫陈静，在深圳做产品经理。", "我老公叫阿明，他是牙医。"),
        "我老公做什么工作？",
        ("牙医",),
        ("产品经理",),
    ),
    (
        ("我叫陈静，在深圳做产品经理。", "我老公叫阿明，他是牙医。"),
        "我老公叫什么，做什么的？",
        ("牙医",),
        ("产品经理",),
    ),
    (("我老公是四川人",), "我老公做什么工作？", None, ()),
    (("我养了一只柯基叫旺财，三岁，特别能吃",), "我家狗叫啥", ("旺财",), ()),
    (("我家住在三楼，楼下是超市",), "我家里有几口人", None, ()),
    (("我一般晚上十一点半睡，早上七点起",), "我几点起床", ("七点",), ("十一点",)),
    (("我儿子在读大三，学的是土木工程",), "他大几", ("大三",), ("记住",)),
    (("我今年三十几，在杭州上班",), "我今年三十几", ("三十几",), ()),
    (
        ("my gym locker is 118 and the code is 4471, i always forget it",),
        "what's my locker code?",
        ("4471",),
        (),
    ),
    (("dinner with Sam on thursday. forget it, it got cancelled",), "when is dinner with Sam?", None, ()),
    (
        ("my husband is doing keto and my daughter only eats pasta lol, dinners are chaos",),
        "what does my daughter eat",
        ("pasta",),
        ("chaos", "lol"),
    ),
    (("我一般晚上十一点半睡，早上七点起",), "几点睡觉？", ("十一点半",), ("七点",)),
    (("我是北京人，我媳妇是湖南人",), "我媳妇是哪里人", ("湖南",), ("北京",)),
    (("我是北京人，我老婆特别能吃辣",), "我老婆能不能吃辣", ("辣",), ("记住",)),
    (("我是回民，不吃猪肉。我媳妇特别能吃辣",), "我不吃什么", ("猪肉",), ("辣",)),
    (("I eat fish but I am not eating pork this month",), "what dont i eat", ("pork",), ()),
    (("我闺女叫朵朵，我儿子叫乐乐",), "我女儿叫什么", ("朵朵",), ("乐乐",)),
    (("We are taking our son hiking on Saturday.",), "What are we doing on Saturday?", ("hiking",), ()),
    (("my tutor teaches me piano on mondays",), "when are my lessons", ("monday",), ()),
    (("we r going to lisbon in june",), "where r we going", ("lisbon",), ()),
    (("I am allergic to peanuts, by the way.",), "Am I allergic to anything?", ("peanut",), ()),
    (("I teach chemistry at a high school in Austin.",), "Where do I work?", ("Austin",), ()),
    (("I work at a bank in Leeds",), "what do i teach", None, ()),
    (("my wife has the minivan and I have an old Honda Civic",), "what do i drive", ("Civic",), ("minivan",)),
    (("I drive to work, it takes 20 minutes",), "what car do i have", None, ()),
    (("I love hiking and my sister is allergic to cats",), "am i allergic to anything", None, ()),
    (("我最喜欢秋天，我老婆喜欢春天",), "我喜欢哪个季节", ("秋天",), ("春天",)),
    (("我老公在杭州工作，我在上海",), "我老公在哪儿上班", ("杭州",), ()),
    (("我奶奶每天吃一种降血糖的药，叫二甲双胍",), "奶奶吃什么药", ("二甲双胍",), ("奶奶叫",)),
    (
        ("我妈每天早上吃降压药，叫氨氯地平。我爸吃的是二甲双胍",),
        "我妈吃的什么药",
        ("氨氯地平",),
        ("二甲双胍",),
    ),
    (("I'm knitting a scarf for my nephew, it's blue",), "who is the scarf for", ("nephew",), ()),
    (("got a new kettle from my sister for christmas",), "who gave me the kettle", ("sister",), ()),
    (("my shift this week is 7am until 3pm",), "what time do i finish work", ("3pm",), ()),
    (("flying to Tokyo on friday, connecting in Dubai",), "where is my stopover", ("Dubai",), ()),
    (("having a housewarming on saturday, about 15 people coming",), "how many guests", ("15",), ()),
    (("I finished the book, the title is Dune",), "what is my job title", None, ()),
    (("my phone is a pixel 7 from my old job",), "how much storage does the pixel have", None, ()),
    (("my kettle broke again, the handle snapped",), "what brand is my kettle", None, ()),
    (
        ("dentist on the 3rd at 9:30, and the boiler service is on the 8th",),
        "what time is the boiler service",
        None,
        (),
    ),
    (("I have a dentist appointment tomorrow, at 3pm",), "what time is the dentist", ("3pm",), ()),
    (("my gym locker code is 4471, please dont let me forget it",), "whats my locker code", ("4471",), ()),
    (
        ("my wifi password is sunflower99", "forget that, better not share it"),
        "whats my wifi password",
        None,
        (),
    ),
    (
        ("dinner with Sam on thursday at 8", "scratch that, dinner got cancelled"),
        "when is dinner with sam",
        None,
        (),
    ),
    (
        ("we have a hamster called Nibbles, and my sister has a parrot",),
        "whats the name of my pet",
        ("Nibbles",),
        (),
    ),
    (("my flatmate is vegan and I eat everything",), "what diet is my flatmate on", ("vegan",), ()),
    (
        ("the printer keeps jamming, its a canon, bought it in 2019",),
        "what brand is the printer",
        ("canon",),
        (),
    ),
    (("Trying to eat less salt. My limit is 1500 mg a day",), "what's my daily salt limit", ("1500",), ()),
    (
        ("road trip: Austin then Memphis then Nashville. three nights in Memphis",),
        "and how many in Nashville?",
        None,
        (),
    ),
    (("我对青霉素过敏，上次打针起了一身疹子",), "上次过敏是什么反应", ("疹子",), ()),
    (("我奶奶每天早上吃降压药 晚上吃一片阿司匹林",), "降压药一次吃几片", None, ()),
    (("周六上午十点开会 下午三点去见房东",), "晚上有啥安排", None, ()),
    (("我们组一共6个人 组长是Lisa",), "组长叫啥", ("Lisa",), ()),
    (("我养了两只猫 一只叫咪咪 一只叫豆豆",), "猫叫什么", ("咪咪",), ()),
    (("我女朋友叫小雨，她的生日是3月8号",), "小雨多大了？", None, ()),
    (
        ("周五下午两点半要开会，会议室是B-302", "不对，改成三点半"),
        "会议几点？",
        ("三点半",),
        ("两点半", "半半"),
    ),
    (("周五下午两点半要开会，会议室是B-302",), "在哪个会议室？", ("B-302",), ()),
    (("我约了周二去体检", "哦不对 改到周四了"), "体检哪天", ("周四",), ("周二", "去对")),
    (("我住5楼 哦其实是6楼",), "我住几楼", ("6楼",), ("5楼", "楼楼")),
    (
        ("帮我记一下要买的东西：牛奶、鸡蛋、面包，还有苹果", "面包不用买了"),
        "我还要买什么",
        ("苹果",),
        ("面包",),
    ),
    (
        ("shopping list: lemons, mint, soda water, and ice", "actually take ice off the list"),
        "whats on my list",
        ("mint",),
        ("ice", "water,"),
    ),
    (
        ("im learning spanish, my teacher is called rosa and lessons are on tuesdays",),
        "which day are my lessons on",
        ("tuesday",),
        (),
    ),
    (
        ("my wife's name is sofia, her favourite colour is yellow",),
        "what's sofia's favourite colour?",
        ("yellow",),
        ("her favourite",),
    ),
    (("我家三口人 我 我老公 还有个五岁的女儿叫朵朵",), "我老公叫什么", None, ("朵朵",)),
    (("儿子感冒了 医生开了小儿氨酚黄那敏颗粒 一次半包",), "是哪个医院开的", None, ()),
    (("我妈今年52",), "我妈多大", ("52",), ("你妈妈你妈",)),
    (("下周一要交季度报告 deadline早上十点",), "报告要写多少页", None, ()),
    (("我叫张伟 啊打错了 是张玮 王字旁那个玮",), "我叫什么", ("张玮",), ("张伟",)),
    (
        ("医生给我开了布洛芬 一天三次", "哦不对 是一天两次 我看错说明了"),
        "布洛芬一天吃几次",
        ("两次",),
        ("三次", "一天一天"),
    ),
    (
        ("my 奶奶 lives in Chengdu and she's 88. my 姥姥 passed away last year",),
        "where did my 姥姥 live?",
        None,
        ("Chengdu",),
    ),
    (
        ("my riad in Marrakech is called Riad Yasmine, check-in from 3pm",),
        "when can I check in",
        ("3pm",),
        (),
    ),
    (("I live in a 2-bedroom flat on the 4th floor and there's no lift",), "how many bedrooms", ("2",), ()),
    (("I've been a pharmacist at St Mary's for 3 years",), "what's my job?", ("pharmacist",), ()),
    (("i eat fish but not red meat", "do i eat red meat"), "what do i eat", ("fish",), ("red meat and",)),
    (
        ("My wife's name is Carmen and her mom, my mother-in-law, is staying with us for two weeks",),
        "how long is she staying",
        ("two weeks",),
        (),
    ),
    (("my iphone 12 battery health is down to 78%, is that bad??",), "what's my battery health", ("78",), ()),
    (("唉，今天又打喷嚏了，俺对花粉过敏，一到春天就遭罪",), "我对啥过敏来着？", ("你对花粉过敏",), ("俺",)),
    (("俺对花粉过敏",), "那我对海鲜过敏吗", None, ()),
    (("我奶奶今年八十五了，身体还挺硬朗", "我奶奶多大了"), "我爷爷呢，多大", None, ("八十五",)),
    (("孩子周一周三学英语，周二周四学画画，周五下午踢球",), "周末学啥", None, ()),
    (("咱楼下超市晚上十一点关门，药店九点就关了",), "超市几点开门", None, ()),
    (("我姓张，弓长张",), "我姓啥", ("张",), ()),
    (("我姓张，弓长张", "哎呀输入法打错了，我姓章，立早章"), "我姓啥", ("章",), ("姓张",)),
    (
        ("Hi, I'm Ada and I run a bakery in Cork.", "My brother Finn is a pilot."),
        "Who am I?",
        ("Ada",),
        ("Finn",),
    ),
    (("My brother Finn is a pilot.",), "Who am I?", None, ("Finn",)),
    (
        (
            "I just moved to Leeds with my partner Priya.",
            "Our cat Biscuit hates the new flat, she keeps hiding under the sofa.",
        ),
        "where does she hide?",
        ("Biscuit",),
        ("Priya",),
    ),
    (
        ("finally got my braces off, my orthodontist dr kimura was the best tho",),
        "whos my orthodontist",
        ("kimura",),
        (),
    ),
    (("hey its Tomasz, new here",), "what's my name", ("Tomasz",), ()),
    (("yo it's dani, just got back from lisbon",), "whats my name", ("Dani",), ("Just",)),
    (("hi its me again",), "what's my name", None, ()),
    (("my name is Rosa, stayin at my nans in cork",), "what's my name", ("Rosa",), ("Stayin",)),
    (("crashing at my cousins in leeds for a bit, my name is Ola",), "whats my cousins name", None, ("Ola",)),
    (
        ("my dads car is a red civic", "my car is a blue golf"),
        "what colour is my dads car",
        ("dad's car",),
        ("blue",),
    ),
    (("组里开会，原来三点，挪到五点了",), "会议几点", ("五点",), ("三点",)),
    (("周五下午开会，本来两点，现在推到三点半",), "会议几点", ("三点半",), ("两点",)),
    (("明天开会时间变了，原来上午九点，现在改到十点半了",), "会议几点开始", ("十点半",), ("九点",)),
    # 这几天 / 好几年 / 前几天 say "these few" / "several": a statement, no question.
    (("我这几天在成都出差",), "我在哪出差", ("成都",), ()),
    (("这几天我在学做川菜",), "我在学做什么菜", ("川菜",), ()),
    # A "!" inside a word (a password) ends no sentence; a "!" before a space or a Chinese character does.
    (
        ("the guest wifi password is Sunny!42, the network is Lakeview",),
        "whats the wifi password",
        ("Sunny!42",),
        (),
    ),
    (("hey! my locker code is 7!7!3",), "what's my locker code", ("7!7!3",), ()),
    (("太好了!我叫周宁",), "我叫什么", ("周宁",), ()),
    # A person's name is in the statement that says it, not in the next one that leans on it; a place
    # after "in" / "to" / "from" names nobody.
    (
        ("My older sister is Keiko, she works in Kyoto with her husband",),
        "what's my older sister's name",
        ("Keiko",),
        (),
    ),
    (
        ("My older sister is Keiko, she works in Kyoto with her husband",),
        "what's her husband's name",
        None,
        (),
    ),
    # bro / sis are a brother and a sister; "she's a nurse" said back of her is "your sis is a nurse".
    (("my sis lives in Leeds, she's a nurse",), "what does my sister do", ("sis is a nurse",), ("sis's",)),
    (("my bro is Ken and my sis is Amy",), "what's my brother's name", ("Ken",), ("Amy",)),
    # Its own reply "Your aunt is making dumplings" names nobody "Making Dumplings".
    (
        ("my aunt is cooking tonight, she's making dumplings", "what's my aunt making"),
        "what's my aunt's name",
        None,
        (),
    ),
    # 她呢 / 他呢 after a question about the user asks of the person the pronoun stands for.
    (("我喜欢吃辣，我室友小雨一点辣都不能吃", "我能吃辣吗"), "她呢", ("小雨",), ("你喜欢吃辣",)),
    (("我爸喜欢下象棋，我喜欢打羽毛球", "我喜欢什么运动"), "他呢", ("象棋",), ("羽毛球",)),
    # bf / gf before 's, and bfs / gfs typed without the apostrophe, are a boyfriend's and a girlfriend's.
    (("my gf's name is Lena n she's a vet",), "whats my gfs name", ("Lena",), ()),
    (("my gf's name is Lena n she's a vet",), "wat does my girlfriend do", ("vet",), ()),
    # "actually he's…" after a question about what I give him: he is the nephew, and the newer word wins.
    (
        (
            "my nephew is turning 5 in May",
            "what should I get him?",
            "oh actually he's turning 6, I mixed it up",
        ),
        "how old is my nephew turning?",
        ("nephew is turning 6",),
        ("5",),
    ),
    # "and what's my name" after a question about the dog asks the user's name, not the dog's.
    (
        ("hey its mo. just adopted a kitten, name's pickle, shes a tabby", "wat colour is pickle"),
        "n wats my name",
        ("Your name is Mo",),
        ("pickle", "Pickle", "Hey"),
    ),
    # A Chinese name right after an English relation word names that person; Chinese after a verb does not.
    (("my boss 陈总 wants the slides by friday",), "what's my boss called", ("陈总",), ()),
    (("my aunt is making 饺子 tonight",), "what's my aunt's name", None, ()),
    # A short clause leaning on the one before it in the same message (每天两粒) is said with it.
    (("钙片我一直在吃，每天两粒",), "我每天吃什么保健品", ("钙片",), ()),
    (
        ("my husbands name is Tomasz but everyone calls him Tom. hes a pilot", "wats my husbands job"),
        "n his name?",
        ("Tomasz",),
        (),
    ),
    # Related words: 飞机 asks of a 航班, 高铁 of a 火车, 教 of a 老师.
    (("航班是晚上8点20的，提前两小时出门",), "几点的飞机", ("8点20",), ()),
    (("火车是明早七点的，G102",), "高铁几点", ("七点",), ()),
    (("我是中学物理老师",), "我教什么", ("物理",), ()),
    # a range of times says when it starts and when it ends; a time-only clause is said with its topic
    (("这学期我带晚自习，七点到九点半",), "晚自习几点开始", ("七点",), ()),
    (("我上夜班，晚上十一点到早上七点",), "夜班几点结束", ("七点",), ()),
    (("这个月我是中班，下午两点到晚上十点",), "我这个月上什么班", ("中班",), ()),
    (("I'm on nights this week, 10pm to 6am",), "what time does my shift start", ("10pm",), ()),
    (("I'm on nights all week, 11pm until 7am",), "when does my day shift start", None, ()),
    (
        ("my yoga class is 7:15 to 8:30, right after work", "when does my yoga class finish"),
        "when does it start",
        ("7:15",),
        (),
    ),
    # 它们叫什么 after a question of the user's asks the animals' names, never the user's
    (("家里有两只仓鼠 一只叫团团 一只叫圆圆", "我有几只仓鼠"), "它们叫什么", ("团团",), ()),
    # "flying to Oslo" says where the user is going
    (("flying to Oslo on monday, back thursday",), "where am I going", ("Oslo",), ()),
    # "how old" asks an age: a count ("two goldfish") is none, "turns five next month" is one
    (("we got two goldfish last week, Bubbles and Finn",), "how old is Finn", None, ()),
    (("my niece Ada turns seven next month",), "how old is Ada", ("seven",), ()),
    # "the vet's name" is answered only by a statement that names the vet, not the dog the vet saw
    (("Vet says Rex's jab got moved to friday",), "what's the vet's name", None, ()),
    (("the electrician, Mrs Osei, comes at 2",), "what's the electrician's name", ("Osei",), ()),
    # a statement that only names the one asked of does not answer what is asked of them
    (
        ("We have 3 hens: Dot, Pip and Lou. Lou is the loud one", "how many hens have we got"),
        "what does pip eat",
        None,
        (),
    ),
    (("we've got two rabbits, Biscuit and Clover",), "what does Clover eat", None, ()),
    # "dad retired last year" speaks of dad, bare, not of the person named before it
    (("my aunt Rosa is 52, she runs a bakery. dad retired last year",), "when did Rosa retire", None, ()),
    # a lead-in before a colon is a clause of its own, and its capital first word is nobody
    (
        ("Heads up for the party: my niece Lola can't have dairy, she gets hives",),
        "what is Lola allergic to",
        ("dairy",),
        (),
    ),
    (("thursday: my cousin's wedding rehearsal. friday free",), "what am i doing thursday", ("wedding",), ()),
    # 哪只 / 哪趟 / 哪家 ask "which": the measure word is no content word; a school named is a school
    (("右手手腕扭伤了，打了石膏",), "我哪只手受伤了", ("右手",), ()),
    (("我们坐D3125回杭州，下午三点发车",), "我们坐哪趟车", ("D3125",), ()),
    (("同事推荐了一家川菜馆，叫蜀香园",), "是哪家川菜馆", ("蜀香园",), ()),
    (("我女儿在星海小学读二年级",), "女儿在哪所学校", ("星海",), ()),
    (("我侄子还在读初中",), "我侄子在哪个学校", None, ()),
    (("小儿子还在上幼儿园，大儿子上初二",), "小儿子在哪上学", ("幼儿园",), ("初二",)),
    # a city said by name alone is a place (no 在/去/住 before it)
    (("我妈觉得昆明比大连舒服 我觉得大连更舒服",), "我觉得哪个城市更舒服", ("大连",), ("昆明",)),
    # 在… after the clause naming the event says where it is
    (("下周五部门聚餐，在公司楼下那家湘菜馆",), "聚餐在哪", ("湘菜馆",), ()),
    # 玩几天 before a clause that states says "a few days": a plan, not a question
    (("周末想带孩子去海边住几天，顺便吃海鲜",), "周末打算去哪", ("海边",), ()),
    # 不对不对 corrects as 不对 does
    (("我女儿今年上三年级", "哎不对不对，四年级，我记错了"), "我女儿上几年级", ("四年级",), ("三年级",)),
    # a clause that adds to the one before it (还有…也, "… too") is said with it
    (("我对青霉素过敏 还有头孢也不行",), "我对什么药过敏", ("头孢",), ()),
    # what follows a supposition in its sentence is supposed too; asked of, it is said with it
    (("如果明年能调去深圳，我就把杭州的房子卖了",), "我把房子卖了吗", None, ()),
    (("如果明年能调去深圳，我就把杭州的房子卖了",), "如果调去深圳我要干嘛", ("卖",), ()),
    (("if I got the Boston offer, I'd sell the flat in Leeds",), "did I sell my flat", None, ()),
    (
        ("if I got the Boston offer, I'd sell the flat in Leeds",),
        "what would I do if I got the offer",
        ("sell",),
        (),
    ),
    (("要是中了彩票 我就买个海边的房子 其实还在租房 住厦门",), "我住在哪个城市", ("厦门",), ()),
    # 多大岁数 asks an age: 今年七十三了 says it without the word 岁数
    (("我外公今年七十三了，每天还骑车买菜",), "外公多大岁数了", ("七十三",), ()),
    (("我外公今年七十三了",), "外婆多大岁数了", None, ()),
    # a clause that is a length of time and a verb (花了一小时十分) answers 多久 of the clause before it
    (("周六骑车去了趟西湖 花了一小时十分",), "骑了多久", ("一小时十分",), ()),
]


@pytest.mark.parametrize(("turns", "question", "expected", "rejected"), CASES)
def test_an_everyday_conversation_is_read_as_said(
    turns: tuple[str, ...], question: str, expected: tuple[str, ...] | None, rejected: tuple[str, ...]
) -> None:
    reply = converse(turns, question)
    if expected is None:
        assert is_refusal(reply), reply
    else:
        assert any(value.lower() in reply.lower() for value in expected), reply
    assert not any(value.lower() in reply.lower() for value in rejected), reply


def test_one_statement_answering_two_parts_of_a_question_is_said_once() -> None:
    reply = converse(("周三下午的会改到周四了 时间还是三点",), "会议改到哪天了 几点")
    assert reply.count("改到周四") == 1, reply


def test_a_question_typed_without_a_question_mark_is_not_acknowledged_as_a_fact() -> None:
    reply = converse(("we saw dune last night",), "did i like the movie")
    assert "Got it" not in reply and "you like the movie" not in reply.lower(), reply


def test_but_not_denies_only_what_follows_it() -> None:
    reply = converse((), "i eat fish but not red meat")
    assert "don't eat fish" not in reply and "fish" in reply, reply


def test_a_relative_clause_is_no_question() -> None:
    reply = converse(
        (), "My goal is under 25 grams a day, which is way harder than it sounds when you love lattes"
    )
    assert not is_refusal(reply) and "25 grams" in reply, reply


def test_a_summary_quoting_the_human_is_read_as_their_own_words() -> None:
    summary = "Summary of the conversation so far: The human said: “I work night shifts as a paramedic.” "
    summary += "The human said: “I sleep until about 2pm.”"
    reply = converse((), "What is my job?", system=summary)
    assert "paramedic" in reply and "said" not in reply and "Summary" not in reply, reply
    zh = converse(
        (), "我的猫叫什么？", system="之前的对话摘要：用户说：“我们的猫叫豆豆。”用户说：“它总躲在沙发底下。”"
    )
    assert "豆豆" in zh and "“" not in zh and "说：" not in zh, zh


def test_planning_is_no_plane() -> None:
    from memory_demos.providers.offline_model.words import stem

    assert stem("planning") == stem("plan") != stem("plane")
    assert stem("plane") == stem("flight")


def test_an_acknowledgement_keeps_the_names_and_numbers_it_was_told() -> None:
    reply = converse(
        (), "we went to the Lumineers concert last night, my ears are still ringing, best seventy bucks"
    )
    assert "Lumineers" in reply and "ears is" not in reply, reply


def test_what_would_follow_a_supposition_is_not_acknowledged_as_a_fact() -> None:
    reply = converse((), "如果我中了彩票，我就辞职去环游世界")
    assert "你就辞职" not in reply or "如果" in reply, reply


def test_a_few_days_before_a_statement_is_said_back_not_refused() -> None:
    reply = converse((), "下个月准备回老家待几天，看看外婆")
    assert not is_refusal(reply) and "外婆" in reply, reply


def test_an_acknowledgement_keeps_a_name_as_it_was_written() -> None:
    """ "Got it: your son arjun is Tuesday at 4:30 with Ms.": the grammar read the name as a word."""
    reply = converse((), "Swimming gala for my niece Ottilie is Friday at 6 with Mr. Brandt")
    assert "Ottilie" in reply and "Brandt" in reply, reply


@pytest.mark.parametrize(
    ("turns", "said", "kept", "never"),
    [
        ((), "my bike lock code is 5-19-3, please don't let me lose it", "is 5-19-3", "isn't"),
        ((), "my brother takes his coffee black, i like mine with oat milk", "yours", " mine"),
        (
            ("table for 4 people at Sushi Ko, 7pm",),
            "actually make that 5 people",
            "5 people",
            "people people",
        ),
    ],
)
def test_an_acknowledgement_denies_nothing_and_turns_every_word(
    turns: tuple[str, ...], said: str, kept: str, never: str
) -> None:
    """ "your locker combo isn't 14-32-7", "you like mine well done", "for 8 people people"."""
    reply = converse(turns, said)
    assert kept in reply and never not in reply, reply


def test_an_acknowledgement_speaks_of_every_clause_the_reader_read() -> None:
    """ "Got it: your son's name is Theo." for a message that also said what Theo can't have."""
    reply = converse((), "Before the barbecue: my nephew Sami can't have sesame, he carries an EpiPen")
    assert "sesame" in reply and "EpiPen" in reply, reply


def test_an_acknowledgement_leaves_out_no_number_and_cuts_no_words_from_what_was_said() -> None:
    """ "Got it: your project right is a V4": the grammar's reading dropped the sentence with "3x" in it
    and the "now" of "right now"."""
    reply = converse((), "been swimming 4x a week lately. my coach right now is Dana from the club")
    assert "4x" in reply and "coach right now is Dana" in reply, reply


@pytest.mark.parametrize(
    "request_text",
    [
        "any tips for sleep",
        "please give me some ideas for dinner",
        "Help me plan a trip to Rome",
        "推荐一本书",
        "讲个笑话",
    ],
)
def test_a_request_is_not_acknowledged_as_something_said(request_text: str) -> None:
    """ "Got it: any tips for sleep." put words in the user's mouth and into every later prompt."""
    reply = converse((), request_text)
    assert is_refusal(reply) and "Got it" not in reply and "记住了" not in reply, reply


def test_the_assistant_addressed_is_me_when_said_back() -> None:
    reply = converse((), "I'll give you the details later")
    assert "give me the details" in reply and "give you" not in reply, reply
    address = converse(("I told you my address is 12 Elm St",), "what's my address?")
    assert "you told me your address" in address.lower(), address


def test_a_retrieved_line_naming_the_user_is_no_name_of_the_line_before() -> None:
    """Retrieved lines come one per line: "name's Oliver" after the cats' line is the user's name, not theirs."""
    retrieved = "Possibly relevant earlier lines (retrieved by similarity):\n"
    retrieved += "input: I have two cats, Mochi and Tofu\ninput: hey! name's Oliver btw"
    reply = converse((), "What are my cats called?", system=retrieved)
    assert "Mochi" in reply and "Oliver" not in reply, reply


def test_a_pronoun_with_nobody_named_before_it_is_said_as_it_was() -> None:
    reply = converse(
        ("mother in law arriving tuesday, staying till friday. her name's Gloria",),
        "what's my mother in law called?",
    )
    assert "Gloria" in reply and "Her's" not in reply and "her's" not in reply, reply


def test_words_after_a_relation_are_no_name_unless_they_look_like_one() -> None:
    """我妈高血压 gave 妈妈 the name 高血压, 我老板下个月… the name 下个月; 我同事小刘 names 小刘."""
    from langchain_core.messages import HumanMessage

    from memory_demos.providers.offline_model.reader import read_prompt

    said = "我老板下个月要出差，我同事小刘也去，我老公爱钓鱼"
    aliases = read_prompt([HumanMessage(said)]).aliases
    assert aliases.get("小刘") == "同事" and "下个月" not in aliases and "爱钓鱼" not in aliases, aliases


def test_a_chinese_word_in_an_english_message_is_a_word_of_it() -> None:
    """ "how much were the 包子" lost 包子 (the English reading kept Latin words only); an English answer
    holding a Chinese word still ends with a full stop, not 。"""
    reply = converse(("the 包子 were 3 yuan each and the coffee was 20",), "how much were the 包子")
    assert "3 yuan" in reply and "coffee" not in reply and not reply.endswith("。"), reply


def test_she_after_a_possessive_subject_is_said_as_the_person() -> None:
    reply = converse(("my mum's name is Linda, she just turned 60",), "how old is mum")
    assert "Your mum just turned 60" in reply and "mum's just" not in reply, reply


def test_a_capitalised_word_that_names_nobody_is_no_one_a_pronoun_can_mean() -> None:
    """ "Any ideas?" read "Any" as a person (its "ideas" looks like a verb), and the next "he" became Any."""
    from langchain_core.messages import AIMessage, HumanMessage

    from memory_demos.providers.offline_model.reader import read_prompt

    said = read_prompt(
        [
            HumanMessage("my grandpa retires in June"),
            AIMessage("ok"),
            HumanMessage("I want to throw him a party. Any ideas?"),
            AIMessage("ok"),
            HumanMessage("how long has he been retired"),
        ]
    ).said
    assert all(s.about != "Any" for s in said), [(s.about, s.text) for s in said]


@pytest.mark.parametrize(
    ("said", "ending"),
    [("我今天抽中了一台switch！", "switch！"), ("I won a Switch at the office party!", "party!")],
)
def test_an_acknowledgement_ends_once(said: str, ending: str) -> None:
    """ "记住了，你抽中了一台switch！。": the "！" the user ended with was followed by a second ending."""
    from langchain_core.messages import HumanMessage

    from memory_demos.providers.offline_model import OfflineTeachingModel

    reply = str(OfflineTeachingModel().invoke([HumanMessage(said)]).content)
    assert reply.endswith(ending), reply


def test_a_name_said_with_the_clause_before_it_is_not_said_again() -> None:
    reply = converse(("周日去看了场话剧，叫《雷雨》，演得太好了，票价三百八",), "我看的啥话剧")
    assert reply.count("雷雨") == 1, reply


def test_its_said_back_of_the_thing_it_stands_for() -> None:
    """ "it's at the Savoy" after "the company gala is next friday" was said as "The company gala it's at…"."""
    reply = converse(
        ("the book club dinner is on thursday", "it's at Nonna's, bring wine"), "where's the dinner"
    )
    assert "dinner is at Nonna's" in reply and "it's" not in reply, reply
