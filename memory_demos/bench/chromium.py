"""Debian's Chromium and the flags it is launched with: one place for the load driver and the e2e tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
]
# Forty contexts at once outgrow a container's small /dev/shm; the load driver writes to /tmp instead.
LOAD_CHROMIUM_ARGS = [*CHROMIUM_ARGS, "--disable-dev-shm-usage"]


def launch_options(*, load: bool = False) -> dict[str, Any]:
    """Keyword arguments for Playwright's ``chromium.launch`` (sync or async API alike)."""
    return {"executable_path": str(CHROMIUM), "args": LOAD_CHROMIUM_ARGS if load else CHROMIUM_ARGS}
