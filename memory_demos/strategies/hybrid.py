"""``hybrid``: a recent window + a running summary + vector recall, fitted into a hard token budget.

The last ``window_k`` turns are sent verbatim. A turn that falls out of the window is folded into a
running summary (LangChain's ``SUMMARY_PROMPT`` through a ``PromptTemplate | model`` chain) and
indexed in a per-conversation Chroma collection, from which the two most similar old turns are
retrieved for each new message. The assembled prompt must fit ``max_tokens``. With the default
``order=history_first`` (the budget rule of seed article 003) the retrieved context may take at most 30%
of the budget, and the oldest window turns go first, then retrieved lines, then the summary; with
``order=retrieved_first`` (this strategy's earlier rule) retrieved lines go first, uncapped, then window
turns, then the summary. The system prompt and the new message are never dropped.

In-process (the default) the window and summary live in this object and the collection is deleted by
``close()``. On the Chroma server of ``MEMORY_LAB_CHROMA_URL`` the collection (named by user and
conversation) also carries the window, the summary and the turn count in its metadata, so a new object
in any process continues the conversation; ``close()`` keeps it and ``discard()`` deletes it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import PromptTemplate

from memory_demos.i18n import Message
from memory_demos.providers.tokenizer import REPLY_PRIMING_TOKENS, count_message_tokens
from memory_demos.storage import StorageError, chroma_collection_name, redact_url
from memory_demos.strategies.base import (
    InputError,
    MemoryPart,
    ParamSpec,
    Strategy,
    StrategyContext,
    StrategyInfo,
    Threshold,
)
from memory_demos.strategies.shared.budgeted_prompt import (
    SECTIONS,
    AssembledPrompt,
    Hit,
    PastTurn,
    assemble_prompt,
    turn_from_json,
    turn_to_json,
)
from memory_demos.strategies.shared.chroma_collection import ConversationCollectionMixin, scored_search
from memory_demos.strategies.shared.classic import messages_as_json
from memory_demos.strategies.shared.embedding_param import EMBEDDINGS_PARAM
from memory_demos.tracing import SUMMARIZE

COLLECTION_PREFIX = "memory_lab_hybrid_"
RETRIEVE_K = 2
STATE_KEY = "memory_lab_hybrid_state"
STATE_VERSION = 1
# What gives way first; each is described by strategy.hybrid.order.<name> in the catalogue.
ORDERS = ("history_first", "retrieved_first")

INFO = StrategyInfo(
    id="hybrid",
    title="Hybrid: window + summary + retrieval, under a token budget",
    kind="modern",
    langchain_classes=(
        "langchain_core.prompts.PromptTemplate",
        "langchain_classic.memory.prompt.SUMMARY_PROMPT",
        "langchain_chroma.Chroma",
    ),
    summary=(
        "Recent turns verbatim, older ones as a running summary and as searchable vectors, all "
        "packed into a hard token budget that drops the least important parts first."
    ),
    title_zh="混合：窗口 + 摘要 + 检索，受词元预算约束",
    summary_zh="最近几轮原文，更早的作为滚动摘要和可检索向量，全部装进硬性词元预算，先丢最不重要的部分。",
    params=(
        ParamSpec(
            "window_k",
            3,
            "Recent turns (a message and its reply) sent verbatim.",
            minimum=1,
            help_zh="原样发送的最近几轮（一条消息及其回复）。",
        ),
        ParamSpec(
            "max_tokens",
            600,
            "Hard limit on the reply prompt (tiktoken count); retrieved lines, then old turns, then the "
            "summary are dropped to fit.",
            minimum=50,
            help_zh="回答提示的硬上限（tiktoken 计数）；超出时依次丢弃检索到的行、旧的轮次、摘要。",
        ),
        ParamSpec(
            "order",
            "history_first",
            "What gives way when the prompt is over budget: history_first (retrieved capped at 30% of the "
            "budget, oldest turns dropped first) or retrieved_first (retrieved lines dropped first).",
            choices=ORDERS,
            help_zh="提示超出预算时先让出哪部分：history_first（检索内容最多占预算的 30%，先丢最旧的轮次）"
            "或 retrieved_first（先丢检索到的行）。",
        ),
        EMBEDDINGS_PARAM,
    ),
    thresholds=(
        Threshold("max_tokens", "budget"),
        Threshold("window_k", "keep", "exchanges"),
    ),
    keeps=(
        MemoryPart("messages", "conversation"),
        MemoryPart("summary", "conversation"),
        MemoryPart("vectors", "conversation"),
    ),
)


def collection_name(conversation_id: str, user_id: str | None = None) -> str:
    """This conversation's Chroma collection: unique, since all in-process clients share collections.

    Pass ``user_id`` for a shared server, where two users may bring the same conversation id.
    """
    return chroma_collection_name(COLLECTION_PREFIX, conversation_id, user_id)


def summary_prompt() -> PromptTemplate:
    """LangChain's classic progressive-summary prompt text as a modern ``PromptTemplate``."""
    from langchain_classic.memory.prompt import SUMMARY_PROMPT

    return PromptTemplate.from_template(SUMMARY_PROMPT.template)


@dataclass
class HybridRollbackPoint:
    """Everything a failed turn must put back: window, summary, indexed ids and the last search."""

    window: list[PastTurn]
    summary: str
    unsummarized: list[PastTurn]
    indexed_ids: list[str]
    turn_count: int
    last_prompt: AssembledPrompt | None
    all_hits: list[Hit]


class HybridStrategy(ConversationCollectionMixin, Strategy):
    """Three memories assembled by hand into one prompt, each visible as a section with its token share."""

    info = INFO

    @classmethod
    def check_params(cls, params: Mapping[str, Any], context: StrategyContext) -> None:
        """Refuse a budget the system prompt alone exceeds: no message could ever be sent."""
        encoding = context.provider.tokenizer.encoding_name
        system_tokens = (
            count_message_tokens(SystemMessage(context.system_prompt), encoding) + REPLY_PRIMING_TOKENS
        )
        if params["max_tokens"] <= system_tokens:
            raise InputError(
                Message(
                    "strategy.error.no_room",
                    param="hybrid.max_tokens",
                    value=params["max_tokens"],
                    reserved=system_tokens,
                )
            )

    def __init__(
        self, context: StrategyContext | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(context, params)
        self.encoding = self.context.provider.tokenizer.encoding_name
        self._name_collection(collection_name)
        self.summary_model = self.make_model(SUMMARIZE)
        self.summary_chain = summary_prompt() | self.summary_model | StrOutputParser()
        self._vectorstore: Any = None
        self._window: list[PastTurn] = []
        self._summary = ""
        self._unsummarized: list[PastTurn] = []
        self._indexed_ids: list[str] = []
        self._turn_count = 0
        self._last_prompt: AssembledPrompt | None = None
        self._all_hits: list[Hit] = []
        if self.on_server:
            self._load_state(self._store())

    # -- the vector store -------------------------------------------------------------------
    def _store(self) -> Any:
        """The conversation's Chroma collection: in-process, created empty on first use; on a server,
        opened at construction with whatever an earlier object of this conversation left there.
        """
        if self._vectorstore is None:
            client = self._connect()
            # In-process, a collection left by an earlier object of this conversation would not match
            # this memory (its window and summary died with that object).
            if not self.on_server and self.collection in {c.name for c in client.list_collections()}:
                client.delete_collection(self.collection)
            self._vectorstore = self._open_vectorstore(client)
        return self._vectorstore

    def _load_state(self, vectorstore: Any) -> None:
        """Restore the window, summary and counters saved by ``_save_state`` (server collections only)."""
        raw = (vectorstore._collection.metadata or {}).get(STATE_KEY)
        if not raw:
            return
        try:
            state = json.loads(raw)
            if state.get("version") != STATE_VERSION:
                raise ValueError(f"state version {state.get('version')!r}")
            self._turn_count = int(state["turn_count"])
            self._summary = str(state["summary"])
            self._window = [turn_from_json(row) for row in state["window"]]
            self._unsummarized = [turn_from_json(row) for row in state["unsummarized"]]
            self._indexed_ids = [str(doc_id) for doc_id in state["indexed_ids"]]
        except (ValueError, KeyError, TypeError) as exc:
            raise StorageError(
                f"The Chroma collection {self.collection} holds an unreadable hybrid state ({exc}); "
                "discard the conversation to start fresh."
            ) from None

    def _save_state(self) -> None:
        """On a server, keep the window, summary and counters in the collection's metadata."""
        if not self.on_server:
            return
        state = {
            "version": STATE_VERSION,
            "turn_count": self._turn_count,
            "summary": self._summary,
            "window": [turn_to_json(turn) for turn in self._window],
            "unsummarized": [turn_to_json(turn) for turn in self._unsummarized],
            "indexed_ids": self._indexed_ids,
        }
        # modify() replaces the metadata; the cosine space lives in the collection's configuration.
        self._store()._collection.modify(metadata={STATE_KEY: json.dumps(state, ensure_ascii=False)})

    def _recall(self, query: str) -> list[Hit]:
        """The most similar old turns by cosine similarity (only turns that left the window are indexed)."""
        if not self._indexed_ids:
            return []
        found = scored_search(self._store(), query, min(RETRIEVE_K, len(self._indexed_ids)))
        return [
            Hit(int(doc.metadata.get("turn", 0)), doc.page_content, similarity) for doc, similarity in found
        ]

    # -- the prompt -------------------------------------------------------------------------
    def _tokens(self, messages: list[BaseMessage]) -> int:
        return sum(count_message_tokens(m, self.encoding) for m in messages) + REPLY_PRIMING_TOKENS

    def assemble(self, user_text: str, hits: list[Hit]) -> AssembledPrompt:
        """The reply prompt within ``max_tokens``; raises ``TokenBudgetError`` if even the minimum is over."""
        return assemble_prompt(
            system_prompt=self.system_prompt,
            summary=self._summary,
            window=self._window,
            hits=hits,
            user_text=user_text,
            budget=self.params["max_tokens"],
            history_first=self.params["order"] == "history_first",
            count_tokens=self._tokens,
            language=self.context.language,
        )

    # -- the turn ---------------------------------------------------------------------------
    def _respond(self, user_text: str) -> str:
        hits = self._recall(user_text)
        prompt = self.assemble(user_text, hits)
        if prompt.dropped:
            parts = ", ".join(f"{count} {name}" for name, count in prompt.dropped.items())
            self.note(
                Message(
                    "strategy.note.budget_dropped",
                    budget=self.params["max_tokens"],
                    order=self.params["order"],
                    parts=parts,
                )
            )
        reply = self.reply_model.invoke(prompt.messages).text
        self._all_hits = hits
        self._last_prompt = prompt
        self._remember(user_text, reply)
        self._save_state()
        return reply

    def _remember(self, user_text: str, reply: str) -> None:
        """Append the turn; turns leaving the window are indexed, then folded into the summary."""
        self._turn_count += 1
        self._window.append(PastTurn(self._turn_count, HumanMessage(user_text), AIMessage(reply)))
        fallen = []
        while len(self._window) > self.params["window_k"]:
            fallen.append(self._window.pop(0))
        if not fallen:
            return
        ids = [f"turn-{turn.number}" for turn in fallen]
        self._store().add_texts(
            [turn.text for turn in fallen], metadatas=[{"turn": turn.number} for turn in fallen], ids=ids
        )
        self._indexed_ids.extend(ids)
        self._unsummarized.extend(fallen)
        try:
            new_lines = "\n".join(turn.text for turn in self._unsummarized)
            self._summary = self.summary_chain.invoke(
                {"summary": self._summary, "new_lines": new_lines}
            ).strip()
            self._unsummarized = []
        except Exception as exc:  # degrade: the reply is good and the turns stay retrievable
            self.note(Message("strategy.note.summary_update_skipped", error=f"{type(exc).__name__}: {exc}"))

    # -- Strategy hooks ---------------------------------------------------------------------
    def _rollback_point(self) -> HybridRollbackPoint:
        return HybridRollbackPoint(
            list(self._window),
            self._summary,
            list(self._unsummarized),
            list(self._indexed_ids),
            self._turn_count,
            self._last_prompt,
            list(self._all_hits),
        )

    def _rollback(self, point: HybridRollbackPoint) -> None:
        kept = set(point.indexed_ids)
        added = [doc_id for doc_id in self._indexed_ids if doc_id not in kept]
        if added:
            self._store().delete(ids=added)
        self._window = point.window
        self._summary = point.summary
        self._unsummarized = point.unsummarized
        self._indexed_ids = point.indexed_ids
        self._turn_count = point.turn_count
        self._last_prompt = point.last_prompt
        self._all_hits = point.all_hits
        self._save_state()

    def section_tokens(self) -> list[dict[str, Any]]:
        """Each section of the last reply prompt with its tiktoken count and share of the total."""
        if self._last_prompt is None:
            return []
        rows = [
            {
                "section": name,
                "messages": len(self._last_prompt.sections[name]),
                "tokens": sum(
                    count_message_tokens(m, self.encoding) for m in self._last_prompt.sections[name]
                ),
            }
            for name in SECTIONS
        ]
        rows.append({"section": "reply priming", "messages": 0, "tokens": REPLY_PRIMING_TOKENS})
        total = sum(row["tokens"] for row in rows)
        for row in rows:
            row["share"] = round(row["tokens"] / total, 4) if total else 0.0
        return rows

    def snapshot(self) -> dict[str, Any]:
        in_prompt = {hit.turn for hit in self._last_prompt.hits} if self._last_prompt else set()
        sections = self.section_tokens()
        return {
            "window_k": self.params["window_k"],
            "max_tokens": self.params["max_tokens"],
            "order": self.params["order"],
            "order_in_force": Message(f"strategy.hybrid.order.{self.params['order']}"),
            "prompt_tokens": sum(row["tokens"] for row in sections),
            "sections": sections,
            "dropped": dict(self._last_prompt.dropped) if self._last_prompt else {},
            "summary": self._summary,
            "unsummarized_turns": [turn.number for turn in self._unsummarized],
            "hits": [
                {"turn": hit.turn, "text": hit.text, "score": hit.score, "in_prompt": hit.turn in in_prompt}
                for hit in self._all_hits
            ],
            "window": messages_as_json([m for turn in self._window for m in turn.messages]),
            "collection": self.collection,
            "embedding_model": self.embedding_model(),
            "chroma_server": redact_url(self.context.storage.chroma_url) if self.on_server else None,
            "indexed_turns": len(self._indexed_ids),
        }

    def clear(self) -> None:
        if self._vectorstore is not None:
            self._vectorstore.reset_collection()
        self._window = []
        self._summary = ""
        self._unsummarized = []
        self._indexed_ids = []
        self._turn_count = 0
        self._last_prompt = None
        self._all_hits = []


STRATEGY = HybridStrategy
