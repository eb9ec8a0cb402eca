"""The deprecation warnings LangChain raises while code runs, captured so a page can show them.

Nothing here is a table of what is deprecated: a ``Deprecation`` is parsed from a warning that
LangChain itself raised inside ``capture_deprecations()``. LangChain's ``@deprecated`` classes warn
only the first time they are built in a process; ``capture_deprecations`` re-arms that flag first,
so every capture sees the warning LangChain would raise on a fresh start. Captured warnings are
raised again afterwards, so they still reach the console as LangChain raised them.
"""

from __future__ import annotations

import importlib
import re
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from memory_demos.i18n import t

# Modules whose classes carry LangChain's once-per-process deprecation flag.
_ONCE_PER_PROCESS_MODULES = ("langchain_classic.memory", "langchain_core.chat_history")
_SINCE = re.compile(r"deprecated in (?:LangChain |[\w-]+ )?(\d+\.\d+(?:\.\d+)?)")
_REMOVAL = re.compile(r"removed in (\d+\.\d+(?:\.\d+)?)")
# LangGraph's own form (raised when trustcall, which LangMem uses, imports Send from it): "Importing
# Send from langgraph.constants is deprecated. ... Deprecated in LangGraph V1.0 to be removed in V2.0."
_IMPORTING = re.compile(r"^Importing `?(\w+)`? from `?([\w.]+)`? is deprecated")
_LANGGRAPH_SINCE = re.compile(r"deprecated in langgraph v(\d+\.\d+(?:\.\d+)?)", re.IGNORECASE)
_LANGGRAPH_REMOVAL = re.compile(r"removed in V(\d+\.\d+(?:\.\d+)?)")
_SUBJECT = re.compile(r"^(?:The (?:class|function|method|attribute) )?`?([\w.]+)`?")
_capture_lock = threading.RLock()  # a capture may run inside another (a strategy built in a turn)


# Warning texts already passed on to the console: a process-wide log filter, holding no user data.
_printed: set[str] = set()


@dataclass(frozen=True)
class Deprecation:
    """One deprecation warning as LangChain raised it; ``since`` is the version it names, if any."""

    subject: str
    message: str
    since: str | None
    removal: str | None
    category: str

    @property
    def label(self) -> str:
        """``ConversationBufferMemory · deprecated since 0.3.1`` (or without a version if none is named),
        in the session's language; the warning's own text (``message``) stays as LangChain raised it."""
        if self.since:
            return t("deprecation.label", subject=self.subject, since=self.since)
        return t("deprecation.label_no_version", subject=self.subject)

    def to_json(self) -> dict[str, str | None]:
        return {
            "subject": self.subject,
            "since": self.since,
            "removal": self.removal,
            "category": self.category,
            "message": self.message,
        }


def parse_deprecation(message: str, category: str = "LangChainDeprecationWarning") -> Deprecation:
    """The subject, version and removal version named in a deprecation warning's text."""
    imported = _IMPORTING.match(message.strip())
    subject = _SUBJECT.match(message.strip())
    since = _SINCE.search(message) or _LANGGRAPH_SINCE.search(message)
    removal = _REMOVAL.search(message) or _LANGGRAPH_REMOVAL.search(message)
    named = f"{imported.group(2)}.{imported.group(1)}" if imported else subject.group(1) if subject else None
    return Deprecation(
        subject=named or (message.split()[0] if message.split() else "?"),
        message=message,
        since=since.group(1) if since else None,
        removal=removal.group(1) if removal else None,
        category=category,
    )


def _rearm_once_per_process_warnings() -> None:
    """Reset the "already warned" flag LangChain's ``@deprecated`` keeps in each class's ``__init__``."""
    for module_name in _ONCE_PER_PROCESS_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:  # pragma: no cover - langchain_classic not installed
            continue
        for value in vars(module).values():
            init = getattr(value, "__init__", None) if isinstance(value, type) else None
            if getattr(value, "__deprecated__", None) is None or init is None:
                continue
            for name, cell in zip(init.__code__.co_freevars, init.__closure__ or (), strict=False):
                if name == "warned":
                    cell.cell_contents = False


def merge(found: tuple[Deprecation, ...], more: list[Deprecation]) -> tuple[Deprecation, ...]:
    """``found`` plus the deprecations of ``more`` whose message is new, in order."""
    seen = {item.message for item in found}
    added = []
    for item in more:
        if item.message not in seen:
            seen.add(item.message)
            added.append(item)
    return found + tuple(added)


@contextmanager
def capture_deprecations() -> Iterator[list[Deprecation]]:
    """Record the DeprecationWarnings raised inside the block into the yielded list, then raise them again.

    Captures are serialised (``warnings.catch_warnings`` changes process-wide state); other warnings
    raised inside the block are passed on untouched.
    """
    found: list[Deprecation] = []
    with _capture_lock:
        _rearm_once_per_process_warnings()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                yield found
            finally:
                recorded = list(caught)
    for item in recorded:
        if issubclass(item.category, DeprecationWarning):
            deprecation = parse_deprecation(str(item.message), item.category.__name__)
            if all(known.message != deprecation.message for known in found):
                found.append(deprecation)
        # Re-armed classes warn on every build; the console still gets each text once per process.
        with _capture_lock:
            if str(item.message) in _printed:
                continue
            _printed.add(str(item.message))
        warnings.warn_explicit(item.message, item.category, item.filename, item.lineno, source=item.source)
