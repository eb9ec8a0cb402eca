"""Step 3: ConversationTokenBufferMemory → ``trim_messages`` by tokens (whole turns when tools are used)."""

from __future__ import annotations

from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange, Text
from memory_demos.strategies.turn_trim import trim_turns

STEP_ID = "token_buffer"
TITLE = Text("Token buffer → trim_messages by tokens", "Token 缓冲 → 按 token 的 trim_messages")
CLASSIC_API = "langchain_classic.memory.ConversationTokenBufferMemory"
MODERN_API = "langchain_core.messages.trim_messages(token_counter=model)"
SUMMARY = Text(
    "Both keep the newest messages that fit a token budget, counted by the model's own tokenizer. The "
    "classic class prunes its stored buffer after saving, one message at a time; trim_messages cuts a copy "
    "right before the call and, with start_on='human', only between turns. So they can differ by one "
    "message at the edge: this pair is not meant to match exactly.",
    "两者都保留能装进 token 预算的最新消息，用模型自己的分词器计数。经典类在保存后逐条修剪已存的缓冲；"
    "trim_messages 在调用前裁剪一个副本，并且在 start_on='human' 时只在轮与轮之间截断。"
    "所以边界处可能差一条消息：这一对本来就不要求完全一致。",
)
meant_to_match = False
MAX_TOKENS = 90
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a good book about gardening for small balconies?",
    "What do you think about spring weather in general?",
    "What's my order number?",
)
# Shown under the pair: how the turn_trim strategy trims when the history holds tool calls.
EXTRAS = (trim_turns,)
PITFALLS: tuple[Text, ...] = (
    Text(
        "Classic chat memories silently drop tool calls: save_context stores only the input and output "
        "strings, so the AI tool call and the ToolMessage never reach the history.",
        "经典聊天记忆会悄悄丢掉工具调用：save_context 只存输入和输出字符串，AI 的工具调用和 ToolMessage "
        "从未进入历史。",
    ),
    Text(
        "With tools in the history, cut whole turns: a ToolMessage without the AI message that called it is "
        "rejected by the API. start_on='human' helps; trimming by whole turns (shown below) is safer.",
        "历史里有工具消息时，要整轮裁剪：缺少发起调用的 AI 消息的 ToolMessage 会被 API 拒绝。"
        "start_on='human' 有帮助；按整轮裁剪（见下方）更稳妥。",
    ),
    Text(
        "Count with the real tokenizer of the model you call (pass token_counter=model, or a tiktoken "
        "function); an approximate counter lets prompts overflow.",
        "请用所调用模型的真实分词器计数（token_counter=model 或 tiktoken 函数）；近似计数会让提示词溢出。",
    ),
    Text(
        "ConversationTokenBufferMemory raises IndexError when even an empty history is over the budget "
        "(langchain#11734).",
        "当空历史都超出预算时，ConversationTokenBufferMemory 会抛出 IndexError（langchain#11734）。",
    ),
)


def classic_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """ConversationTokenBufferMemory: after each save, pop the oldest messages until under the budget."""
    from langchain_classic.memory import ConversationTokenBufferMemory

    memory = ConversationTokenBufferMemory(llm=model, max_token_limit=MAX_TOKENS, return_messages=True)
    prompt = ChatPromptTemplate.from_messages(
        [("system", SYSTEM_PROMPT), MessagesPlaceholder("history"), ("human", "{input}")]
    )
    chain = prompt | model
    exchanges = []
    for user_text in inputs:
        history = memory.load_memory_variables({})["history"]
        reply = chain.invoke({"history": history, "input": user_text})
        memory.save_context({"input": user_text}, {"output": reply.text})
        exchanges.append(Exchange(user_text, reply.text))
    return exchanges


def modern_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """Keep the full history; before each call send the newest messages that fit MAX_TOKENS."""
    from langchain_core.messages import trim_messages

    history: list[BaseMessage] = []
    exchanges = []
    for user_text in inputs:
        recent = trim_messages(
            history,
            max_tokens=MAX_TOKENS,
            token_counter=model,  # the model's own get_num_tokens_from_messages
            strategy="last",
            start_on="human",  # cut between turns, never inside one
        )
        reply = model.invoke([SystemMessage(SYSTEM_PROMPT), *recent, HumanMessage(user_text)])
        history += [HumanMessage(user_text), reply]
        exchanges.append(Exchange(user_text, reply.text))
    return exchanges
