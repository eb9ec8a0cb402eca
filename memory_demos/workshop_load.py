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
import os
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memory_demos.strategies.base import InputError
from memory_demos.ui.pane import RECENT_TURNS

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
    "--disable-dev-shm-usage",
]
SERVER_START_SECONDS = 90
PAGE_LOAD_MS = 120_000
REPLY_TIMEOUT_MS = 180_000
DEFAULT_CONCURRENCY = 10
DEFAULT_THINK_SECONDS = 8.0
THINK_SECONDS = 0.5
RSS_SAMPLE_SECONDS = 0.5
# How often a page checks whether the replies are done: every animation frame (Playwright's default)
# in 40 pages at once would spend the CPU the server needs.
POLL_MS = 100
CLICK_EFFECT_MS = 15_000
CHAT_BOX = "stChatInputTextArea"
PANE_BOXES = '[class*="st-key-ml_w_pane_"][class*="_box"]'
REMOVE_BUTTONS = '[class*="st-key-ml_w_pane_"][class*="_remove"] button'
MARKER = re.compile(r"S\d{3}x[0-9a-f]{8}")
# True once the app is idle and at least ``n`` assistant messages show a finished (non-streaming) reply.
REPLIES_DONE = """
([n]) => {
  const box = document.querySelector('[data-testid="stChatInputTextArea"]');
  if (!box || box.disabled) return false;
  const replies = [...document.querySelectorAll('[data-testid="stChatMessage"]')]
    .filter((m) => m.querySelector('[data-testid="stChatMessageAvatarAssistant"]'));
  const text = (m) => (m.querySelector('[data-testid="stChatMessageContent"]') || m).textContent;
  return replies.length >= n && replies.every((m) => text(m).trim() && !text(m).includes('\\u258c'));
}
"""


@dataclass
class SessionResult:
    """What one simulated attendee measured and saw."""

    index: int
    marker: str
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    crosstalk: set[str] = field(default_factory=set)


@dataclass
class LoadReport:
    """The figures the benchmark prints."""

    sessions: int
    panes: int
    turns: int
    concurrency: int
    results: list[SessionResult]
    wall_seconds: float
    rss_kib: dict[str, int | None]
    server_cpu_seconds: float | None = None
    client: str = "browser"
    think_seconds: float | None = None

    @property
    def latencies(self) -> list[float]:
        return sorted(latency for result in self.results for latency in result.latencies)

    @property
    def errors(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for result in self.results:
            total.update(result.errors)
        return total

    @property
    def crosstalk(self) -> int:
        return sum(len(result.crosstalk) for result in self.results)

    def lines(self) -> list[str]:
        latencies = self.latencies
        done = len(latencies)

        def pct(q: float) -> str:
            if not latencies:
                return "n/a"
            return f"{latencies[min(done - 1, round(q * (done - 1)))]:.2f} s"

        def mib(kib: int | None) -> str:
            return f"{kib / 1024:.0f} MiB" if kib is not None else "n/a"

        errors = self.errors
        pacing = (
            f"think time {self.think_seconds:g} s (±50%) between messages"
            if self.think_seconds is not None
            else f"up to {self.concurrency} sessions sending at once"
        )
        cpu_per_message = (
            f" · {self.server_cpu_seconds / done:.3f} s per message"
            if self.server_cpu_seconds is not None and done
            else ""
        )
        return [
            f"Workshop load ({self.client} clients): {self.sessions} sessions x {self.panes} panes x "
            f"{self.turns} turns, offline model, {pacing}, {os.cpu_count()} CPUs",
            f"turns completed:  {done} of {self.sessions * self.turns} "
            f"({done * self.panes} pane replies) in {self.wall_seconds:.1f} s",
            f"turn latency:     p50 {pct(0.5)} · p95 {pct(0.95)} · max {pct(1.0)}"
            + (f" · mean {statistics.mean(latencies):.2f} s" if latencies else ""),
            f"errors:           {sum(errors.values())}"
            + (f" ({', '.join(f'{kind}: {n}' for kind, n in sorted(errors.items()))})" if errors else ""),
            f"cross-talk:       {self.crosstalk}",
            f"server RSS:       before {mib(self.rss_kib.get('before'))} · "
            f"peak {mib(self.rss_kib.get('peak'))} · after {mib(self.rss_kib.get('after'))}",
            "server CPU:       "
            + (
                f"{self.server_cpu_seconds:.0f} s in {self.wall_seconds:.0f} s "
                f"({self.server_cpu_seconds / self.wall_seconds:.0%} of one core){cpu_per_message}"
                if self.server_cpu_seconds is not None and self.wall_seconds > 0
                else "n/a"
            ),
        ]


# -- the server ------------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def cpu_seconds(pid: int | None) -> float | None:
    """CPU time (user + system) ``pid`` has used so far, from ``/proc/<pid>/stat``; None if unknown."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def rss_kib(pid: int | None) -> int | None:
    """Resident memory of ``pid`` in KiB (``VmRSS`` in ``/proc/<pid>/status``); None if unknown."""
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """While inside, SIGTERM raises ``SystemExit`` like SIGINT raises ``KeyboardInterrupt``.

    By default SIGTERM ends Python without unwinding, so ``lab_server``'s clean-up would never run and
    the server it started (in its own session, out of reach of the terminal) would keep running.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def lab_server(
    data_dir: Path, *, workshop: bool = True, env_overrides: Mapping[str, str] | None = None
) -> Iterator[tuple[str, int]]:
    """``streamlit run app.py`` on a free loopback port (workshop mode by default); yields (url, pid).

    Also used by the browser tests, so the benchmark and the tests start the server the same way.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    env = {**os.environ, "MEMORY_LAB_DATA_DIR": str(data_dir)}
    if workshop:
        env.setdefault("MEMORY_LAB_WORKSHOP", "1")
    env.pop("OPENAI_API_KEY", None)
    env.update(env_overrides or {})
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(ROOT / "app.py"),
        "--server.headless",
        "true",
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--server.fileWatcherType",
        "none",
        "--browser.gatherUsageStats",
        "false",
    ]
    log = data_dir / "streamlit.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_SECONDS
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"streamlit exited with {process.returncode}:\n{log.read_text()[-2000:]}")
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response,
            ):
                if response.status == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not answer within {SERVER_START_SECONDS} s")
            time.sleep(0.3)
        yield url, process.pid
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=5)


class RssSampler:
    """Samples a process's RSS on a thread; ``peak`` is the highest value seen."""

    def __init__(self, pid: int | None) -> None:
        self.pid = pid
        self.peak = rss_kib(pid)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(RSS_SAMPLE_SECONDS):
            value = rss_kib(self.pid)
            if value is not None and (self.peak is None or value > self.peak):
                self.peak = value

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


# -- the attendees ---------------------------------------------------------------------------------
async def _set_pane_count(page: Any, panes: int) -> None:
    """Remove (or add) panes through the page's own buttons until there are ``panes``.

    A click that lands while the page is rerunning can be dropped by Streamlit, so each click waits
    a short while for its effect and is repeated if nothing changed, until ``PAGE_LOAD_MS`` runs out.
    """
    from playwright.async_api import TimeoutError as PlaywrightTimeoutError

    boxes = page.locator(PANE_BOXES)
    deadline = time.monotonic() + PAGE_LOAD_MS / 1000
    while (count := await boxes.count()) != panes:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the page still shows {count} panes, not {panes}")
        if count > panes:
            await page.locator(REMOVE_BUTTONS).filter(visible=True).last.click()
        else:
            await page.get_by_role("button", name="Add pane").click()
        with contextlib.suppress(PlaywrightTimeoutError):
            await page.wait_for_function(
                "([selector, n]) => document.querySelectorAll(selector).length === n",
                arg=[PANE_BOXES, count - 1 if count > panes else count + 1],
                timeout=CLICK_EFFECT_MS,
                polling=POLL_MS,
            )


async def _attendee(
    browser: Any, url: str, result: SessionResult, panes: int, turns: int, gate: asyncio.Semaphore
) -> None:
    context = await browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        page = await context.new_page()
        async with gate:
            await page.goto(f"{url}/compare", timeout=PAGE_LOAD_MS)
            await page.get_by_test_id(CHAT_BOX).wait_for(timeout=PAGE_LOAD_MS)
            await page.locator(PANE_BOXES).first.wait_for(timeout=PAGE_LOAD_MS)
            await _set_pane_count(page, panes)
        for turn in range(turns):
            text = f"[{result.marker}] Turn {turn + 1}: my name is Attendee{result.index}."
            async with gate:
                box = page.get_by_test_id(CHAT_BOX)
                await box.fill(text)
                started = time.perf_counter()
                await box.press("Enter")
                await page.wait_for_function(
                    REPLIES_DONE,
                    arg=[panes * min(turn + 1, RECENT_TURNS)],
                    timeout=REPLY_TIMEOUT_MS,
                    polling=POLL_MS,
                )
                result.latencies.append(time.perf_counter() - started)
            await asyncio.sleep(THINK_SECONDS)
        body = await page.locator("body").inner_text()
        result.crosstalk |= {marker for marker in MARKER.findall(body) if marker != result.marker}
        shown = await page.locator(PANE_BOXES).evaluate_all("(boxes) => boxes.map((box) => box.innerText)")
        for text in shown:
            if text.count(result.marker) < min(turns, RECENT_TURNS):  # older turns fold away
                result.errors["missing_own_messages"] += 1
        failed = await page.get_by_test_id("stException").count()
        if failed:
            result.errors["exception"] += failed
        pane_errors = await page.get_by_text("This turn failed", exact=False).count()
        if pane_errors:
            result.errors["pane_error"] += pane_errors
    except Exception as exc:  # a timeout or a vanished page is a measured error, not a crash
        result.errors[type(exc).__name__] += 1
    finally:
        await context.close()


async def _drive(
    url: str, results: list[SessionResult], panes: int, turns: int, concurrency: int
) -> list[SessionResult]:
    from playwright.async_api import async_playwright

    gate = asyncio.Semaphore(concurrency)
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            await asyncio.gather(*(_attendee(browser, url, r, panes, turns, gate) for r in results))
        finally:
            await browser.close()
    return results


def run_load(
    sessions: int = 40,
    panes: int = 4,
    turns: int = 5,
    url: str | None = None,
    concurrency: int | None = None,
    client: str = "browser",
    think_seconds: float = DEFAULT_THINK_SECONDS,
) -> int:
    """Run the load, print the figures; 0 if no session saw an error or another session's text."""
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
        before = rss_kib(pid)
        cpu_before = cpu_seconds(pid)
        started = time.perf_counter()
        with RssSampler(pid) as sampler:
            if client == "ws":
                from memory_demos.workshop_ws import drive

                start_within = min(think_seconds, 10.0)
                asyncio.run(drive(url, results, panes, turns, think_seconds, start_within))
            else:
                asyncio.run(_drive(url, results, panes, turns, concurrency))
        wall = time.perf_counter() - started
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
        )
    for line in report.lines():
        print(line)
    return 0 if not report.errors and not report.crosstalk else 1
