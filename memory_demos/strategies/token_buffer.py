"""``token_buffer``: ConversationTokenBufferMemory drops the oldest messages once a token budget is passed."""

from __future__ import annotations

from typing import Any

from memory_demos.i18n import Message
from memory_demos.strategies.base import ParamSpec, StrategyInfo, Threshold
from memory_demos.strategies.shared.classic import ClassicStrategy, import_classic_memory, messages_as_json

INFO = StrategyInfo(
    id="token_buffer",
    title="Token buffer (last N tokens)",
    kind="classic",
    langchain_classes=("langchain_classic.memory.ConversationTokenBufferMemory",),
    summary="Keeps the newest messages that fit a token budget: cost is capped, old facts are dropped.",
    title_zh="词元缓冲（最近 N 个词元）",
    summary_zh="保留能装进词元预算的最新消息：成本有上限，旧事实被丢弃。",
    params=(
        ParamSpec(
            "max_token_limit",
            300,
            "Token budget of the stored history, counted by the model's own tokenizer.",
            minimum=1,
            help_zh="已存储历史的词元预算，用模型自己的分词器计数。",
        ),
    ),
    thresholds=(Threshold("max_token_limit", "budget", scope="history"),),
)


class TokenBufferStrategy(ClassicStrategy):
    """The class counts tokens with ``llm.get_num_tokens_from_messages`` and pops from the front."""

    info = INFO

    def _build_memory(self) -> Any:
        memory = import_classic_memory()
        # This model only counts tokens: it never generates, so it makes no calls.
        return memory.ConversationTokenBufferMemory(
            llm=self.make_model("count tokens"),
            memory_key=self.memory_key,
            max_token_limit=self.params["max_token_limit"],
            return_messages=True,
        )

    def _save(self, inputs: dict[str, Any], reply_text: str) -> None:
        before = self._rollback_point()
        try:
            self.memory.save_context(inputs, {"output": reply_text})
        except IndexError as exc:
            # langchain#11734: when even an empty history counts more tokens than the budget, the
            # class pops past the end of the list. Nothing fits, so an empty buffer is the right outcome.
            if self.stored_messages():
                self._degrade(before, inputs["input"], reply_text, f"IndexError: {exc}")
                return
            self.note(Message("strategy.note.nothing_fits", limit=self.params["max_token_limit"]))
        except Exception as exc:  # degrade, as ClassicStrategy._save does
            self._degrade(before, inputs["input"], reply_text, f"{type(exc).__name__}: {exc}")
        else:
            if not self.stored_messages():
                self.note(Message("strategy.note.exchange_over_limit", limit=self.params["max_token_limit"]))

    def _degrade(self, before: Any, user_text: str, reply_text: str, reason: str) -> None:
        self._rollback(before)
        self._keep_raw_turn(user_text, reply_text)
        self.note(Message("strategy.note.upkeep_skipped", reason=reason))

    def stored_tokens(self) -> int:
        """The history's size as the class measures it against ``max_token_limit``."""
        return self.memory.llm.get_num_tokens_from_messages(self.stored_messages())

    def snapshot(self) -> dict[str, Any]:
        return {
            "max_token_limit": self.params["max_token_limit"],
            "stored_tokens": self.stored_tokens(),
            "messages": messages_as_json(self.stored_messages()),
        }


STRATEGY = TokenBufferStrategy
