"""Simplified Chinese texts of what the core says when something fails: the keys of ``en_errors.TEXTS``."""

TEXTS: dict[str, str] = {
    "error.timeout": (
        "模型没有及时回答（超时）。请调高超时时间（在设置中，或用 --timeout）或调低 max_tokens，然后重试。"
    ),
    "error.rate_limit": "服务商正在限制请求频率（429）。请稍等片刻再试。",
    "error.authentication": (
        "服务商拒绝了这个 API 密钥（401）。请检查密钥（在设置中，或命令行里 --api-key-env 指定的环境变量）。"
    ),
    "error.permission": "服务商拒绝访问这个模型（403）。",
    "error.not_found": "服务商不认识这个模型或地址（404）。",
    "error.context_overflow": (
        "超出上下文窗口：提示词（或提示词加上回答）比模型能接收的更长。这不是网络故障，原样重试还会失败。"
        "可以缩小记忆预算（更小的窗口 k、max_token_limit 或记忆的 max_tokens），也可以调低每次回答的 "
        "max_tokens、清空对话，或在服务器上使用更大的上下文。"
    ),
    "error.interrupted": (
        "服务器为了回答另一个请求而中止了这次回答：它一次只处理一个请求。请在设置中把“最多同时回答 N "
        "个窗格”设为 1（命令行：--concurrency 1），或让服务器排队处理请求（llama-cpp-python："
        "--interrupt_requests false）。"
    ),
    "error.overflow_evidence": (
        "（服务器自己的分词器算出提示词有 {prompt_tokens} 个词元；加上 max_tokens {max_tokens}，"
        "超过了它 {window} 个词元的上下文窗口。）"
    ),
    "error.maybe_overflow": (
        "服务器没有说明原因，但提示词接近上下文窗口：本地计数（tiktoken，不是服务器的分词器）约 "
        "{prompt_tokens} 个词元，加上 max_tokens {max_tokens}，窗口为 {window}。"
        "如果反复出现，可能是提示词放不下：调低 max_tokens 或缩小记忆预算试试就能看出来。"
    ),
    "error.connection_dropped": "回答还没完成，与服务商的连接就断开了。请重试。",
    "error.connection": "无法连接到服务商：请检查基础 URL，并确认服务器正在运行。",
    "error.server": "服务商内部出错（5xx）。请稍后重试。",
    "error.malformed": "服务商返回的响应格式不正确。",
    "error.url_refused": "服务器拒绝调用这个地址（工作坊规则）；没有发送任何内容。",
    "error.generic.rejected": "服务商拒绝了这次请求（工作坊中不显示它的回复）。",
    "error.generic.other": "调用服务商失败。",
    "error.raw": "{name}: {detail}",
    "error.with_evidence": "{message} {evidence}",
    "error.rollback_failed": "{error}（恢复记忆也失败了：{rollback}）",
    "error.injected": "注入的故障：{detail}",
    "error.rejected": "服务商拒绝了这次请求：{detail}",
    "error.storage_hidden": "服务器上这段记忆的存储暂时无法使用；主持人可以在日志中看到原因。",
    "error.budget.tokens": (
        "已达到词元预算：这次调用大约需要 {needed} 个词元（提示词加一次回答），而 {limit} 个中只剩 {left} "
        "个。没有发送任何内容。"
    ),
    "error.budget.concurrency": "这位学员同时发起的模型调用太多；没有发送任何内容。",
    "failure_kind.timeout": "超时",
    "failure_kind.rate_limit": "请求受限",
    "failure_kind.authentication": "密钥被拒",
    "failure_kind.permission": "访问被拒",
    "failure_kind.not_found": "模型或地址未知",
    "failure_kind.context_overflow": "超出上下文窗口",
    "failure_kind.interrupted": "被服务器中止",
    "failure_kind.connection_dropped": "连接中断",
    "failure_kind.connection": "无法连接服务器",
    "failure_kind.server": "服务器出错",
    "failure_kind.rejected": "请求被拒绝",
    "failure_kind.malformed": "回复格式错误",
    "failure_kind.url_refused": "地址被拒绝",
    "failure_kind.injected": "注入的故障",
    "failure_kind.budget": "已达工作坊预算",
    "failure_kind.input": "消息被拒绝",
    "failure_kind.storage": "存储不可用",
    "failure_kind.other": "其他故障",
    "failures.stopped_before": "没有测到任何结果：{kind}。第一轮之前的检查就失败了，所以重放没有开始。",
    "failures.stopped_after": "没有测到任何结果：{kind}。前 {n} 轮都因此失败，所以重放在那里停止。",
    "failures.some": (
        "{total} 轮中有 {failed} 轮失败。它们显示为失败的调用，而不是被遗忘的事实，这里也不计费用。"
    ),
    "failures.line": "**{kind}：{count} 轮**：{help}",
    "failures.rejected_help": "服务商拒绝了这样发送的请求；它的原话在那一轮里。",
    "failures.other_help": "那一轮的错误说明了出了什么问题。",
    "check.reached": "服务器在 {seconds} 秒内作出了回答。",
    "check.lists": "它列出了 {count} 个模型：{models}。",
    "check.lists_model": "它列出了 {model}。",
    "check.not_listed": "它没有列出 {model}；它列出的是：{models}。调用可能会因“模型未知”而失败。",
    "check.lists_none": "它没有列出任何模型（也许仍然能提供 {model}）。",
    "check.found": "{reached}{found}",
    "check.failed": "检查发现：{kind}。{help}",
    "check.hosted": "工作坊模型在 {seconds} 秒内作出了回答。",
    "failures.panes": "上一条消息在 {total} 个窗格中有 {failed} 个失败；它们的记忆保持原样。",
    "failures.injected_help": "离线教学模型按设定故意失败（故障开关）：并没有真的出问题。",
    "url.invalid": "基础 URL 不是有效的 URL。",
    "url.scheme": "基础 URL 必须以 http:// 或 https:// 开头，并写明主机。",
    "url.unresolved": "无法解析基础 URL 的主机名。",
    "url.credentials": "基础 URL 不能带用户名或密码。",
    "url.query": "基础 URL 不能带查询（?）或片段（#）。",
    "url.not_allowed": "在这个工作坊里，服务器只调用主持人允许的地址；这个地址不在其中。",
    "url.private": "基础 URL 指向私有、回环或链路本地地址：已拒绝。",
    "url.left_allowed": "请求离开了允许的地址：已拒绝。",
    "scenario.anchors": "场景文件不能使用 YAML 锚点或别名。",
    "scenario.tag": "场景文件不能使用 YAML 标签（{tag}）。",
    "scenario.too_deep": "场景的嵌套超过了 {depth} 层。",
    "scenario.not_yaml": "不是有效的 YAML：{detail}",
    "scenario.not_strings": "第 {index} 轮：“{field}” 必须是字符串列表。",
    "scenario.bytes_over": "场景文件有 {size} 字节，上限是 {limit}。",
    "scenario.not_utf8": "场景文件不是 UTF-8 文本。",
    "scenario.too_large": "场景文件超过了 {limit} 字节。",
    "scenario.unknown_fields": "未知的场景字段：{names}",
    "scenario.name": "“name” 必须是非空字符串。",
    "scenario.language": "“language” 必须是 “en” 或 “zh”。",
    "scenario.system": "“system” 必须是字符串。",
    "scenario.description": "“description” 必须是字符串。",
    "scenario.turn_not_mapping": "第 {index} 轮必须是包含 “user” 的映射（“expect”、“reject” 可选）。",
    "scenario.turn_unknown_fields": "第 {index} 轮有未知字段：{names}",
    "scenario.user_empty": "第 {index} 轮：“user” 必须是非空字符串。",
    "scenario.user_too_long": "第 {index} 轮：“user” 超过了 {limit} 个字符。",
    "scenario.not_mapping": "场景是一个包含 name、language 和 turns 的映射。",
    "scenario.turns_empty": "“turns” 必须是非空列表。",
    "scenario.too_many_turns": "场景有 {count} 轮，上限是 {limit}。",
    "scenario.no_file": "{path} 处没有场景文件。",
    "scenario.path_too_large": "{path} 超过了 {limit} 字节。",
    "scenario.unknown": "未知的场景 {name}；内置场景：{bundled}",
    "price.no_model": "价格表第 {number} 行：模型名为空。",
    "price.twice": "价格表第 {number} 行：{model} 出现了两次。",
    "price.not_number": "价格表第 {number} 行（{model}）：{field} 必须是数字；收到的是 {value}。",
    "price.out_of_range": "价格表第 {number} 行（{model}）：{field} 必须在 0 到 {limit} 之间。",
    "price.empty": "价格表是空的。",
}
