"""Stream the replies of a message in flight into the page, as they grow (the drawing half of Compare).

The job itself (``memory_demos.runner.BroadcastJob``) is the core's: worker threads fill its queues;
this drains them into ``st.empty()`` placeholders on the script thread.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from memory_demos.runner import BroadcastJob

POLL_SECONDS = 0.05
STREAM_CURSOR = " \u258c"


def stream_into(job: BroadcastJob, placeholders: Mapping[str, object]) -> None:
    """Block until the job is done, showing each pane's reply as it grows (with a cursor).

    The finished reply is drawn by the caller, with its error or notes. Script thread only.
    """

    shown: dict[str, str] = {}

    def show(final: bool) -> None:
        # Only the panes whose text grew are sent again: each write is a message to the browser.
        for pane_id, placeholder in placeholders.items():
            text = job.streamed.get(pane_id, "")
            text = text if final else text + STREAM_CURSOR
            if shown.get(pane_id) != text:
                placeholder.text(text)  # type: ignore[attr-defined]
                shown[pane_id] = text

    show(final=False)
    while not job.done:
        if job.drain():
            show(final=False)
        time.sleep(POLL_SECONDS)
    job.drain()
