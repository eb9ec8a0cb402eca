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
}
