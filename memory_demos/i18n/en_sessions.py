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
}
