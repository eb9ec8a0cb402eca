"""Step 3: ConversationBufferWindowMemory → ``create_agent`` + ``@before_model`` keeping k exchanges."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.migration import SYSTEM_PROMPT, Exchange, Text
from memory_demos.strategies.shared.agent_middleware import keep_last_turns, replace_all

STEP_ID = "window"
TITLE = Text("Window → @before_model trimming", "窗口记忆 → @before_model 裁剪")
CLASSIC_API = "langchain_classic.memory.ConversationBufferWindowMemory"
MODERN_API = "langchain.agents.create_agent + langchain.agents.middleware.before_model (RemoveMessage)"
SUMMARY = Text(
    "The window keeps the last k exchanges. In LangChain 1.x a @before_model middleware runs before each "
    "model call of the agent and returns RemoveMessage(id=REMOVE_ALL_MESSAGES) followed by the messages to "
    "keep: the current exchange and the k before it, cut only before a human message so a tool call never "
    "loses its result. Both send the same prompt every turn.",
    "窗口记忆保留最近 k 轮。在 LangChain 1.x 中，@before_model 中间件在智能体每次调用模型前运行，"
    "返回 RemoveMessage(id=REMOVE_ALL_MESSAGES) 加上要保留的消息：当前这一轮和之前的 k 轮，"
    "只在 human 消息前截断，工具调用不会丢掉它的结果。两边每轮发送的提示词相同。",
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
        "RemoveMessage(id=REMOVE_ALL_MESSAGES) rewrites the thread's state: the dropped messages are gone "
        "from the thread (only older checkpoints still hold them). Trim in wrap_model_call instead if you "
        "need the full history later.",
        "RemoveMessage(id=REMOVE_ALL_MESSAGES) 会改写线程状态：被丢弃的消息从线程中消失（只有更早的检查点"
        "还保留着）。如果之后还需要完整历史，请改在 wrap_model_call 里裁剪发送的副本。",
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
    """create_agent with a @before_model middleware (below) keeping the last K exchanges of the thread."""
    from langchain.agents import create_agent
    from langgraph.checkpoint.memory import InMemorySaver

    agent = create_agent(
        model=model,
        tools=[],
        system_prompt=SYSTEM_PROMPT,
        middleware=[keep_last_turns(K)],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": secrets.token_urlsafe(16)}}
    exchanges = []
    for user_text in inputs:
        state = agent.invoke({"messages": [HumanMessage(user_text)]}, config)
        exchanges.append(Exchange(user_text, state["messages"][-1].text))
    return exchanges


# Shown under the pair: the middleware, and the state update it returns.
EXTRAS = (keep_last_turns, replace_all)
