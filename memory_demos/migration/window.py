"""Step 2: ConversationBufferWindowMemory → ``trim_messages`` by message count (``token_counter=len``)."""

from __future__ import annotations

from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange, Text

STEP_ID = "window"
TITLE = Text("Window → trim_messages by count", "窗口记忆 → 按条数 trim_messages")
CLASSIC_API = "langchain_classic.memory.ConversationBufferWindowMemory"
MODERN_API = "langchain_core.messages.trim_messages(token_counter=len)"
SUMMARY = Text(
    "The window keeps the last k exchanges. trim_messages with token_counter=len counts every message as "
    "one 'token', so max_tokens=2k keeps the same last 2k messages; start_on='human' makes the cut fall "
    "between turns.",
    "窗口记忆保留最近 k 轮。trim_messages 配合 token_counter=len 把每条消息算作一个「token」，"
    "max_tokens=2k 就保留同样的最后 2k 条；start_on='human' 保证从一轮的开头截断。",
)
meant_to_match = True
K = 2
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a book about gardening?",
    "What makes a good cup of tea?",
    "What's my name?",
)
PITFALLS: tuple[Text, ...] = (
    Text(
        "Counting messages is not counting tokens: one pasted document can still overflow the context "
        "window. "
        "Trim by tokens when message sizes vary (next step).",
        "按条数计不等于按 token 计：一条粘贴进来的长文档仍可能撑爆上下文窗口。消息长短不一时请按 token "
        "裁剪（下一步）。",
    ),
    Text(
        "Without start_on='human' a cut can begin with an AI message or a tool result, and with tools an "
        "orphaned tool result is rejected by OpenAI's API.",
        "不加 start_on='human' 时，截断可能从 AI 消息或工具结果开始；有工具时，孤立的工具结果会被 OpenAI API "
        "拒绝。",
    ),
    Text(
        "Trim the copy you send, not the stored history: the full history stays available for other views.",
        "裁剪的是发送给模型的副本，而不是存储的历史：完整历史仍可供其他用途。",
    ),
    Text(
        "Old facts fall out silently, exactly as with the window: the user's name in turn 1 is gone by turn "
        "k+2.",
        "旧事实会悄无声息地掉出去，和窗口记忆一模一样：第 1 轮说的名字到第 k+2 轮就没了。",
    ),
)


def classic_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """ConversationBufferWindowMemory: store everything, load only the last K exchanges."""
    from langchain_classic.memory import ConversationBufferWindowMemory

    memory = ConversationBufferWindowMemory(k=K, return_messages=True)
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
    """A plain message list, trimmed to the last 2*K messages right before each call."""
    from langchain_core.messages import trim_messages

    history: list[BaseMessage] = []
    exchanges = []
    for user_text in inputs:
        recent = trim_messages(
            history,
            max_tokens=2 * K,  # with token_counter=len every message counts as 1
            token_counter=len,
            strategy="last",
            start_on="human",
        )
        reply = model.invoke([SystemMessage(SYSTEM_PROMPT), *recent, HumanMessage(user_text)])
        history += [HumanMessage(user_text), reply]
        exchanges.append(Exchange(user_text, reply.text))
    return exchanges
