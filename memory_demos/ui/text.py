"""Interface text helpers: user-typed values (a model name, a URL) shown safely, and the model's name."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memory_demos.clock import UNITS
from memory_demos.i18n import t

if TYPE_CHECKING:
    from memory_demos.providers.chat_models import ProviderConfig


def code_span(value: str) -> str:
    """``value`` as a markdown inline-code span: shown literally, so no link, image or emphasis renders."""
    cleaned = " ".join(value.replace("`", "'").split())
    return f"`{cleaned}`" if cleaned else "``"


_DURATION_WORDS = re.compile(rf"^\s*(\d+)\s*({'|'.join(UNITS)})s?\s*$", re.IGNORECASE)


def duration_words(text: str) -> str:
    """A scenario's ``after: 3 days`` in the session's language (``3 天``); any other text as it is."""
    match = _DURATION_WORDS.match(str(text))
    if match is None:
        return str(text)
    count = int(match.group(1))
    unit = match.group(2).lower()
    return t(f"duration.{unit}" + (".one" if count == 1 else ""), n=count)


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
