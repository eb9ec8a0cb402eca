"""Interface texts of the teaching pages (migration guide, scorecard, failure lab), in English and Chinese.

``tt(key, **kwargs)`` works like ``memory_demos.i18n.t``: the session's language, English as the
fallback, then the key itself. Only our own words go through here; model output and user input are
rendered as text by the pages.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

FALLBACK_LANGUAGE = "en"

_EN: dict[str, str] = {
    # -- navigation (for the frame's page list) --
    "nav.migration": "Migration guide",
    "nav.migration.blurb": "Each classic memory class next to its modern replacement, run on the same "
    "messages, with the prompts compared turn by turn.",
    "nav.scorecard": "Scorecard",
    "nav.scorecard.blurb": "Replay a scripted conversation through several strategies: recall, tokens, "
    "estimated cost, charts and exports.",
    "nav.failure_lab": "Failure lab",
    "nav.failure_lab.blurb": "Ways memory goes wrong, each reproduced next to its fix.",
    # -- migration guide --
    "migration.title": "Migration guide: classic memory → modern APIs",
    "migration.intro": "The classic memory classes (langchain_classic.memory) are deprecated. Each step "
    "shows a classic version and its modern replacement as two small functions: the code below is the "
    "code that runs when you press Run both. Both get the same scripted messages; the page compares the "
    "prompts the model really received.",
    "migration.progress": "Step {n} of {total}: {title}",
    "migration.previous": "Previous",
    "migration.next": "Next",
    "migration.jump": "Go to step",
    "migration.classic": "Classic",
    "migration.modern": "Modern",
    "migration.extras": "Also used in this step",
    "migration.deprecations_built": "Deprecation warnings LangChain raised when each side built its memory "
    "(captured as the code ran, nothing sent yet; with the version each warning names):",
    "migration.meant_to_match": "These two are meant to send the same context: the check below should say "
    "“same context” on every turn.",
    "migration.not_meant_to_match": "These two are not meant to send the same prompt: the check shows where "
    "they part.",
    "migration.inputs": "Scripted messages (one per line)",
    "migration.inputs_help": "Both versions receive exactly these messages, in order (at most {max}).",
    "migration.inputs_invalid": "Use between 1 and {max} non-empty lines of at most {chars} characters.",
    "migration.run": "Run both",
    "migration.running": "Running both versions…",
    "migration.provider": "Model: {provider}",
    "migration.all_same": "Same context on every turn.",
    "migration.some_differ": "The prompts differ on {count} of {total} turns.",
    "migration.error": "The {version} version stopped with an error:",
    "migration.turn": "Turn {n}",
    "migration.user": "User message",
    "migration.tokens": "Prompt tokens",
    "migration.memory_calls": "Memory calls: {count} ({tokens} tokens)",
    "migration.tool_rounds": "Tool rounds after this prompt: {count}",
    "migration.equivalence": "Equivalence",
    "migration.diff": "Line diff (classic → modern)",
    "migration.no_diff": "No difference.",
    "migration.prompt": "Prompt the model received",
    "migration.reply": "Reply",
    "migration.pitfalls": "Pitfalls",
    "migration.decision": "Which pattern should I use?",
    "migration.decision_pick": "Your assistant",
    "migration.decision_pattern": "Pattern",
    "migration.decision_strategies": "Try in Compare",
    "migration.decision_why": "Why",
    "migration.decision_watch": "Watch out",
    # -- scorecard --
    "scorecard.title": "Scenario scorecard",
    "scorecard.intro": "Replay a scripted conversation through several strategies, each from a fresh memory, "
    "and score what they recalled at the probe turns and what they cost.",
    "scorecard.source": "Scenario",
    "scorecard.source.bundled": "Bundled",
    "scorecard.source.upload": "Upload YAML",
    "scorecard.bundled": "Bundled scenario",
    "scorecard.upload": "Scenario file (YAML, at most {kb} KB)",
    "scorecard.upload_needed": "Upload a scenario file to continue.",
    "scorecard.invalid": "This scenario cannot be used:",
    "scorecard.preview": "{turns} turns, {probes} recall probes",
    "scorecard.turns_preview": "Scenario turns",
    "scorecard.strategies": "Strategies",
    "scorecard.strategies_needed": "Pick at least one strategy.",
    "scorecard.run": "Run scorecard",
    "scorecard.cancel": "Cancel",
    "scorecard.cancelled": "Cancelled: the partial results were discarded.",
    "scorecard.failed": "The replay stopped with an error:",
    "scorecard.progress": "{strategy}: turn {k} of {n}",
    "scorecard.waiting": "{strategy}: waiting",
    "scorecard.provider": "Model: {provider}",
    "scorecard.results": "Results: {scenario}",
    "scorecard.prices": "Price table",
    "scorecard.prices_invalid": "The price table cannot be used:",
    "scorecard.price_model": "Estimate cost with",
    "scorecard.table": "Scorecard",
    "scorecard.cost_by_model": "Estimated cost under every price in the table (USD, estimates)",
    "scorecard.chart_prompt": "Prompt tokens per turn (the reply call)",
    "scorecard.chart_cumulative": "Cumulative total tokens (reply, memory calls, tool rounds)",
    "scorecard.chart_recall": "Recall timeline: was the expected fact in the reply?",
    "scorecard.recalled": "recalled",
    "scorecard.missed": "missed",
    "scorecard.no_probes": "This scenario has no recall probes (no turn with 'expect').",
    "scorecard.downloads": "Downloads",
    "scorecard.download_json": "Replay (JSON)",
    "scorecard.download_csv": "Scorecard (CSV)",
    "scorecard.download_md": "Report (Markdown)",
    "scorecard.download_script": "Python script",
    "scorecard.script_help": "Rebuilds the same strategies with the same parameters and replays the same "
    "messages through memory_demos, printing the injected prompts as JSON. It contains no API key.",
    "scorecard.col.strategy": "Strategy",
    "scorecard.col.recall": "Recall",
    "scorecard.col.prompt_tokens": "Prompt tokens",
    "scorecard.col.memory_tokens": "Memory-call tokens",
    "scorecard.col.total_tokens": "Total tokens",
    "scorecard.col.model_calls": "Model calls",
    "scorecard.col.errors": "Errors",
    "scorecard.col.cost": "Est. cost (USD)",
    "scorecard.col.latency": "Mean latency (s)",
    "scorecard.col.turn": "Turn",
    "scorecard.col.question": "Question",
    # -- failure lab --
    "failure.title": "Failure lab",
    "failure.intro": "Each demo runs a naive memory set-up and its fix on the same input, with the offline "
    "teaching model's fault switches, so every failure is reproducible and needs no network.",
    "failure.pick": "Failure mode",
    "failure.run": "Run demo",
    "failure.naive": "Naive",
    "failure.fixed": "With the fix",
    "failure.failed_yes": "Failure reproduced with the naive set-up.",
    "failure.failed_no": "The naive set-up did not fail this time.",
    "failure.fixed_yes": "The fix holds: the failure is absent.",
    "failure.fixed_no": "The fix did not hold this time.",
    "failure.fix": "The fix",
    "failure.code": "The code that ran",
    "failure.error": "The demo stopped with an error:",
}

_ZH: dict[str, str] = {
    "nav.migration": "迁移指南",
    "nav.migration.blurb": "每个经典记忆类与其现代替代写法并排，用同样的消息运行，逐轮比较提示词。",
    "nav.scorecard": "评分卡",
    "nav.scorecard.blurb": "把脚本化对话重放给多种策略：召回、token、估算费用、图表与导出。",
    "nav.failure_lab": "失败实验室",
    "nav.failure_lab.blurb": "记忆出错的几种方式，每种都与修复方案并排复现。",
    "migration.title": "迁移指南：经典记忆 → 现代 API",
    "migration.intro": "经典记忆类（langchain_classic.memory）已被弃用。"
    "每一步用两个小函数展示经典写法及其现代替代："
    "下面显示的代码就是点击「同时运行」时实际执行的代码。两边收到相同的脚本消息，"
    "页面比较模型实际收到的提示词。",
    "migration.progress": "第 {n} 步，共 {total} 步：{title}",
    "migration.previous": "上一步",
    "migration.next": "下一步",
    "migration.jump": "跳到步骤",
    "migration.classic": "经典写法",
    "migration.modern": "现代写法",
    "migration.extras": "本步骤还用到",
    "migration.deprecations_built": "每一边构建记忆时 LangChain 发出的弃用警告"
    "（在代码运行时捕获，尚未发送消息；注明警告里的版本）：",
    "migration.meant_to_match": "这两者本应发送相同的上下文：下面的检查在每一轮都应显示「same context」。",
    "migration.not_meant_to_match": "这两者本来就不发送相同的提示词：检查会显示它们从哪里开始不同。",
    "migration.inputs": "脚本消息（每行一条）",
    "migration.inputs_help": "两个版本按顺序收到完全相同的这些消息（最多 {max} 条）。",
    "migration.inputs_invalid": "请输入 1 到 {max} 行非空内容，每行最多 {chars} 个字符。",
    "migration.run": "同时运行",
    "migration.running": "正在运行两个版本……",
    "migration.provider": "模型：{provider}",
    "migration.all_same": "每一轮的上下文都相同。",
    "migration.some_differ": "{total} 轮中有 {count} 轮提示词不同。",
    "migration.error": "{version}版本出错停止：",
    "migration.turn": "第 {n} 轮",
    "migration.user": "用户消息",
    "migration.tokens": "提示词 token",
    "migration.memory_calls": "记忆调用：{count} 次（{tokens} 个 token）",
    "migration.tool_rounds": "此提示词之后的工具轮次：{count}",
    "migration.equivalence": "等价性",
    "migration.diff": "逐行差异（经典 → 现代）",
    "migration.no_diff": "没有差异。",
    "migration.prompt": "模型收到的提示词",
    "migration.reply": "回答",
    "migration.pitfalls": "常见陷阱",
    "migration.decision": "我该用哪种模式？",
    "migration.decision_pick": "你的助手",
    "migration.decision_pattern": "模式",
    "migration.decision_strategies": "在「对比」页试试",
    "migration.decision_why": "原因",
    "migration.decision_watch": "注意",
    "scorecard.title": "场景评分卡",
    "scorecard.intro": "把脚本化对话重放给多种策略（每种都从全新的记忆开始），"
    "评估它们在探测轮次的召回情况和花费。",
    "scorecard.source": "场景",
    "scorecard.source.bundled": "内置",
    "scorecard.source.upload": "上传 YAML",
    "scorecard.bundled": "内置场景",
    "scorecard.upload": "场景文件（YAML，最大 {kb} KB）",
    "scorecard.upload_needed": "请上传场景文件以继续。",
    "scorecard.invalid": "该场景无法使用：",
    "scorecard.preview": "{turns} 轮，{probes} 个召回探测",
    "scorecard.turns_preview": "场景轮次",
    "scorecard.strategies": "策略",
    "scorecard.strategies_needed": "请至少选择一种策略。",
    "scorecard.run": "运行评分卡",
    "scorecard.cancel": "取消",
    "scorecard.cancelled": "已取消：部分结果已丢弃。",
    "scorecard.failed": "重放出错停止：",
    "scorecard.progress": "{strategy}：第 {k} 轮，共 {n} 轮",
    "scorecard.waiting": "{strategy}：等待中",
    "scorecard.provider": "模型：{provider}",
    "scorecard.results": "结果：{scenario}",
    "scorecard.prices": "价格表",
    "scorecard.prices_invalid": "价格表无法使用：",
    "scorecard.price_model": "估算费用所用模型",
    "scorecard.table": "评分卡",
    "scorecard.cost_by_model": "按价格表中每个模型估算的费用（美元，估算值）",
    "scorecard.chart_prompt": "每轮提示词 token（回答调用）",
    "scorecard.chart_cumulative": "累计总 token（回答、记忆调用、工具轮次）",
    "scorecard.chart_recall": "召回时间线：回答里是否包含预期事实？",
    "scorecard.recalled": "已召回",
    "scorecard.missed": "未召回",
    "scorecard.no_probes": "该场景没有召回探测（没有带 expect 的轮次）。",
    "scorecard.downloads": "下载",
    "scorecard.download_json": "重放结果（JSON）",
    "scorecard.download_csv": "评分卡（CSV）",
    "scorecard.download_md": "报告（Markdown）",
    "scorecard.download_script": "Python 脚本",
    "scorecard.script_help": "用相同参数重建相同的策略，通过 memory_demos 重放相同的消息，并以 JSON "
    "打印注入的提示词。"
    "脚本中不含 API 密钥。",
    "scorecard.col.strategy": "策略",
    "scorecard.col.recall": "召回",
    "scorecard.col.prompt_tokens": "提示词 token",
    "scorecard.col.memory_tokens": "记忆调用 token",
    "scorecard.col.total_tokens": "总 token",
    "scorecard.col.model_calls": "模型调用次数",
    "scorecard.col.errors": "错误",
    "scorecard.col.cost": "估算费用（美元）",
    "scorecard.col.latency": "平均延迟（秒）",
    "scorecard.col.turn": "轮次",
    "scorecard.col.question": "问题",
    "failure.title": "失败实验室",
    "failure.intro": "每个演示都在同一输入上运行一个朴素的记忆方案和它的修复方案，"
    "使用离线教学模型的故障开关，"
    "因此每种失败都可复现且无需联网。",
    "failure.pick": "失败模式",
    "failure.run": "运行演示",
    "failure.naive": "朴素做法",
    "failure.fixed": "修复之后",
    "failure.failed_yes": "朴素做法复现了该失败。",
    "failure.failed_no": "朴素做法这次没有失败。",
    "failure.fixed_yes": "修复有效：失败没有出现。",
    "failure.fixed_no": "修复这次没有奏效。",
    "failure.fix": "修复方法",
    "failure.code": "实际运行的代码",
    "failure.error": "演示出错停止：",
}

CATALOGUE: MappingProxyType[str, MappingProxyType[str, str]] = MappingProxyType(
    {"en": MappingProxyType(_EN), "zh": MappingProxyType(_ZH)}
)


def current_language() -> str:
    """The session's language (``memory_demos.session``), else ``ml_language`` in the state, else English."""
    try:
        from memory_demos.session import LabSession

        return LabSession().language
    except Exception:
        try:
            import streamlit as st

            return str(st.session_state.get("ml_language", FALLBACK_LANGUAGE))
        except Exception:
            return FALLBACK_LANGUAGE


def tt(key: str, language: str | None = None, **kwargs: Any) -> str:
    """The teaching-page text for ``key`` in ``language`` (default: the session's), filled with ``kwargs``."""
    lang = language or current_language()
    text = CATALOGUE.get(lang, CATALOGUE[FALLBACK_LANGUAGE]).get(key) or CATALOGUE[FALLBACK_LANGUAGE].get(key)
    if text is None:
        return key
    return text.format(**kwargs) if kwargs else text
