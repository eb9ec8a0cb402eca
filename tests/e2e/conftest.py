"""Browser-test fixtures: a real ``streamlit run`` server on a free port and Debian's Chromium.

A missing ``/usr/bin/chromium`` fails the tests with a clear message (``.ci/run`` installs it):
browser tests that silently skip would hide exactly what they exist to show.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from memory_demos.bench.chromium import CHROMIUM, launch_options

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"


@dataclass(frozen=True)
class LabServer:
    """The running app: its base URL and port."""

    url: str
    port: int


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    """``streamlit run app.py`` with its own data folder; stopped (its whole process group) at the end."""
    from memory_demos.bench.server import lab_server as running_lab_server

    with running_lab_server(tmp_path_factory.mktemp("e2e_data"), workshop=False) as (url, _pid):
        yield LabServer(url=url, port=int(url.rsplit(":", 1)[1]))


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright; fails (never skips) when it is not installed."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: the browser tests need Debian's Chromium "
            "(`apt-get install -y chromium`; .ci/run installs it).",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(**launch_options())
        try:
            yield chromium
        finally:
            chromium.close()
