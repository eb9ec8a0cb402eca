"""Simplified Chinese texts strategies write: the keys of ``en_strategies.TEXTS``."""

TEXTS: dict[str, str] = {
    "strategy.hybrid.order.history_first": (
        "检索内容最多占预算的 30%；先丢最旧的窗口轮次，再丢检索到的行，最后丢摘要"
    ),
    "strategy.hybrid.order.retrieved_first": "先丢检索到的行（不设上限），再丢最旧的窗口轮次，最后丢摘要",
    "strategy.vector.hits_note": (
        "得分来自对同一集合、用相同查询和 k 的第二次搜索，在检索器搜索之前进行；相似度 = 1 − 余弦距离。"
    ),
    "strategy.exchange_format_note": (
        "每条存储的对话是两行：“input: …”和“output: …”，这是 LangChain 的 VectorStoreRetrieverMemory "
        "写下的标签。模型收到的就是这些原文，所以不翻译。"
    ),
    "strategy.summary.stored_note": "由这个类存储但不发送：只有摘要会到达模型。",
    "strategy.note.facts_skipped": "跳过了事实抽取（{error}）；存储没有改变。",
    "strategy.note.fact_refused": "未存储：{key}: {value}（{reason}）。",
    "strategy.note.exchange_refused": "这一轮对话没有存储（{reason}）。",
    "strategy.screen.instruction": "这是给助手的指令，不是关于用户的事实",
    "strategy.screen.not_in_source": "它所抽取自的消息里没有这一内容",
    "strategy.note.ttl_unsupported": (
        "{store} 不支持 TTL（它的 supports_ttl 为 False）：ttl_seconds 被忽略，什么都不会过期。要用 TTL，"
        "请选择 store=sqlite 或 postgres。"
    ),
    "strategy.error.postgres_ttl_minutes": (
        "PostgresStore 无法在读取时为 {param}={value} 续期：它把 ttl_minutes 存为整数，所以会把这个 TTL "
        "续期为 {minutes} 分钟（0：该项在第一次读取时就过期）。请使用 60 秒的整数倍，或设置 "
        "refresh_on_read=false（这样该项在写入 {value} 秒后过期）。"
    ),
    "strategy.note.memory_formed": (
        "记忆管理器第 {run} 次运行在这次回答之后处理了第 {turns} 轮：写入 {writes} 次；"
        "形成的记忆从第 {available} 轮起可用。"
    ),
    "strategy.note.memory_unchanged": (
        "记忆管理器第 {run} 次运行在这次回答之后处理了第 {turns} 轮，没有发现需要新记住的内容。"
    ),
    "strategy.note.manager_failed": "记忆管理器第 {run} 次运行失败（{error}）；回答不受影响，没有形成记忆。",
    "strategy.error.hybrid_over_budget": (
        "仅系统提示词和这条消息就占用 {tokens} 个词元，超过 hybrid.max_tokens={budget}。"
        "请调高 hybrid.max_tokens 或发送更短的消息；未发送任何内容。"
    ),
    "strategy.error.whole_turns_over_budget": (
        "即使丢弃所有较早的轮次，提示（{what}）仍占用 {tokens} 个词元，超过预算 {budget}；"
        "整轮不能拆开。请调高 max_tokens。"
    ),
    "strategy.turn_trim.system": "系统消息",
    "strategy.turn_trim.turn": "最新一轮",
    "strategy.turn_trim.turn_and_system": "最新一轮和系统消息",
    "strategy.error.tool_rounds": "模型在 {rounds} 轮之后仍在请求工具；已放弃这一轮。",
    "strategy.error.agent_trim_one_of": (
        "agent_trim.k 和 agent_trim.max_tokens 必须恰好设置一个（另一个设为 0）；收到的是 k={k}、"
        "max_tokens={max_tokens}。"
    ),
    "strategy.note.middleware_removed": "中间件从线程状态中删除了 {count} 条消息。",
    "strategy.error.no_room_with_tools": (
        "{param}={value} 没有给消息留下空间：仅系统提示词和工具定义就占用了 {reserved} 个词元。请选择大于 "
        "{reserved} 的值。"
    ),
    "strategy.error.tools_over_budget": (
        "系统提示词和工具定义占用 {tokens} 个词元，超过了 {param}={value}。请调高预算；没有发送任何内容。"
    ),
    "strategy.note.tool_round_lost": (
        "工具轮：裁剪后的提示词丢掉了本轮的问题和工具消息（丢弃 {dropped} 条）；模型只看到 {kept} 条消息。"
    ),
    "strategy.note.orphan_tool_results": "裁剪后的提示词里有 {count} 条工具结果没有对应的工具调用。",
    "strategy.error.message_over_budget": (
        "系统提示词和你的消息占用 {tokens} 个词元，超过了 {param}={value}。请调高预算；没有发送任何内容。"
    ),
    "strategy.error.no_fork": "{strategy} 不保存检查点；只有 langgraph 可以分叉。",
    "strategy.error.embeddings_key": "OpenAI 嵌入需要 API 密钥。",
    "strategy.note.cut_by_deadline": (
        "回答被截断：每次调用 {seconds} 秒的时限到了。模型到那时为止说的话都保留，并标记为截断。"
    ),
    "strategy.note.cut_by_context": (
        "回答被截断：还没到 max_tokens，模型的上下文窗口（{tokens} 个词元）就已填满。"
        "模型到那时为止说的话都保留，并标记为截断。更小的记忆预算能给回答留出更多空间。"
    ),
    "strategy.note.cut_by_max_tokens": (
        "回答被截断：达到了 max_tokens（每次回答 {max_tokens} 个词元）。模型到那时为止说的话都保留，"
        "并标记为截断。"
    ),
    "strategy.note.entity_skipped": (
        "跳过了实体抽取（{error}）；本轮提示词里没有实体笔记，也没有更新任何笔记。"
    ),
    "strategy.error.no_room": (
        "{param}={value} 没有给消息留下空间：仅系统提示词就占用了 {reserved} 个词元。请选择大于 {reserved} "
        "的值。"
    ),
    "strategy.note.budget_dropped": "词元预算 {budget}（{order}）：为了装下，丢弃了 {parts}。",
    "strategy.note.summary_update_skipped": "跳过了摘要更新（{error}）；这些轮次仍可检索，下次再写入摘要。",
    "strategy.error.checkpoint_not_in_thread": "检查点 {checkpoint} 不在线程 {thread} 中。",
    "strategy.error.fork_turn": "无法在第 {turn} 轮分叉：这条分支只有 {finished} 个已完成的轮次。",
    "strategy.error.checkpoint_mid_turn": "检查点 {checkpoint} 位于一轮的中间；请选择某一轮的结束处。",
    "strategy.error.turn_over_budget": (
        "本轮的消息占用 {tokens} 个词元，超过了预算留给消息的 {budget} 个。请调高预算；没有发送任何内容。"
    ),
    "strategy.note.upkeep_skipped": "跳过了记忆维护（{reason}）；原始的这一轮已保留。",
    "strategy.note.nothing_fits": (
        "max_token_limit={limit} 装不下任何内容：历史现在是空的（LangChain 从空列表弹出时抛出了 IndexError，"
        "langchain#11734；已处理）。"
    ),
    "strategy.note.exchange_over_limit": "仅这一轮对话就超过了 max_token_limit={limit}：什么都没有保留。",
    "strategy.note.summarization_replaced": "SummarizationMiddleware 用一段摘要替换了 {count} 条消息。",
    "strategy.note.summarization_replaced.one": "SummarizationMiddleware 用一段摘要替换了 1 条消息。",
    "strategy.note.summary_catch_up_failed": "补写摘要再次失败（{reason}）。",
    "strategy.note.store_skipped": "跳过了保存这一轮对话（{error}）；之后无法检索到它。",
    "strategy.note.block_edit": "模型编辑了它的 {label} 记忆块（{via}）。",
    "strategy.note.block_refused": (
        "{label} 记忆块拒绝了一次编辑：编辑后会有 {needed} 个字符，上限是 {limit}。"
        "模型已被告知，什么都没有保存。"
    ),
    "strategy.note.block_clipped": (
        "{label} 记忆块已满：这次编辑有 {dropped} 个字符被丢弃，而工具仍告诉模型已保存。"
    ),
    "strategy.block_tool.done": "已保存。{label} 记忆块现在有 {used}/{limit} 个字符。",
    "strategy.block_tool.full": (
        "编辑被拒绝：{label} 记忆块放不下了（已用 {used}/{limit} 个字符；加上这次编辑会有 {needed} 个）。"
        "什么都没有保存。请先用 memory_replace 缩短或替换一行。"
    ),
    "strategy.block_tool.not_found": "编辑被拒绝：{label} 记忆块里没有 old_content。什么都没有改。",
    "strategy.block_tool.unknown_block": "编辑被拒绝：没有名为 {label} 的记忆块。什么都没有保存。",
    "strategy.tool_history.duplicate_result": (
        "重复的工具结果：消息 {index}（{kind}）再次回答了工具调用 '{call_id}'。"
    ),
    "strategy.tool_history.orphan": (
        "孤立的工具结果：消息 {index}（{kind}）回答了工具调用 '{call_id}'，"
        "但紧挨在它前面的 AI 消息并没有发出这个调用。"
    ),
    "strategy.tool_history.no_id": "消息 {index} 中的工具调用 '{name}' 没有 id。",
    "strategy.tool_history.duplicate_id": "消息 {index} 中的工具调用 id '{call_id}' 重复了。",
    "strategy.tool_history.missing_before": (
        "缺少工具结果：消息 {call_index} 中的工具调用 '{call_id}'（{name}）在消息 "
        "{index}（{kind}）之前没有 ToolMessage。"
    ),
    "strategy.tool_history.missing_never": (
        "缺少工具结果：消息 {call_index} 中的工具调用 '{call_id}'（{name}）始终没有得到回答。"
    ),
}
