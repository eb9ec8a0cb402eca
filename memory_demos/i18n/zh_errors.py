"""Simplified Chinese texts of what the core says when a call fails: the same keys as ``en_errors.TEXTS``."""

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
    "error.connection_dropped": "回答还没完成，与服务商的连接就断开了。请重试。",
    "error.connection": "无法连接到服务商：请检查基础 URL，并确认服务器正在运行。",
    "error.server": "服务商内部出错（5xx）。请稍后重试。",
    "error.malformed": "服务商返回的响应格式不正确。",
    "error.url_refused": "服务器拒绝调用这个地址（工作坊规则）；没有发送任何内容。",
    "error.generic.rejected": "服务商拒绝了这次请求（工作坊中不显示它的回复）。",
    "error.generic.other": "调用服务商失败。",
    "error.injected": "注入的故障：{detail}",
    "error.rejected": "服务商拒绝了这次请求：{detail}",
    "error.storage_hidden": "服务器上这段记忆的存储暂时无法使用；主持人可以在日志中看到原因。",
    "error.budget.tokens": (
        "已达到词元预算：这次调用大约需要 {needed} 个词元（提示词加一次回答），而 {limit} 个中只剩 {left} "
        "个。没有发送任何内容。"
    ),
    "error.budget.concurrency": "这位参与者同时发起的模型调用太多；没有发送任何内容。",
    "url.invalid": "基础 URL 不是有效的 URL。",
    "url.scheme": "基础 URL 必须以 http:// 或 https:// 开头，并写明主机。",
    "url.unresolved": "无法解析基础 URL 的主机名。",
    "url.credentials": "基础 URL 不能带用户名或密码。",
    "url.query": "基础 URL 不能带查询（?）或片段（#）。",
    "url.not_allowed": (
        "在这个工作坊里，服务器只调用主持人允许的地址；这个地址不在其中。请使用工作坊模型，或询问主持人。"
    ),
    "url.private": "基础 URL 指向私有、回环或链路本地地址：已拒绝。",
    "url.left_allowed": "请求离开了允许的地址：已拒绝。",
}
