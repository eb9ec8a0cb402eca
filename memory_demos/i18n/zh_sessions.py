"""对话与会话的中文文本：记忆按对话还是按用户保存、Compare 上的新对话、评分卡的会话分隔和探测类型。"""

TEXTS: dict[str, str] = {
    "memory.part.messages": "消息",
    "memory.part.blocks": "记忆块",
    "memory.part.summary": "摘要",
    "memory.part.entities": "实体笔记",
    "memory.part.vectors": "向量集合",
    "memory.part.facts": "关于用户的事实",
    "memory.part.exchanges": "存储的对话轮",
    "memory.part.memories": "记忆（LangMem）",
    "memory.scope.conversation": "按对话",
    "memory.scope.user": "按用户，跨对话",
    "scenario.session_form": (
        "第 {index} 项：新对话写作 “- session: new”，"
        "旁边可选 “after: 3 days”（minutes、hours、days 或 weeks）。"
    ),
    "scenario.after_invalid": (
        "第 {index} 项：“after” 必须是整数加单位（minutes、hours、days、weeks），"
        "例如 “3 days”；实际是 {value!r}。"
    ),
    "scenario.session_first": "第 {index} 项：场景要以一条消息开头，不能以 “- session: new” 开头。",
    "scenario.session_twice": "第 {index} 项：连续两个 “- session: new”；只写一个（它的 “after” 可以更长）。",
    "scenario.session_last": "最后一项是 “- session: new”：后面没有消息。",
    "scenario.abstain_not_bool": "第 {index} 轮：“abstain” 必须是 true 或 false。",
    "scenario.abstain_with_expect": (
        "第 {index} 轮：弃答（“abstain: true”）期待的是拒答，不能同时 “expect” 一个答案。"
    ),
    "scenario.kind_unknown": "第 {index} 轮：“kind” 必须是 {kinds} 之一；实际是 {value}。",
    "scenario.kind_without_probe": "第 {index} 轮：“kind” 只用于探测（带 “expect”、“reject” 或 “abstain”）。",
    "compare.new_conversation": "新对话",
    "compare.new_conversation_help": (
        "每个窗格都开始这个用户的下一次对话：策略按对话保存的（thread_id、session_id、缓冲）从空开始，"
        "按用户保存的（LangGraph 存储命名空间）被带过来。之前的对话留在每个窗格的列表里。"
    ),
    "compare.new_conversation_done": "每个窗格都开始了新对话（第 {n} 次对话）。",
    "compare.reopened": "窗格 {pane} 重新显示第 {n} 次对话，保持离开时的样子。",
    "compare.forget_user": "忘掉这个用户的长期记忆",
    "compare.forget_user_help": (
        "删除各窗格跨对话保存的关于这个用户的内容（long_term 的事实、semantic_store 的对话轮），"
        "所有对话都算。"
        "重置不会这样做：它只清除屏幕上的这次对话。"
    ),
    "compare.forget_user_done": "已删除窗格 {panes} 中这个用户的长期记忆。",
    "compare.forget_user_none": "没有窗格跨对话保存关于这个用户的内容。",
    "pane.conversation": "第 {n} 次对话",
    "pane.conversation_help": "按对话保存：{empty}。按用户跨对话保存：{carried}。",
    "pane.carried_over": "从之前的对话带过来：{parts}",
    "pane.started_empty": "从空开始：{parts}（按对话保存）",
    "pane.nothing": "无",
    "pane.conversations_help": "这个窗格的对话：重新打开之前的一次，保持离开时的样子。",
    "pane.conversation_row": "第 {n} 次对话 · {messages} 条消息",
    "pane.conversation_current": "第 {n} 次对话 · {messages} 条消息（当前）",
    "pane.reset_help_parts": "重置：清除这次对话的{parts}。保留：{kept}。",
    "focus.conversation": "这个用户的第 {n} 次对话",
    "focus.conversation_caption": (
        "对话 ID {id}；这个窗格里还有 {earlier} 次之前的对话。下面记忆的每一部分都写明属于谁："
        "新对话不带按对话保存的内容，带上按用户保存的内容。"
    ),
    "state.column.part": "保存的内容",
    "state.column.scope": "属于",
    "state.column.in_new_conversation": "在新对话中",
    "state.value.carried_over": "被带过来",
    "state.value.starts_empty": "从空开始",
    "state.column.from_earlier_conversation": "来自之前的对话",
    "state.column.told_at": "告知时间",
    "state.column.conversation_id": "对话 ID",
    "state.key.memory_parts": "记忆保存的内容，以及它属于谁",
    "scorecard.by_session": "每次对话中的召回",
    "scorecard.by_session_caption": (
        "逐次对话统计通过的探测数 / 提问的探测数：每个 “- session: new” 对策略记住的内容有什么影响"
        "（线程从空开始，用户的存储被带过来）。"
    ),
    "scorecard.session": "第 {n} 次对话",
    "scorecard.session_after": "第 {n} 次对话（{after} 之后）",
    "duration.minute": "{n} 分钟",
    "duration.minute.one": "{n} 分钟",
    "duration.hour": "{n} 小时",
    "duration.hour.one": "{n} 小时",
    "duration.day": "{n} 天",
    "duration.day.one": "{n} 天",
    "duration.week": "{n} 周",
    "duration.week.one": "{n} 周",
    "scorecard.by_kind": "按探测类型的召回",
    "scorecard.kind.same_conversation": "同一次对话",
    "scorecard.kind.across_conversations": "跨对话",
    "scorecard.kind.after_change": "变化之后",
    "scorecard.kind.after_time": "时间过去之后",
    "scorecard.kind.should_refuse": "应当拒答",
    "scorecard.col.session": "对话",
    "scorecard.col.session_after": "{n} · {after} 之后",
    "scorecard.col.kind": "探测类型",
    "compare.new_conversation_failed": "窗格 {pane} 无法开始新对话；它留在当前对话中。",
}
