"""Test-only helpers shared by the strategy test modules: a deterministic embedding, a spy on what the
offline model itself received, and the small set-up every strategy test repeats.
"""

from __future__ import annotations

import hashlib
import math
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from langchain_core.embeddings import Embeddings
from langchain_core.messages import BaseMessage

from memory_demos.providers.offline_model import OfflineTeachingModel
from memory_demos.strategies.base import Strategy
from memory_demos.tracing import classify_call
from memory_demos.turn import Turn


class WordEmbeddings(Embeddings):
    """A bag-of-words embedding (hashed words, unit length): deterministic, instant, no model.

    Texts sharing words are close. Each suite keeps the ``dimensions`` it was written against, since
    hash collisions (and so similarities) depend on it.
    """

    def __init__(self, dimensions: int = 256) -> None:
        self.dimensions = dimensions

    def _vector(self, text: str) -> list[float]:
        vector = [0.0] * self.dimensions
        for word in re.findall(r"[a-z0-9]+", text.lower()):
            vector[int(hashlib.sha1(word.encode()).hexdigest(), 16) % self.dimensions] += 1.0
        norm = math.sqrt(sum(v * v for v in vector)) or 1.0
        return [v / norm for v in vector]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


@dataclass
class ReceivedCall:
    """One call of the offline model: its purpose (from the run's tags) and the messages it was handed."""

    purpose: str
    messages: list[BaseMessage]


class ModelSpy:
    """Records the messages the offline model's own ``_generate``/``_stream`` were handed (thread-safe)."""

    def __init__(self) -> None:
        self.calls: list[ReceivedCall] = []
        self._lock = threading.Lock()

    def record(self, messages: list[BaseMessage], run_manager: Any) -> None:
        purpose = classify_call(messages, run_manager.tags if run_manager else None)
        with self._lock:
            self.calls.append(ReceivedCall(purpose, list(messages)))

    def take(self) -> list[ReceivedCall]:
        """The calls recorded since the last ``take``."""
        with self._lock:
            calls, self.calls = self.calls, []
        return calls


def spy_on_offline_model(
    monkeypatch: pytest.MonkeyPatch, record: Callable[[list[BaseMessage], Any], None]
) -> None:
    """Patch ``OfflineTeachingModel`` so ``record(messages, run_manager)`` sees every call it is handed.

    Recorded inside the model class, so independent of Memory Lab's ``CallCapture``.
    """
    original_generate = OfflineTeachingModel._generate
    original_stream = OfflineTeachingModel._stream

    # LangChain passes ``run_manager`` only to a ``_generate`` whose signature names it.
    def spying_generate(
        self: Any, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> Any:
        record(messages, run_manager)
        return original_generate(self, messages, stop, run_manager, **kwargs)

    def spying_stream(
        self: Any, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> Iterator[Any]:
        record(messages, run_manager)
        return original_stream(self, messages, stop, run_manager, **kwargs)

    monkeypatch.setattr(OfflineTeachingModel, "_generate", spying_generate)
    monkeypatch.setattr(OfflineTeachingModel, "_stream", spying_stream)


def closed_after_test() -> Iterator[list[Strategy]]:
    """A fixture body: strategies appended to the list are closed after the test (released, not discarded)."""
    strategies: list[Strategy] = []
    yield strategies
    for strategy in strategies:
        strategy.close()


def send_ok(strategy: Strategy, text: str) -> Turn:
    """Send ``text`` and fail the test, showing the error, if the turn did not succeed."""
    turn = strategy.send(text)
    assert turn.error is None, turn.error
    return turn


def open_inspector(at: Any, pane_index: int = 0, *sections: str) -> None:
    """Open a Compare pane's focus view (its inspector), as a click on its focus button does, and rerun.

    The focus view draws every section (prompt, tokens, state, changes, hidden calls); ``sections`` names
    those the test reads, for the reader.
    """
    from memory_demos.session import KEY_PREFIX, widget_key

    del sections
    pane_id = at.session_state[KEY_PREFIX + "panes"][pane_index].pane_id
    at.session_state[widget_key("focus_pane")] = pane_id
    at.run()
    assert not at.exception, at.exception


def open_params(at: Any, *pane_ids: str) -> None:
    """Open Compare panes' parameter popovers, as a click does, and rerun (closed, their forms are not built)."""
    from memory_demos.session import widget_key

    for pane_id in pane_ids:
        at.session_state[widget_key("pane", pane_id, "params")] = True
    at.run()
    assert not at.exception, at.exception
