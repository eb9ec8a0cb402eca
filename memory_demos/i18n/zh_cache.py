"""提示缓存一课的中文文本：可缓存前缀、计入缓存的费用、仪表上的阈值。"""

from __future__ import annotations

TEXTS: dict[str, str] = {
    "cache.breaks.none": "每一轮都保留了前缀",
    "cache.breaks.every_turn_from": "从第 {turn} 轮起每一轮都破坏缓存",
    "cache.breaks.on_turns": "在第 {turns} 轮破坏缓存",
    "cache.breaks.many": "有 {n} 轮破坏缓存，最早是第 {turn} 轮",
    "cache.breaks.too_few": "回答的轮次太少，无法判断",
    "cache.rule.raw": "任何共享前缀都计入，与本地服务器相同",
    "cache.rule.steps": "从 {min} 个词元起计，以 {step} 为步长",
    "tokens.cacheable": "可缓存前缀（估算）",
    "tokens.cached_reported": "已缓存（服务商报告）",
    "tokens.src.cache_estimate": "与本窗格更早的一次提示共享；{rule}",
    "tokens.src.cache_provider": "服务商报告（prompt_tokens_details.cached_tokens）",
    "tokens.cache_explained": "如果更早的一次调用以相同的词元开头，服务商可以从缓存中提供提示的开头部分；"
    "这些词元按缓存输入价计费。",
    "pane.cached_share": "提示缓存：{share} 可缓存（{total} 个词元中的 {cacheable}，估算）· {breaks}",
    "pane.cached_reported": "服务商报告了 {reported} 个缓存词元（{share}）。",
    "scorecard.price.cached": "缓存输入 / 百万词元（美元）",
    "scorecard.col.cost_no_cache": "估算费用（不计缓存）",
    "scorecard.col.cost_cached": "估算费用（计入缓存）",
    "scorecard.col.cached_input": "缓存输入词元",
    "scorecard.col.cache": "提示缓存",
    "scorecard.cache_caption": (
        "计入缓存：由提示缓存提供的输入词元按模型的缓存输入价计算。服务商报告了 cached_tokens 时用它，"
        "否则用每次调用与同一策略更早一次调用共享的前缀（{rule}）。"
    ),
    "scorecard.cached_reported": "服务商报告",
    "cost.cache_title": "计入与不计提示缓存的费用",
    "cost.cache_caption": (
        "按 {model} 计价（{source}，{date}）：输入 {input}、缓存输入 {cached}、输出 {output} "
        "美元 / 百万词元。"
        "缓存输入是每次调用与本窗格更早一次调用共享的前缀（{rule}），服务商报告了时用它自己的数字。"
    ),
    "cost.col.pane": "窗格",
    "cost.col.cached_share": "可缓存比例",
    "cost.col.no_cache": "费用，不计缓存（美元）",
    "cost.col.with_cache": "费用，计入缓存（美元）",
    "cost.col.cache": "提示缓存",
    "gauge.thresholds": "限制：{limits}",
    "gauge.threshold": "限制",
    "gauge.line": "{role}：{value}",
    "threshold.budget": "预算",
    "threshold.trigger": "触发",
    "threshold.keep": "保留",
    "threshold.unit.tokens": "{value} 个词元",
    "threshold.unit.messages": "{value} 条消息",
    "threshold.unit.exchanges": "{value} 轮对话",
    "threshold.unit.tool_results": "{value} 个工具结果",
    "threshold.unit.tokens.one": "{value} 个词元",
    "threshold.unit.messages.one": "{value} 条消息",
    "threshold.unit.exchanges.one": "{value} 轮对话",
    "threshold.unit.tool_results.one": "{value} 个工具结果",
    "threshold.words": "{param}={value}（{role}，{amount}）",
    "price.source": "{address}，{tier}",
    "price.tier.standard": "标准档",
    # The Failure lab's lesson.
    "failure.moving_prefix.title": "记忆笔记放在提示开头（提示缓存失效）",
    "failure.moving_prefix.explanation": (
        "两种设置发送相同的对话和相同的记忆笔记：到目前为止的事实，像滚动摘要一样每轮重写。朴素做法"
        "把笔记放进系统消息，也就是提示的最开头，于是每一轮都会改变第一条消息：之前的任何提示都不再"
        "是下一次提示的前缀，服务商的提示缓存几乎派不上用场。回答相同，账单不同。"
    ),
    "failure.moving_prefix.fix": (
        "把会变化的内容放在末尾：系统消息和历史保持不动，笔记放在新问题之前。这样每次提示都以上一次"
        "的完整提示开头，缓存就能提供它（在 OpenAI 上按缓存输入价计费，在 vLLM 或 l"
        "lama.cpp 上只计算一次）。只每隔几轮才刷新的摘要，或按块丢弃轮次的窗口，也能以同样"
        "的方式保住前缀。"
    ),
    "failure.harm.overbilled": "重复计费",
    "failure.verdict.cacheable_share": "缓存可以提供的提示词元比例",
    "failure.verdict.cacheable_per_turn": "每轮的可缓存前缀（词元）",
    "failure.verdict.cost_cached": "不计缓存 → 计入缓存的费用",
}
