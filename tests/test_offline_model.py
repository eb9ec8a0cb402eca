"""Tests of the offline teaching model: it knows only its prompt, answers LangChain's memory prompts, calls tools."""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
import threading

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.prompts import (
    FACT_EXTRACTION_PROMPT,
    LONG_TERM_FACTS_HEADER,
    RETRIEVED_HEADER,
    SUMMARY_HEADER,
)
from memory_demos.providers.errors import InjectedFault
from memory_demos.providers.offline_model import (
    DONT_KNOW_EN,
    DONT_KNOW_ZH,
    DRIFT_DETAILS,
    MAX_SUMMARY_FACTS,
    CallCounter,
    Fact,
    OfflineTeachingModel,
    detect_recall_question,
    dont_know,
    extract_facts,
    merge_facts,
    small_talk,
)
from memory_demos.providers.tokenizer import count_messages_tokens, encode
from memory_demos.tools import TOOLS, get_order_status, get_weather
from memory_demos.tracing import purpose_tag


def reply(*messages: BaseMessage, model: OfflineTeachingModel | None = None) -> str:
    return str((model or OfflineTeachingModel()).invoke(list(messages)).content)


def facts_of(text: str) -> dict[str, tuple[str, ...]]:
    return merge_facts(extract_facts(text))


# --------------------------------------------------------------------------------------------
# Fact extraction


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I'm Mara", "name", "Mara"),
        ("I am Mara", "name", "Mara"),
        ("my name is mara", "name", "Mara"),
        ("Hi! Call me Tom.", "name", "Tom"),
        ("我叫小明", "name", "小明"),
        ("我是小明", "name", "小明"),
        ("我的名字是小明。", "name", "小明"),
        ("I live in Lisbon.", "city", "Lisbon"),
        ("I moved to New York last year", "city", "New York"),
        ("I'm from Porto", "hometown", "Porto"),
        ("我住在北京", "city", "北京"),
        ("我来自上海", "hometown", "上海"),
        ("I love sushi", "likes", "sushi"),
        ("I like jazz", "likes", "jazz"),
        ("I hate cilantro", "dislikes", "cilantro"),
        ("我喜欢寿司", "likes", "寿司"),
        ("my favourite food is sushi", "favourite_food", "sushi"),
        ("My favorite color is blue.", "favourite_colour", "blue"),
        ("我最喜欢的食物是寿司", "favourite_food", "寿司"),
        ("My order number is A-1234.", "order_number", "A-1234"),
        ("my dog's name is Rex", "dog_name", "Rex"),
        ("my dog is called Rex", "dog_name", "Rex"),
        ("My birthday is May 3", "birthday", "May 3"),
        ("my email is mara@example.com.", "email", "mara@example.com"),
        ("我的订单号是A-1234。", "order_number", "A-1234"),
        ("我的狗叫旺财", "dog_name", "旺财"),
        ("I work as a nurse", "job", "nurse"),
        ("I'm Mara from Porto", "hometown", "Porto"),
        ("I have a dog named Rex", "dog_name", "Rex"),
        ("我叫小明，今年30岁，住在北京", "city", "北京"),
        ("I love sushi. Also, I hate cilantro", "likes", "sushi"),
    ],
)
def test_extract_facts_finds_each_fact_type(text: str, key: str, value: str) -> None:
    assert facts_of(text).get(key) == (value,)


@pytest.mark.parametrize(
    "text",
    [
        "I'm fine",
        "I am tired",
        "I'm looking for a good book",
        "I'm Sorry about that",
        "Do I live in Lisbon?",
        "hello",
    ],
)
def test_extract_facts_ignores_non_facts(text: str) -> None:
    assert extract_facts(text) == []


def test_extract_facts_keeps_source_text_and_order() -> None:
    facts = extract_facts("Hi, I'm Mara and I live in Lisbon.")
    assert [(f.key, f.value) for f in facts] == [("name", "Mara"), ("city", "Lisbon")]
    assert all(isinstance(f, Fact) and "Mara" in f.source_text for f in facts[:1])


@pytest.mark.parametrize(
    ("text", "city"),
    [
        ("I used to live in Lisbon, now I live in Porto.", "Porto"),
        ("I live in Lisbon. I moved to Berlin.", "Berlin"),
        ("我以前住在北京，现在住在上海。", "上海"),
    ],
)
def test_changed_fact_newest_wins(text: str, city: str) -> None:
    assert facts_of(text)["city"] == (city,)


def test_reads_third_person_summaries_key_value_lines_and_transcripts() -> None:
    assert facts_of("The human's name is Mara. The human lives in Lisbon.") == {
        "name": ("Mara",),
        "city": ("Lisbon",),
    }
    assert facts_of("name: Mara\nfavourite_food: sushi")["favourite_food"] == ("sushi",)
    # An entity note speaks of its name; it is the user's only once the prompt says that name is theirs.
    assert merge_facts(extract_facts("Mara: Mara lives in Lisbon.", role="narrative"), "Mara")["city"] == (
        "Lisbon",
    )
    assert "city" not in facts_of("Mara: Mara lives in Lisbon.")
    note = "Mara: Mara is the human's name. Mara lives in Lisbon."
    assert merge_facts(extract_facts(note, role="narrative"))["city"] == ("Lisbon",)
    assert facts_of("Human: my name is Mara\nAI: Nice to meet you, Mara!")["name"] == ("Mara",)
    # An AI's first person is about the AI, not the user.
    assert extract_facts("I'm Claude and I live in a data centre.", role="ai") == []


def test_likes_accumulate_and_a_later_dislike_removes_a_like() -> None:
    facts = facts_of("I love sushi. I like jazz. Actually I hate sushi now.")
    assert facts["likes"] == ("jazz",)
    assert facts["dislikes"] == ("sushi",)


# --------------------------------------------------------------------------------------------
# Replies: stating and recalling facts


@pytest.mark.parametrize(
    ("statement", "question", "answer"),
    [
        ("Hi, I'm Mara.", "What's my name?", "Your name is Mara."),
        ("I'm Mara", "Who am I?", "Your name is Mara."),
        ("I live in Lisbon", "Where do I live?", "You live in Lisbon."),
        ("I'm from Porto", "Where am I from?", "You're from Porto."),
        ("I love sushi and I like jazz", "What do I like?", "You like sushi and jazz."),
        ("My favourite food is sushi", "What's my favourite food?", "Your favourite food is sushi."),
        ("My order number is A-1234", "What's my order number?", "Your order number is A-1234."),
        ("My dog's name is Rex", "What is my dog's name?", "Your dog's name is Rex."),
        ("我叫小明", "我叫什么名字？", "你叫小明。"),
        ("我住在北京", "我住在哪里？", "你住在北京。"),
        ("我的订单号是A-1234", "我的订单号是什么？", "你的订单号是A-1234。"),
        ("我最喜欢的食物是寿司", "我最喜欢的食物是什么？", "你最喜欢的食物是寿司。"),
        ("我喜欢寿司", "我喜欢什么？", "你喜欢寿司。"),
    ],
)
def test_recalls_a_fact_that_is_in_the_prompt(statement: str, question: str, answer: str) -> None:
    model = OfflineTeachingModel()
    acknowledgement = reply(HumanMessage(statement), model=model)
    assert acknowledgement != answer
    assert (
        reply(HumanMessage(statement), AIMessage(acknowledgement), HumanMessage(question), model=model)
        == answer
    )


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What's my name?", "I can't answer that from what I was given."),
        ("Where do I live?", "I can't answer that from what I was given."),
        ("What's my order number?", "I can't answer that from what I was given."),
        ("我叫什么名字？", "这个我回答不了：我收到的内容里没有。"),
        ("我住在哪里？", "这个我回答不了：我收到的内容里没有。"),
        ("我的订单号是什么？", "这个我回答不了：我收到的内容里没有。"),
    ],
)
def test_says_it_does_not_know_a_fact_missing_from_the_prompt(question: str, answer: str) -> None:
    assert reply(SystemMessage("You are a helpful assistant."), HumanMessage(question)) == answer


def test_dont_know_helper_matches_reply() -> None:
    assert dont_know("name") == reply(HumanMessage("what's my name?"))
    assert dont_know("name", chinese=True) == reply(HumanMessage("我叫什么？"))


def test_acknowledges_stated_facts() -> None:
    assert reply(HumanMessage("Hi, I'm Mara and I live in Lisbon.")) == (
        "Nice to meet you, Mara! Got it: you live in Lisbon."
    )
    assert reply(HumanMessage("My order number is A-1234.")) == "Got it: your order number is A-1234."
    assert reply(HumanMessage("我叫小明。")) == "记住了，你叫小明。"


def test_a_later_statement_overrides_an_earlier_one_in_the_conversation() -> None:
    history = [
        HumanMessage("I live in Lisbon"),
        AIMessage("Got it: you live in Lisbon."),
        HumanMessage("I moved to Porto"),
    ]
    history.append(AIMessage(reply(*history)))
    assert reply(*history, HumanMessage("Where do I live?")) == "You live in Porto."


@pytest.mark.parametrize(
    "context",
    [
        SystemMessage(f"{SUMMARY_HEADER} The human's name is Mara. The human lives in Lisbon."),
        SystemMessage(f"{LONG_TERM_FACTS_HEADER}\nname: Mara\ncity: Lisbon"),
        SystemMessage(
            "Mara: Mara is the human's name. Mara lives in Lisbon.\nLisbon: The human lives in Lisbon."
        ),
        SystemMessage(
            f"{RETRIEVED_HEADER}\nHuman: my name is Mara and I live in Lisbon\nAI: Nice to meet you, Mara!"
        ),
    ],
)
def test_reads_facts_from_every_kind_of_injected_memory(context: SystemMessage) -> None:
    assert reply(context, HumanMessage("what's my name?")) == "Your name is Mara."
    assert reply(context, HumanMessage("where do I live?")) == "You live in Lisbon."


def test_forgetting_is_visible_when_the_fact_left_the_window() -> None:
    full = [HumanMessage("I'm Mara"), AIMessage("Nice to meet you, Mara!"), HumanMessage("I like tea")]
    assert reply(*full, HumanMessage("what's my name?")) == "Your name is Mara."
    assert reply(*full[2:], HumanMessage("what's my name?")) == dont_know()


def test_answers_in_chinese_when_the_latest_message_is_chinese() -> None:
    assert reply(HumanMessage("I'm Mara"), HumanMessage("我叫什么名字？")) == "你叫Mara。"


@pytest.mark.parametrize(
    ("text", "chinese", "reply"),
    [
        ("Thanks!", False, "You're welcome!"),
        ("Hello!", False, "Hello! What would you like to talk about?"),
        ("Hello?", False, "Hello! What would you like to talk about?"),
        ("Thanks! What's the weather in Oslo?", False, DONT_KNOW_EN),
        ("Thanks, what's the weather in Oslo", False, DONT_KNOW_EN),
        ("Hi, any tips?", False, DONT_KNOW_EN),
        ("谢谢！", True, "不客气！"),
        ("你好吗？", True, "你好！想聊点什么？"),
        ("谢谢！奥斯陆的天气怎么样？", True, DONT_KNOW_ZH),
        ("你好，今天天气怎么样？", True, DONT_KNOW_ZH),
    ],
)
def test_a_greeting_or_thanks_does_not_swallow_a_question(text: str, chinese: bool, reply: str) -> None:
    assert small_talk(text, chinese=chinese) == reply


def test_small_talk_is_short_deterministic_and_about_the_message() -> None:
    text = reply(HumanMessage("I went hiking in the mountains yesterday"))
    assert "hiking" in text
    assert len(re.findall(r"[.!?]", text)) <= 2
    assert text == reply(HumanMessage("I went hiking in the mountains yesterday"))
    assert "Mara" not in reply(HumanMessage("Tell me a story"))


def test_recall_question_detection() -> None:
    assert detect_recall_question("what's my name?") == "name"
    assert detect_recall_question("What is my dog's name?") == "dog_name"
    assert detect_recall_question("what's my favorite color?") == "favourite_colour"
    assert detect_recall_question("我的订单号是什么？") == "order_number"
    assert detect_recall_question("I like cake") is None


# --------------------------------------------------------------------------------------------
# LangChain's classic memory prompts, filled with the real templates


def test_classic_conversation_templates_sent_as_one_message() -> None:
    from langchain_classic.chains.conversation.prompt import PROMPT
    from langchain_classic.memory.prompt import ENTITY_MEMORY_CONVERSATION_TEMPLATE

    history = "Human: I'm Mara\nAI: Nice to meet you, Mara!"
    assert (
        reply(HumanMessage(PROMPT.format(history=history, input="what's my name?"))) == "Your name is Mara."
    )
    assert reply(HumanMessage(PROMPT.format(history="", input="what's my name?"))) == dont_know()
    entities = {"Mara": "Mara is the human's name. Mara lives in Lisbon."}
    prompt = ENTITY_MEMORY_CONVERSATION_TEMPLATE.format(
        entities=entities, history="", input="where do I live?"
    )
    assert reply(HumanMessage(prompt)) == "You live in Lisbon."


def test_summary_prompt_keeps_the_name_and_replaces_a_changed_city() -> None:
    from langchain_classic.memory.prompt import SUMMARY_PROMPT

    model = OfflineTeachingModel()
    first = reply(
        HumanMessage(
            SUMMARY_PROMPT.format(summary="", new_lines="Human: Hi, I'm Mara and I live in Lisbon.\nAI: Hi!")
        ),
        model=model,
    )
    assert "Mara" in first and "Lisbon" in first
    assert "artificial intelligence" not in first  # the template's worked example is not summarised
    second = reply(
        HumanMessage(SUMMARY_PROMPT.format(summary=first, new_lines="Human: I moved to Porto.\nAI: Got it.")),
        model=model,
    )
    assert "The human's name is Mara." in second
    assert "Porto" in second and "Lisbon" not in second


def test_summary_stays_bounded_after_fifty_merges() -> None:
    from langchain_classic.memory.prompt import SUMMARY_PROMPT

    model = OfflineTeachingModel()
    summary = ""
    lengths = []
    for turn in range(50):
        new_lines = f"Human: my item{turn} code is C-{turn}. Let's discuss topic{turn} today.\nAI: Sure."
        summary = reply(
            HumanMessage(SUMMARY_PROMPT.format(summary=summary, new_lines=new_lines)), model=model
        )
        lengths.append(len(summary))
    assert "C-49" in summary and "C-0." not in summary
    assert summary.count("The human") <= MAX_SUMMARY_FACTS
    assert max(lengths[20:]) < 900
    assert max(lengths[20:]) - min(lengths[20:]) < 40


def test_drift_mode_adds_one_invented_detail_each_round() -> None:
    from langchain_classic.memory.prompt import SUMMARY_PROMPT

    honest, drifting = OfflineTeachingModel(), OfflineTeachingModel(drift=True)
    summary = honest_summary = ""
    invented_counts = []
    for _ in range(3):
        lines = "Human: I'm Mara.\nAI: Nice to meet you, Mara!"
        summary = reply(HumanMessage(SUMMARY_PROMPT.format(summary=summary, new_lines=lines)), model=drifting)
        honest_summary = reply(
            HumanMessage(SUMMARY_PROMPT.format(summary=honest_summary, new_lines=lines)), model=honest
        )
        invented_counts.append(sum(sentence in summary for sentence, _ in DRIFT_DETAILS))
    assert invented_counts == [1, 2, 3]
    assert "Mara" in summary
    assert honest_summary == "The human's name is Mara."
    # The invented favourite colour has become a "memory" the model now recalls.
    assert (
        reply(SystemMessage(summary), HumanMessage("What's my favourite colour?"))
        == "Your favourite colour is green."
    )


def test_entity_extraction_prompt_returns_names_or_none() -> None:
    from langchain_classic.memory.prompt import ENTITY_EXTRACTION_PROMPT

    def extract(line: str, model: OfflineTeachingModel | None = None) -> str:
        return reply(HumanMessage(ENTITY_EXTRACTION_PROMPT.format(history="", input=line)), model=model)

    assert extract("Hi, I'm Mara and I live in Lisbon.") == "Mara, Lisbon"
    assert extract("I'm working with Anna on the New York project.") == "Anna, New York"
    assert extract("how are you today?") == "NONE"
    assert extract("我叫小明，我住在北京。") == "小明, 北京"
    chatty = OfflineTeachingModel(chatty_entities=True)
    assert extract("Hi, I'm Mara and I live in Lisbon.", chatty) == "Sure, the entities are: Mara, Lisbon"


def test_entity_summarization_prompt_updates_the_entity() -> None:
    from langchain_classic.memory.prompt import ENTITY_SUMMARIZATION_PROMPT

    def summarize(entity: str, summary: str, line: str) -> str:
        prompt = ENTITY_SUMMARIZATION_PROMPT.format(entity=entity, summary=summary, history="", input=line)
        return reply(HumanMessage(prompt))

    first = summarize("Mara", "", "Hi, I'm Mara and I live in Lisbon.")
    assert first == "Mara is the human's name. Mara lives in Lisbon."
    moved = summarize("Mara", first, "I moved to Porto.")
    assert (
        moved == "Mara is the human's name. Mara now lives in Porto."
    )  # "now": newer than any copy of Lisbon
    assert summarize("Mara", moved, "The weather is nice.") == moved
    assert summarize("Mara", first, "The weather is nice.") == first
    assert summarize("Lisbon", "", "Hi, I'm Mara and I live in Lisbon.") == "The human lives in Lisbon."


def test_fact_extraction_prompt() -> None:
    assert reply(
        HumanMessage(FACT_EXTRACTION_PROMPT.format(message="I'm Mara and my order number is A-1234."))
    ) == ("name: Mara\norder_number: A-1234")
    assert reply(HumanMessage(FACT_EXTRACTION_PROMPT.format(message="What a nice day."))) == "NONE"


def test_middleware_summary_prompt() -> None:
    from langchain.agents.middleware.summarization import DEFAULT_SUMMARY_PROMPT
    from langchain_core.messages.utils import get_buffer_string

    history = [HumanMessage("Hi, I'm Mara & I live in Lisbon."), AIMessage("Nice to meet you, Mara!")]
    prompt = DEFAULT_SUMMARY_PROMPT.format(messages=get_buffer_string(history, format="xml"))
    summary = reply(HumanMessage(prompt))
    assert "The human's name is Mara." in summary
    assert "The human lives in Lisbon." in summary
    assert len(summary) < 400


# --------------------------------------------------------------------------------------------
# Tools


def test_bound_tools_produce_a_tool_call_and_the_answer_uses_the_tool_result() -> None:
    bound = OfflineTeachingModel().bind_tools(list(TOOLS))
    question = HumanMessage("What's the weather in Lisbon?")
    call_message = bound.invoke([question])
    assert call_message.content == ""
    assert len(call_message.tool_calls) == 1
    call = call_message.tool_calls[0]
    assert call["name"] == "get_weather" and call["args"] == {"city": "Lisbon"}
    assert call["id"].startswith("call_")
    result = ToolMessage(get_weather.invoke(call["args"]), tool_call_id=call["id"])
    answer = bound.invoke([question, call_message, result]).content
    assert answer == f"The weather in Lisbon: {result.content}."


def test_order_tool_uses_the_remembered_order_number() -> None:
    bound = OfflineTeachingModel().bind_tools(list(TOOLS))
    messages = [
        HumanMessage("my order number is A-1234"),
        AIMessage("Got it."),
        HumanMessage("Where is my order?"),
    ]
    call = bound.invoke(messages).tool_calls[0]
    assert call["name"] == "get_order_status" and call["args"] == {"order_id": "A-1234"}
    # Stating the number is not a request: no tool call.
    assert bound.invoke(messages[:1]).tool_calls == []
    assert "simulated" in get_order_status.invoke({"order_id": "A-1234"})


def test_streamed_tool_call_matches_invoke() -> None:
    bound = OfflineTeachingModel(streaming=True).bind_tools(list(TOOLS))
    question = [HumanMessage("What's the weather in Lisbon?")]
    chunks = list(bound.stream(question))
    merged = chunks[0]
    for chunk in chunks[1:]:
        merged += chunk
    assert merged.tool_calls == bound.invoke(question).tool_calls
    assert merged.tool_calls[0]["args"] == {"city": "Lisbon"}


def test_no_tool_call_without_bound_tools() -> None:
    message = OfflineTeachingModel().invoke([HumanMessage("What's the weather in Lisbon?")])
    assert message.tool_calls == [] and message.content


def test_create_agent_runs_the_tool_loop() -> None:
    from langchain.agents import create_agent

    agent = create_agent(OfflineTeachingModel(), tools=list(TOOLS))
    result = agent.invoke({"messages": [HumanMessage("What's the weather in Lisbon?")]})
    types = [m.type for m in result["messages"]]
    assert types == ["human", "ai", "tool", "ai"]
    assert result["messages"][-1].content.startswith("The weather in Lisbon: ")


# --------------------------------------------------------------------------------------------
# The chat model machinery


def test_streaming_yields_several_chunks_that_join_to_the_invoke_answer() -> None:
    messages = [HumanMessage("Hi, I'm Mara and I live in Lisbon.")]
    model = OfflineTeachingModel(streaming=True)
    chunks = list(model.stream(messages))
    assert len(chunks) > 3
    assert "".join(str(c.content) for c in chunks) == OfflineTeachingModel().invoke(messages).content
    assert model.invoke(messages).content == OfflineTeachingModel().invoke(messages).content


def test_streaming_reports_tokens_to_callbacks() -> None:
    class Collect(BaseCallbackHandler):
        def __init__(self) -> None:
            self.tokens: list[str] = []

        def on_llm_new_token(self, token: str, **kwargs: object) -> None:
            self.tokens.append(token)

    handler = Collect()
    model = OfflineTeachingModel(streaming=True, callbacks=[handler])
    text = model.invoke([HumanMessage("我叫小明，我住在北京")]).content
    assert len(handler.tokens) > 2 and "".join(handler.tokens) == text


def test_async_invoke_and_stream() -> None:
    model = OfflineTeachingModel()

    async def run() -> tuple[str, list[str]]:
        message = await model.ainvoke([HumanMessage("I'm Mara")])
        pieces = [str(c.content) async for c in model.astream([HumanMessage("I'm Mara")])]
        return str(message.content), pieces

    # A fresh thread has no running loop, whatever an earlier test (Playwright's sync API) left behind.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        text, pieces = pool.submit(asyncio.run, run()).result()
    assert text == "Nice to meet you, Mara!" and "".join(pieces) == text


def test_determinism() -> None:
    messages = [
        SystemMessage("Be brief."),
        HumanMessage("I like gardening and old maps. What should I read?"),
    ]
    answers = {str(OfflineTeachingModel().invoke(messages).content) for _ in range(3)}
    assert len(answers) == 1


def test_fault_injection_by_call_number_with_a_shared_counter() -> None:
    counter = CallCounter()
    first = OfflineTeachingModel(fail_on_calls=frozenset({2}), call_counter=counter)
    second = OfflineTeachingModel(fail_on_calls=frozenset({2}), call_counter=counter)
    first.invoke("hi")
    with pytest.raises(InjectedFault):
        second.invoke("hi")
    first.invoke("hi")
    assert counter.count == 3


def test_fault_injection_by_purpose() -> None:
    from langchain_classic.memory.prompt import SUMMARY_PROMPT

    model = OfflineTeachingModel(fail_purposes=frozenset({"summarize"}))
    assert model.invoke("hi").content
    # The purpose is the caller's tag, not the text: an untagged call carrying the summary prompt is a reply.
    model.invoke(SUMMARY_PROMPT.format(summary="", new_lines="Human: hi"))
    summarizer = OfflineTeachingModel(fail_purposes=frozenset({"summarize"}), tags=[purpose_tag("summarize")])
    with pytest.raises(InjectedFault):
        summarizer.invoke(SUMMARY_PROMPT.format(summary="", new_lines="Human: hi"))
    tagged = OfflineTeachingModel(
        fail_purposes=frozenset({"extract facts"}), tags=[purpose_tag("extract facts")]
    )
    with pytest.raises(InjectedFault):
        tagged.invoke("hi")


def test_fault_injection_while_streaming() -> None:
    model = OfflineTeachingModel(streaming=True, fail_on_calls=frozenset({1}))
    with pytest.raises(InjectedFault):
        list(model.stream("hi"))


def test_call_counter_is_thread_safe() -> None:
    counter = CallCounter()
    numbers: list[int] = []
    lock = threading.Lock()

    def work() -> None:
        for _ in range(200):
            number = counter.next()
            with lock:
                numbers.append(number)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(numbers) == list(range(1, 1601)) and counter.count == 1600


def test_token_counts_use_tiktoken_o200k() -> None:
    model = OfflineTeachingModel()
    messages = [SystemMessage("You are helpful."), HumanMessage("I'm Mara and I live in Lisbon.")]
    assert model.get_num_tokens_from_messages(messages) == count_messages_tokens(messages, "o200k_base")
    assert model.get_token_ids("hello world") == encode("hello world", "o200k_base")
    message = model.invoke(messages)
    assert message.usage_metadata is not None
    assert message.usage_metadata["input_tokens"] == count_messages_tokens(messages, "o200k_base")
    assert message.usage_metadata["output_tokens"] == len(encode(str(message.content), "o200k_base"))


def test_model_copy_keeps_settings_and_shares_the_counter() -> None:
    model = OfflineTeachingModel(latency_ms=0, drift=True)
    copy = model.model_copy(update={"chatty_entities": True})
    assert copy.drift and copy.chatty_entities and not model.chatty_entities
    copy.invoke("hi")
    assert model.call_counter.count == 1
    assert copy.get_num_tokens("hello world") == 2


def test_latency_is_applied(monkeypatch: pytest.MonkeyPatch) -> None:
    slept: list[float] = []
    monkeypatch.setattr("memory_demos.providers.offline_model.model.time.sleep", slept.append)
    OfflineTeachingModel(latency_ms=200).invoke("hi")
    assert slept == [0.2]
    slept.clear()
    list(OfflineTeachingModel(latency_ms=200, streaming=True).stream("Tell me about the old maps of Lisbon"))
    assert len(slept) > 1 and sum(slept) == pytest.approx(0.2)


def test_works_in_a_prompt_template_chain() -> None:
    prompt = ChatPromptTemplate.from_messages(
        [("system", "You are a helpful assistant."), MessagesPlaceholder("history"), ("human", "{input}")]
    )
    chain = prompt | OfflineTeachingModel()
    history = [HumanMessage("I'm Mara"), AIMessage("Nice to meet you, Mara!")]
    assert chain.invoke({"history": history, "input": "what's my name?"}).content == "Your name is Mara."
    assert chain.invoke({"history": [], "input": "what's my name?"}).content == dont_know()


def test_conversation_summary_memory_end_to_end() -> None:
    from langchain_classic.memory import ConversationSummaryMemory

    model = OfflineTeachingModel()
    memory = ConversationSummaryMemory(llm=model)
    for text in ["Hi, I'm Mara and I live in Lisbon.", "I went hiking in the mountains.", "I love jazz."]:
        history = memory.load_memory_variables({})["history"]
        answer = model.invoke([SystemMessage(f"{SUMMARY_HEADER} {history}"), HumanMessage(text)]).content
        memory.save_context({"input": text}, {"output": answer})
    assert "Mara" in memory.buffer and "Lisbon" in memory.buffer and "jazz" in memory.buffer
    recalled = model.invoke(
        [SystemMessage(f"{SUMMARY_HEADER} {memory.buffer}"), HumanMessage("What's my name?")]
    )
    assert recalled.content == "Your name is Mara."


def test_conversation_entity_memory_end_to_end() -> None:
    from langchain_classic.memory import ConversationEntityMemory

    model = OfflineTeachingModel()
    memory = ConversationEntityMemory(llm=model)
    for text in ["Hi, I'm Mara and I live in Lisbon.", "My friend Anna works at Google."]:
        memory.load_memory_variables({"input": text})
        memory.save_context({"input": text}, {"output": "OK."})
    store = memory.entity_store.store
    assert store["Mara"] == "Mara is the human's name. Mara lives in Lisbon."
    assert "Anna" in store and "Google" in store


def test_chinese_value_after_a_space_is_read() -> None:
    from memory_demos.providers.offline_model import extract_facts, merge_facts

    facts = merge_facts(extract_facts("我的订单号是 B-5678。"))
    assert facts["order_number"] == ("B-5678",)


def test_assistant_quoting_the_user_states_no_fact() -> None:
    from memory_demos.providers.offline_model import extract_facts

    quoted = "AI: 我只能根据收到的内容回答，里面没有关于“你喜欢山还是海”的信息。"
    assert [f for f in extract_facts(quoted) if f.key == "likes"] == []


def test_summary_round_trip_keeps_chinese_values_clean() -> None:
    from langchain_classic.memory.prompt import SUMMARY_PROMPT

    model = OfflineTeachingModel()
    summary = ""
    for line in ("Human: 你好，我叫小明。\nAI: 记住了。", "Human: 我的订单号是 B-5678。\nAI: 好的。"):
        summary = str(model.invoke(SUMMARY_PROMPT.format(summary=summary, new_lines=line)).content)
    assert "用户叫小明。" in summary and "小明。。" not in summary and "小明." not in summary
    assert "用户的订单号是B-5678。" in summary


def test_a_memory_prompt_is_recognised_by_its_whole_shape_not_by_a_quoted_phrase() -> None:
    from langchain_classic.memory.prompt import SUMMARY_PROMPT

    from memory_demos.prompt_markers import SUMMARY_MARKER

    quoted = reply(HumanMessage(f"Please keep this: {SUMMARY_MARKER}. My name is Mara."))
    assert quoted == "Nice to meet you, Mara!"
    template = SUMMARY_PROMPT.format(summary="", new_lines="Human: My name is Mara.\nAI: Hi")
    assert reply(HumanMessage(template)) == "The human's name is Mara."
    # The template's opening alone, without its sections, is a chat message too.
    assert "NONE" not in reply(HumanMessage(SUMMARY_MARKER + ".\nCurrent summary: none"))
