"""Simplified Chinese texts of the migration guide: the same keys as ``en_migration.TEXTS``."""

TEXTS: dict[str, str] = {
    "migration.prompts_same": "上下文相同",
    "migration.prompts_differ": "从第 {index} 条消息开始不同：经典写法 {classic}，现代写法 {modern}",
    "migration.prompts_only_classic": (
        "从第 {index} 条消息开始不同：只有经典写法的提示词有 {extra}（{classic_count} 条对 {modern_count} "
        "条消息）"
    ),
    "migration.prompts_only_modern": (
        "从第 {index} 条消息开始不同：只有现代写法的提示词有 {extra}（{classic_count} 条对 {modern_count} "
        "条消息）"
    ),
    "migration.not_compared.classic": "无法比较：经典写法在发送这条提示词之前就失败了",
    "migration.not_compared.modern": "无法比较：现代写法在发送这条提示词之前就失败了",
    "migration.not_compared.both": "无法比较：两边都在发送这条提示词之前失败了",
    "migration.could_not_compare.classic": (
        "无法比较：经典写法出错停止，从那一轮起缺少它的提示词。请先修复下面的错误，再同时运行一次。"
    ),
    "migration.could_not_compare.modern": (
        "无法比较：现代写法出错停止，从那一轮起缺少它的提示词。请先修复下面的错误，再同时运行一次。"
    ),
    "migration.could_not_compare.both": (
        "无法比较：两边都出错停止，缺少它们的提示词。请先修复下面的错误，再同时运行一次。"
    ),
    "migration.program_caption": (
        "完整的程序：可直接复制，或用 python -m memory_demos guide --export DIR 导出全部程序。"
        "它可以在任何聊天模型上运行，也可以用 --replay 重放「同时运行」录下的回复。"
    ),
    "migration.recording": "{version}录下的回复（供 --replay 使用）",
    "migration.buffer.title": "缓冲记忆 → create_agent + 检查点",
    "migration.buffer.summary": (
        "两者每轮都发送全部历史消息。在 LangChain 1.x 中智能体本身无状态：检查点按线程保存消息，config 里的 "
        "thread_id 指明这次调用接着哪段对话。把 InMemorySaver 换成 SqliteSaver 或 PostgresSaver，"
        "线程就能在重启后继续。"
    ),
    "migration.buffer.pitfall.1": (
        "thread_id 不能可猜：谁能说出 thread_id，谁就能读到那段对话。请用随机令牌（secrets.token_urlsafe），"
        "或用已认证的用户 id 加对话 id 作键。"
    ),
    "migration.buffer.pitfall.2": (
        "InMemorySaver 重启即丢，也不能跨多个服务进程共享；生产环境请用 SqliteSaver 或 PostgresSaver。"
    ),
    "migration.buffer.pitfall.3": (
        "检查点保存每一步，而不只是消息：旧检查点可以让线程回到过去（见 langgraph 面板），"
        "在删除线程之前它们一直占用空间。"
    ),
    "migration.buffer.pitfall.4": (
        "历史依旧无限增长：换成新 API 并不能解决缓冲区膨胀，还需要裁剪或摘要（见后续步骤）。"
    ),
    "migration.history.title": "书中的过渡写法：缓冲记忆 → RunnableWithMessageHistory（已弃用）",
    "migration.history.summary": (
        "旧代码和书中使用的写法：用 RunnableWithMessageHistory 包装无状态的链；会话工厂按 config 里的会话 id "
        "取出历史，模型回答后再把新消息存回去。两者每轮都发送全部历史消息。langchain-core 之后已弃用 "
        "RunnableWithMessageHistory 和 InMemoryChatMessageHistory，改用 LangGraph 持久化（第 1 步）："
        "运行两边即可看到 LangChain 对每一边发出的警告。"
    ),
    "migration.history.pitfall.1": (
        "惰性填充的会话字典（`if sid not in store: store[sid] = ...`）存在竞态："
        "同一新会话的两个并发首请求各自创建历史，其中一个的消息会丢失。请在锁内创建。"
    ),
    "migration.history.pitfall.2": (
        "会话 id 不能可猜：谁能说出会话 id，谁就能读到那段对话。请用随机令牌（secrets.token_urlsafe），"
        "或用已认证的用户 id 加对话 id 作键。"
    ),
    "migration.history.pitfall.3": (
        "InMemoryChatMessageHistory 重启即丢，也不能跨多个服务进程共享；"
        "生产环境请用数据库支持的历史（SQLChatMessageHistory、Redis、Postgres）。"
    ),
    "migration.history.pitfall.4": (
        "自 langchain-core 1.3.3（该类）和 1.6.4（聊天历史类）起已弃用，将在 2.0 移除：新代码请用 "
        "create_agent 加检查点（第 1 步）。"
    ),
    "migration.window.title": "窗口记忆 → @before_model 裁剪",
    "migration.window.summary": (
        "窗口记忆保留最近 k 轮。在 LangChain 1.x 中，@before_model 中间件在智能体每次调用模型前运行，返回 "
        "RemoveMessage(id=REMOVE_ALL_MESSAGES) 加上要保留的消息：当前这一轮和之前的 k 轮，只在 human "
        "消息前截断，工具调用不会丢掉它的结果。两边每轮发送的提示词相同。"
    ),
    "migration.window.pitfall.1": (
        "按条数计不等于按词元计：一条粘贴进来的长文档仍可能撑爆上下文窗口。消息长短不一时请按词元"
        "裁剪（下一步）。"
    ),
    "migration.window.pitfall.2": (
        "不加 start_on='human' 时，截断可能从 AI 消息或工具结果开始；有工具时，孤立的工具结果会被 OpenAI API "
        "拒绝。"
    ),
    "migration.window.pitfall.3": (
        "RemoveMessage(id=REMOVE_ALL_MESSAGES) 会改写线程状态："
        "被丢弃的消息从线程中消失（只有更早的检查点还保留着）。如果之后还需要完整历史，请改在 "
        "wrap_model_call 里裁剪发送的副本。"
    ),
    "migration.window.pitfall.4": (
        "旧事实会悄无声息地掉出去，和窗口记忆一模一样：第 1 轮说的名字到第 k+2 轮就没了。"
    ),
    "migration.token_buffer.title": "词元缓冲 → 按词元的 @before_model 裁剪",
    "migration.token_buffer.summary": (
        "两者都保留能装进词元预算的最新消息，用模型自己的分词器计数。经典类在保存后逐条修剪已存的缓冲，"
        "预算只算历史；中间件在每次调用模型前对整个线程（包括新问题）运行 trim_messages，并且在 "
        "start_on='human' 时只在轮与轮之间截断。所以边界处可能差一条消息：这一对本来就不要求完全一致。"
    ),
    "migration.token_buffer.pitfall.1": (
        "经典聊天记忆会悄悄丢掉工具调用：save_context 只存输入和输出字符串，AI 的工具调用和 ToolMessage "
        "从未进入历史。"
    ),
    "migration.token_buffer.pitfall.2": (
        "历史里有工具消息时，要整轮裁剪：缺少发起调用的 AI 消息的 ToolMessage 会被 API 拒绝。"
        "start_on='human' 有帮助；像现代程序那样按整轮裁剪更稳妥。"
    ),
    "migration.token_buffer.pitfall.3": (
        "请用所调用模型的真实分词器计数（token_counter=model 或 tiktoken 函数）；近似计数会让提示词溢出。"
    ),
    "migration.token_buffer.pitfall.4": (
        "当空历史都超出预算时，ConversationTokenBufferMemory 会抛出 IndexError（langchain#11734）。"
    ),
    "migration.summary.title": "摘要记忆 → SummarizationMiddleware（每轮）",
    "migration.summary.summary": (
        "两者都用滚动摘要代替对话，代价是每轮多一次模型调用。设 trigger=('messages', 2)、keep=('messages', "
        "1) 时，中间件在每次调用模型前把新问题之外的全部消息写成摘要，并在线程状态中用一条摘要消息替换它们。"
        "经典记忆在回答后重写摘要，中间件在下一次调用前。两边的提示词本来就不同：摘要由不同的提示词写成。"
    ),
    "migration.summary.pitfall.1": (
        "return_messages=True 时，经典类在第一轮（还没有摘要时）会发送一条空的系统消息（见经典提示词的第 1 "
        "轮）。"
    ),
    "migration.summary.pitfall.2": (
        "摘要是模型写的：它可能漏掉事实，也可能编造事实（摘要漂移，见失败实验室）。"
        "必须保留的事实要放在结构化状态里，而不只放在一段文字中。"
    ),
    "migration.summary.pitfall.3": (
        "每轮都要多一次模型调用；用付费模型时，摘要调用的花费可能超过回答本身。只在超出预算时再摘要（下一步）"
        "。"
    ),
    "migration.summary.pitfall.4": (
        "InMemorySaver 的检查点重启即丢；真实线程请用 SqliteSaver 或 PostgresSaver。"
    ),
    "migration.summary_buffer.title": "摘要缓冲 → SummarizationMiddleware",
    "migration.summary_buffer.summary": (
        "两者都原样保留最近的消息，超过词元预算后把更早的消息并入摘要。中间件在智能体每次调用模型前运行，"
        "用一条摘要消息替换线程状态中的旧消息，并完整保留最后几条。"
    ),
    "migration.summary_buffer.pitfall.1": (
        "ConversationSummaryBufferMemory.prune 先弹出旧消息再请求摘要：一旦摘要调用失败，"
        "这几轮就丢了（见失败实验室）。"
    ),
    "migration.summary_buffer.pitfall.2": (
        "中间件默认用近似方法计词元；预算要紧时，请传入基于模型分词器的 token_counter。"
    ),
    "migration.summary_buffer.pitfall.3": (
        "请使用 trigger/keep 元组：max_tokens_before_summary 和 messages_to_keep 是已弃用的参数名。"
    ),
    "migration.summary_buffer.pitfall.4": (
        "摘要会替换检查点状态中的消息：原始措辞从线程中消失。如需审计记录，请另存原始对话。"
    ),
    "migration.entity.title": "实体记忆 → LangGraph 存储中的人物笔记",
    "migration.entity.summary": (
        "实体记忆每轮先问模型出现了哪些名字，再为每个名字各调用一次模型改写一段自由文本笔记，"
        "笔记保存在这次对话的对象里。在 LangChain 1.x 中，笔记放在 LangGraph 存储里用户的命名空间下，"
        "比对话活得更久：dynamic_prompt 中间件在调用模型前把笔记读进系统消息，after_agent "
        "中间件在模型回答后写入笔记（用 LangChain 自己的实体提示词）。"
        "经典记忆只发送新消息里出现的名字的笔记和最近 K 轮；这个智能体发送全部笔记和整段线程，"
        "所以两边的提示词不同。"
    ),
    "migration.entity.pitfall.1": (
        "实体抽取信任模型的自由文本：一句啰嗦的回答（「Sure, the entities are: ...」）"
        "会产生「Sure」之类的垃圾实体，每个都要多花一次摘要调用（见失败实验室）。"
    ),
    "migration.entity.pitfall.2": (
        "每个被提到的实体每轮都要多一次模型调用，成本随用户提到的名字数量增长，而不是随值得记住的内容增长。"
    ),
    "migration.entity.pitfall.3": (
        "SQLiteEntityStore 要求 session_id 是合法的 Python 标识符，且连接绑定在创建它的线程上：Streamlit "
        "在其他线程重跑时会抛出 ProgrammingError。"
    ),
    "migration.entity.pitfall.4": (
        "长期存储要按已认证的用户 id 划分命名空间：共用命名空间会把一个用户的笔记展示给另一个用户。"
    ),
    "migration.entity.pitfall.5": (
        "模型写的笔记可能出错，也可能记下不该保存的内容；事实有固定形状时，请按模式抽取（见 long_term 策略）"
        "，而不是自由文本。"
    ),
    "migration.vector.title": "向量记忆 → 带索引的 LangGraph 存储",
    "migration.vector.summary": (
        "经典向量记忆把每轮对话存成文档，只发送最相似的 k 条：对话本身从不发送，"
        "所以「我刚才说了什么？」会答不上。在 LangChain 1.x 中，给 LangGraph 存储配上索引（这里是随附的 "
        "multilingual-e5-small，384 维，能读中文、英文及两者混合），它会为每个存入的条目生成向量，"
        "store.search(namespace, query=...) "
        "返回最接近的条目。按相同格式保存时，两边发送的提示词相同。换成向量数据库，langchain_chroma 的 "
        "Chroma 也一样；semantic_store 策略把这个存储放在智能体中间件后面。"
    ),
    "migration.vector.pitfall.1": (
        "检索器总会返回最近的 k 条文档，不管相关与否：没有分数阈值时，无关的轮次（包括私密内容）"
        "也会进入提示词（见失败实验室）。"
    ),
    "migration.vector.pitfall.2": (
        "在嵌入之前对私密轮次（密码、提示、卡号）做脱敏或打标签，检索时按该元数据过滤。"
    ),
    "migration.vector.pitfall.3": (
        "检索结果要与消息历史分开：模型应能分辨哪些是对话本身，哪些是按相似度找来的。"
    ),
    "migration.vector.pitfall.4": (
        "同一进程中的所有 chromadb EphemeralClient 共享集合：每个对话要用独立的集合名，"
        "否则两个用户会读到彼此的记忆。"
    ),
    "migration.combined.title": "组合记忆 → 一个智能体上的多个中间件",
    "migration.combined.summary": (
        "CombinedMemory 并排运行多个记忆；每个都存全部消息、各自填一个提示词变量，"
        "所以摘要会重复窗口已经发送的内容。在 LangChain 1.x 中，每条记忆规则都是同一个智能体的中间件，"
        "在每次调用模型前按顺序运行：这里 SummarizationMiddleware 只把离开 K 轮窗口的消息并入摘要，"
        "ContextEditingMiddleware 把除最新一条之外的工具结果从提示词中清除。智能体有工具，经典链没有。"
    ),
    "migration.combined.pitfall.1": (
        "CombinedMemory 的每个子记忆都存全部消息：摘要与窗口重叠，最近几轮要付两次词元的钱。"
    ),
    "migration.combined.pitfall.2": (
        "记忆变量不能重名：两个子记忆用同一个 memory_key 会报错，与输入键同名则会悄悄覆盖输入。"
    ),
    "migration.combined.pitfall.3": (
        "中间件在每次调用模型前按列表顺序运行，每个都看到前一个留下的结果：改写线程状态的（摘要、裁剪）"
        "放在只编辑发送提示词的前面。"
    ),
    "migration.combined.pitfall.4": (
        "经典 API 没有工具调用和线程 id 的概念；LangGraph 状态两者都有，检查点在每一步之后一起保存所有通道。"
    ),
    "migration.retired.title": "经典 API 为何退役",
    "migration.retired.summary": (
        "经典链接收字典、返回字典；其记忆把对话压平成文本模板里的一个字符串，聊天模型只收到一条 human 消息。"
        "工具调用无法保存，流式输出要经过链自己的回调，而记忆属于哪段对话取决于你手里拿着哪个 Python 对象。"
        "现代 API 传递消息列表（包括工具调用），直接从模型流式输出词元，并在 config "
        "中显式指明会话（session_id 或 thread_id），因此状态可以放在多个服务进程共享的数据库里。"
    ),
    "migration.retired.pitfall.1": (
        "字典进、字典出：记忆的输入输出键（input_key/output_key）必须猜对，否则 save_context "
        "会报错或存错字段。"
    ),
    "migration.retired.pitfall.2": (
        "经典提示词是一个字符串：角色变成模型需自行解析的「Human:」「AI:」文本，用户输入「AI:」即可冒充助手。"
    ),
    "migration.retired.pitfall.3": (
        "没有工具调用：经典记忆只保存字符串，智能体的工具调用与结果会从历史中消失；"
        "现代消息列表会保留它们（看最后一轮的现代提示词）。"
    ),
    "migration.retired.pitfall.4": (
        "显式会话配置：config 里有 session_id/thread_id 时，一个链对象就能服务所有用户；"
        "经典写法要你自己为每个用户在同一进程里保活一个记忆对象。"
    ),
    "migration.retired.situation.faq.label": "简短的 FAQ 机器人",
    "migration.retired.situation.faq.pattern": (
        "create_agent 加检查点，再加一个按词元或轮数裁剪线程的 @before_model 中间件（agent_trim）。"
        "RunnableWithMessageHistory 是旧代码和书中的写法：仍能运行，但 langchain-core 已将其弃用。"
    ),
    "migration.retired.situation.faq.why": (
        "对话只有几轮，事实不必跨对话保留：最近几条消息就是全部上下文，也不用为摘要或存储多付费。"
    ),
    "migration.retired.situation.faq.watch_out": (
        "若机器人调用工具，要按整轮裁剪，并把工具定义计入预算；thread_id 要随机。"
    ),
    "migration.retired.situation.multi_session.label": "长期、多会话的助手",
    "migration.retired.situation.multi_session.pattern": (
        "每个线程使用持久化检查点（SqliteSaver/PostgresSaver）的 create_agent，线程变长后再加 "
        "SummarizationMiddleware，旧的工具结果用 ContextEditingMiddleware 清除。"
    ),
    "migration.retired.situation.multi_session.why": (
        "线程需要在重启后依然存在并能按 id 恢复；摘要控制长线程的成本，最后几条消息保持原文。"
    ),
    "migration.retired.situation.multi_session.watch_out": "摘要可能漂移：必须精确的事实不要只存在摘要里。",
    "migration.retired.situation.profile.label": "必须记住用户资料的助手",
    "migration.retired.situation.profile.pattern": (
        "按用户划分命名空间的 LangGraph 存储：按显式模式保存的精确资料事实（long_term），"
        "以及通过存储索引按语义找回的旧对话（semantic_store），旁边是裁剪过的线程。"
    ),
    "migration.retired.situation.profile.why": (
        "资料事实必须精确并跨越所有对话；模式规定可以保存什么，存储内容可以按请求查看、更正和删除。"
    ),
    "migration.retired.situation.profile.watch_out": (
        "按已认证的用户 id 划分命名空间，绝不把密钥类信息（密码、提示问题）当作事实保存。"
    ),
    "migration.retired.situation.self_managed.label": "由智能体自己决定记住什么",
    "migration.retired.situation.self_managed.pattern": (
        "由智能体用工具编辑的记忆，取代实体记忆固定的抽取规则：带标签的记忆块（human、persona）放在智能体状态里，"
        "中间件在每次调用模型前把它们写进系统消息，工具返回 Command(update=...) 来修改它们"
        "（memory_blocks，即 Letta / MemGPT 的做法），旁边只保留一小段最近的消息；或者用 LangMem 的记忆工具："
        "智能体用 manage_memory 和 search_memory 在该用户的 LangGraph 存储里保存、更新和检索记忆"
        "（memory_tools）；"
        "或者在回复路径之外，由 LangMem 的记忆存储管理器通过 ReflectionExecutor 在每轮之后或静默一段时间后"
        "抽取记忆（background_memory）。"
    ),
    "migration.retired.situation.self_managed.why": (
        "由模型而不是规则挑出值得保存的内容，并在用户更正时改掉；记忆块始终在提示词里，无需检索，"
        "审计记录列出每一次编辑。LangMem 的存储比对话活得更久，并按语义检索；它的后台管理器不占用回答的开销，"
        "也不依赖回答模型决定去保存。"
    ),
    "migration.retired.situation.self_managed.watch_out": (
        "每次编辑都在回复路径上多一次模型调用（这些词元算在工具轮次里）；模型可能不保存，或存错；"
        "记忆块有字符上限，放不下的编辑应当拒绝而不是截断（见失败实验室：记忆块满了）。有保存工具的智能体可能"
        "从不调用它（失败实验室：从不调用保存工具的智能体）；后台管理器的记忆要等它运行之后才存在，在那之前"
        "提的问题得不到这份记忆。"
    ),
}
