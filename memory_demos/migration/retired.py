"""Closing step: why the classic API was retired, and which modern pattern fits which assistant."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage

from memory_demos.migration import SYSTEM_PROMPT, Exchange, Text

STEP_ID = "retired"
TITLE = Text("Why the classic API was retired", "经典 API 为何退役")
CLASSIC_API = "langchain_classic.chains.ConversationChain + ConversationBufferMemory"
MODERN_API = "langchain.agents.create_agent + tools + InMemorySaver (thread_id in the config)"
SUMMARY = Text(
    "Classic chains take a dict and return a dict; their memory flattens the conversation into one string "
    "inside a text template, so the chat model gets a single human message. Tool calls cannot be stored, "
    "streaming goes through the chain's own callbacks, and which conversation a memory belongs to is "
    "implicit in which Python object you hold. The modern APIs pass lists of messages (tool calls "
    "included), stream tokens from the model, and name the conversation explicitly in the config "
    "(session_id or thread_id), so state can live in a database shared by many server processes.",
    "经典链接收字典、返回字典；其记忆把对话压平成文本模板里的一个字符串，聊天模型只收到一条 human 消息。"
    "工具调用无法保存，流式输出要经过链自己的回调，而记忆属于哪段对话取决于你手里拿着哪个 Python 对象。"
    "现代 API 传递消息列表（包括工具调用），直接从模型流式输出 token，并在 config 中显式指明会话"
    "（session_id 或 thread_id），因此状态可以放在多个服务进程共享的数据库里。",
)
meant_to_match = False
DEFAULT_INPUTS: tuple[str, ...] = (
    "Hi, my name is Mara and I live in Lisbon.",
    "What's the weather in Lisbon?",
    "What's my name?",
)
PITFALLS: tuple[Text, ...] = (
    Text(
        "Dict in, dict out: the memory's input and output keys must be guessed right (input_key/output_key), "
        "or save_context raises or saves the wrong field.",
        "字典进、字典出：记忆的输入输出键（input_key/output_key）必须猜对，否则 save_context "
        "会报错或存错字段。",
    ),
    Text(
        "The classic prompt is one string: roles become 'Human:'/'AI:' text the model must parse, and a user "
        "who types 'AI:' can impersonate the assistant.",
        "经典提示词是一个字符串：角色变成模型需自行解析的「Human:」「AI:」文本，用户输入「AI:」"
        "即可冒充助手。",
    ),
    Text(
        "No tool calls: a classic memory saves strings, so an agent's tool calls and results vanish from the "
        "history; the modern message list keeps them (look at the modern prompt of the last turn).",
        "没有工具调用：经典记忆只保存字符串，智能体的工具调用与结果会从历史中消失；现代消息列表会保留它们"
        "（看最后一轮的现代提示词）。",
    ),
    Text(
        "Explicit session config: with session_id/thread_id in the config, one chain object serves every "
        "user; a classic memory object per user must be kept alive by you, in one process.",
        "显式会话配置：config 里有 session_id/thread_id 时，一个链对象就能服务所有用户；"
        "经典写法要你自己为每个用户"
        "在同一进程里保活一个记忆对象。",
    ),
)


def classic_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """ConversationChain: a dict in, a dict out, the history flattened into one text template."""
    from langchain_classic.chains import ConversationChain
    from langchain_classic.memory import ConversationBufferMemory

    chain = ConversationChain(llm=model, memory=ConversationBufferMemory())
    exchanges = []
    for user_text in inputs:
        result = chain.invoke({"input": user_text})  # {"input", "history", "response"}
        exchanges.append(Exchange(user_text, result["response"]))
    return exchanges


def modern_version(model: BaseChatModel, inputs: Iterable[str]) -> list[Exchange]:
    """create_agent: messages in, messages out, tool calls kept, the thread named in the config."""
    from langchain.agents import create_agent
    from langgraph.checkpoint.memory import InMemorySaver

    from memory_demos.tools import TOOLS

    agent = create_agent(
        model=model, tools=list(TOOLS), system_prompt=SYSTEM_PROMPT, checkpointer=InMemorySaver()
    )
    config = {"configurable": {"thread_id": secrets.token_urlsafe(16)}}
    exchanges = []
    for user_text in inputs:
        state = agent.invoke({"messages": [HumanMessage(user_text)]}, config)
        exchanges.append(Exchange(user_text, state["messages"][-1].text))
    return exchanges


@dataclass(frozen=True)
class Recommendation:
    """What the decision helper suggests for one kind of assistant."""

    situation: str
    label: Text
    pattern: Text
    strategies: tuple[str, ...]
    why: Text
    watch_out: Text


SITUATIONS: tuple[Recommendation, ...] = (
    Recommendation(
        situation="faq",
        label=Text("A short FAQ bot", "简短的 FAQ 机器人"),
        pattern=Text(
            "create_agent with a checkpointer and a @before_model middleware that trims the thread by tokens "
            "or exchanges (agent_trim). RunnableWithMessageHistory is what older code and the book use: it "
            "still runs, but langchain-core deprecates it.",
            "create_agent 加检查点，再加一个按 token 或轮数裁剪线程的 @before_model 中间件（agent_trim）。"
            "RunnableWithMessageHistory 是旧代码和书中的写法：仍能运行，但 langchain-core 已将其弃用。",
        ),
        strategies=("agent_trim", "agent"),
        why=Text(
            "Conversations are a few turns long and facts need not outlive them: the last few messages are "
            "all the context there is, and nothing extra is paid for summaries or stores.",
            "对话只有几轮，事实不必跨对话保留：最近几条消息就是全部上下文，也不用为摘要或存储多付费。",
        ),
        watch_out=Text(
            "Trim by whole turns if the bot calls tools, and count the tool definitions in the budget; keep "
            "thread ids random.",
            "若机器人调用工具，要按整轮裁剪，并把工具定义计入预算；thread_id 要随机。",
        ),
    ),
    Recommendation(
        situation="multi_session",
        label=Text("A long, multi-session assistant", "长期、多会话的助手"),
        pattern=Text(
            "create_agent with a persistent checkpointer (SqliteSaver/PostgresSaver) per thread, plus "
            "SummarizationMiddleware once threads grow long and ContextEditingMiddleware for old tool "
            "results.",
            "每个线程使用持久化检查点（SqliteSaver/PostgresSaver）的 create_agent，线程变长后再加 "
            "SummarizationMiddleware，旧的工具结果用 ContextEditingMiddleware 清除。",
        ),
        strategies=("agent", "summarization", "context_editing"),
        why=Text(
            "Threads must survive restarts and be resumable by id; the summary bounds the cost of a long "
            "thread while the last messages stay verbatim.",
            "线程需要在重启后依然存在并能按 id 恢复；摘要控制长线程的成本，最后几条消息保持原文。",
        ),
        watch_out=Text(
            "Summaries can drift: do not keep facts that must be exact only in the summary.",
            "摘要可能漂移：必须精确的事实不要只存在摘要里。",
        ),
    ),
    Recommendation(
        situation="profile",
        label=Text("An assistant that must remember a user profile", "必须记住用户资料的助手"),
        pattern=Text(
            "A LangGraph store namespaced by user: exact profile facts of an explicit schema (long_term), "
            "and past exchanges found by meaning through the store's index (semantic_store), beside a "
            "trimmed thread.",
            "按用户划分命名空间的 LangGraph 存储：按显式模式保存的精确资料事实（long_term），"
            "以及通过存储索引按语义找回的旧对话（semantic_store），旁边是裁剪过的线程。",
        ),
        strategies=("long_term", "semantic_store", "hybrid"),
        why=Text(
            "Profile facts must be exact and outlive every conversation; a schema says what may be kept, and "
            "the store can be read, corrected and deleted on request.",
            "资料事实必须精确并跨越所有对话；模式规定可以保存什么，存储内容可以按请求查看、更正和删除。",
        ),
        watch_out=Text(
            "Namespace by an authenticated user id and never store secrets (passwords, hints) as facts.",
            "按已认证的用户 id 划分命名空间，绝不把密钥类信息（密码、提示问题）当作事实保存。",
        ),
    ),
)


def recommend(situation: str) -> Recommendation:
    """The recommendation for ``faq``, ``multi_session`` or ``profile``."""
    for recommendation in SITUATIONS:
        if recommendation.situation == situation:
            return recommendation
    known = ", ".join(r.situation for r in SITUATIONS)
    raise KeyError(f"Unknown situation {situation!r}; known: {known}")
