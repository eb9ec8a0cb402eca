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
}
