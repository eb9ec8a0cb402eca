"""English texts of the migration guide: each step's title, summary and pitfalls; the decision helper."""

TEXTS: dict[str, str] = {
    "migration.prompts_same": "same context",
    "migration.prompts_differ": "first difference at message {index}: classic {classic} vs modern {modern}",
    "migration.prompts_only_classic": (
        "first difference at message {index}: only the classic prompt has {extra} ({classic_count} vs "
        "{modern_count} messages)"
    ),
    "migration.prompts_only_modern": (
        "first difference at message {index}: only the modern prompt has {extra} ({classic_count} vs "
        "{modern_count} messages)"
    ),
    "migration.not_compared.classic": "not compared: the classic side failed before sending this prompt",
    "migration.not_compared.modern": "not compared: the modern side failed before sending this prompt",
    "migration.not_compared.both": "not compared: both sides failed before sending this prompt",
    "migration.could_not_compare.classic": (
        "Could not compare: the classic side stopped with an error, so its prompts are missing from that "
        "turn on. Fix the error below and run both again."
    ),
    "migration.could_not_compare.modern": (
        "Could not compare: the modern side stopped with an error, so its prompts are missing from that "
        "turn on. Fix the error below and run both again."
    ),
    "migration.could_not_compare.both": (
        "Could not compare: both sides stopped with an error, so their prompts are missing. Fix the errors "
        "below and run both again."
    ),
    "migration.program_caption": (
        "A complete program: copy it, or write all of them with python -m memory_demos guide --export DIR. "
        "It runs on any chat model, or with --replay on the replies recorded by Run both."
    ),
    "migration.recording": "{version}: recorded replies (JSON, for --replay)",
    "migration.buffer.title": "Buffer → create_agent + checkpointer",
    "migration.buffer.summary": (
        "Both send every earlier message, every turn. In LangChain 1.x the agent is stateless: its "
        "checkpointer keeps each thread's messages, and the thread_id in the config says which conversation "
        "a call continues. Swap InMemorySaver for SqliteSaver or PostgresSaver and the thread survives "
        "restarts."
    ),
    "migration.buffer.pitfall.1": (
        "Thread ids must not be guessable: whoever can name a thread_id reads that conversation. Use a "
        "random token (secrets.token_urlsafe), or key by an authenticated user id plus a conversation id."
    ),
    "migration.buffer.pitfall.2": (
        "InMemorySaver never survives a restart or a second server process; use SqliteSaver or PostgresSaver "
        "in production."
    ),
    "migration.buffer.pitfall.3": (
        "The checkpointer keeps every step, not only the messages: old checkpoints let you rewind a thread "
        "(see the langgraph pane), and they take space until you delete the thread."
    ),
    "migration.buffer.pitfall.4": (
        "The whole history still grows without bound: the buffer problem is not solved by the new API. Add "
        "trimming or summarising (next steps)."
    ),
    "migration.history.title": "The book's step: Buffer → RunnableWithMessageHistory (deprecated)",
    "migration.history.summary": (
        "What older code and the book use: a stateless chain wrapped in RunnableWithMessageHistory; a "
        "session factory hands it the history named in the config and it saves the new messages after the "
        "model answers. Both send every earlier message, every turn. langchain-core has since deprecated "
        "RunnableWithMessageHistory and InMemoryChatMessageHistory in favour of LangGraph persistence (step "
        "1): run both to see the warnings LangChain raises for each side."
    ),
    "migration.history.pitfall.1": (
        "A lazily filled session dict (`if sid not in store: store[sid] = ...`) races: two first requests "
        "for one session each create a history and one of them loses its messages. Create under a lock."
    ),
    "migration.history.pitfall.2": (
        "Session ids must not be guessable: whoever can name a session id reads that conversation. Use a "
        "random token (secrets.token_urlsafe), or key by an authenticated user id plus a conversation id."
    ),
    "migration.history.pitfall.3": (
        "InMemoryChatMessageHistory never survives a restart or a second server process; use a "
        "database-backed history (SQLChatMessageHistory, Redis, Postgres) in production."
    ),
    "migration.history.pitfall.4": (
        "Deprecated since langchain-core 1.3.3 (the class) and 1.6.4 (the chat-history classes), to be "
        "removed in 2.0: new code should use create_agent with a checkpointer (step 1)."
    ),
    "migration.window.title": "Window → @before_model trimming",
    "migration.window.summary": (
        "The window keeps the last k exchanges. In LangChain 1.x a @before_model middleware runs before each "
        "model call of the agent and returns RemoveMessage(id=REMOVE_ALL_MESSAGES) followed by the messages "
        "to keep: the current exchange and the k before it, cut only before a human message so a tool call "
        "never loses its result. Both send the same prompt every turn."
    ),
    "migration.window.pitfall.1": (
        "Counting messages is not counting tokens: one pasted document can still overflow the context "
        "window. Trim by tokens when message sizes vary (next step)."
    ),
    "migration.window.pitfall.2": (
        "Without start_on='human' a cut can begin with an AI message or a tool result, and with tools an "
        "orphaned tool result is rejected by OpenAI's API."
    ),
    "migration.window.pitfall.3": (
        "RemoveMessage(id=REMOVE_ALL_MESSAGES) rewrites the thread's state: the dropped messages are gone "
        "from the thread (only older checkpoints still hold them). Trim in wrap_model_call instead if you "
        "need the full history later."
    ),
    "migration.window.pitfall.4": (
        "Old facts fall out silently, exactly as with the window: the user's name in turn 1 is gone by turn "
        "k+2."
    ),
    "migration.token_buffer.title": "Token buffer → @before_model trimming by tokens",
    "migration.token_buffer.summary": (
        "Both keep the newest messages that fit a token budget, counted by the model's own tokenizer. The "
        "classic class prunes its stored buffer after saving, one message at a time, and budgets the history "
        "alone; the middleware runs trim_messages before each model call over the thread (the new question "
        "included) and, with start_on='human', cuts only between turns. So they can differ by a message at "
        "the edge: this pair is not meant to match exactly."
    ),
    "migration.token_buffer.pitfall.1": (
        "Classic chat memories silently drop tool calls: save_context stores only the input and output "
        "strings, so the AI tool call and the ToolMessage never reach the history."
    ),
    "migration.token_buffer.pitfall.2": (
        "With tools in the history, cut whole turns: a ToolMessage without the AI message that called it is "
        "rejected by the API. start_on='human' helps; trimming by whole turns, as the modern program does, "
        "is safer."
    ),
    "migration.token_buffer.pitfall.3": (
        "Count with the real tokenizer of the model you call (pass token_counter=model, or a tiktoken "
        "function); an approximate counter lets prompts overflow."
    ),
    "migration.token_buffer.pitfall.4": (
        "ConversationTokenBufferMemory raises IndexError when even an empty history is over the budget "
        "(langchain#11734)."
    ),
    "migration.summary.title": "Summary → SummarizationMiddleware (every turn)",
    "migration.summary.summary": (
        "Both replace the conversation with a running summary, at the price of one extra model call per "
        "turn. With trigger=('messages', 2) and keep=('messages', 1) the middleware summarises, before each "
        "model call, everything but the new question and replaces those messages in the thread's state with "
        "one summary message. The classic memory rewrites its summary after the answer; the middleware "
        "before the next call. The two prompts differ by design: the summaries are written by different "
        "prompts."
    ),
    "migration.summary.pitfall.1": (
        "With return_messages=True the classic class sends an empty system message on the first turn, before "
        "any summary exists (look at turn 1 of the classic prompt)."
    ),
    "migration.summary.pitfall.2": (
        "A summary is written by a model: it can drop a fact or invent one (summary drift, see the failure "
        "lab). Keep facts that must survive in structured state, not only in prose."
    ),
    "migration.summary.pitfall.3": (
        "Every turn costs a second model call; with a paid model the summary calls can cost more than the "
        "replies. Summarize only when a budget is passed (next step)."
    ),
    "migration.summary.pitfall.4": (
        "An InMemorySaver checkpoint never survives a restart; use SqliteSaver or PostgresSaver for real "
        "threads."
    ),
    "migration.summary_buffer.title": "Summary buffer → SummarizationMiddleware",
    "migration.summary_buffer.summary": (
        "Both keep recent messages verbatim and fold older ones into a summary once a token budget is "
        "passed. The middleware runs before each model call of an agent, replaces the old messages in the "
        "thread's state with one summary message and keeps the last few messages whole."
    ),
    "migration.summary_buffer.pitfall.1": (
        "ConversationSummaryBufferMemory.prune pops the old messages before it asks for the summary: if that "
        "call fails, those turns are gone (see the failure lab)."
    ),
    "migration.summary_buffer.pitfall.2": (
        "The middleware counts tokens approximately by default; pass a token_counter built on the model's "
        "tokenizer when the budget matters."
    ),
    "migration.summary_buffer.pitfall.3": (
        "Use the trigger/keep tuples: max_tokens_before_summary and messages_to_keep are deprecated names."
    ),
    "migration.summary_buffer.pitfall.4": (
        "The summary replaces the messages in the checkpointed state: the original wording is gone from the "
        "thread. Keep a raw transcript elsewhere if you need an audit trail."
    ),
    "migration.entity.title": "Entity memory → notes per person in a LangGraph store",
    "migration.entity.summary": (
        "The entity memory asks the model every turn which names appear, then asks again once per name to "
        "rewrite a free-text note, and keeps the notes in an object of this conversation. In LangChain 1.x "
        "the notes live in a LangGraph store under a namespace of the user, so they outlive the "
        "conversation: a dynamic_prompt middleware reads them into the system message before the model is "
        "called, and an after_agent middleware writes them once the model has answered (with LangChain's own "
        "entity prompts). The classic memory sends only the notes of names in the new message and the last K "
        "exchanges; this agent sends every note and its whole thread, so the prompts differ."
    ),
    "migration.entity.pitfall.1": (
        "Entity extraction trusts the model's free text: a chatty reply ('Sure, the entities are: ...') "
        "creates junk entities such as 'Sure', each costing a summary call (see the failure lab)."
    ),
    "migration.entity.pitfall.2": (
        "Every named entity costs one more model call per turn, so the cost grows with how many names the "
        "user mentions, not with what is worth remembering."
    ),
    "migration.entity.pitfall.3": (
        "SQLiteEntityStore needs a session_id that is a Python identifier and binds its connection to the "
        "creating thread: Streamlit reruns on another thread raise ProgrammingError."
    ),
    "migration.entity.pitfall.4": (
        "Namespace the long-term store by an authenticated user id: a shared namespace shows one user's "
        "notes to another."
    ),
    "migration.entity.pitfall.5": (
        "Notes written by a model can be wrong or hold what should not be kept; when the facts have a known "
        "shape, extract into a schema (see the long_term strategy) instead of free text."
    ),
    "migration.vector.title": "Vector memory → a LangGraph store with an index",
    "migration.vector.summary": (
        "The classic memory stores every exchange as a document and sends only the k most similar ones: the "
        "conversation itself is never sent, so 'what did I just say?' fails. In LangChain 1.x a LangGraph "
        "store given an index (here the shipped multilingual-e5-small, 384 dimensions, which reads English, "
        "Chinese and both mixed) embeds each item it is given, "
        "and store.search(namespace, query=...) returns the closest ones. Stored in the same format, the two "
        "send the same prompt. On a vector database, langchain_chroma's Chroma works alike; the "
        "semantic_store strategy puts this store behind an agent middleware."
    ),
    "migration.vector.pitfall.1": (
        "A retriever always returns its k nearest documents, relevant or not: without a score threshold "
        "unrelated turns, private ones included, land in the prompt (see the failure lab)."
    ),
    "migration.vector.pitfall.2": (
        "Redact or tag private turns (passwords, hints, card numbers) before they are embedded, and filter "
        "on that metadata when searching."
    ),
    "migration.vector.pitfall.3": (
        "Keep retrieval apart from the message history: the model should see which text is the conversation "
        "and which was found by similarity."
    ),
    "migration.vector.pitfall.4": (
        "All chromadb EphemeralClients in one process share collections: name a collection per conversation, "
        "or two users read each other's memories."
    ),
    "migration.combined.title": "Combined memory → several middlewares on one agent",
    "migration.combined.summary": (
        "CombinedMemory runs several memories side by side; each one stores every message and fills its own "
        "prompt variable, so the summary repeats what the window already sends. In LangChain 1.x each memory "
        "rule is a middleware of one agent, run in order before every model call: here "
        "SummarizationMiddleware folds only the messages that leave a window of K exchanges into a summary, "
        "and ContextEditingMiddleware clears all but the newest tool result from the prompt. The agent has "
        "tools; the classic chain has none."
    ),
    "migration.combined.pitfall.1": (
        "Each sub-memory of CombinedMemory stores every message: the summary and the window overlap, and you "
        "pay for the recent turns twice."
    ),
    "migration.combined.pitfall.2": (
        "Memory variables must not collide: two sub-memories with the same memory_key raise, and a key equal "
        "to an input key silently overwrites the input."
    ),
    "migration.combined.pitfall.3": (
        "Middlewares run in list order before each model call, and each sees what the previous one left: put "
        "the ones that rewrite the thread's state (summaries, trimming) before the ones that only edit the "
        "prompt sent."
    ),
    "migration.combined.pitfall.4": (
        "The classic API has no notion of tool calls or of a thread id; a LangGraph state has both, and a "
        "checkpointer saves all channels together after every step."
    ),
    "migration.retired.title": "Why the classic API was retired",
    "migration.retired.summary": (
        "Classic chains take a dict and return a dict; their memory flattens the conversation into one "
        "string inside a text template, so the chat model gets a single human message. Tool calls cannot be "
        "stored, streaming goes through the chain's own callbacks, and which conversation a memory belongs "
        "to is implicit in which Python object you hold. The modern APIs pass lists of messages (tool calls "
        "included), stream tokens from the model, and name the conversation explicitly in the config "
        "(session_id or thread_id), so state can live in a database shared by many server processes."
    ),
    "migration.retired.pitfall.1": (
        "Dict in, dict out: the memory's input and output keys must be guessed right (input_key/output_key), "
        "or save_context raises or saves the wrong field."
    ),
    "migration.retired.pitfall.2": (
        "The classic prompt is one string: roles become 'Human:'/'AI:' text the model must parse, and a user "
        "who types 'AI:' can impersonate the assistant."
    ),
    "migration.retired.pitfall.3": (
        "No tool calls: a classic memory saves strings, so an agent's tool calls and results vanish from the "
        "history; the modern message list keeps them (look at the modern prompt of the last turn)."
    ),
    "migration.retired.pitfall.4": (
        "Explicit session config: with session_id/thread_id in the config, one chain object serves every "
        "user; a classic memory object per user must be kept alive by you, in one process."
    ),
    "migration.retired.situation.faq.label": "A short FAQ bot",
    "migration.retired.situation.faq.pattern": (
        "create_agent with a checkpointer and a @before_model middleware that trims the thread by tokens or "
        "exchanges (agent_trim). RunnableWithMessageHistory is what older code and the book use: it still "
        "runs, but langchain-core deprecates it."
    ),
    "migration.retired.situation.faq.why": (
        "Conversations are a few turns long and facts need not outlive them: the last few messages are all "
        "the context there is, and nothing extra is paid for summaries or stores."
    ),
    "migration.retired.situation.faq.watch_out": (
        "Trim by whole turns if the bot calls tools, and count the tool definitions in the budget; keep "
        "thread ids random."
    ),
    "migration.retired.situation.multi_session.label": "A long, multi-session assistant",
    "migration.retired.situation.multi_session.pattern": (
        "create_agent with a persistent checkpointer (SqliteSaver/PostgresSaver) per thread, plus "
        "SummarizationMiddleware once threads grow long and ContextEditingMiddleware for old tool results."
    ),
    "migration.retired.situation.multi_session.why": (
        "Threads must survive restarts and be resumable by id; the summary bounds the cost of a long thread "
        "while the last messages stay verbatim."
    ),
    "migration.retired.situation.multi_session.watch_out": (
        "Summaries can drift: do not keep facts that must be exact only in the summary."
    ),
    "migration.retired.situation.profile.label": "An assistant that must remember a user profile",
    "migration.retired.situation.profile.pattern": (
        "A LangGraph store namespaced by user: exact profile facts of an explicit schema (long_term), and "
        "past exchanges found by meaning through the store's index (semantic_store), beside a trimmed thread."
    ),
    "migration.retired.situation.profile.why": (
        "Profile facts must be exact and outlive every conversation; a schema says what may be kept, and the "
        "store can be read, corrected and deleted on request."
    ),
    "migration.retired.situation.profile.watch_out": (
        "Namespace by an authenticated user id and never store secrets (passwords, hints) as facts."
    ),
    "migration.retired.situation.self_managed.label": "An agent that decides itself what to remember",
    "migration.retired.situation.self_managed.pattern": (
        "Memory the agent edits with tools, replacing entity memory's fixed extraction rule: labelled "
        "blocks (human, persona) in the agent's state, written into the system message before every model "
        "call by a middleware and changed by tools that return Command(update=...) (memory_blocks, the "
        "Letta / MemGPT pattern), beside a short window of messages; or LangMem's memory tools: the agent "
        "saves, updates and searches memories in a LangGraph store of the user with manage_memory and "
        "search_memory (memory_tools); or, off the reply path, LangMem's memory store manager extracting "
        "memories after each turn or a quiet delay through ReflectionExecutor (background_memory)."
    ),
    "migration.retired.situation.self_managed.why": (
        "The model, not a rule, picks what is worth keeping and corrects it when the user does; the blocks "
        "are always in the prompt, so nothing has to be retrieved, and the audit trail shows every edit. "
        "LangMem's store outlives the conversation and is searched by meaning; its background manager "
        "costs the reply nothing and does not depend on the reply model deciding to save."
    ),
    "migration.retired.situation.self_managed.watch_out": (
        "Each edit is one more model call on the reply path (its tokens are the tool rounds); a model may "
        "not save, or save wrongly; a block has a character limit, so refuse edits that do not fit instead "
        "of clipping them (see the failure lab: a full memory block). An agent with a save tool may never "
        "call it (failure lab: an agent that never calls its save tool); a background manager's memory "
        "exists only once it has run, so a question asked before that is answered without it."
    ),
}
