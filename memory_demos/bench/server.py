"""The app under load: ``streamlit run app.py`` on a free loopback port, and its CPU time and memory.

Shared by the load benches and the browser tests, so both start the server the same way.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER_START_SECONDS = 90
RSS_SAMPLE_SECONDS = 0.5


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
