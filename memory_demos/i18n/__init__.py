"""Every interface string, in English and Simplified Chinese, from one catalogue.

The texts live in ``en.py`` and ``zh.py`` (the same keys in both). ``t(key, **kwargs)`` looks the key
up in the session's language (falling back to English, then to the key itself) and fills
``{placeholders}``. Model output, memory contents and user input are never put through here: they are
data, rendered as text.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from memory_demos.i18n import en, zh

CATALOGUE: MappingProxyType[str, MappingProxyType[str, str]] = MappingProxyType(
    {"en": MappingProxyType(en.TEXTS), "zh": MappingProxyType(zh.TEXTS)}
)
FALLBACK_LANGUAGE = "en"


def current_language() -> str:
    """The session's language; English outside a Streamlit session."""
    try:
        from memory_demos.session import LabSession

        return LabSession().language
    except Exception:
        return FALLBACK_LANGUAGE


def t(key: str, language: str | None = None, **kwargs: Any) -> str:
    """The interface text for ``key`` in ``language`` (default: the session's), filled with ``kwargs``."""
    lang = language or current_language()
    text = CATALOGUE.get(lang, {}).get(key) or CATALOGUE[FALLBACK_LANGUAGE].get(key)
    if text is None:
        return key
    return text.format(**kwargs) if kwargs else text


# Chinese names and one-line descriptions of the strategies. English comes from each strategy's own
# ``StrategyInfo`` (the registry), so it is written once; other languages are looked up here.
STRATEGY_TEXT: dict[str, dict[str, tuple[str, str]]] = {
    "zh": {
        "buffer": ("缓冲（全部保留）", "保留整段对话并每轮全部发送：记得最全，成本不断增长。"),
        "window": ("窗口（最近 k 轮）", "只发送最近 k 轮对话：成本恒定，但更早的事实会悄悄丢失。"),
        "token_buffer": (
            "词元缓冲（最近 N 个词元）",
            "保留能装进词元预算的最新消息：成本有上限，旧事实被丢弃。",
        ),
        "summary": ("摘要（滚动摘要）", "用滚动摘要代替消息发送：提示词小，每轮多一次模型调用。"),
        "summary_buffer": (
            "摘要缓冲（摘要 + 最近消息）",
            "最近的消息原样保留，超过词元预算后把更早的消息折叠进摘要。",
        ),
        "entity": (
            "实体记忆（按名字记笔记）",
            "每轮抽取名字并为每个名字维护一条笔记：按名字回忆，每轮多次模型调用。"
            "这个类会保留模型返回的每一个名字，包括垃圾（见故障实验室）。",
        ),
        "vector": ("向量存储（相似的旧对话）", "把每轮对话存为向量，发送最相似的 k 条：按语义回忆。"),
        "combined": (
            "组合（窗口 + 实体）",
            "一个提示里两种记忆：最近 k 轮原文，加上提到的每个名字的笔记；"
            "实体类会保留模型返回的每一个名字（见故障实验室）。",
        ),
        "history": (
            "RunnableWithMessageHistory",
            "包装无状态的 prompt | model 链；会话工厂按会话加载和保存消息"
            "（内存、SQLite 或 PostgreSQL），每轮发送全部历史。",
        ),
        "trim": (
            "trim_messages（词元预算）",
            "保留完整历史，但只发送能装进词元预算的最新消息；更早的事实会掉出提示词。",
        ),
        "turn_trim": (
            "整轮裁剪（工具调用安全）",
            "使用工具的智能体，按整轮在词元预算内裁剪历史：工具调用和它的结果一起保留或一起丢弃，并先校验历史。",
        ),
        "langgraph": (
            "LangGraph 检查点（线程 + 时间旅行）",
            "LangGraph 图在线程的每一步后保存检查点；发送全部历史，可以回到任意一轮并在新分支上继续。",
        ),
        "summarization": (
            "智能体 + SummarizationMiddleware",
            "历史超过词元阈值后，中间件用模型写的摘要替换旧消息；最后几条消息原样保留。",
        ),
        "long_term": (
            "LangGraph 存储（长期事实）",
            "把关于用户的稳定事实抽取到 LangGraph 存储并放进系统消息；"
            "只发送最后几条消息，事实比对话活得更久。",
        ),
        "hybrid": (
            "混合：窗口 + 摘要 + 检索，受词元预算约束",
            "最近几轮原文，更早的作为滚动摘要和可检索向量，全部装进硬性词元预算，先丢最不重要的部分。",
        ),
        "agent": (
            "create_agent + 检查点（thread_id）",
            "LangChain 1.x 的短期记忆：智能体的检查点按线程保存消息（包括工具调用），每轮全部发送。",
        ),
        "agent_trim": (
            "create_agent + @before_model 裁剪",
            "智能体的 before_model 中间件把线程裁剪到最近 k 轮或词元预算内，其余消息从检查点状态中删除。",
        ),
        "semantic_store": (
            "带向量索引的 LangGraph 存储",
            "每轮对话存入带 MiniLM 索引的 LangGraph 存储；每次调用前用新消息检索，"
            "发送最接近的几条：按语义回忆。",
        ),
        "context_editing": (
            "create_agent + ContextEditingMiddleware（清除旧工具结果）",
            "使用工具的智能体；提示词超过词元阈值后，中间件把旧的工具结果换成占位符。"
            "线程里保留原文，提示词里不再发送。",
        ),
    },
}


def strategy_title(info: Any, language: str | None = None) -> str:
    """A strategy's name in the interface language (its registry title in English or when unknown)."""
    text = STRATEGY_TEXT.get(language or current_language(), {}).get(info.id)
    return text[0] if text else info.title


def strategy_summary(info: Any, language: str | None = None) -> str:
    """A strategy's one-line description in the interface language."""
    text = STRATEGY_TEXT.get(language or current_language(), {}).get(info.id)
    return text[1] if text else info.summary
