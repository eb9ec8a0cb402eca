"""Every interface string, in English and Simplified Chinese, from one catalogue.

The texts live in ``en.py`` and ``zh.py`` (the same keys in both). ``t(key, **kwargs)`` looks the key
up in the session's language (falling back to English, then to the key itself) and fills
``{placeholders}``. Model output, memory contents and user input are never put through here: they are
data, rendered as text.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from memory_demos.i18n import en, zh

CATALOGUE: MappingProxyType[str, MappingProxyType[str, str]] = MappingProxyType(
    {"en": MappingProxyType(en.TEXTS), "zh": MappingProxyType(zh.TEXTS)}
)
FALLBACK_LANGUAGE = "en"


def current_language() -> str:
    """The session's language; English outside a Streamlit session."""
    try:
        from memory_demos.session import LabSession

        return LabSession().language
    except Exception:
        return FALLBACK_LANGUAGE


def t(key: str, language: str | None = None, **kwargs: Any) -> str:
    """The interface text for ``key`` in ``language`` (default: the session's), filled with ``kwargs``."""
    lang = language or current_language()
    text = CATALOGUE.get(lang, {}).get(key) or CATALOGUE[FALLBACK_LANGUAGE].get(key)
    if text is None:
        return key
    return text.format(**kwargs) if kwargs else text


def strategy_title(info: Any, language: str | None = None) -> str:
    """A strategy's name in the interface language, from its ``StrategyInfo``."""
    return info.title_in(language or current_language())


def strategy_summary(info: Any, language: str | None = None) -> str:
    """A strategy's one-line description in the interface language, from its ``StrategyInfo``."""
    return info.summary_in(language or current_language())
