"""The guide's standalone programs: their text is what the page shows, exports and runs.

Each program in ``programs/`` imports only LangChain, LangGraph and the standard library, and defines
``chat(model, messages[, embeddings]) -> replies``. ``Program`` executes the text as a fresh module (never
importing it by name, so nothing is shared between runs) and calls ``chat`` with the model the caller
built. ``Recorder`` and ``RecordingEmbeddings`` keep what the model and embeddings returned, so the same
program, run at home with ``--replay``, gets the same answers and sends the same prompts.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import LLMResult

PROGRAMS_DIR = Path(__file__).with_name("programs")
_METADATA_KEPT = ("model_provider", "model_name", "finish_reason")
# The one line of a program that names its system prompt (every program but the retired chain's has one),
# and the tuple of messages it sends when run at home with none given.
_SYSTEM_PROMPT_LINE = re.compile(r'^SYSTEM_PROMPT = ".*"$', re.MULTILINE)
_MESSAGES_TUPLE = re.compile(r"^MESSAGES = \(\n(?:    .*\n)*?\)$", re.MULTILINE)


@dataclass(frozen=True)
class Program:
    """One standalone program of the guide, by its file name under ``programs/``."""

    filename: str
    system_prompt: str | None = None
    """The system prompt the program is shown and run with; ``None`` keeps the file's own (English) one."""
    messages: tuple[str, ...] | None = None
    """Its ``MESSAGES`` (what ``python program.py`` sends); ``None`` keeps the file's own (English) ones."""

    @property
    def path(self) -> Path:
        return PROGRAMS_DIR / self.filename

    def in_language(self, system_prompt: str, messages: Iterable[str] | None = None) -> Program:
        """The same program with its ``SYSTEM_PROMPT = "…"`` line saying ``system_prompt`` and, given
        ``messages``, its ``MESSAGES`` those: a Chinese page sends the Chinese prompt, and shows the very
        text it runs."""
        kept = None if messages is None else tuple(messages)
        return replace(self, system_prompt=system_prompt, messages=kept)

    @property
    def text(self) -> str:
        """The program exactly as shown, run and exported (bytes decoded as UTF-8, nothing stripped), with
        its system prompt line and its messages set when they are given."""
        text = self.path.read_bytes().decode("utf-8")
        if self.system_prompt is not None:
            line = f"SYSTEM_PROMPT = {json.dumps(self.system_prompt, ensure_ascii=False)}"
            text = _SYSTEM_PROMPT_LINE.sub(lambda _match: line, text, count=1)
        if self.messages is not None:
            items = "".join(f"    {json.dumps(message, ensure_ascii=False)},\n" for message in self.messages)
            text = _MESSAGES_TUPLE.sub(lambda _match: f"MESSAGES = (\n{items})", text, count=1)
        return text

    @property
    def takes_embeddings(self) -> bool:
        """Whether its ``chat`` searches by meaning and so takes an ``embeddings`` argument."""
        return "embeddings" in inspect.signature(self.load().chat).parameters

    def load(self) -> ModuleType:
        """A fresh module run from the text, named so that its ``main()`` does not start."""
        module = ModuleType(f"memory_lab_guide_{self.path.stem}")
        module.__file__ = str(self.path)
        exec(compile(self.text, str(self.path), "exec"), module.__dict__)
        return module

    def __call__(
        self, model: BaseChatModel, inputs: Iterable[str], embeddings: Embeddings | None = None
    ) -> list[str]:
        """Run the program's ``chat`` on ``model`` (and ``embeddings`` when it takes them)."""
        module = self.load()
        if "embeddings" not in inspect.signature(module.chat).parameters:
            return list(module.chat(model, inputs))
        if embeddings is None:
            # Lazy: loads the model; only a program searching by meaning needs it. The guide's model
            # reads English, Chinese and both mixed (see ``migration._play``).
            from memory_demos.providers.multilingual_embeddings import multilingual_embeddings

            embeddings = multilingual_embeddings()
        return list(module.chat(model, inputs, embeddings))


class Recorder(BaseCallbackHandler):
    """Keeps every reply a chat model gave, in call order, as ``--replay`` reads them back (``AIMessage``
    keyword arguments: content, tool calls, reported usage and provider)."""

    def __init__(self) -> None:
        self.replies: list[dict[str, Any]] = []

    def on_llm_end(self, response: LLMResult, **kwargs: Any) -> None:
        message = getattr(response.generations[0][0], "message", None)
        if not isinstance(message, AIMessage):
            return
        reply: dict[str, Any] = {"content": message.content}
        # Kept because LangChain reads them: SummarizationMiddleware scales its token estimate by the
        # usage the last reply reported, for replies of one model provider.
        if message.usage_metadata:
            reply["usage_metadata"] = dict(message.usage_metadata)
        metadata = {
            key: message.response_metadata[key] for key in _METADATA_KEPT if key in message.response_metadata
        }
        if metadata:
            reply["response_metadata"] = metadata
        if message.tool_calls:
            reply["tool_calls"] = [
                {"name": call["name"], "args": call["args"], "id": call.get("id")}
                for call in message.tool_calls
            ]
        self.replies.append(reply)


class RecordingEmbeddings(Embeddings):
    """Embeddings that keep each text's vector, so a replay searches with the very same vectors."""

    def __init__(self, inner: Embeddings) -> None:
        self.inner = inner
        self.vectors: dict[str, list[float]] = {}

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        vectors = [[float(x) for x in vector] for vector in self.inner.embed_documents(texts)]
        self.vectors.update(zip(texts, vectors, strict=True))
        return vectors

    def embed_query(self, text: str) -> list[float]:
        vector = [float(x) for x in self.inner.embed_query(text)]
        self.vectors[text] = vector
        return vector


def recording_of(recorder: Recorder, embeddings: RecordingEmbeddings | None) -> dict[str, Any]:
    """The JSON a program's ``--replay FILE`` reads: the replies, and the vectors when it embedded."""
    recording: dict[str, Any] = {"replies": list(recorder.replies)}
    if embeddings is not None and embeddings.vectors:
        recording["embeddings"] = dict(embeddings.vectors)
    return recording
