"""Every interface string, in English and Simplified Chinese, from one catalogue.

The texts live in ``en.py`` and ``zh.py`` (the same keys in both); what the core says when a call fails
in ``<language>_errors.py``; what strategies note on a turn in ``<language>_strategies.py``; the failure
lab's and the migration guide's longer texts in ``<language>_failure_lab.py`` and ``<language>_migration.py``.
``t(key, **kwargs)`` looks the key up in the session's language (falling back to English, then to the
key itself) and fills ``{placeholders}``. Model output, memory contents and user input are never put
through here: they are data, rendered as text.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType
from typing import Any

from memory_demos.i18n import (
    en,
    en_compare,
    en_errors,
    en_failure_lab,
    en_migration,
    en_strategies,
    zh,
    zh_compare,
    zh_errors,
    zh_failure_lab,
    zh_migration,
    zh_strategies,
)

# Each language's texts, area by area; a key is written in one area only (tests/test_i18n_catalogue.py).
CATALOGUE_PARTS: MappingProxyType[str, tuple[dict[str, str], ...]] = MappingProxyType(
    {
        "en": (
            en.TEXTS,
            en_compare.TEXTS,
            en_errors.TEXTS,
            en_failure_lab.TEXTS,
            en_migration.TEXTS,
            en_strategies.TEXTS,
        ),
        "zh": (
            zh.TEXTS,
            zh_compare.TEXTS,
            zh_errors.TEXTS,
            zh_failure_lab.TEXTS,
            zh_migration.TEXTS,
            zh_strategies.TEXTS,
        ),
    }
)
CATALOGUE: MappingProxyType[str, MappingProxyType[str, str]] = MappingProxyType(
    {
        language: MappingProxyType({key: text for part in parts for key, text in part.items()})
        for language, parts in CATALOGUE_PARTS.items()
    }
)
FALLBACK_LANGUAGE = "en"


# The language of work handed to another thread (a Compare broadcast): that thread has no script run to
# read the session from, so the work carries the language in its context.
_SCOPED_LANGUAGE: ContextVar[str | None] = ContextVar("memory_lab_language", default=None)


@contextmanager
def language_scope(language: str) -> Iterator[None]:
    """Texts looked up with no language in the block (and in threads given its context) use ``language``."""
    token = _SCOPED_LANGUAGE.set(language)
    try:
        yield
    finally:
        _SCOPED_LANGUAGE.reset(token)


def current_language() -> str:
    """The scoped language, else the session's; English outside both (the CLI, a bare worker thread)."""
    scoped = _SCOPED_LANGUAGE.get()
    if scoped is not None:
        return scoped
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        # Quietly: a worker thread has no script context, and asking for its session state logs a warning.
        if get_script_run_ctx(suppress_warning=True) is None:
            return FALLBACK_LANGUAGE
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


def purpose_label(purpose: str, language: str | None = None) -> str:
    """What a model call was for (``prompt_markers``), in the interface language; an unknown one as is."""
    key = "purpose." + purpose.replace(" ", "_")
    label = t(key, language)
    return purpose if label == key else label


def relabel_after_language_switch(widgets: MutableMapping[str, Any], key: str, language: str) -> None:
    """Call before drawing the keyed widget ``key`` whose option labels are translated.

    The browser keeps a keyed select box's label from the language it was drawn in; when the language
    has changed since, setting the widget's value again (the same value) makes Streamlit send it anew,
    so the label is redrawn in ``language``.
    """
    drawn_in = f"{key}_language"
    if widgets.get(drawn_in) not in (None, language) and key in widgets:
        widgets[key] = widgets[key]
    widgets[drawn_in] = language
