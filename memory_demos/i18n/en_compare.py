"""English texts of the newer parts of Compare: the context line, focus view, what-if replays, exports."""

from __future__ import annotations

TEXTS: dict[str, str] = {
    "compare.window_line": "Every gauge draws a pane's prompt against a context window of {window} tokens "
    "({source}).",
}
