"""English texts of conversations and sessions: what a memory keeps per conversation or per user, a new
conversation on Compare, and the scorecard's session breaks and probe kinds."""

TEXTS: dict[str, str] = {
    "memory.part.messages": "messages",
    "memory.part.blocks": "memory blocks",
    "memory.part.summary": "summary",
    "memory.part.entities": "entity notes",
    "memory.part.vectors": "vector collection",
    "memory.part.facts": "facts about the user",
    "memory.part.exchanges": "stored exchanges",
    "memory.part.memories": "memories (LangMem)",
    "memory.scope.conversation": "per conversation",
    "memory.scope.user": "per user, across conversations",
    "scenario.session_form": (
        "Item {index}: a new conversation is written '- session: new', optionally with 'after: 3 days' "
        "(minutes, hours, days or weeks) beside it."
    ),
    "scenario.after_invalid": (
        "Item {index}: 'after' must be a whole number and a unit (minutes, hours, days, weeks), such as "
        "'3 days'; got {value!r}."
    ),
    "scenario.session_first": "Item {index}: a scenario starts with a message, not with '- session: new'.",
    "scenario.session_twice": (
        "Item {index}: two '- session: new' in a row; write one (its 'after' can be longer)."
    ),
    "scenario.session_last": "The last item is '- session: new': no message follows it.",
    "scenario.abstain_not_bool": "Turn {index}: 'abstain' must be true or false.",
    "scenario.abstain_with_expect": (
        "Turn {index}: an abstention ('abstain: true') expects a refusal; it cannot also 'expect' an answer."
    ),
    "scenario.kind_unknown": "Turn {index}: 'kind' must be one of {kinds}; got {value}.",
    "scenario.kind_without_probe": (
        "Turn {index}: 'kind' is for probes (with 'expect', 'reject' or 'abstain')."
    ),
    "compare.new_conversation": "New conversation",
    "compare.new_conversation_help": (
        "Every pane starts this user's next conversation: what a strategy keeps per conversation (a "
        "thread_id, a session_id, a buffer) starts empty, what it keeps per user (a LangGraph store "
        "namespace) carries over. Earlier conversations stay in each pane's list."
    ),
    "compare.new_conversation_done": "New conversation started in every pane (conversation {n}).",
    "compare.reopened": "Pane {pane} shows conversation {n} again, as it was left.",
    "compare.forget_user": "Forget this user's long-term memory",
    "compare.forget_user_help": (
        "Deletes what the panes keep about this user across conversations (long_term's facts, "
        "semantic_store's exchanges), in every conversation. Reset does not: it clears the conversation "
        "on screen only."
    ),
    "compare.forget_user_done": "This user's long-term memory was deleted in pane {panes}.",
    "compare.forget_user_none": "No pane keeps anything about this user across conversations.",
    "pane.conversation": "Conversation {n}",
    "pane.conversation_help": (
        "Kept per conversation: {empty}. Kept per user, across conversations: {carried}."
    ),
    "pane.carried_over": "Carried over from earlier conversations: {parts}",
    "pane.started_empty": "Started empty: {parts} (kept per conversation)",
    "pane.nothing": "nothing",
    "pane.conversations_help": "This pane's conversations: reopen an earlier one as it was left.",
    "pane.conversation_row": "Conversation {n} · messages: {messages}",
    "pane.conversation_current": "Conversation {n} · messages: {messages} (shown)",
    "pane.reset_help_parts": "Reset: clear this conversation's {parts}. Kept: {kept}.",
    "focus.conversation": "Conversation {n} of this user",
    "focus.conversation_caption": (
        "Conversation id {id}; {earlier} earlier {earlier|conversation|conversations} in this pane. "
        "Each part of the memory "
        "below says whom it belongs to: a new conversation starts without what is kept per conversation "
        "and carries over what is kept per user."
    ),
    "state.column.part": "kept",
    "state.column.scope": "belongs to",
    "state.column.in_new_conversation": "in a new conversation",
    "state.value.carried_over": "carried over",
    "state.value.starts_empty": "starts empty",
    "state.column.from_earlier_conversation": "from an earlier conversation",
    "state.column.told_at": "told at",
    "state.column.conversation_id": "conversation id",
    "state.key.memory_parts": "What the memory keeps, and whom it belongs to",
    "scorecard.by_session": "Recall in each conversation",
    "scorecard.by_session_caption": (
        "Probes passed of those asked, conversation by conversation: what each '- session: new' did to what "
        "a strategy remembers (a thread starts empty, a user's store carries over)."
    ),
    "scorecard.session": "Conversation {n}",
    "scorecard.session_after": "Conversation {n} (after {after})",
    "duration.minute": "{n} minutes",
    "duration.minute.one": "{n} minute",
    "duration.hour": "{n} hours",
    "duration.hour.one": "{n} hour",
    "duration.day": "{n} days",
    "duration.day.one": "{n} day",
    "duration.week": "{n} weeks",
    "duration.week.one": "{n} week",
    "scorecard.by_kind": "Recall by kind of probe",
    "scorecard.kind.same_conversation": "same conversation",
    "scorecard.kind.across_conversations": "across conversations",
    "scorecard.kind.after_change": "after a change",
    "scorecard.kind.after_time": "after time",
    "scorecard.kind.should_refuse": "should refuse",
    "scorecard.col.session": "Conversation",
    "scorecard.col.session_after": "{n} · after {after}",
    "scorecard.col.kind": "Probe kind",
    "compare.new_conversation_failed": "Pane {pane} could not start a new conversation: it stays as it was.",
}
