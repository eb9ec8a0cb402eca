"""The sidebar marks one page as current: on Settings, the "Change model" shortcut (a second link to the
same page, highlighted with it) is not drawn; elsewhere it is."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from memory_demos.i18n import CATALOGUE

APP = str(Path(__file__).resolve().parents[1] / "app.py")
EN = CATALOGUE["en"]


def sidebar_links_to(page: str) -> list[str]:
    at = AppTest.from_file(APP, default_timeout=30)
    at.run()
    if page != "pages/home.py":
        at.switch_page(page)
        at.run()
    assert not at.exception, at.exception
    return [link.proto.label for link in at.sidebar.get("page_link")]


def test_settings_is_linked_once_in_the_sidebar_when_it_is_the_current_page() -> None:
    labels = sidebar_links_to("pages/settings.py")
    assert EN["nav.settings"] in labels
    assert EN["sidebar.change_provider"] not in labels


@pytest.mark.parametrize("page", ["pages/home.py", "pages/compare.py"])
def test_other_pages_keep_the_change_model_shortcut(page: str) -> None:
    assert EN["sidebar.change_provider"] in sidebar_links_to(page)
