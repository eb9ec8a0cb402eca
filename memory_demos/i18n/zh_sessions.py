"""对话与会话的中文文本：记忆按对话还是按用户保存、Compare 上的新对话、评分卡的会话分隔和探针类型。"""

TEXTS: dict[str, str] = {
    "memory.part.messages": "消息",
    "memory.part.blocks": "记忆块",
    "memory.part.summary": "摘要",
    "memory.part.entities": "实体笔记",
    "memory.part.vectors": "向量集合",
    "memory.part.facts": "关于用户的事实",
    "memory.part.exchanges": "存储的对话轮",
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
    "scenario.kind_without_probe": "第 {index} 轮：“kind” 只用于探针（带 “expect”、“reject” 或 “abstain”）。",
}
