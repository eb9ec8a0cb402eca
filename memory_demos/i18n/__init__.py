"""Every interface string, in English and Simplified Chinese, from one catalogue.

The texts live in ``en.py`` and ``zh.py`` (the same keys in both); what the core says when a call fails
in ``<language>_errors.py``; what strategies note on a turn in ``<language>_strategies.py``; the failure
lab's and the migration guide's longer texts in ``<language>_failure_lab.py`` and ``<language>_migration.py``.
The core never translates: it writes a ``Message`` (a catalogue key and its values) and a view shows it
with ``translate`` in the language it was handed. ``t(key, **kwargs)`` looks a key up in the language of
the script run (the frame sets it; English elsewhere), falling back to English, then to the key itself,
and fills ``{placeholders}``; ``{n|exchange|exchanges}`` is the word for ``n`` in the singular or
the plural (English needs it; a Chinese text writes the count alone). Model output, memory contents and
user input are never put through here: they are data, rendered as text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType
from typing import Any

from memory_demos.i18n import (
    en,
    en_cache,
    en_compare,
    en_errors,
    en_failure_lab,
    en_migration,
    en_sessions,
    en_strategies,
    zh,
    zh_cache,
    zh_compare,
    zh_errors,
    zh_failure_lab,
    zh_migration,
    zh_sessions,
    zh_strategies,
)

# Each language's texts, area by area; a key is written in one area only (tests/test_i18n_catalogue.py).
CATALOGUE_PARTS: MappingProxyType[str, tuple[dict[str, str], ...]] = MappingProxyType(
    {
        "en": (
            en.TEXTS,
            en_cache.TEXTS,
            en_compare.TEXTS,
            en_errors.TEXTS,
            en_failure_lab.TEXTS,
            en_migration.TEXTS,
            en_sessions.TEXTS,
            en_strategies.TEXTS,
        ),
        "zh": (
            zh.TEXTS,
            zh_cache.TEXTS,
            zh_compare.TEXTS,
            zh_errors.TEXTS,
            zh_failure_lab.TEXTS,
            zh_migration.TEXTS,
            zh_sessions.TEXTS,
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
# Each interface language by its own name, as the language switches show it.
LANGUAGE_NAMES: MappingProxyType[str, str] = MappingProxyType({"en": "English", "zh": "简体中文"})


# The language of the script run in progress: the frame (app.py) decides it once per run and sets it
# here for the views below it. Nothing in i18n asks Streamlit or the session.
_RUN_LANGUAGE: ContextVar[str | None] = ContextVar("memory_lab_language", default=None)


@contextmanager
def language_scope(language: str) -> Iterator[None]:
    """Texts looked up with no language in the block use ``language`` (the frame wraps each script run)."""
    token = _RUN_LANGUAGE.set(language)
    try:
        yield
    finally:
        _RUN_LANGUAGE.reset(token)


def current_language() -> str:
    """The language the frame set for this script run; English outside one (the CLI, a test, a thread)."""
    return _RUN_LANGUAGE.get() or FALLBACK_LANGUAGE


# ``{count|singular|plural}``: the word that goes with the value of ``count``.
_PLURAL = re.compile(r"\{(\w+)\|([^{}|]*)\|([^{}|]*)\}")


def _is_one(value: Any) -> bool:
    """True for a count of one, whether given as a number or as its text ("1", "1 ")."""
    return str(value).strip() == "1"


def choose_plurals(text: str, values: Mapping[str, Any]) -> str:
    """``text`` with each ``{count|singular|plural}`` replaced by the word for the value of ``count``."""
    return _PLURAL.sub(lambda m: m.group(2) if _is_one(values.get(m.group(1))) else m.group(3), text)


def _fill(key: str, language: str, values: Mapping[str, Any]) -> str:
    """The catalogue text of ``key`` in ``language`` (else English, else the key), filled with ``values``.

    A value that is itself a ``Message`` is filled in in the same language.
    """
    text = CATALOGUE.get(language, {}).get(key) or CATALOGUE[FALLBACK_LANGUAGE].get(key)
    if text is None:
        return key
    if not values:
        return text
    return choose_plurals(text, values).format(
        **{name: translate(value, language) for name, value in values.items()}
    )


def t(key: str, language: str | None = None, **kwargs: Any) -> str:
    """The interface text for ``key`` in ``language`` (default: the script run's), filled with ``kwargs``."""
    return _fill(key, language or current_language(), kwargs)


class Message(str):
    """A text as data: a catalogue key and the values that fill it (a note, an error, a notice).

    The core writes these, never a finished sentence; a view shows one in the language it was handed
    (``translate``). As a ``str`` a message is its English text: what the command line prints, what logs
    carry, and what the English JSON exports hold.
    """

    key: str
    values: Mapping[str, Any]

    def __new__(cls, key: str, /, **values: Any) -> Message:
        message = super().__new__(cls, _fill(key, FALLBACK_LANGUAGE, values))
        message.key = key
        message.values = MappingProxyType(dict(values))
        return message

    def in_language(self, language: str) -> str:
        """The text in ``language``."""
        return _fill(self.key, language, self.values)

    def with_values(self, change: Callable[[Any], Any]) -> Message:
        """The same message with ``change`` applied to each value (nested messages' values too)."""
        return Message(
            self.key,
            **{
                name: value.with_values(change) if isinstance(value, Message) else change(value)
                for name, value in self.values.items()
            },
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (_message, (self.key, dict(self.values)))


def _message(key: str, values: dict[str, Any]) -> Message:
    return Message(key, **values)


def translate(text: Any, language: str | None = None) -> Any:
    """``text`` for a reader of ``language`` (default: the script run's): a ``Message`` in that language,
    anything else as it is (model output, user input and names are data, never translated)."""
    if isinstance(text, Message):
        return text.in_language(language or current_language())
    return text


def translate_all(data: Any, language: str | None = None) -> Any:
    """``data`` (dicts, lists and tuples of values, as a state snapshot is) with every ``Message`` in it
    translated; what is not a message is kept as it is."""
    if isinstance(data, Message):
        return translate(data, language)
    if isinstance(data, Mapping):
        return {key: translate_all(value, language) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return type(data)(translate_all(value, language) for value in data)
    return data


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
