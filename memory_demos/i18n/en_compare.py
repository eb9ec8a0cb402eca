"""English texts of the newer parts of Compare: the context line, focus view, what-if replays, exports."""

from __future__ import annotations

TEXTS: dict[str, str] = {
    "compare.export_json": "Conversation as JSON",
    "compare.export_markdown": "Conversation as Markdown",
    "compare.newest_replies": "Newest reply of every pane (each pane below keeps its whole conversation)",
    "compare.newest_pending": "Answering…",
    "compare.per_row_option": "{n} a row",
    "compare.window_line": "Every gauge draws a pane's prompt against a context window of {window} tokens "
    "({source}).",
    "compare.replaying": "Replaying the conversation into pane {pane}: {n} {n|message|messages} to go…",
    "pane.focus_help": "Open this pane's turn at full width: the prompt's sections against the context "
    "window, every message in full, the hidden calls' prompts and replies, the memory's state.",
    "pane.replay_help": "Start this pane again and replay the whole conversation into it (the {n} earlier "
    "{n|message|messages} too), so it answers the same messages as the others.",
    "pane.params_replay": "Replay the {n} {n|message|messages} so far into the new settings",
    "pane.params_replay_help": "On: the pane is rebuilt and the conversation is sent to it again, so you "
    "compare the new settings on the same messages (it costs the model calls of every message). Off: the "
    "pane starts afresh.",
    "pane.replayed": "Replayed {n} {n|message|messages} with {params}: {calls} model "
    "{calls|call|calls}, {tokens} {tokens|token|tokens}, "
    "{seconds} s.",
    "pane.replay_failed": "Message {n} failed, so the replay stopped there.",
    "focus.title": "Pane {pane}",
    "focus.section_bar": "The prompt's sections against the context window",
    "focus.section_bar_prompt": "The same prompt against itself: each section's share",
    "focus.prompt": "Prompt sent: {messages} {messages|message|messages}, {tokens} {tokens|token|tokens}",
    "focus.hidden_calls": "Hidden calls this turn: {n}",
    "focus.call_heading": "{purpose}: {prompt} prompt + {completion} completion tokens",
    "focus.call_reply_tool_calls": "Its reply: no text, {n} tool {n|call|calls}",
    "focus.call_reply": "Its reply",
}
