"""Attendees that speak Streamlit's websocket protocol (``ws_client``): the light mode of the load benches.

``bench workshop --client ws`` runs many of these in one asyncio loop against one server; ``bench
render`` drives one of them turn by turn and reads the server's CPU time around each message.
"""

from __future__ import annotations

import asyncio
import random
import re
import time

from memory_demos.bench.workshop_report import SessionResult
from memory_demos.bench.ws_client import AppClient
from memory_demos.i18n import CATALOGUE
from memory_demos.ui.pane import RECENT_TURNS

PANE_REMOVE = re.compile(r"ml_w_pane_p\d+_remove$")
PANE_BOX_KEY = re.compile(r"ml_w_pane_(p\d+)_")
MARKER = re.compile(r"S\d{3}x[0-9a-f]{8}")
PANE_ERROR = CATALOGUE["en"]["pane.error"]
ADD_PANE = CATALOGUE["en"]["compare.add_pane"]


def pane_ids(client: AppClient) -> list[str]:
    """The panes on the page, in order, from the keys of their remove buttons."""
    ids = []
    for widget_id in client.widget_ids("_remove"):
        match = PANE_BOX_KEY.search(widget_id)
        if match and match.group(1) not in ids:
            ids.append(match.group(1))
    return ids


async def set_pane_count(client: AppClient, panes: int) -> None:
    """Remove the last panes (or add panes) through the page's own buttons until there are ``panes``."""
    for _ in range(20):
        current = pane_ids(client)
        if len(current) == panes:
            return
        if len(current) > panes:
            await client.click(client.widget(key=f"ml_w_pane_{current[-1]}_remove"))
        else:
            await client.click(client.widget(kind="button", label=ADD_PANE))
    raise RuntimeError(f"the page still shows {len(pane_ids(client))} panes, not {panes}")


def check_page(client: AppClient, result: SessionResult, panes: int, turns: int) -> None:
    """Count what the attendee's page shows that it should not (or misses): cross-talk and errors."""
    texts = list(client.texts())
    for text in texts:
        result.crosstalk |= {marker for marker in MARKER.findall(text) if marker != result.marker}
    own = sum(
        1
        for element in client.elements
        if element.kind == "text"
        for t in element.texts
        if result.marker in t
    )
    if own < panes * min(turns, RECENT_TURNS):
        result.errors["missing_own_messages"] += 1
    failed = sum(1 for element in client.elements if element.kind == "exception")
    if failed:
        result.errors["exception"] += failed
    pane_errors = sum(1 for text in texts if PANE_ERROR in text)
    if pane_errors:
        result.errors["pane_error"] += pane_errors


async def attendee(
    url: str, result: SessionResult, panes: int, turns: int, think_seconds: float, start_within: float
) -> None:
    """One attendee: open Compare, set the panes, send ``turns`` messages with a think time between."""
    rng = random.Random(result.index)
    await asyncio.sleep(rng.uniform(0, start_within))
    try:
        async with AppClient(url, "compare") as client:
            await client.open()
            await set_pane_count(client, panes)
            for turn in range(turns):
                if turn:
                    await asyncio.sleep(rng.uniform(0.5 * think_seconds, 1.5 * think_seconds))
                text = f"[{result.marker}] Turn {turn + 1}: my name is Attendee{result.index}."
                started = time.perf_counter()
                await client.send_chat(text)
                result.latencies.append(time.perf_counter() - started)
            check_page(client, result, panes, turns)
    except Exception as exc:  # a timeout or a dropped socket is a measured error, not a crash
        result.errors[type(exc).__name__] += 1


async def warm_up(url: str) -> None:
    """A host's check of the room: open Compare and send one message, so the process has loaded what
    every session uses (imports, tokenizer, the default strategies) before the attendees arrive."""
    async with AppClient(url, "compare") as client:
        await client.open()
        await client.send_chat("Hello, I am the host checking the room.")


async def drive(
    url: str, results: list[SessionResult], panes: int, turns: int, think_seconds: float, start_within: float
) -> list[SessionResult]:
    await asyncio.gather(*(attendee(url, r, panes, turns, think_seconds, start_within) for r in results))
    return results
