"""Every interface string, in English and Simplified Chinese, from one catalogue.

``t(key, **kwargs)`` looks the key up in the session's language (falling back to English, then to
the key itself) and fills ``{placeholders}``. Model output, memory contents and user input are
never put through here: they are data, rendered as text.
"""

from __future__ import annotations

from typing import Any

CATALOGUE: dict[str, dict[str, str]] = {
    "en": {
        # -- frame and navigation --
        "app.name": "Memory Lab",
        "nav.home": "Home",
        "nav.home.blurb": "What Memory Lab teaches.",
        "nav.migration": "Migration guide",
        "nav.migration.blurb": "Each classic memory class next to its modern replacement, "
        "run on the same messages, "
        "with the prompts compared turn by turn.",
        "nav.scorecard": "Scorecard",
        "nav.scorecard.blurb": "Replay a scripted conversation through several strategies: recall, tokens, "
        "estimated cost, charts and exports.",
        "nav.failure_lab": "Failure lab",
        "nav.failure_lab.blurb": "Ways memory goes wrong, each reproduced next to its fix.",
        "nav.compare": "Compare",
        "nav.compare.blurb": "Send one message to several memory strategies and see, side by side, what each "
        "puts in the prompt, what it costs and what it keeps.",
        "nav.tokens": "Tokens",
        "nav.tokens.blurb": "Paste a prompt and see how a model's tokenizer cuts it, token by token.",
        "nav.settings": "Settings",
        "nav.settings.blurb": "Choose the model (offline teaching model, OpenAI, OpenAI-compatible), its key "
        "and timeout, and the language.",
        "sidebar.provider": "Active model",
        "provider.offline": "Offline teaching model (rule-based, not an LLM)",
        "sidebar.tokenizer": "Tokens counted with {label}",
        "sidebar.change_provider": "Change model",
        "sidebar.language": "Language",
        # -- home --
        "home.title": "Memory Lab",
        "home.lead": "A chat model remembers nothing between calls: an app's **memory** is whatever it "
        "puts back into the prompt. Memory Lab runs several memory strategies on the same conversation "
        "and shows, live:",
        "home.point_prompt": "**the prompt each one really sends**: which earlier messages, summaries, "
        "entities or retrieved lines memory added to your new message;",
        "home.point_tokens": "**what it costs**: prompt and completion tokens, plus the hidden model calls "
        "memory makes to summarise or extract;",
        "home.point_state": "**what it keeps**: the memory's own state after every turn, and what was "
        "dropped or summarised.",
        "home.provider_label": "Model answering now",
        "home.offline_note": "The offline teaching model is rule-based, not an LLM: it only knows what is in "
        "its prompt, so a fact that memory dropped is visibly forgotten. Pick a real model in Settings.",
        "home.pages": "Pages",
        # -- compare --
        "compare.title": "Compare memory strategies",
        "compare.intro": "One message goes to every pane at once; each pane's memory decides what the model "
        "({provider}) sees.",
        "compare.chat_placeholder": "Message every pane at once",
        "compare.add_strategy": "Strategy to add",
        "compare.add_pane": "Add pane",
        "compare.add_pane_help": "Up to {max} panes; the other panes keep their conversations.",
        "compare.reset_all": "Reset all",
        "compare.reset_all_done": "Every pane's memory and conversation were cleared.",
        "compare.per_row": "Panes per row",
        "compare.zoom": "Zoom gauges to the prompt",
        "compare.zoom_help": "Off: each bar is drawn against the model's whole context window. "
        "On: against the prompt itself, to compare its sections.",
        "compare.empty_message": "The message is empty: nothing was sent.",
        "compare.too_long": "The message has {length} characters; the limit is {limit}. Nothing was sent.",
        "kind.classic": "Classic",
        "kind.modern": "Modern",
        # -- pane --
        "pane.params": "Parameters",
        "pane.params_apply": "Apply",
        "pane.params_restart": "Applying rebuilds this pane's memory: its conversation starts again.",
        "pane.params_applied": "Pane {pane} was rebuilt with the new parameters.",
        "pane.params_invalid": "Those parameters cannot be used:",
        "pane.reset_help": "Forget this pane's conversation and memory.",
        "pane.remove_help": "Remove this pane (at least two stay).",
        "pane.empty": "No messages yet: type one below.",
        "pane.error": "This turn failed; the pane's memory is unchanged.",
        "pane.retry": "Retry",
        "pane.note": "Note from the strategy",
        "pane.build_error": "This strategy could not be set up with the current model:",
        "pane.inspect_turn": "Inspect turn",
        "pane.turn_n": "Turn {n}",
        "pane.earlier_turns": "Earlier turns",
        "pane.prompt_sent": "Prompt sent",
        "pane.tokens": "Tokens",
        "pane.memory_state": "Memory state",
        "pane.what_changed": "What changed this turn",
        # -- prompt view --
        "prompt.none": "No prompt was captured for this turn.",
        "prompt.message_heading": "{role} · {tokens} tokens",
        "prompt.added_by_memory": "Added by memory",
        "prompt.added_by_memory_counts": "{messages} messages · {tokens} tokens",
        "prompt.memory_added_nothing": "Memory added nothing this turn.",
        "prompt.new_message": "Your new message",
        "role.system": "System",
        "role.human": "User",
        "role.ai": "Assistant",
        "role.tool": "Tool",
        "section.system": "System prompt",
        "section.summary": "Summary",
        "section.entities": "Entities & facts",
        "section.retrieved": "Retrieved",
        "section.history": "History",
        "section.new_input": "New message",
        "section.memory": "Other memory",
        # -- what changed --
        "changes.first_turn": "First turn: there is no earlier prompt to compare with.",
        "changes.none": "Nothing changed in what memory sent.",
        "changes.heading": "{kind} · {role} · {tokens} tokens",
        "changes.kind.added": "Added",
        "changes.kind.dropped": "Dropped",
        "changes.kind.summarized": "Folded into the summary",
        "changes.kind.summary": "Summary updated",
        "changes.kind.retrieved": "Retrieved",
        "changes.kind.entities": "Entities & facts updated",
        "changes.count.added": "{n} added",
        "changes.count.dropped": "{n} dropped",
        "changes.count.summarized": "{n} summarised",
        "changes.count.summary": "summary updated",
        "changes.count.retrieved": "{n} retrieved",
        "changes.count.entities": "entities updated",
        # -- tokens of a turn --
        "tokens.prompt": "Prompt",
        "tokens.completion": "Completion",
        "tokens.memory_calls": "Memory calls (hidden)",
        "tokens.tool_rounds": "Tool rounds",
        "tokens.total": "Total this turn",
        "tokens.column_what": "Tokens for",
        "tokens.column_tokens": "Tokens",
        "tokens.column_purpose": "Purpose",
        "tokens.hidden_calls": "Memory made {n} extra model call(s) you never see in the chat:",
        "tokens.no_hidden_calls": "No hidden memory calls this turn.",
        "tokens.source_reported": "Reported by the provider",
        "tokens.source_counted": "Counted with tiktoken {encoding}",
        "tokens.approximate": "(approximate: not this model's own tokenizer)",
        "tokens.tools_estimated": "+ tool definitions, estimated (OpenAI cookbook method)",
        "section.tools": "Tool definitions (estimated)",
        "prompt.tools_heading": "Tool definitions sent with the prompt · {tokens} tokens",
        "prompt.tools_estimated": "Estimated with the OpenAI cookbook method; a provider's reported "
        "prompt count includes them exactly.",
        "deprecation.none": "No deprecation warning raised",
        "deprecation.raised": "LangChain warned: deprecated",
        "deprecation.since": " (since {versions})",
        "deprecation.details": "Deprecation warnings LangChain raised while building this memory",
        "tokens.seconds": "Turn took {seconds} s",
        "tokens.failed_calls": "{n} failed call(s): they cost only what the provider reported ({tokens} "
        "tokens, included above).",
        # -- gauge and charts --
        "gauge.caption": "Prompt: {used} of {window} tokens of context ({percent})",
        "gauge.assumed": "(assumed window: the real one is unknown; set it in Settings)",
        "gauge.section": "Section",
        "gauge.tokens": "Tokens",
        "cost.title": "Cost across panes",
        "compare.export_script": "Download this conversation as a Python script",
        "compare.export_script_help": "Rebuilds these panes' strategies with the same parameters and replays "
        "the same messages through memory_demos, printing each injected prompt. No API key is included.",
        "cost.caption": "Prompt tokens of each reply, and the running total of every token spent "
        "(hidden memory calls included).",
        "cost.empty": "Send a message to draw the charts.",
        "cost.pane": "Pane",
        "cost.turn": "Turn",
        "cost.prompt_per_turn": "Prompt tokens per turn",
        "cost.cumulative_total": "Cumulative total tokens",
        # -- memory state --
        "state.empty": "This memory holds nothing yet.",
        "state.none": "(none)",
        "state.error": "The memory state could not be read:",
        "state.column_key": "Field",
        "state.column_value": "Value",
        "state.key.messages": "Stored messages",
        "state.key.summary": "Summary",
        "state.key.moving_summary_buffer": "Running summary",
        "state.key.entities": "Entities",
        "state.key.entity_store": "Entity store",
        "state.key.hits": "Retrieved (with scores)",
        "state.key.retrieved": "Retrieved (with scores)",
        "state.key.checkpoints": "Checkpoints",
        "state.key.store": "Long-term store",
        "state.key.store_items": "Long-term store items",
        "state.key.facts": "Facts",
        "state.key.kept": "Kept in the prompt",
        "state.key.dropped": "Dropped from the prompt",
        "state.key.k": "k (exchanges sent)",
        "state.key.stored_messages": "Messages stored",
        "state.key.sent_next_turn": "Messages sent next turn",
        "state.key.max_token_limit": "Token limit",
        "state.key.max_tokens": "Token limit",
        "state.key.stored_tokens": "Tokens stored",
        "state.key.backend": "Backend",
        "state.key.session_key": "Session key",
        "state.key.history_file": "History file",
        "state.key.config": "Config passed to the chain",
        "state.key.redis_keys": "Redis keys and their time to live",
        "state.ttl.caption": "TTL read from Redis when this turn ended, counted down since; "
        "a key at 0 is gone and the next prompt is without it.",
        "state.ttl.key": "Key",
        "state.ttl.remaining": "Expires in",
        "state.ttl.at_turn": "TTL at the end of the turn (s)",
        "state.ttl.never": "never (no TTL)",
        "state.ttl.gone": "expired",
        # -- tokens page --
        "tokenizer.title": "Tokens",
        "tokenizer.intro": "Models read tokens, not characters. Paste a prompt or pick one, choose a model, "
        "and see where its tokenizer cuts the text and what each piece's id is.",
        "tokenizer.source": "Text",
        "tokenizer.source.paste": "Type or paste",
        "tokenizer.sample.english": "Sample: English",
        "tokenizer.sample.chinese": "Sample: Chinese",
        "tokenizer.sample.code": "Sample: code",
        "tokenizer.sample.last_prompt": "The last prompt a Compare pane sent",
        "tokenizer.sample_text.english": "Hi! My name is Ada and I live in Lisbon. "
        "What's the tokenizer doing with unbelievably long words?",
        "tokenizer.text": "Prompt text",
        "tokenizer.model": "Model",
        "tokenizer.model_help": "Pick one or type any model name; unknown models are counted with "
        "o200k_base.",
        "tokenizer.count": "Tokens",
        "tokenizer.characters": "Characters",
        "tokenizer.encoding": "Encoding",
        "tokenizer.exact": "{model} uses tiktoken {encoding}: this count is exact for the text "
        "(a chat prompt adds a few tokens of framing per message).",
        "tokenizer.approximate": "{model} is not an OpenAI model: its own tokenizer is unknown here, so this "
        "count uses o200k_base and is approximate.",
        "tokenizer.truncated": "Showing the first {shown} of {total} tokens.",
        "tokenizer.chips": "Token by token",
        "tokenizer.chips_caption": "Each coloured cell is one token, read left to right; "
        "\u2423 is a space and \u21b5 a line break. A character split over two tokens shows as \ufffd.",
        "tokenizer.table": "Every token with its id",
        "tokenizer.column_position": "#",
        "tokenizer.column_token": "Token",
        "tokenizer.column_id": "Id",
        # -- settings --
        "settings.title": "Settings",
        "settings.provider": "Model",
        "settings.active": "Active now",
        "settings.provider_kind": "Provider",
        "settings.kind.offline": "Offline teaching model",
        "settings.kind.openai": "OpenAI",
        "settings.kind.openai_compatible": "OpenAI-compatible server",
        "settings.offline_note": "A rule-based stand-in ({model}) that needs no key and no network: it "
        "answers only from its prompt, so memory's effect is easy to see.",
        "settings.model": "Model name",
        "settings.model_help": "e.g. gpt-4o-mini, or the name your server uses (llama3.1:8b).",
        "settings.base_url": "Base URL",
        "settings.base_url_help": "The server's OpenAI-compatible endpoint, e.g. http://localhost:11434/v1.",
        "settings.api_key": "API key",
        "settings.api_key_help": "Kept only in this browser session's memory, as a secret value: never "
        "written to disk, logged or shown. Leave empty to keep the current one.",
        "settings.key_in_session": "A key is set for this session.",
        "settings.key_from_env": "Using the key from the server's OPENAI_API_KEY.",
        "settings.forget_key": "Forget the key",
        "settings.key_forgotten": "The key was removed from this session.",
        "settings.timeout": "Timeout and reply deadline (seconds)",
        "settings.timeout_help": "How long to wait for the server, and the longest one reply may stream: a "
        "reply stopped at the deadline is kept, marked as cut.",
        "settings.max_tokens": "Max tokens per reply",
        "settings.max_tokens_help": "A reply that reaches this many tokens stops there; what it said is "
        "kept, marked as cut.",
        "settings.concurrency": "Answer panes at most N at a time (0: all at once)",
        "settings.concurrency_help": "1 for a local server that serves one request at a time (llama.cpp's "
        "Python server, a llama-server with one slot): it stops a running reply to answer another.",
        "settings.context_window": "Context window in tokens (0: known models, or ask the server)",
        "settings.context_window_help": "The gauge and the context-overflow messages use it. Known OpenAI "
        "models come from a table; a local server is asked (llama.cpp /props, vLLM /v1/models, Ollama "
        "/api/show, LM Studio); otherwise it is a guess, labelled assumed.",
        "settings.context_window_now": "Context window: {tokens} tokens ({source})",
        "settings.rebuild_note": "Applying a new model rebuilds every Compare pane with it: their "
        "conversations start again.",
        "settings.apply": "Apply",
        "settings.applied": "Model changed: {n} panes were rebuilt with it and start fresh.",
        "settings.unchanged": "Nothing changed.",
        "settings.need_model": "Enter a model name.",
        "settings.need_key": "OpenAI needs an API key: paste one here (or set OPENAI_API_KEY on the server).",
        "settings.need_base_url": "Enter the server's base URL, starting with http:// or https://.",
        "settings.kind.hosted": "Workshop model",
        "settings.hosted_note": "Provided by your workshop host ({model}): no key needed, and the host's "
        "key never leaves the server. The workshop's limits apply.",
        # -- workshop mode --
        "nav.instructor": "Instructor view",
        "nav.instructor.blurb": "For the workshop host: sessions, model calls, tokens and errors of the "
        "last hour. Never an attendee's messages.",
        "provider.hosted": "Workshop model · {model}",
        "workshop.config_error": "The workshop settings cannot be used. The host needs to fix this setting:",
        "workshop.idle_released": "This session was idle for more than {minutes} minutes, so its memories "
        "were released to free the server. Panes with a persisted backend got theirs back; the others "
        "start empty.",
        "workshop.limit.message_chars": "The message has {current} characters; the workshop limit is "
        "{limit}. Nothing was sent.",
        "workshop.limit.turns": "This conversation has reached the workshop limit of {limit} messages. "
        "Nothing was sent: use Reset all (or reset a pane) to start a new conversation.",
        "workshop.limit.tokens": "This session has used {current} tokens; the workshop limit is {limit}. "
        "Nothing was sent: ask your host if you need more.",
        "workshop.usage": "Workshop limits: {turns} of {max_turns} messages in this conversation · "
        "{tokens} of {max_tokens} tokens used · up to {concurrent} model calls at once.",
        "gate.title": "Memory Lab workshop",
        "gate.intro": "Enter the access code your host gave you. You are asked once per browser session.",
        "gate.code": "Access code",
        "gate.enter": "Enter",
        "gate.wrong": "That code is not right. Check it with your host and try again.",
        "gate.locked": "Too many wrong codes came from your network: code entry is locked for up to "
        "{minutes} minutes. Ask your host.",
        "gate.busy": "Many codes are being checked right now. Wait a few seconds and try again.",
        "gate.remembered": "This browser is remembered for this workshop: a reload or a new tab keeps your "
        "budget and does not ask the code again.",
        "workshop.limit.run_tokens": "This needs about {current} tokens and {limit} are left of your "
        "workshop budget. Nothing was sent.",
        "workshop.refused_text": "Your message was not sent; here it is to copy:",
        "settings.url_refused": "This model address cannot be used here:",
        "instructor.attendees": "Attendees",
        "instructor.per_attendee": "Attendees' budgets (numbered, most recent first)",
        "instructor.col_attendee": "Attendee",
        "instructor.col_left": "Tokens left",
        "instructor.col_refused": "Refused calls",
        "instructor.col_running": "Running now",
        "instructor.codes": "Access and host codes",
        "instructor.allowed_urls": "Model addresses attendees may type (allowed_base_urls):",
        "instructor.code_failures": "Wrong codes (last hour)",
        "instructor.code_throttled": "Told to wait (last hour)",
        "instructor.code_locked_out": "Refused while locked (last hour)",
        "instructor.code_locked_now": "Addresses locked out now",
        # -- conversation links --
        "link.title": "Conversation link",
        "link.caption": "Open this link later, even after the server restarts, to get these panes back "
        "with the memories they stored.",
        "link.share_warning": "Anyone with this link can read and continue these conversations: share it "
        "only on purpose.",
        "link.none": "No pane keeps its memory outside this session, so there is no link to come back "
        "to. Give a pane a persisted backend (history: backend=sqlite; langgraph: checkpointer=sqlite; "
        "long_term or entity: store=sqlite) to get one.",
        "link.partial": "{persisted} of {total} panes keep their memory; the others come back empty.",
        "link.opened": "The linked conversation is open again: {persisted} of {total} panes got their "
        "stored memory back.",
        "link.malformed": "This conversation link is incomplete or malformed: nothing was opened. Copy "
        "the whole link and try again.",
        "link.forged": "This conversation link was not made by this server, or it was changed: nothing "
        "was opened.",
        "link.not_found": "No saved conversation belongs to this link: nothing was opened.",
        "link.storage_error": "The saved conversations cannot be reached right now:",
        "link.storage_hidden": "The host can see the reason in the server log.",
        # -- instructor view --
        "instructor.title": "Instructor view",
        "instructor.intro": "Counts for the whole server. It never shows what anyone wrote.",
        "instructor.off": "Workshop mode is off: set MEMORY_LAB_WORKSHOP=1 or [workshop] enabled = true "
        "in secrets to turn it on.",
        "instructor.locked": "Enter the host code to open this page.",
        "instructor.no_code": "Set a host code (MEMORY_LAB_HOST_CODE, or [workshop] host_code in "
        "secrets) or an access code to open the instructor view.",
        "instructor.code": "Host code",
        "instructor.unlock": "Open",
        "instructor.sessions": "Sessions known",
        "instructor.active": "Active (last 5 min)",
        "instructor.calls": "Model calls (last hour)",
        "instructor.tokens": "Tokens (last hour)",
        "instructor.released": "Idle sessions released",
        "instructor.errors": "Errors in the last hour, by kind",
        "instructor.no_errors": "No errors in the last hour.",
        "instructor.error_kind": "Kind",
        "instructor.error_count": "Count",
        "instructor.per_session": "Sessions (numbered, most recent first)",
        "instructor.limits": "Limits per attendee",
        "instructor.limit_name": "Limit",
        "instructor.limit_value": "Value",
        "instructor.host_model": "Workshop model offered to attendees: {model}",
        "instructor.no_host_model": "No workshop model is configured: attendees use the offline model or "
        "their own key.",
        "instructor.refresh": "Refresh",
        "instructor.col_session": "Session",
        "instructor.col_idle": "Idle (s)",
        "instructor.col_calls": "Model calls",
        "instructor.col_tokens": "Tokens",
        "instructor.col_errors": "Errors",
        "settings.language": "Language",
    },
    "zh": {
        "app.name": "记忆实验室",
        "nav.home": "首页",
        "nav.home.blurb": "记忆实验室教什么。",
        "nav.migration": "迁移指南",
        "nav.migration.blurb": "每个经典记忆类与其现代替代写法并排，用同样的消息运行，逐轮比较提示词。",
        "nav.scorecard": "评分卡",
        "nav.scorecard.blurb": "把脚本化对话重放给多种策略：召回、token、估算费用、图表与导出。",
        "nav.failure_lab": "失败实验室",
        "nav.failure_lab.blurb": "记忆出错的几种方式，每种都与修复方案并排复现。",
        "nav.compare": "对比",
        "nav.compare.blurb": "把同一条消息发给多种记忆策略，并排查看每种策略往提示里放了什么、"
        "花了多少、留下了什么。",
        "nav.tokens": "词元",
        "nav.tokens.blurb": "粘贴一段提示，看模型的分词器如何把它切成一个个词元。",
        "nav.settings": "设置",
        "nav.settings.blurb": "选择模型（离线教学模型、OpenAI、兼容 OpenAI 的服务）、密钥、超时和界面语言。",
        "sidebar.provider": "当前模型",
        "provider.offline": "离线教学模型（基于规则，不是大语言模型）",
        "sidebar.tokenizer": "词元计数方式：{label}",
        "sidebar.change_provider": "更换模型",
        "sidebar.language": "语言",
        "home.title": "记忆实验室",
        "home.lead": "聊天模型在两次调用之间什么都不记得：应用的**记忆**就是它重新放回提示里的内容。"
        "记忆实验室让多种记忆策略处理同一段对话，并实时展示：",
        "home.point_prompt": "**每种策略真正发送的提示**：记忆在你的新消息之外加入了哪些旧消息、"
        "摘要、实体或检索到的内容；",
        "home.point_tokens": "**它的代价**：提示和回复的词元数，以及记忆为摘要或抽取而进行的隐藏模型调用；",
        "home.point_state": "**它保留了什么**：每轮之后记忆自身的状态，以及哪些内容被丢弃或被摘要。",
        "home.provider_label": "正在回答的模型",
        "home.offline_note": "离线教学模型基于规则，不是大语言模型：它只知道提示里的内容，"
        "所以被记忆丢掉的事实会明显地被忘记。可在设置中选择真实模型。",
        "home.pages": "页面",
        "compare.title": "对比记忆策略",
        "compare.intro": "一条消息同时发给所有窗格；每个窗格的记忆决定模型（{provider}）能看到什么。",
        "compare.chat_placeholder": "同时发消息给所有窗格",
        "compare.add_strategy": "要添加的策略",
        "compare.add_pane": "添加窗格",
        "compare.add_pane_help": "最多 {max} 个窗格；其他窗格的对话会保留。",
        "compare.reset_all": "全部重置",
        "compare.reset_all_done": "所有窗格的记忆和对话都已清空。",
        "compare.per_row": "每行窗格数",
        "compare.zoom": "仪表按提示长度缩放",
        "compare.zoom_help": "关闭：每条横条相对于模型的整个上下文窗口。"
        "开启：相对于提示本身，便于比较各部分。",
        "compare.empty_message": "消息为空：没有发送任何内容。",
        "compare.too_long": "这条消息有 {length} 个字符，上限是 {limit}。没有发送。",
        "kind.classic": "经典",
        "kind.modern": "现代",
        "pane.params": "参数",
        "pane.params_apply": "应用",
        "pane.params_restart": "应用后会重建这个窗格的记忆：对话将重新开始。",
        "pane.params_applied": "窗格 {pane} 已用新参数重建。",
        "pane.params_invalid": "这些参数无法使用：",
        "pane.reset_help": "清除这个窗格的对话和记忆。",
        "pane.remove_help": "移除这个窗格（至少保留两个）。",
        "pane.empty": "还没有消息：在下方输入一条。",
        "pane.error": "本轮失败；这个窗格的记忆没有改变。",
        "pane.retry": "重试",
        "pane.note": "策略的备注",
        "pane.build_error": "无法用当前模型建立这个策略：",
        "pane.inspect_turn": "查看轮次",
        "pane.turn_n": "第 {n} 轮",
        "pane.earlier_turns": "更早的轮次",
        "pane.prompt_sent": "发送的提示",
        "pane.tokens": "词元",
        "pane.memory_state": "记忆状态",
        "pane.what_changed": "本轮变化",
        "prompt.none": "本轮没有捕获到提示。",
        "prompt.message_heading": "{role} · {tokens} 个词元",
        "prompt.added_by_memory": "记忆添加的内容",
        "prompt.added_by_memory_counts": "{messages} 条消息 · {tokens} 个词元",
        "prompt.memory_added_nothing": "本轮记忆没有添加任何内容。",
        "prompt.new_message": "你的新消息",
        "role.system": "系统",
        "role.human": "用户",
        "role.ai": "助手",
        "role.tool": "工具",
        "section.system": "系统提示",
        "section.summary": "摘要",
        "section.entities": "实体与事实",
        "section.retrieved": "检索结果",
        "section.history": "历史",
        "section.new_input": "新消息",
        "section.memory": "其他记忆",
        "changes.first_turn": "第一轮：没有更早的提示可以比较。",
        "changes.none": "记忆发送的内容没有变化。",
        "changes.heading": "{kind} · {role} · {tokens} 个词元",
        "changes.kind.added": "新增",
        "changes.kind.dropped": "丢弃",
        "changes.kind.summarized": "并入摘要",
        "changes.kind.summary": "摘要已更新",
        "changes.kind.retrieved": "检索到",
        "changes.kind.entities": "实体与事实已更新",
        "changes.count.added": "新增 {n} 条",
        "changes.count.dropped": "丢弃 {n} 条",
        "changes.count.summarized": "摘要 {n} 条",
        "changes.count.summary": "摘要已更新",
        "changes.count.retrieved": "检索到 {n} 条",
        "changes.count.entities": "实体已更新",
        "tokens.prompt": "提示",
        "tokens.completion": "回复",
        "tokens.memory_calls": "记忆调用（隐藏）",
        "tokens.tool_rounds": "工具往返",
        "tokens.total": "本轮合计",
        "tokens.column_what": "用途",
        "tokens.column_tokens": "词元",
        "tokens.column_purpose": "目的",
        "tokens.hidden_calls": "记忆额外调用了模型 {n} 次，这些调用不会出现在聊天中：",
        "tokens.no_hidden_calls": "本轮没有隐藏的记忆调用。",
        "tokens.source_reported": "由服务商报告",
        "tokens.source_counted": "用 tiktoken {encoding} 计数",
        "tokens.approximate": "（近似值：不是该模型自己的分词器）",
        "tokens.tools_estimated": "+ 工具定义，估算值（OpenAI cookbook 方法）",
        "section.tools": "工具定义（估算）",
        "prompt.tools_heading": "随提示词发送的工具定义 · {tokens} 个词元",
        "prompt.tools_estimated": "按 OpenAI cookbook 方法估算；服务商报告的提示词词元数已精确包含它们。",
        "deprecation.none": "没有弃用警告",
        "deprecation.raised": "LangChain 警告：已弃用",
        "deprecation.since": "（自 {versions} 起）",
        "deprecation.details": "构建此记忆时 LangChain 发出的弃用警告",
        "tokens.seconds": "本轮用时 {seconds} 秒",
        "tokens.failed_calls": "{n} 次失败的调用（上面的数字已含在内）："
        "只按服务商报告的用量计（{tokens} 个词元）。",
        "gauge.caption": "提示：{used} / {window} 个上下文词元（{percent}）",
        "gauge.assumed": "（假定的窗口：真实值未知；可在设置中填写）",
        "gauge.section": "部分",
        "gauge.tokens": "词元",
        "cost.title": "各窗格的开销",
        "compare.export_script": "把这段对话下载为 Python 脚本",
        "compare.export_script_help": "用相同参数重建这些窗格的策略，并通过 memory_demos 重放同样的消息，"
        "打印每次注入的提示词。脚本不含任何 API 密钥。",
        "cost.caption": "每次回复的提示词元数，以及累计花费的全部词元（含隐藏的记忆调用）。",
        "cost.empty": "发送一条消息后即可绘制图表。",
        "cost.pane": "窗格",
        "cost.turn": "轮次",
        "cost.prompt_per_turn": "每轮提示词元数",
        "cost.cumulative_total": "累计总词元数",
        "state.empty": "这个记忆目前什么都没有。",
        "state.none": "（无）",
        "state.error": "无法读取记忆状态：",
        "state.column_key": "字段",
        "state.column_value": "值",
        "state.key.messages": "已存储的消息",
        "state.key.summary": "摘要",
        "state.key.moving_summary_buffer": "滚动摘要",
        "state.key.entities": "实体",
        "state.key.entity_store": "实体存储",
        "state.key.hits": "检索结果（含分数）",
        "state.key.retrieved": "检索结果（含分数）",
        "state.key.checkpoints": "检查点",
        "state.key.store": "长期存储",
        "state.key.store_items": "长期存储条目",
        "state.key.facts": "事实",
        "state.key.kept": "保留在提示中",
        "state.key.dropped": "从提示中丢弃",
        "state.key.k": "k（发送的轮数）",
        "state.key.stored_messages": "已存储消息数",
        "state.key.sent_next_turn": "下一轮发送的消息数",
        "state.key.max_token_limit": "词元上限",
        "state.key.max_tokens": "词元上限",
        "state.key.stored_tokens": "已存储词元数",
        "state.key.backend": "后端",
        "state.key.session_key": "会话键",
        "state.key.history_file": "历史文件",
        "state.key.config": "传给链的配置",
        "state.key.redis_keys": "Redis 键及其存活时间",
        "state.ttl.caption": "本轮结束时从 Redis 读取的 TTL，此后持续倒数；"
        "归零的键已被删除，下一轮的提示中不再包含它。",
        "state.ttl.key": "键",
        "state.ttl.remaining": "剩余时间",
        "state.ttl.at_turn": "本轮结束时的 TTL（秒）",
        "state.ttl.never": "永不过期（无 TTL）",
        "state.ttl.gone": "已过期",
        "tokenizer.title": "词元",
        "tokenizer.intro": "模型读的是词元，不是字符。粘贴或选择一段提示，再选择模型，"
        "看看它的分词器在哪里切分文本，以及每一段的编号。",
        "tokenizer.source": "文本",
        "tokenizer.source.paste": "输入或粘贴",
        "tokenizer.sample.english": "示例：英文",
        "tokenizer.sample.chinese": "示例：中文",
        "tokenizer.sample.code": "示例：代码",
        "tokenizer.sample.last_prompt": "对比页某个窗格最近发送的提示",
        "tokenizer.sample_text.english": "Hi! My name is Ada and I live in Lisbon. "
        "What's the tokenizer doing with unbelievably long words?",
        "tokenizer.text": "提示文本",
        "tokenizer.model": "模型",
        "tokenizer.model_help": "选择或输入任意模型名；未知模型用 o200k_base 计数。",
        "tokenizer.count": "词元数",
        "tokenizer.characters": "字符数",
        "tokenizer.encoding": "编码",
        "tokenizer.exact": "{model} 使用 tiktoken {encoding}：这个计数对文本本身是精确的"
        "（聊天提示每条消息还会多几个格式词元）。",
        "tokenizer.approximate": "{model} 不是 OpenAI 模型：这里不知道它自己的分词器，"
        "因此用 o200k_base 计数，结果是近似值。",
        "tokenizer.truncated": "只显示前 {shown} 个词元（共 {total} 个）。",
        "tokenizer.chips": "逐个词元",
        "tokenizer.chips_caption": "每个彩色格子是一个词元，从左往右读；\u2423 表示空格，\u21b5 表示换行。"
        "被拆到两个词元里的字符显示为 \ufffd。",
        "tokenizer.table": "每个词元及其编号",
        "tokenizer.column_position": "#",
        "tokenizer.column_token": "词元",
        "tokenizer.column_id": "编号",
        "settings.title": "设置",
        "settings.provider": "模型",
        "settings.active": "当前使用",
        "settings.provider_kind": "服务商",
        "settings.kind.offline": "离线教学模型",
        "settings.kind.openai": "OpenAI",
        "settings.kind.openai_compatible": "兼容 OpenAI 的服务",
        "settings.offline_note": "基于规则的替身模型（{model}），无需密钥也无需联网："
        "它只根据提示回答，因此记忆的作用一目了然。",
        "settings.model": "模型名称",
        "settings.model_help": "例如 gpt-4o-mini，或你的服务使用的名称（llama3.1:8b）。",
        "settings.base_url": "基础 URL",
        "settings.base_url_help": "服务的 OpenAI 兼容端点，例如 http://localhost:11434/v1。",
        "settings.api_key": "API 密钥",
        "settings.api_key_help": "只以保密值的形式保存在本次浏览器会话的内存中："
        "不会写入磁盘、日志，也不会显示。留空则保留当前密钥。",
        "settings.key_in_session": "本次会话已设置密钥。",
        "settings.key_from_env": "正在使用服务器 OPENAI_API_KEY 中的密钥。",
        "settings.forget_key": "清除密钥",
        "settings.key_forgotten": "已从本次会话中移除密钥。",
        "settings.timeout": "超时与回复时限（秒）",
        "settings.timeout_help": "等待服务的最长时间，也是一次回复最多能流式输出的时间："
        "到时限停下的回复会保留，并标为已截断。",
        "settings.max_tokens": "每次回复的最大词元数",
        "settings.max_tokens_help": "回复达到这么多词元就停下；已说的内容会保留，并标为已截断。",
        "settings.concurrency": "最多同时回答 N 个窗格（0：全部同时）",
        "settings.concurrency_help": "本地服务一次只处理一个请求时设为 1（llama.cpp 的 Python 服务、只有一个 "
        "slot 的 llama-server）：否则它会中断正在进行的回复去回答另一个。",
        "settings.context_window": "上下文窗口（词元，0：已知模型，或询问服务）",
        "settings.context_window_help": "量表和上下文溢出提示会用到它。已知的 OpenAI 模型来自一张表；"
        "本地服务会被询问（llama.cpp /props、vLLM /v1/models、Ollama /api/show、LM Studio）；"
        "否则只是猜测，并标为假定。",
        "settings.context_window_now": "上下文窗口：{tokens} 个词元（{source}）",
        "settings.rebuild_note": "应用新模型后，对比页的所有窗格都会用它重建：对话将重新开始。",
        "settings.apply": "应用",
        "settings.applied": "模型已更换：{n} 个窗格已用它重建，并重新开始。",
        "settings.unchanged": "没有任何变化。",
        "settings.need_model": "请输入模型名称。",
        "settings.need_key": "OpenAI 需要 API 密钥：请在此粘贴（或在服务器上设置 OPENAI_API_KEY）。",
        "settings.need_base_url": "请输入服务的基础 URL，以 http:// 或 https:// 开头。",
        "settings.kind.hosted": "工作坊模型",
        "settings.hosted_note": "由工作坊主持人提供（{model}）：无需密钥，主持人的密钥从不离开服务器。适用工"
        "作坊的限制。",
        # -- workshop mode --
        "nav.instructor": "讲师视图",
        "nav.instructor.blurb": "供工作坊主持人使用：最近一小时的会话、模型调用、token 与错误。从不显示学员"
        "的消息。",
        "provider.hosted": "工作坊模型 · {model}",
        "workshop.config_error": "工作坊设置无法使用。主持人需要修正以下设置：",
        "workshop.idle_released": "此会话已闲置超过 {minutes} 分钟，其记忆已释放以减轻服务器负担。使用持久化"
        "后端的窗格已恢复记忆，其他窗格将从空白开始。",
        "workshop.limit.message_chars": "消息有 {current} 个字符；工作坊上限为 {limit}。未发送任何内容。",
        "workshop.limit.turns": "此对话已达到工作坊上限 {limit} 条消息。未发送任何内容：请使用“全部重置”（或"
        "重置某个窗格）开始新对话。",
        "workshop.limit.tokens": "此会话已使用 {current} 个 token；工作坊上限为 {limit}。未发送任何内容：如"
        "需更多，请联系主持人。",
        "workshop.usage": "工作坊限制：此对话 {turns} / {max_turns} 条消息 · 已用 {tokens} / {max_tokens} 个"
        " token · 最多同时进行 {concurrent} 个模型调用。",
        "gate.title": "记忆实验室工作坊",
        "gate.intro": "请输入主持人提供的访问码。每个浏览器会话只需输入一次。",
        "gate.code": "访问码",
        "gate.enter": "进入",
        "gate.wrong": "访问码不正确。请向主持人确认后重试。",
        "gate.locked": "来自你所在网络的错误访问码太多：输入已被锁定，最长 {minutes} 分钟。请联系主持人。",
        "gate.busy": "当前正在校验的访问码很多。请稍等几秒再试。",
        "gate.remembered": "本浏览器已被此工作坊记住：刷新或新开标签页会保留你的额度，且不再询问访问码。",
        "workshop.limit.run_tokens": "这需要约 {current} 个 token，而你的工作坊额度只剩 {limit} 个。"
        "未发送任何内容。",
        "workshop.refused_text": "你的消息没有发送；可以从这里复制：",
        "settings.url_refused": "这里不能使用这个模型地址：",
        "instructor.attendees": "学员",
        "instructor.per_attendee": "学员额度（编号，最近的在前）",
        "instructor.col_attendee": "学员",
        "instructor.col_left": "剩余 token",
        "instructor.col_refused": "被拒绝的调用",
        "instructor.col_running": "正在运行",
        "instructor.codes": "访问码与主持人码",
        "instructor.allowed_urls": "学员可以填写的模型地址（allowed_base_urls）：",
        "instructor.code_failures": "错误的码（最近一小时）",
        "instructor.code_throttled": "被要求等待（最近一小时）",
        "instructor.code_locked_out": "锁定期间被拒（最近一小时）",
        "instructor.code_locked_now": "当前被锁定的地址",
        # -- conversation links --
        "link.title": "对话链接",
        "link.caption": "之后打开此链接（即使服务器重启过），即可恢复这些窗格及其保存的记忆。",
        "link.share_warning": "任何拿到此链接的人都能阅读并继续这些对话：请只在有意分享时分享。",
        "link.none": "没有窗格把记忆保存在本会话之外，因此没有可返回的链接。为窗格选择持久化后端（history：b"
        "ackend=sqlite；langgraph：checkpointer=sqlite；long_term 或 entity：store=sqlite）即可获得链接。",
        "link.partial": "{total} 个窗格中有 {persisted} 个保存记忆；其他窗格恢复时为空。",
        "link.opened": "已重新打开链接中的对话：{total} 个窗格中有 {persisted} 个恢复了保存的记忆。",
        "link.malformed": "此对话链接不完整或格式错误：未打开任何内容。请复制完整链接后重试。",
        "link.forged": "此对话链接不是本服务器生成的，或已被修改：未打开任何内容。",
        "link.not_found": "没有属于此链接的已保存对话：未打开任何内容。",
        "link.storage_error": "暂时无法访问已保存的对话：",
        "link.storage_hidden": "主持人可以在服务器日志中看到原因。",
        # -- instructor view --
        "instructor.title": "讲师视图",
        "instructor.intro": "整个服务器的统计数字。从不显示任何人写的内容。",
        "instructor.off": "工作坊模式未开启：设置 MEMORY_LAB_WORKSHOP=1，或在 secrets 中设置 [workshop] enab"
        "led = true。",
        "instructor.locked": "输入主持人码以打开此页面。",
        "instructor.no_code": "请设置主持人码（MEMORY_LAB_HOST_CODE，或 secrets 中的 "
        "[workshop] host_code）或访问码，才能打开讲师视图。",
        "instructor.code": "主持人码",
        "instructor.unlock": "打开",
        "instructor.sessions": "已知会话",
        "instructor.active": "活跃（最近 5 分钟）",
        "instructor.calls": "模型调用（最近一小时）",
        "instructor.tokens": "Token（最近一小时）",
        "instructor.released": "已释放的闲置会话",
        "instructor.errors": "最近一小时的错误（按类型）",
        "instructor.no_errors": "最近一小时没有错误。",
        "instructor.error_kind": "类型",
        "instructor.error_count": "次数",
        "instructor.per_session": "会话（编号，最近的在前）",
        "instructor.limits": "每位学员的限制",
        "instructor.limit_name": "限制",
        "instructor.limit_value": "值",
        "instructor.host_model": "提供给学员的工作坊模型：{model}",
        "instructor.no_host_model": "未配置工作坊模型：学员使用离线模型或自己的密钥。",
        "instructor.refresh": "刷新",
        "instructor.col_session": "会话",
        "instructor.col_idle": "闲置（秒）",
        "instructor.col_calls": "模型调用",
        "instructor.col_tokens": "Token",
        "instructor.col_errors": "错误",
        "settings.language": "语言",
    },
}
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
