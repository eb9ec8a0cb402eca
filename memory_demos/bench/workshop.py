"""``python -m memory_demos bench workshop``: a room of attendees against one server.

Starts ``streamlit run app.py`` on a free loopback port (unless ``url`` names a running server) and has
every attendee set its pane count and send ``turns`` messages on the offline model, each carrying a
marker unique to the session. Two kinds of attendee: ``ws`` speaks Streamlit's websocket protocol
(``workshop_ws``; a hundred cost the load machine little, so the figures are the server's), and
``browser`` is one headless Chromium context each (end-to-end fidelity, but 40 of them on two cores
measure the browsers). It prints the turn latency (message sent → every pane's reply finished: p50,
p95, max), the errors, any cross-talk (a session seeing another's marker), the server's CPU time per
message and its resident memory (``VmRSS``) before, at its peak during, and after the load.

A benchmark prints figures; it asserts nothing (its exit status is 1 if a session saw an error or
another session's text). The server it started is stopped when it ends, fails or is interrupted
(SIGINT or SIGTERM). Browser mode needs the dev dependencies (``playwright``) and Debian's ``chromium``.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import tempfile
import time
from pathlib import Path

from memory_demos.bench.chromium import CHROMIUM
from memory_demos.bench.server import RssSampler, cpu_seconds, interruptible, lab_server, rss_kib
from memory_demos.bench.workshop_report import LoadReport, SessionResult
from memory_demos.strategies.base import InputError

DEFAULT_CONCURRENCY = 10
DEFAULT_THINK_SECONDS = 8.0


def run_load(
    sessions: int = 40,
    panes: int = 4,
    turns: int = 5,
    url: str | None = None,
    concurrency: int | None = None,
    client: str = "browser",
    think_seconds: float = DEFAULT_THINK_SECONDS,
    warm: bool = False,
) -> int:
    """Run the load, print the figures; 0 if no session saw an error or another session's text.

    ``warm``: one host session opens Compare and sends a message before the attendees arrive, so the
    figures leave out the process's one-time cold start (it imports LangChain and the rest on first use).
    """
    from memory_demos.runner import MAX_PANES

    if sessions < 1 or turns < 1 or not 2 <= panes <= MAX_PANES:
        raise InputError(
            f"bench workshop needs --sessions >= 1, --turns >= 1 and 2 <= --panes <= {MAX_PANES}"
        )
    if client not in ("browser", "ws"):
        raise InputError(f"--client must be browser or ws; got {client!r}")
    if client == "browser":
        if not CHROMIUM.exists():
            raise InputError(
                f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)."
            )
        try:
            import playwright  # noqa: F401
        except ImportError:
            raise InputError("bench workshop needs playwright: pip install -r requirements-dev.txt") from None
    concurrency = max(1, min(concurrency or DEFAULT_CONCURRENCY, sessions))
    results = [SessionResult(index, f"S{index:03d}x{secrets.token_hex(4)}") for index in range(sessions)]
    with interruptible(), contextlib.ExitStack() as stack:
        pid: int | None = None
        if url is None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="memory_lab_load_")))
            url, pid = stack.enter_context(lab_server(folder))
        url = url.rstrip("/")
        print(f"Server: {url}" + (f" (pid {pid})" if pid else " (started elsewhere: RSS not measured)"))
        if warm:
            from memory_demos.bench.workshop_ws import warm_up

            warm_started, warm_cpu = time.perf_counter(), cpu_seconds(pid)
            asyncio.run(warm_up(url))
            cold_cpu = (cpu_seconds(pid) or 0.0) - (warm_cpu or 0.0)
            print(
                "Warmed up: a host session opened Compare and sent one message in "
                f"{time.perf_counter() - warm_started:.1f} s ({cold_cpu:.2f} s of server CPU), "
                "before the room"
            )
        before = rss_kib(pid)
        cpu_before = cpu_seconds(pid)
        started, client_started = time.perf_counter(), time.process_time()
        with RssSampler(pid) as sampler:
            if client == "ws":
                from memory_demos.bench.workshop_ws import drive

                start_within = min(think_seconds, 10.0)
                asyncio.run(drive(url, results, panes, turns, think_seconds, start_within))
            else:
                from memory_demos.bench.workshop_browser import drive as drive_browsers

                asyncio.run(drive_browsers(url, results, panes, turns, concurrency))
        wall, client_cpu = time.perf_counter() - started, time.process_time() - client_started
        cpu_after = cpu_seconds(pid)
        time.sleep(1.0)  # let the server finish the last reruns
        report = LoadReport(
            sessions,
            panes,
            turns,
            concurrency,
            results,
            wall,
            {"before": before, "peak": sampler.peak, "after": rss_kib(pid)},
            None if cpu_before is None or cpu_after is None else cpu_after - cpu_before,
            client=client,
            think_seconds=think_seconds if client == "ws" else None,
            client_cpu_seconds=client_cpu if client == "ws" else None,
        )
    for line in report.lines():
        print(line)
    return 0 if not report.errors and not report.crosstalk else 1
