"""The eight classic strategies on the offline teaching model: real LangChain memories, what they send,
what they cost, what they remember, and how they behave when a call fails.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.embeddings import Embeddings
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.providers.tokenizer import count_messages_tokens, encode, message_text
from memory_demos.replay import replay_strategy
from memory_demos.scenarios import load_scenario
from memory_demos.strategies.base import InputError, Strategy, StrategyContext
from memory_demos.strategies.registry import build_strategy, get_info, ids_of_kind
from memory_demos.strategies.shared.classic import import_classic_memory
from memory_demos.tracing import EXTRACT_ENTITIES, SUMMARIZE, SUMMARIZE_ENTITY
from memory_demos.turn import Turn
from tests.helpers import WordEmbeddings, closed_after_test, send_ok

CLASSIC_IDS = ids_of_kind("classic")  # the kind each module declares in its INFO

ENCODING = "o200k_base"
NAME_TURN = "Hi, my name is Mara and I live in Lisbon."
SMALL_TALK = (
    "Can you recommend a good book about gardening?",
    "What makes a good cup of tea?",
    "Trains are a pleasant way to travel long distances.",
)


EMBEDDING_DIMENSIONS = 64


class BrokenEmbeddings(WordEmbeddings):
    """Test-only: queries work, storing documents fails (to exercise the vector strategy's degrade path)."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        raise RuntimeError("embedding service down")


class PromptSpy(BaseCallbackHandler):
    """Our own record of every chat-model call a model makes, independent of Memory Lab's CallCapture."""

    run_inline = True

    def __init__(self) -> None:
        self.prompts: list[list[BaseMessage]] = []

    def on_chat_model_start(
        self, serialized: dict[str, Any], messages: list[list[BaseMessage]], *, run_id: UUID, **kwargs: Any
    ) -> None:
        self.prompts.append(list(messages[0]))


def make(
    strategy_id: str,
    params: dict[str, Any] | None = None,
    *,
    provider: ProviderConfig | None = None,
    embeddings: Embeddings | None = None,
    conversation_id: str | None = None,
) -> Strategy:
    context = StrategyContext(
        provider=provider or ProviderConfig(), embeddings=embeddings or WordEmbeddings(EMBEDDING_DIMENSIONS)
    )
    if conversation_id is not None:
        context.conversation_id = conversation_id
    return build_strategy(strategy_id, context, params)


@pytest.fixture
def built() -> Iterator[list[Strategy]]:
    """Strategies registered here are closed after the test (collections deleted, files released)."""
    yield from closed_after_test()


def as_messages(rows: list[dict[str, str]]) -> list[BaseMessage]:
    """State rows back into messages, to count their tokens independently."""
    return [
        HumanMessage(row["content"]) if row["role"] == "human" else AIMessage(row["content"]) for row in rows
    ]


def purposes(turn: Turn) -> list[str]:
    return [call.purpose for call in turn.memory_calls]


def stored_rows(strategy: Strategy) -> list[tuple[str, str]]:
    return [(m.type, str(m.content)) for m in strategy.stored_messages()]


# -- the real LangChain classes --------------------------------------------------------------------


def test_every_classic_strategy_is_registered_with_its_langchain_classes() -> None:
    for strategy_id in CLASSIC_IDS:
        info = get_info(strategy_id)
        assert info.id == strategy_id
        assert info.kind == "classic"
        assert info.title and info.summary
        for dotted in info.langchain_classes:
            module_name, _, class_name = dotted.rpartition(".")
            module = importlib.import_module(module_name)
            assert isinstance(getattr(module, class_name), type), dotted


def test_memories_are_the_real_langchain_classic_classes(built: list[Strategy]) -> None:
    classic = import_classic_memory()
    from langchain_chroma import Chroma

    expected = {
        "buffer": classic.ConversationBufferMemory,
        "window": classic.ConversationBufferWindowMemory,
        "token_buffer": classic.ConversationTokenBufferMemory,
        "summary": classic.ConversationSummaryMemory,
        "summary_buffer": classic.ConversationSummaryBufferMemory,
        "entity": classic.ConversationEntityMemory,
        "vector": classic.VectorStoreRetrieverMemory,
        "combined": classic.CombinedMemory,
    }
    assert set(expected) == set(CLASSIC_IDS)
    for strategy_id, cls in expected.items():
        strategy = make(strategy_id)
        built.append(strategy)
        assert isinstance(strategy.memory, cls), strategy_id

    entity = make("entity")
    sqlite_entity = make("entity", {"store": "sqlite"})
    built.extend([entity, sqlite_entity])
    assert isinstance(entity.memory.entity_store, classic.InMemoryEntityStore)
    assert isinstance(sqlite_entity.memory.entity_store, classic.SQLiteEntityStore)

    combined = built[CLASSIC_IDS.index("combined")]
    window_part, entity_part = combined.memory.memories
    assert isinstance(window_part, classic.ConversationBufferWindowMemory)
    assert isinstance(entity_part, classic.ConversationEntityMemory)
    assert isinstance(entity_part.entity_store, classic.InMemoryEntityStore)
    assert window_part.memory_key != entity_part.chat_history_key

    vector = built[CLASSIC_IDS.index("vector")]
    assert isinstance(vector.memory.retriever.vectorstore, Chroma)
    assert vector.memory.retriever.search_kwargs == {"k": 3}


def test_each_strategy_has_its_own_entity_store_and_cache(built: list[Strategy]) -> None:
    # Pydantic class defaults ({} and []) must not be shared between instances.
    first, second = make("entity"), make("entity")
    built.extend([first, second])
    send_ok(first, NAME_TURN)
    assert first.snapshot()["entities"]
    assert second.snapshot()["entities"] == []
    assert second.memory.entity_cache == []


# -- what reaches the model, and what it costs -----------------------------------------------------


@pytest.mark.parametrize("strategy_id", CLASSIC_IDS)
def test_captured_prompt_is_what_the_model_received(strategy_id: str, built: list[Strategy]) -> None:
    strategy = make(strategy_id, {"max_token_limit": 60} if strategy_id == "summary_buffer" else None)
    built.append(strategy)
    spy = PromptSpy()
    strategy.reply_model.callbacks.append(spy)
    for index, text in enumerate((NAME_TURN, *SMALL_TALK, "What's my name?")):
        turn = send_ok(strategy, text)
        assert len(spy.prompts) == index + 1
        received = spy.prompts[-1]
        assert [(m.role, m.content) for m in turn.injected_prompt] == [
            (m.type, message_text(m)) for m in received
        ]
        assert received[-1].type == "human" and received[-1].content == text
        assert turn.prompt_tokens == count_messages_tokens(received, ENCODING)
        assert turn.completion_tokens == len(encode(turn.reply, ENCODING))
        assert turn.prompt_tokens == sum(m.tokens for m in turn.injected_prompt) + 3


def test_memory_text_lands_in_the_system_message(built: list[Strategy]) -> None:
    summary, summary_buffer, entity, vector = (
        make("summary"),
        make("summary_buffer", {"max_token_limit": 40}),
        make("entity"),
        make("vector"),
    )
    built.extend([summary, summary_buffer, entity, vector])
    for strategy in built:
        send_ok(strategy, NAME_TURN)
        send_ok(strategy, SMALL_TALK[0])
    turns = {s.info.id: send_ok(s, "It's Mara again. Where do I live?") for s in built}
    for strategy_id, turn in turns.items():
        system = [m for m in turn.injected_prompt if m.role == "system"]
        assert len(system) == 1, strategy_id
        assert turn.injected_prompt[0].role == "system"
    assert "Summary of the earlier conversation:" in turns["summary"].injected_prompt[0].content
    assert summary.snapshot()["summary"].strip() in turns["summary"].injected_prompt[0].content
    assert "Summary of the earlier conversation:" in turns["summary_buffer"].injected_prompt[0].content
    entity_system = turns["entity"].injected_prompt[0].content
    note = {row["entity"]: row["summary"] for row in entity.snapshot()["entities"]}["Mara"]
    assert f"Mara: {note}" in entity_system.splitlines()
    assert "Possibly relevant earlier lines" in turns["vector"].injected_prompt[0].content
    assert "Mara" in turns["vector"].injected_prompt[0].content


@pytest.mark.parametrize("strategy_id", ["buffer", "window", "token_buffer"])
def test_plain_buffers_make_no_memory_calls(strategy_id: str, built: list[Strategy]) -> None:
    strategy = make(strategy_id, {"max_token_limit": 50} if strategy_id == "token_buffer" else None)
    built.append(strategy)
    for text in (NAME_TURN, *SMALL_TALK):
        turn = send_ok(strategy, text)
        assert turn.memory_calls == []
        assert turn.model_calls == 1


def test_summary_makes_one_summary_call_per_turn(built: list[Strategy]) -> None:
    strategy = make("summary")
    built.append(strategy)
    for text in (NAME_TURN, *SMALL_TALK):
        turn = send_ok(strategy, text)
        assert purposes(turn) == [SUMMARIZE]
        # The summary call saw this very turn, and its output became the new summary.
        assert text in turn.memory_calls[0].messages[-1].content
        assert turn.state["summary"] == turn.memory_calls[0].output


@pytest.mark.parametrize("strategy_id", ["entity", "combined"])
def test_entity_memories_extract_each_turn_and_summarise_each_entity(
    strategy_id: str, built: list[Strategy]
) -> None:
    strategy = make(strategy_id)
    built.append(strategy)
    seen_entities = 0
    for text in (NAME_TURN, "My order number is A-1234.", *SMALL_TALK):
        turn = send_ok(strategy, text)
        extraction = [c for c in turn.memory_calls if c.purpose == EXTRACT_ENTITIES]
        assert len(extraction) == 1
        output = extraction[0].output.strip()
        extracted = [] if output == "NONE" else [name.strip() for name in output.split(",")]
        assert purposes(turn).count(SUMMARIZE_ENTITY) == len(extracted)
        assert len(turn.memory_calls) == 1 + len(extracted)
        assert turn.state["extracted_this_turn"] == extracted
        seen_entities += len(extracted)
    assert seen_entities >= 2  # Mara, Lisbon, A-1234...: the loop above did exercise summarisation


def test_summary_buffer_summarises_only_once_its_budget_is_passed(built: list[Strategy]) -> None:
    limit = 80
    strategy = make("summary_buffer", {"max_token_limit": limit})
    built.append(strategy)
    kept: list[BaseMessage] = []
    passed = []
    for text in (NAME_TURN, *SMALL_TALK, "My order number is A-1234.", "What's my name?"):
        turn = send_ok(strategy, text)
        before_pruning = [*kept, HumanMessage(text), AIMessage(turn.reply)]
        over = count_messages_tokens(before_pruning, ENCODING) > limit
        passed.append(over)
        if over:
            assert len(turn.memory_calls) >= 1 and set(purposes(turn)) == {SUMMARIZE}
            assert turn.state["summary"]
        else:
            assert turn.memory_calls == []
        kept = as_messages(turn.state["messages"])
        assert count_messages_tokens(kept, ENCODING) <= limit
        assert turn.state["kept_tokens"] == count_messages_tokens(kept, ENCODING)
    assert passed[0] is False and any(passed)
    assert "Mara" in turn.reply


# -- what they remember (replays on the offline model) ---------------------------------------------


NAME_RECALL_TURN = 13  # index of "What's my name?" in name_recall


def test_name_recall_scenario_shape() -> None:
    scenario = load_scenario("name_recall")
    assert scenario.turns[0].user == NAME_TURN
    assert scenario.turns[NAME_RECALL_TURN].user == "What's my name?"
    assert "Mara" in scenario.turns[NAME_RECALL_TURN].expect


def test_buffer_recalls_the_name_after_thirteen_turns() -> None:
    run = replay_strategy(load_scenario("name_recall"), "buffer", ProviderConfig())
    assert "Mara" in run.turns[NAME_RECALL_TURN].reply
    assert run.recall_passed == run.recall_asked == 3


def test_window_of_two_forgets_the_name() -> None:
    run = replay_strategy(load_scenario("name_recall"), "window", ProviderConfig(), {"k": 2})
    turn = run.turns[NAME_RECALL_TURN]
    assert "Mara" not in turn.reply
    assert len(turn.injected_prompt) == 1 + 2 * 2 + 1
    assert not any("Mara" in m.content for m in turn.injected_prompt)
    assert turn.state["stored_messages"] == 2 * NAME_RECALL_TURN + 2  # stored, just never sent
    assert [row["in_window"] for row in turn.state["messages"]].count(True) == 2 * 2
    assert turn.state["messages"][-1] == {"role": "ai", "content": turn.reply, "in_window": True}


def test_window_with_k_zero_sends_no_history(built: list[Strategy]) -> None:
    strategy = make("window", {"k": 0})
    built.append(strategy)
    send_ok(strategy, NAME_TURN)
    turn = send_ok(strategy, "What's my name?")
    assert [m.role for m in turn.injected_prompt] == ["system", "human"]
    assert "Mara" not in turn.reply


def test_summary_keeps_the_name() -> None:
    run = replay_strategy(load_scenario("name_recall"), "summary", ProviderConfig())
    turn = run.turns[NAME_RECALL_TURN]
    assert "Mara" in turn.reply
    assert [m.role for m in turn.injected_prompt] == ["system", "human"]
    assert "Mara" in turn.injected_prompt[0].content


def test_token_buffer_forgets_once_its_budget_is_passed() -> None:
    limit = 120
    run = replay_strategy(
        load_scenario("name_recall"), "token_buffer", ProviderConfig(), {"max_token_limit": limit}
    )
    holds_name = []
    for turn in run.turns:
        kept = as_messages(turn.state["messages"])
        assert count_messages_tokens(kept, ENCODING) <= limit
        assert turn.state["stored_tokens"] == count_messages_tokens(kept, ENCODING)
        holds_name.append(any("Mara" in row["content"] for row in turn.state["messages"]))
    assert holds_name[0] is True
    dropped_at = holds_name.index(False)
    assert not any(holds_name[dropped_at:NAME_RECALL_TURN])
    assert "Mara" not in run.turns[NAME_RECALL_TURN].reply
    # With a budget that holds the whole conversation, the same class remembers.
    roomy = replay_strategy(
        load_scenario("name_recall"), "token_buffer", ProviderConfig(), {"max_token_limit": 5000}
    )
    assert "Mara" in roomy.turns[NAME_RECALL_TURN].reply


def test_vector_memory_retrieves_the_turn_that_stated_the_name() -> None:
    # Real offline MiniLM embeddings (the default of StrategyContext).
    run = replay_strategy(load_scenario("name_recall"), "vector", ProviderConfig())
    turn = run.turns[NAME_RECALL_TURN]
    hits = turn.state["hits"]
    assert turn.state["query"] == "What's my name?"
    assert len(hits) == 3
    assert any("Mara" in hit["text"] and NAME_TURN in hit["text"] for hit in hits)
    assert all(-1.0 <= hit["similarity"] <= 1.0 for hit in hits)
    assert [hit["similarity"] for hit in hits] == sorted((hit["similarity"] for hit in hits), reverse=True)
    assert "Mara" in turn.reply
    for hit in hits:  # what was retrieved is what was sent
        assert hit["text"] in turn.injected_prompt[0].content


def test_entity_memory_recalls_by_name_not_by_pronoun(built: list[Strategy]) -> None:
    scenario = load_scenario("name_recall")
    strategy = make("entity")
    built.append(strategy)
    for scripted in scenario.turns[:NAME_RECALL_TURN]:
        send_ok(strategy, scripted.user)
    notes = {row["entity"]: row["summary"] for row in strategy.snapshot()["entities"]}
    assert "Mara" in notes["Mara"] and "Lisbon" in notes["Mara"]

    # The class only loads notes for entities named in the new message or the last k exchanges.
    asked = send_ok(strategy, "What's my name?")
    assert asked.state["extracted_this_turn"] == []
    assert [row["in_window"] for row in asked.state["messages"]].count(True) == 2 * 3  # k=3 exchanges
    assert "Mara" not in asked.injected_prompt[0].content

    named = send_ok(strategy, "It's Mara again. Where do I live?")
    assert named.state["extracted_this_turn"] == ["Mara"]
    assert f"Mara: {notes['Mara']}" in named.injected_prompt[0].content
    assert not any("Lisbon" in m.content for m in named.injected_prompt[1:])
    assert "Lisbon" in named.reply


def test_combined_recalls_by_name_too(built: list[Strategy]) -> None:
    strategy = make("combined")
    built.append(strategy)
    for text in (NAME_TURN, *SMALL_TALK):
        send_ok(strategy, text)
    turn = send_ok(strategy, "It's Mara again. Where do I live?")
    assert "Lisbon" in turn.reply
    assert len(turn.injected_prompt) == 1 + 2 * 2 + 1  # system, k=2 exchanges, the question
    assert [row["in_window"] for row in turn.state["messages"]].count(True) == 4
    assert len(turn.state["messages"]) == 2 * (2 + len(SMALL_TALK))


@pytest.mark.parametrize("strategy_id", CLASSIC_IDS)
def test_clear_forgets(strategy_id: str, built: list[Strategy]) -> None:
    strategy = make(strategy_id)
    built.append(strategy)
    send_ok(strategy, NAME_TURN)
    strategy.clear()
    assert "Mara" not in str(strategy.snapshot())
    assert "Mara" not in send_ok(strategy, "What's my name?").reply


# -- faults -----------------------------------------------------------------------------------------


FAULT_SCRIPT = (NAME_TURN, "My order number is A-1234.", "What's my name?", "Where do I live?")


@pytest.mark.parametrize("strategy_id", CLASSIC_IDS)
def test_a_failed_reply_call_leaves_memory_unchanged(strategy_id: str, built: list[Strategy]) -> None:
    params = {"max_token_limit": 60} if strategy_id in {"token_buffer", "summary_buffer"} else None
    # A dry run numbers the calls: the third turn's reply call follows its pre-reply memory calls.
    dry = make(strategy_id, params)
    built.append(dry)
    dry_turns = [send_ok(dry, text) for text in FAULT_SCRIPT[:3]]
    before_third = sum(turn.model_calls for turn in dry_turns[:2])
    loads_before_reply = purposes(dry_turns[2]).count(EXTRACT_ENTITIES)
    reply_call_number = before_third + loads_before_reply + 1

    strategy = make(strategy_id, params, provider=ProviderConfig(fail_on_calls=(reply_call_number,)))
    built.append(strategy)
    for text in FAULT_SCRIPT[:2]:
        send_ok(strategy, text)
    before = strategy.snapshot()
    failed = strategy.send(FAULT_SCRIPT[2])
    assert failed.error is not None and "fail" in failed.error
    assert failed.reply == ""
    assert strategy.snapshot() == before
    assert failed.state == before
    # The next turn works normally on the restored memory.
    assert send_ok(strategy, FAULT_SCRIPT[3]).reply


def assert_raw_turn_kept(strategy: Strategy, before: list[tuple[str, str]], turn: Turn) -> None:
    assert turn.error is None
    assert turn.reply
    assert any("skipped" in note for note in turn.notes), turn.notes
    assert stored_rows(strategy) == [*before, ("human", turn.user_text), ("ai", turn.reply)]


def test_failing_summary_call_degrades(built: list[Strategy]) -> None:
    healthy = make("summary")
    strategy = make("summary", provider=ProviderConfig(fail_purposes=(SUMMARIZE,)))
    built.extend([healthy, strategy])
    turn = strategy.send(NAME_TURN)
    assert_raw_turn_kept(strategy, [], turn)
    assert turn.state["summary"] == ""
    assert [call.error is not None for call in turn.memory_calls] == [True]
    assert turn.reply == send_ok(healthy, NAME_TURN).reply


def test_failing_summary_buffer_prune_loses_no_turns(built: list[Strategy]) -> None:
    # prune() pops messages before asking for the summary: without the rollback they would be lost.
    strategy = make(
        "summary_buffer", {"max_token_limit": 60}, provider=ProviderConfig(fail_purposes=(SUMMARIZE,))
    )
    built.append(strategy)
    for text in (NAME_TURN, *SMALL_TALK):
        before = stored_rows(strategy)
        turn = strategy.send(text)
        if turn.memory_calls:
            assert_raw_turn_kept(strategy, before, turn)
        else:
            assert not turn.notes
    rows = stored_rows(strategy)
    assert len(rows) == 2 * (1 + len(SMALL_TALK))
    assert rows[0] == ("human", NAME_TURN)
    assert strategy.snapshot()["summary"] == ""
    assert any(turn.memory_calls for turn in strategy.turns)  # the failing prune did happen


@pytest.mark.parametrize("strategy_id", ["entity", "combined"])
def test_failing_entity_summary_degrades_and_restores_the_store(
    strategy_id: str, built: list[Strategy]
) -> None:
    strategy = make(strategy_id, provider=ProviderConfig(fail_purposes=(SUMMARIZE_ENTITY,)))
    built.append(strategy)
    before = stored_rows(strategy)
    turn = strategy.send(NAME_TURN)
    assert_raw_turn_kept(strategy, before, turn)
    assert turn.state["entities"] == []  # nothing half-written
    assert purposes(turn)[0] == EXTRACT_ENTITIES
    if strategy_id == "combined":
        entity_rows = [(m.type, m.content) for m in strategy.entity_memory().chat_memory.messages]
        assert entity_rows == [("human", NAME_TURN), ("ai", turn.reply)]


@pytest.mark.parametrize("strategy_id", ["entity", "combined"])
def test_failing_entity_extraction_degrades(strategy_id: str, built: list[Strategy]) -> None:
    strategy = make(strategy_id, provider=ProviderConfig(fail_purposes=(EXTRACT_ENTITIES,)))
    built.append(strategy)
    turn = strategy.send(NAME_TURN)
    assert_raw_turn_kept(strategy, [], turn)
    assert "Entity extraction skipped" in turn.notes[0]
    assert purposes(turn) == [EXTRACT_ENTITIES]  # the failed call, and no summaries after it
    second = strategy.send("What's my name?")
    assert second.error is None
    assert "Mara" in second.reply  # the kept raw turn is still sent as recent history


def test_failing_vector_store_write_degrades(built: list[Strategy]) -> None:
    strategy = make("vector", embeddings=BrokenEmbeddings(EMBEDDING_DIMENSIONS))
    built.append(strategy)
    turn = strategy.send(NAME_TURN)
    assert turn.error is None and turn.reply
    assert any("skipped" in note for note in turn.notes)
    assert turn.state["stored_documents"] == []


def test_token_buffer_survives_langchain_11734(built: list[Strategy]) -> None:
    classic = import_classic_memory()
    strategy = make("token_buffer", {"max_token_limit": 1})
    built.append(strategy)
    # The trap itself: an empty history still counts 3 tokens (reply priming), more than the limit.
    bare = classic.ConversationTokenBufferMemory(llm=strategy.memory.llm, max_token_limit=1)
    with pytest.raises(IndexError):
        bare.save_context({"input": "hi"}, {"output": "hello"})

    for text in (NAME_TURN, "What's my name?"):
        turn = strategy.send(text)
        assert turn.error is None and turn.reply
        assert any("11734" in note for note in turn.notes)
        assert turn.state["messages"] == []
    assert [m.role for m in turn.injected_prompt] == ["system", "human"]


def test_token_buffer_turn_larger_than_the_budget_keeps_nothing(built: list[Strategy]) -> None:
    strategy = make("token_buffer", {"max_token_limit": 20})
    built.append(strategy)
    turn = send_ok(strategy, NAME_TURN + " " + " ".join(SMALL_TALK))
    assert turn.state["messages"] == []
    assert any("nothing was kept" in note for note in turn.notes)
    # The note is data (a catalogue key and its values): a view shows it in its reader's language.
    from memory_demos.i18n import translate

    turn = send_ok(strategy, NAME_TURN + " " + " ".join(SMALL_TALK))
    assert "仅这一轮对话就超过了 max_token_limit=20：什么都没有保留。" in [
        translate(n, "zh") for n in turn.notes
    ]


# -- threads and isolation ---------------------------------------------------------------------------


def test_sqlite_entity_store_works_from_other_threads(built: list[Strategy]) -> None:
    strategy = make("entity", {"store": "sqlite"})  # built on this thread, like a Streamlit session
    built.append(strategy)
    turns: list[Turn] = []

    def worker(text: str) -> None:
        turns.append(strategy.send(text))

    for text in (NAME_TURN, "My order number is A-1234.", "It's Mara again. Where do I live?"):
        thread = threading.Thread(target=worker, args=(text,))
        thread.start()
        thread.join(timeout=60)
    assert [turn.error for turn in turns] == [None, None, None]
    assert "Lisbon" in turns[-1].reply
    entities = {row["entity"] for row in strategy.snapshot()["entities"]}
    assert {"Mara", "Lisbon"} <= entities


@pytest.mark.parametrize(
    ("strategy_id", "params"),
    [("entity", {"store": "memory"}), ("entity", {"store": "sqlite"}), ("combined", None)],
)
def test_entity_notes_written_before_a_failing_summary_are_rolled_back(
    strategy_id: str, params: dict[str, Any] | None, built: list[Strategy]
) -> None:
    script = (NAME_TURN, "It's Mara again. My order number is A-1234.")
    dry = make(strategy_id, params)
    built.append(dry)
    first, second = (send_ok(dry, text) for text in script)
    assert purposes(second).count(SUMMARIZE_ENTITY) >= 2
    # Turn 2 calls: extraction, reply, then one summary per entity; make the second summary fail.
    fail_at = first.model_calls + 2 + 2
    strategy = make(strategy_id, params, provider=ProviderConfig(fail_on_calls=(fail_at,)))
    built.append(strategy)
    send_ok(strategy, script[0])
    before_entities = strategy.snapshot()["entities"]
    before_rows = stored_rows(strategy)
    turn = strategy.send(script[1])
    summaries = [call for call in turn.memory_calls if call.purpose == SUMMARIZE_ENTITY]
    assert [call.error is None for call in summaries] == [True, False]  # one note was really written
    assert_raw_turn_kept(strategy, before_rows, turn)
    assert turn.state["entities"] == before_entities
    assert second.state["entities"] != before_entities  # what the healthy run wrote instead
    if strategy_id == "combined":  # both sub-memories hold their own copy of the messages
        entity_rows = [(m.type, str(m.content)) for m in strategy.entity_memory().chat_memory.messages]
        assert entity_rows == stored_rows(strategy)


def test_two_conversations_do_not_share_sqlite_entities(built: list[Strategy]) -> None:
    first, second = make("entity", {"store": "sqlite"}), make("entity", {"store": "sqlite"})
    built.extend([first, second])
    assert first.context.folder() == second.context.folder()  # one file, one table per conversation
    send_ok(first, NAME_TURN)
    assert first.snapshot()["entities"]
    assert second.snapshot()["entities"] == []
    turn = send_ok(second, "It's Mara again. Where do I live?")
    assert "Lisbon" not in turn.reply
    assert "Lisbon" not in turn.injected_prompt[0].content


def test_entity_store_accepts_any_conversation_id(built: list[Strategy]) -> None:
    strategy = make("entity", {"store": "sqlite"}, conversation_id="a-uuid-with-hyphens")
    built.append(strategy)
    assert send_ok(strategy, NAME_TURN).state["entities"]


def test_two_conversations_never_see_each_others_vectors(built: list[Strategy]) -> None:
    from memory_demos.providers.embeddings import default_embeddings

    first = make("vector", embeddings=default_embeddings())
    second = make("vector", embeddings=default_embeddings())
    built.extend([first, second])
    send_ok(first, NAME_TURN)
    turn = send_ok(second, "What's my name?")
    assert turn.state["hits"] == []
    assert "Mara" not in turn.reply
    assert "Mara" not in turn.injected_prompt[0].content
    assert second.snapshot()["stored_documents"] == [f"input: What's my name?\noutput: {turn.reply}"]
    assert first.snapshot()["collection"] != second.snapshot()["collection"]


def test_vector_close_deletes_its_collection() -> None:
    import chromadb
    from chromadb.config import Settings

    strategy = make("vector")
    send_ok(strategy, NAME_TURN)
    name = strategy.snapshot()["collection"]
    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))
    assert name in [c.name for c in client.list_collections()]
    strategy.close()
    strategy.close()
    assert name not in [c.name for c in client.list_collections()]


# -- parameters ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("strategy_id", "params"),
    [
        ("window", {"k": -1}),
        ("token_buffer", {"max_token_limit": 0}),
        ("summary_buffer", {"max_token_limit": 0}),
        ("entity", {"k": 0}),
        ("entity", {"store": "mongodb"}),
        ("vector", {"k": 0}),
        ("combined", {"k": 0}),
        ("window", {"size": 3}),
    ],
)
def test_bad_parameters_raise_input_error(strategy_id: str, params: dict[str, Any]) -> None:
    with pytest.raises(InputError, match=strategy_id):
        build_strategy(strategy_id, StrategyContext(embeddings=WordEmbeddings(EMBEDDING_DIMENSIONS)), params)


def test_parameters_reach_the_langchain_objects(built: list[Strategy]) -> None:
    window = make("window", {"k": "5"})
    tokens = make("token_buffer", {"max_token_limit": 77})
    summary_buffer = make("summary_buffer", {"max_token_limit": 66})
    entity = make("entity", {"k": 4})
    vector = make("vector", {"k": 3})
    combined = make("combined", {"k": 1})
    built.extend([window, tokens, summary_buffer, entity, vector, combined])
    assert window.memory.k == 5
    assert tokens.memory.max_token_limit == 77
    assert summary_buffer.memory.max_token_limit == 66
    assert entity.memory.k == 4
    assert vector.memory.retriever.search_kwargs == {"k": 3}
    assert combined.memory.memories[0].k == 1 and combined.memory.memories[1].k == 1
