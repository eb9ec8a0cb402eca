"""The deprecation badge is short enough for a pane four to a row; LangChain's warning stays whole beside it."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from memory_demos.i18n import CATALOGUE

MESSAGE = "As of langchain-core 0.3.1, ConversationBufferMemory is deprecated: see the migration guide."
SCRIPT = """
from memory_demos.deprecations import Deprecation
from memory_demos.i18n import language_scope
from memory_demos.ui.deprecation_status import render_deprecation_status

item = Deprecation("ConversationBufferMemory", {message!r}, "0.3.1", "1.0.0", "LangChainDeprecationWarning")
with language_scope({language!r}):
    render_deprecation_status([item], full_text={full_text!r})
"""
BADGE = re.compile(r":orange-badge\[:material/warning: ([^\]]*)\]")
# A pane four to a row fits about this many characters in a badge, which does not wrap.
BADGE_FITS = 12


def rendered(language: str, full_text: bool) -> AppTest:
    at = AppTest.from_string(SCRIPT.format(message=MESSAGE, language=language, full_text=full_text))
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("language", sorted(CATALOGUE))
def test_the_badge_is_short_and_the_class_version_and_warning_stay_shown(language: str) -> None:
    caption = rendered(language, full_text=False).caption[0]
    badge = BADGE.search(caption.value)
    assert badge is not None, caption.value
    assert badge.group(1) == CATALOGUE[language]["deprecation.raised"]
    assert len(badge.group(1)) <= BADGE_FITS
    after_badge = caption.value[badge.end() :]
    assert "`ConversationBufferMemory`" in after_badge and "0.3.1" in after_badge
    assert MESSAGE in caption.proto.help  # the warning as LangChain raised it, in the tooltip


def test_the_guide_keeps_every_warning_in_full_in_its_expander() -> None:
    at = rendered("en", full_text=True)
    assert BADGE.search(at.caption[0].value) is not None
    assert MESSAGE in at.caption[0].proto.help
    assert [element.value for element in at.expander[0].text] == [MESSAGE]


SEVERAL = """
from memory_demos.deprecations import Deprecation
from memory_demos.i18n import language_scope
from memory_demos.ui.deprecation_status import render_deprecation_status

items = [
    Deprecation("ConversationBufferMemory", "m1", "0.3.1", "1.0.0", "LangChainDeprecationWarning"),
    Deprecation("InMemoryChatMessageHistory", "m2", "1.6.4", "2.0.0", "LangChainDeprecationWarning"),
]
with language_scope({language!r}):
    render_deprecation_status(items, full_text=True)
"""


@pytest.mark.parametrize(("language", "separator"), [("en", "; "), ("zh", "；")])
def test_the_guide_lists_several_warnings_with_the_languages_own_separator(
    language: str, separator: str
) -> None:
    # The Chinese guide read "自 0.3.1 起弃用; InMemoryChatMessageHistory": an ASCII semicolon in Chinese text.
    at = AppTest.from_string(SEVERAL.format(language=language))
    at.run()
    assert not at.exception, at.exception
    caption = at.caption[0].value
    assert f"{separator}InMemoryChatMessageHistory" in caption
    if language == "zh":
        assert "; " not in caption
