"""``trim``: ``trim_messages`` cuts the history to a token budget right before every model call.

The full history (tool calls and tool results included) stays in the agent's own list of messages;
only the trimmed list reaches the model. The agent loop (model → tools → model) is
``shared.trimming_agent``'s, shared with ``turn_trim``, which differs only in how it trims.

What ``trim_messages(strategy="last", start_on="human")`` does with tool messages (langchain-core
1.8): it keeps the longest suffix that fits, then drops messages from its front until a human
message. The kept list therefore never starts with an orphaned ``ToolMessage`` (that happens
without ``start_on``: langchain#33245). The failure it does have: in a tool round, when this turn's
question + tool call + tool result no longer fit, no human message is left in the suffix, so all
of it goes and the model sees the system prompt alone. The turn's note says so.
"""

from __future__ import annotations

from langchain_core.messages import BaseMessage, SystemMessage, trim_messages

from memory_demos.providers.tokenizer import REPLY_PRIMING_TOKENS
from memory_demos.strategies.base import ParamSpec, StrategyInfo, Threshold
from memory_demos.strategies.shared.trimming_agent import TrimmingAgentStrategy, TrimResult, agent_tool_tokens

INFO = StrategyInfo(
    id="trim",
    title="trim_messages (token budget)",
    kind="modern",
    langchain_classes=("langchain_core.messages.trim_messages",),
    summary=(
        "Keeps the full history but sends only the newest messages that fit a token budget "
        "(strategy='last', start_on='human'); older facts fall out of the prompt."
    ),
    title_zh="trim_messages（词元预算）",
    summary_zh="保留完整历史，但只发送能装进词元预算的最新消息；更早的事实会掉出提示词。",
    params=(
        ParamSpec(
            "max_tokens",
            300,
            "Token budget of the prompt sent to the model.",
            minimum=1,
            help_zh="发给模型的提示的词元预算。",
        ),
    ),
    thresholds=(Threshold("max_tokens", "budget"),),
)


class TrimStrategy(TrimmingAgentStrategy):
    """``trim_messages`` with the real tokenizer, keeping the system message and starting on a human turn."""

    info = INFO

    def trim(self, messages: list[BaseMessage]) -> TrimResult:
        # trim_messages counts the system message and the rest in separate calls; counting messages
        # without the reply priming, and reserving it once, makes the budget the prompt's real size.
        # The tool definitions go with every call: they take their share of the budget first.
        budget = self.max_tokens - REPLY_PRIMING_TOKENS - agent_tool_tokens(self.encoding_name)
        kept = trim_messages(
            self._candidates(messages, budget),
            max_tokens=budget,
            token_counter=self.count_message_tokens,
            strategy="last",
            include_system=True,
            start_on="human",
        )
        kept_ids = {id(message) for message in kept}
        return TrimResult(kept=list(kept), dropped=[m for m in messages if id(m) not in kept_ids])

    def _candidates(self, messages: list[BaseMessage], budget: int) -> list[BaseMessage]:
        """The system message and the newest messages up to one past what fits ``budget``.

        ``trim_messages(strategy="last")`` keeps the longest suffix that fits (then drops to a human
        message), so the older messages cannot change its answer; handing it only these keeps a long
        history from costing a turn more.
        """
        system = messages[:1] if messages and isinstance(messages[0], SystemMessage) else []
        total = self.count_message_tokens(system)
        start = len(messages)
        while start > len(system) and total <= budget:
            start -= 1
            total += self.message_tokens(messages[start])
        return system + messages[start:]


STRATEGY = TrimStrategy
