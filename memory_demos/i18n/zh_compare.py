"""比较页较新部分的中文文本：上下文说明、聚焦视图、假设重放、导出。"""

from __future__ import annotations

TEXTS: dict[str, str] = {
    "compare.export_json": "对话（JSON）",
    "compare.export_markdown": "对话（Markdown）",
    "compare.newest_replies": "每个窗格的最新回复（下方每个窗格保留完整对话）",
    "compare.newest_pending": "正在回答……",
    "compare.per_row_option": "每行 {n} 个",
    "compare.window_line": "每个量表都把窗格的提示与 {window} 个词元的上下文窗口相比（{source}）。",
    "compare.replaying": "正在把对话重放到窗格 {pane}：还剩 {n} 条消息……",
    "pane.focus_help": "以全宽打开这个窗格的轮次：提示各部分与上下文窗口的对比、每条消息的全文、"
    "隐藏调用的提示和回复、记忆的状态。",
    "pane.replay_help": "让这个窗格重新开始，并把整段对话（包括之前的 {n} 条消息）重放给它，"
    "使它回答与其他窗格相同的消息。",
    "pane.params_replay": "把目前的 {n} 条消息重放到新设置中",
    "pane.params_replay_help": "开启：重建窗格并把对话重新发给它，这样可以在同样的消息上比较新设置"
    "（每条消息都要花费模型调用）。关闭：窗格重新开始。",
    "pane.replayed": "已用 {params} 重放 {n} 条消息：{calls} 次模型调用，{tokens} 个词元，{seconds} 秒。",
    "pane.replay_failed": "第 {n} 条消息失败，重放在那里停止。",
    "focus.title": "窗格 {pane}",
    "focus.section_bar": "提示各部分与上下文窗口的对比",
    "focus.section_bar_prompt": "同一提示与自身相比：各部分所占的比例",
    "focus.prompt": "发送的提示：{messages} 条消息，{tokens} 个词元",
    "focus.hidden_calls": "本轮的隐藏调用：{n} 次",
    "focus.call_heading": "{purpose}：提示 {prompt} + 回复 {completion} 个词元",
    "focus.call_reply_tool_calls": "它的回复：没有文字，{n} 个工具调用",
    "focus.call_reply": "它的回复",
}
