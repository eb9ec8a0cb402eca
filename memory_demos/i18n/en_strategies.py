"""English texts strategies write: the notes on a turn and why they refuse a budget or a fork."""

TEXTS: dict[str, str] = {
    "strategy.hybrid.order.history_first": (
        "retrieved context capped at 30% of the budget; oldest window turns dropped first, then retrieved "
        "lines, then the summary"
    ),
    "strategy.hybrid.order.retrieved_first": (
        "retrieved lines dropped first (no cap), then the oldest window turns, then the summary"
    ),
    "strategy.vector.hits_note": (
        "Scores come from a second search of the same collection with the same query and k, run just before "
        "the retriever's; similarity is 1 - cosine distance."
    ),
    "strategy.exchange_format_note": (
        "Each stored exchange is two lines, 'input: …' and 'output: …': the labels LangChain's "
        "VectorStoreRetrieverMemory writes. The model receives them as they are, so they are not translated."
    ),
    "strategy.summary.stored_note": "Stored by the class but not sent: only the summary reaches the model.",
    "strategy.note.facts_skipped": "Fact extraction skipped ({error}); the store is unchanged.",
    "strategy.note.fact_refused": "Not stored: {key}: {value} ({reason}).",
    "strategy.note.exchange_refused": "This exchange was not stored ({reason}).",
    "strategy.screen.instruction": "an instruction to the assistant, not a fact about the user",
    "strategy.screen.not_in_source": "not in the message it was extracted from",
    "strategy.note.ttl_unsupported": (
        "{store} does not support TTL (its supports_ttl is False): ttl_seconds is ignored and nothing "
        "expires. Choose store=sqlite or postgres for a TTL."
    ),
    "strategy.error.postgres_ttl_minutes": (
        "{param}={value} cannot be renewed on read by PostgresStore: it keeps ttl_minutes as a whole number, "
        "so it would renew this TTL as {minutes} min (0: the item expires at its first read). Use a multiple "
        "of 60 seconds, or refresh_on_read=false (then the item expires {value} s after it was written)."
    ),
    "strategy.note.memory_formed": (
        "Memory manager run {run} processed turn {turns} after this reply: {writes} "
        "{writes|write|writes}; what it formed "
        "is available from turn {available}."
    ),
    "strategy.note.memory_unchanged": (
        "Memory manager run {run} processed turn {turns} after this reply and found nothing new to keep."
    ),
    "strategy.note.manager_failed": (
        "Memory manager run {run} failed ({error}); the reply stands, no memory was formed."
    ),
    "strategy.error.hybrid_over_budget": (
        "The system prompt and this message alone take {tokens} tokens, over hybrid.max_tokens={budget}. "
        "Raise hybrid.max_tokens or send a shorter message; nothing was sent."
    ),
    "strategy.error.whole_turns_over_budget": (
        "Even with every older turn dropped, the prompt ({what}) takes {tokens} tokens, more than the budget "
        "of {budget}; whole turns cannot be split. Raise max_tokens."
    ),
    "strategy.turn_trim.system": "the system message",
    "strategy.turn_trim.turn": "the newest turn",
    "strategy.turn_trim.turn_and_system": "the newest turn and the system message",
    "strategy.error.tool_rounds": "The model still asked for tools after {rounds} rounds; turn abandoned.",
    "strategy.error.agent_trim_one_of": (
        "Set exactly one of agent_trim.k and agent_trim.max_tokens (the other to 0); got k={k}, "
        "max_tokens={max_tokens}."
    ),
    "strategy.note.middleware_removed": "The middleware removed {count} {count|message|messages} from "
    "the thread's state.",
    "strategy.error.no_room_with_tools": (
        "{param}={value} leaves no room for a message: the system prompt and the tool definitions alone take "
        "{reserved} tokens. Choose more than {reserved}."
    ),
    "strategy.error.tools_over_budget": (
        "The system prompt and tool definitions take {tokens} tokens, more than {param}={value}. Raise the "
        "budget; nothing was sent."
    ),
    "strategy.note.tool_round_lost": (
        "Tool round: the trimmed prompt lost this turn's question and tool messages ({dropped} dropped); the "
        "model saw {kept} {kept|message|messages}."
    ),
    "strategy.note.orphan_tool_results": (
        "The trimmed prompt holds {count} tool {count|result|results} without {count|its|their} tool "
        "{count|call|calls}."
    ),
    "strategy.error.message_over_budget": (
        "The system prompt and your message take {tokens} tokens, more than {param}={value}. Raise the "
        "budget; nothing was sent."
    ),
    "strategy.error.no_fork": "{strategy} keeps no checkpoints; only langgraph can fork.",
    "strategy.error.embeddings_key": "OpenAI embeddings need an API key.",
    "strategy.note.cut_by_deadline": (
        "Reply cut: the deadline of {seconds} s per call ended it. What the model said until then is kept, "
        "marked as cut."
    ),
    "strategy.note.cut_by_context": (
        "Reply cut: the model's context window ({tokens} tokens) filled up before max_tokens was reached. "
        "What the model said until then is kept, marked as cut. A smaller memory budget leaves more room for "
        "the reply."
    ),
    "strategy.note.cut_by_max_tokens": (
        "Reply cut: max_tokens ({max_tokens} tokens per reply) ended it. What the model said until then is "
        "kept, marked as cut."
    ),
    "strategy.note.entity_skipped": (
        "Entity extraction skipped ({error}); this turn's prompt has no entity notes and no note is updated."
    ),
    "strategy.error.no_room": (
        "{param}={value} leaves no room for a message: the system prompt alone takes {reserved} tokens. "
        "Choose more than {reserved}."
    ),
    "strategy.note.budget_dropped": "Token budget {budget} ({order}): dropped {parts} to fit.",
    "strategy.note.summary_update_skipped": (
        "Summary update skipped ({error}); those turns stay retrievable and are summarised next time."
    ),
    "strategy.error.checkpoint_not_in_thread": "Checkpoint {checkpoint} is not in thread {thread}.",
    "strategy.error.fork_turn": "Cannot fork at turn {turn}: this branch has {finished} finished turns.",
    "strategy.error.checkpoint_mid_turn": (
        "Checkpoint {checkpoint} is in the middle of a turn; pick a turn's end."
    ),
    "strategy.error.turn_over_budget": (
        "This turn's messages take {tokens} tokens, more than the {budget} the budget leaves for messages. "
        "Raise the budget; nothing was sent."
    ),
    "strategy.note.upkeep_skipped": "Memory upkeep skipped ({reason}); the raw turn was kept.",
    "strategy.note.nothing_fits": (
        "Nothing fits in max_token_limit={limit}: the history is now empty (LangChain raised IndexError "
        "popping an empty list, langchain#11734; handled)."
    ),
    "strategy.note.exchange_over_limit": (
        "This exchange alone is over max_token_limit={limit}: nothing was kept."
    ),
    "strategy.note.summarization_replaced": (
        "SummarizationMiddleware replaced {count} messages with a summary."
    ),
    "strategy.note.summarization_replaced.one": "SummarizationMiddleware replaced 1 message with a summary.",
    "strategy.note.summary_catch_up_failed": "Catching up the summary failed again ({reason}).",
    "strategy.note.store_skipped": "Storing this exchange skipped ({error}); it cannot be retrieved later.",
    "strategy.note.block_edit": "The model edited its {label} block ({via}).",
    "strategy.note.block_refused": (
        "The {label} block refused an edit: it would hold {needed} characters, its limit is {limit}. "
        "The model was told; nothing was saved."
    ),
    "strategy.note.block_clipped": (
        "The {label} block was full: {dropped} {dropped|character|characters} of the edit "
        "{dropped|was|were} dropped, and the tool still "
        "told the model it saved."
    ),
    # What the memory-block tools answered the model (prompts.MEMORY_EDIT_*), for a reader of the run.
    "strategy.block_tool.done": "Saved. The {label} block now holds {used} of {limit} characters.",
    "strategy.block_tool.full": (
        "Edit refused: the {label} block has no room for this ({used} of {limit} characters used; with "
        "this edit it would hold {needed}). Nothing was saved. Shorten or replace a line with "
        "memory_replace first."
    ),
    "strategy.block_tool.not_found": (
        "Edit refused: old_content does not appear in the {label} block. Nothing was changed."
    ),
    "strategy.block_tool.unknown_block": (
        "Edit refused: there is no block named '{label}'. Nothing was saved."
    ),
    "strategy.tool_history.duplicate_result": (
        "Duplicate tool result: message {index} ({kind}) answers tool call '{call_id}' again."
    ),
    "strategy.tool_history.orphan": (
        "Orphaned tool result: message {index} ({kind}) answers tool call '{call_id}', which no AI "
        "message right before it made."
    ),
    "strategy.tool_history.no_id": "Tool call '{name}' in message {index} has no id.",
    "strategy.tool_history.duplicate_id": "Duplicate tool call id '{call_id}' in message {index}.",
    "strategy.tool_history.missing_before": (
        "Missing tool result: tool call '{call_id}' ({name}) in message {call_index} has no ToolMessage "
        "before message {index} ({kind})."
    ),
    "strategy.tool_history.missing_never": (
        "Missing tool result: tool call '{call_id}' ({name}) in message {call_index} is never answered."
    ),
}
