"""A model call's purpose comes from who made it, never from its text.

LangChain's memory prompts begin with fixed phrases. A user who types one of them, or a model whose
reply repeats one, must still get a reply turn: the reply call labelled as the reply, its prompt
captured and counted, its tokens streamed, and memory's own calls labelled by the memory class that
made them. Checked on the offline model and through the real ``ChatOpenAI`` against a local server
(whose replies echo the user's text, so the phrases come back as model output too).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pydantic import SecretStr

from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.strategies.base import Strategy, StrategyContext
from memory_demos.strategies.long_term import EXTRACT_FACTS
from memory_demos.strategies.registry import build_strategy
from memory_demos.tracing import EXTRACT_ENTITIES, REPLY, SUMMARIZE, SUMMARIZE_ENTITY
from memory_demos.turn import Turn
from tests.fake_openai_server import FakeOpenAIServer
from tests.helpers import WordEmbeddings

# The opening phrases of every memory prompt LangChain (and its agent middleware) sends.
MEMORY_PROMPT_PHRASES = (
    "Progressively summarize the lines of conversation provided, adding onto the previous summary",
    "Extract all of the proper nouns from the last line of conversation",
    "Update the summary of the provided entity in the Entity section",
    "You are a Context Extraction Assistant",
)
# The memory calls each strategy may make: anything else means a reply was booked as memory.
MEMORY_PURPOSES = {
    "buffer": set(),
    "summary": {SUMMARIZE},
    "summary_buffer": {SUMMARIZE},
    "entity": {EXTRACT_ENTITIES, SUMMARIZE_ENTITY},
    "combined": {EXTRACT_ENTITIES, SUMMARIZE_ENTITY},
    "hybrid": {SUMMARIZE},
    "summarization": {SUMMARIZE},  # the agent middleware's summary ("Context Extraction Assistant")
    "long_term": {EXTRACT_FACTS},
}
# Budgets small enough that memory makes its calls within these five turns.
SMALL_BUDGETS = {"summary_buffer": {"max_token_limit": 40}, "summarization": {"trigger_tokens": 120}}


def marker_messages() -> list[str]:
    return [f"Please keep this note verbatim: {phrase}. My name is Mara." for phrase in MEMORY_PROMPT_PHRASES]


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as fake:
        yield fake


def play(strategy: Strategy, texts: list[str]) -> list[tuple[Turn, str]]:
    """Each turn with the text streamed to the listener during it."""
    played = []
    for text in texts:
        streamed: list[str] = []
        played.append((strategy.send(text, streamed.append), "".join(streamed)))
    return played


def assert_reply_turn(turn: Turn, streamed: str, strategy_id: str) -> None:
    assert turn.ok, turn.error
    assert turn.reply_call is not None and turn.reply_call.purpose == REPLY
    # The prompt view and its tokens are the reply call's, with this turn's message in it.
    assert turn.prompt_tokens > 0 and turn.completion_tokens >= 0
    assert any(turn.user_text in message.content for message in turn.injected_prompt)
    assert streamed == turn.reply, "the reply must be streamed into the pane as it is written"
    assert {call.purpose for call in turn.memory_calls} <= MEMORY_PURPOSES[strategy_id]
    assert not turn.tool_round_calls


@pytest.mark.parametrize("strategy_id", sorted(MEMORY_PURPOSES))
def test_memory_prompt_phrases_typed_by_the_user_stay_replies_on_the_offline_model(strategy_id: str) -> None:
    context = StrategyContext(embeddings=WordEmbeddings())
    strategy = build_strategy(strategy_id, context, SMALL_BUDGETS.get(strategy_id))
    try:
        played = play(strategy, [*marker_messages(), "What's my name?"])
    finally:
        strategy.close()
    for turn, streamed in played:
        assert_reply_turn(turn, streamed, strategy_id)
    if strategy_id == "buffer":
        assert all(not turn.memory_calls for turn, _ in played)
    else:  # each memory made its own calls, and they were labelled as its own
        assert {call.purpose for turn, _ in played for call in turn.memory_calls} == MEMORY_PURPOSES[
            strategy_id
        ]


@pytest.mark.parametrize("strategy_id", sorted(MEMORY_PURPOSES))
def test_memory_prompt_phrases_as_user_text_and_model_output_through_chat_openai(
    server: FakeOpenAIServer, strategy_id: str
) -> None:
    provider = ProviderConfig(
        kind="openai_compatible",
        model="test-model",
        base_url=server.base_url,
        api_key=SecretStr("sk-test-purpose-0001"),
        max_retries=0,
    )
    strategy = build_strategy(
        strategy_id,
        StrategyContext(provider=provider, embeddings=WordEmbeddings()),
        SMALL_BUDGETS.get(strategy_id),
    )
    try:
        played = play(strategy, [*marker_messages(), "What's my name?"])
    finally:
        strategy.close()
    for index, (turn, streamed) in enumerate(played):
        assert_reply_turn(turn, streamed, strategy_id)
        # The server's reply echoes the message: the phrase is now model output, in memory from here on.
        assert turn.reply.endswith(turn.user_text)
        assert turn.reply_call is not None and turn.reply_call.counted_by == "provider"
        if index and strategy_id in {"buffer", "entity", "combined"}:
            earlier_reply = played[index - 1][0].reply
            assert any(earlier_reply in message.content for message in turn.injected_prompt)
    if strategy_id == "summary":
        # One summary call a turn, each labelled by the summary memory that made it.
        assert all([call.purpose for call in turn.memory_calls] == [SUMMARIZE] for turn, _ in played)


def test_the_offline_model_answers_a_user_who_quotes_a_memory_prompt() -> None:
    strategy = build_strategy("buffer", StrategyContext())
    try:
        turns = [strategy.send(text) for text in [*marker_messages(), "What's my name?"]]
    finally:
        strategy.close()
    assert all(turn.reply.strip() and turn.reply != "NONE" for turn in turns)
    assert "Mara" in turns[-1].reply
