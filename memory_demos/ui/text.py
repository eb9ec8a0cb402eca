"""Interface text helpers: user-typed values (a model name, a URL) shown safely, and the model's name."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from memory_demos.clock import UNITS
from memory_demos.i18n import t

if TYPE_CHECKING:
    from memory_demos.providers.chat_models import ProviderConfig


def code_span(value: str) -> str:
    """``value`` as a markdown inline-code span: shown literally, so no link, image or emphasis renders."""
    cleaned = " ".join(value.replace("`", "'").split())
    return f"`{cleaned}`" if cleaned else "``"


# A long CamelCase identifier (SummarizationMiddleware) and the places inside it where it may wrap.
_LONG_IDENTIFIER = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]{15,}(?![A-Za-z0-9])")
_WORD_START = re.compile(r"(?<=[a-z0-9])(?=[A-Z][a-z])")
WRAP_POINT = "\u200b"  # a zero-width space: a line may break there, nothing is drawn


def wrappable_identifiers(text: str) -> str:
    """``text`` with a line-break opportunity before each word inside a long CamelCase identifier.

    In a narrow pane a browser breaks a word wider than the line anywhere ("SummarizationMiddl" /
    "eware"); with these it breaks between "Summarization" and "Middleware" instead. For the app's own
    texts shown in narrow places only: the zero-width spaces would be copied with the text."""
    return _LONG_IDENTIFIER.sub(lambda found: _WORD_START.sub(WRAP_POINT, found.group(0)), text)


_DURATION_WORDS = re.compile(rf"^\s*(\d+)\s*({'|'.join(UNITS)})s?\s*$", re.IGNORECASE)


def duration_words(text: str) -> str:
    """A scenario's ``after: 3 days`` in the session's language (``3 天``); any other text as it is."""
    match = _DURATION_WORDS.match(str(text))
    if match is None:
        return str(text)
    count = int(match.group(1))
    unit = match.group(2).lower()
    return t(f"duration.{unit}" + (".one" if count == 1 else ""), n=count)


def embedding_model_text(label: str) -> str:
    """An embedding model's name for the interface: a shipped offline model's label in the session's
    language (its name and build stay, "offline" is translated); any other model's name as it is."""
    from memory_demos.providers.embedding_choice import OFFLINE_MODEL_LABELS

    for model_id, english in OFFLINE_MODEL_LABELS.items():
        if label == english:
            return t(f"embedding.offline_label.{model_id}")
    return label


def provider_label(provider: ProviderConfig) -> str:
    """The active model's name for the interface: translated for the offline and the workshop model.

    The workshop model is named by its model name only: its base URL is the host's secret.
    """
    if provider.kind == "offline":
        return t("provider.offline")
    if provider.hosted:
        return t("provider.hosted", model=provider.model)
    if provider.kind == "openai":
        return t("provider.openai", model=provider.model)
    return t("provider.compatible", model=provider.model, url=provider.base_url)


# Widths of Streamlit's default 14 px sans-serif, measured on screenshots from Chromium and rounded up: a
# CJK character is about a square, a Latin one (average of a name) a little under half of it.
_WIDE_CHAR = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uff00-\uffef]")
LATIN_CHAR_PX, WIDE_CHAR_PX = 6.4, 14.0
SELECT_CHROME_PX = 64  # a select box's padding and its arrow


def text_width_px(text: str) -> int:
    """About how many pixels ``text`` takes on one line in a widget (to size a box to its longest option)."""
    wide = len(_WIDE_CHAR.findall(text))
    return round(wide * WIDE_CHAR_PX + (len(text) - wide) * LATIN_CHAR_PX)


def select_width_px(options: Iterable[str], minimum: int, maximum: int) -> int:
    """A select box's width that shows its longest option whole, between ``minimum`` and ``maximum``."""
    widest = max((text_width_px(option) for option in options), default=0)
    return min(maximum, max(minimum, widest + SELECT_CHROME_PX))
