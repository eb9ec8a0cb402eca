"""The four graph-era strategies: langgraph (checkpointer), summarization (middleware), long_term (store), hybrid.

Every expected token number is computed with ``count_messages_tokens``; every prompt is checked against
what the model itself received, recorded by a spy on the offline model's own ``_generate``/``_stream``.
"""

from __future__ import annotations

import gc
import json
import math
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from langchain_core.embeddings import Embeddings
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from memory_demos.prompts import LONG_TERM_FACTS_HEADER, RETRIEVED_HEADER, SUMMARY_HEADER
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.providers.tokenizer import count_messages_tokens
from memory_demos.replay import replay
from memory_demos.scenarios import load_scenario
from memory_demos.storage import StorageError
from memory_demos.strategies.base import InputError, Strategy, StrategyContext
from memory_demos.strategies.registry import available_ids, build_strategy, get_info
from memory_demos.tracing import REPLY, SUMMARIZE
from memory_demos.turn import ModelCall, Turn
from tests.helpers import ModelSpy, WordEmbeddings, spy_on_offline_model

REPO = Path(__file__).resolve().parents[1]
ENCODING = ProviderConfig().tokenizer.encoding_name
NAME_MESSAGE = "Hi, my name is Mara and I live in Lisbon."
FILLERS = (
    "Can you recommend a good book about gardening?",
    "What do you think about spring weather in general?",
    "How long does it take to learn a new language?",
    "Tell me something about the history of bicycles.",
    "Do you like mountains or beaches better?",
    "Is it a good idea to drink coffee in the evening?",
    "What makes a good cup of tea?",
    "Any ideas for a rainy Sunday afternoon?",
)


# -- helpers ---------------------------------------------------------------------------------
@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> ModelSpy:
    recorder = ModelSpy()
    spy_on_offline_model(monkeypatch, recorder.record)
    return recorder


def make(
    strategy_id: str,
    folder: Path,
    params: dict[str, Any] | None = None,
    *,
    conversation_id: str = "c" * 32,
    user_id: str = "local",
    provider: ProviderConfig | None = None,
    embeddings: Embeddings | None = None,
) -> Strategy:
    context = StrategyContext(
        provider=provider or ProviderConfig(),
        conversation_id=conversation_id,
        user_id=user_id,
        data_dir=folder,
        embeddings=embeddings if embeddings is not None else WordEmbeddings(),
    )
    return build_strategy(strategy_id, context, params)


def as_pairs(messages: Any) -> list[tuple[str, str]]:
    """Role and text of LangChain messages or captured ``PromptMessage`` rows."""
    return [(m.role if hasattr(m, "role") else m.type, str(m.content)) for m in messages]


def all_calls(turn: Turn) -> list[ModelCall]:
    return [*turn.memory_calls, *turn.tool_round_calls, *([turn.reply_call] if turn.reply_call else [])]


def contents(turn: Turn, *, roles: tuple[str, ...] = ("system", "human", "ai")) -> list[str]:
    return [m.content for m in turn.injected_prompt if m.role in roles]


def rows_to_messages(rows: list[dict[str, str]]) -> list[BaseMessage]:
    return [HumanMessage(r["content"]) if r["role"] == "human" else AIMessage(r["content"]) for r in rows]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "data"


SPY_PARAMS: dict[str, dict[str, Any]] = {
    "langgraph": {"checkpointer": "sqlite"},
    "summarization": {"trigger_tokens": 60, "keep_messages": 2},
    "long_term": {"store": "sqlite", "recent_messages": 2},
    "hybrid": {"window_k": 1, "max_tokens": 5000},
}
EXPECTED_MEMORY_PURPOSES = {
    "langgraph": set(),
    "summarization": {SUMMARIZE},
    "long_term": {"extract facts"},
    "hybrid": {SUMMARIZE},
}


# -- the registry ----------------------------------------------------------------------------
def test_listing_strategies_loads_no_langgraph_chroma_or_sql_backend() -> None:
    """The registry promises cheap listing: reading every ``INFO`` imports no heavy backend."""
    code = (
        "import json, sys\n"
        "from memory_demos.strategies.registry import all_infos\n"
        "ids = [info.id for info in all_infos()]\n"
        "heavy = ('langgraph', 'langchain.agents', 'chromadb', 'langchain_chroma', 'langchain_community', "
        "'sqlalchemy')\n"
        "print(json.dumps({'ids': ids, 'loaded': [name for name in heavy if name in sys.modules]}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120, check=True
    )
    listed = json.loads(result.stdout)
    assert listed["ids"] == list(available_ids())
    assert listed["loaded"] == []


def test_parameters_have_the_documented_names_and_ranges() -> None:
    assert get_info("langgraph").param("checkpointer").choices == ("memory", "sqlite", "postgres")
    assert get_info("summarization").resolve_params() == {"trigger_tokens": 400, "keep_messages": 4}
    assert get_info("long_term").param("store").choices == ("memory", "sqlite", "postgres")
    assert get_info("hybrid").resolve_params() == {
        "window_k": 3,
        "max_tokens": 600,
        "order": "history_first",
        "embeddings": "auto",
    }
    with pytest.raises(InputError, match=re.escape("summarization.trigger_tokens")):
        get_info("summarization").resolve_params({"trigger_tokens": 49})
    with pytest.raises(InputError, match=re.escape("summarization.keep_messages")):
        get_info("summarization").resolve_params({"keep_messages": 0})
    with pytest.raises(InputError, match=re.escape("hybrid.max_tokens")):
        get_info("hybrid").resolve_params({"max_tokens": 10})
    with pytest.raises(InputError, match=re.escape("long_term.store")):
        get_info("long_term").resolve_params({"store": "redis"})


def test_the_langgraph_module_does_not_shadow_the_langgraph_package(folder: Path) -> None:
    import langgraph.checkpoint.memory
    import langgraph.graph

    from memory_demos.strategies import langgraph as module

    assert module.__name__ == "memory_demos.strategies.langgraph"
    strategy = make("langgraph", folder)
    try:  # its lazy ``from langgraph... import`` lines reached the installed package
        assert isinstance(strategy.graph.builder, langgraph.graph.StateGraph)
        assert isinstance(strategy.checkpointer, langgraph.checkpoint.memory.InMemorySaver)
    finally:
        strategy.close()


# -- what the model received -----------------------------------------------------------------
@pytest.mark.parametrize("strategy_id", ["langgraph", "summarization", "long_term", "hybrid"])
def test_captured_prompts_are_what_the_model_received(strategy_id: str, folder: Path, spy: ModelSpy) -> None:
    strategy = make(strategy_id, folder, SPY_PARAMS[strategy_id])
    purposes_seen: set[str] = set()
    try:
        for text in (NAME_MESSAGE, *FILLERS[:4], "What's my name?"):
            spy.take()
            turn = strategy.send(text)
            received = spy.take()
            assert turn.ok, turn.error
            captured = all_calls(turn)
            # Same calls, message for message (a multiset: a summary may come before or after the reply).
            assert sorted(as_pairs(c.messages) for c in captured) == sorted(
                as_pairs(r.messages) for r in received
            )
            assert sorted(c.purpose for c in captured) == sorted(r.purpose for r in received)
            for call in captured:
                match = next(r for r in received if as_pairs(r.messages) == as_pairs(call.messages))
                assert call.prompt_tokens == count_messages_tokens(match.messages, ENCODING)
            reply_received = [r for r in received if r.purpose == REPLY][-1]
            assert as_pairs(turn.injected_prompt) == as_pairs(reply_received.messages)
            assert turn.prompt_tokens == count_messages_tokens(reply_received.messages, ENCODING)
            purposes_seen.update(c.purpose for c in turn.memory_calls)
        assert "Mara" in turn.reply
    finally:
        strategy.close()
    assert purposes_seen == EXPECTED_MEMORY_PURPOSES[strategy_id]


# -- recall fits the nature of each memory ---------------------------------------------------
def test_langgraph_sends_every_message_of_the_thread(folder: Path) -> None:
    strategy = make("langgraph", folder)
    texts = [NAME_MESSAGE, *FILLERS[:5], "What's my name?"]
    turns = [strategy.send(text) for text in texts]
    final = turns[-1]
    assert "Mara" in final.reply
    assert contents(final, roles=("human",)) == texts
    expected = [("system", strategy.system_prompt)]
    for turn in turns[:-1]:
        expected += [("human", turn.user_text), ("ai", turn.reply)]
    assert as_pairs(final.injected_prompt) == [*expected, ("human", texts[-1])]
    assert len(final.state["messages"]) == 2 * len(texts)
    strategy.close()


def test_summarization_answers_from_its_summary_after_the_trigger(folder: Path) -> None:
    strategy = make("summarization", folder)  # defaults: trigger 400 tokens, keep 4 messages
    trigger = strategy.params["trigger_tokens"]
    turns: list[Turn] = []
    for text in (NAME_MESSAGE, *FILLERS, *FILLERS):
        turns.append(strategy.send(text))
        if any(c.purpose == SUMMARIZE for c in turns[-1].memory_calls):
            break
    first = len(turns) - 1
    assert first > 0, "the middleware summarised before any history existed"
    assert any(c.purpose == SUMMARIZE for c in turns[first].memory_calls), "no summary in 16 turns"
    # The middleware counts the thread (with the new message) or trusts the last reported usage.
    for index in range(1, first + 1):
        before = [*rows_to_messages(turns[index - 1].state["messages"]), HumanMessage(turns[index].user_text)]
        reported = turns[index - 1].reply_call.prompt_tokens + turns[index - 1].reply_call.completion_tokens
        reached = max(count_messages_tokens(before, ENCODING), reported) >= trigger
        assert reached == (index == first), (
            f"turn {index + 1}: trigger state does not match the summary calls"
        )
    assert NAME_MESSAGE in [row["content"] for row in turns[first].state["replaced_last_turn"]]
    assert "Mara" in turns[first].state["summary"]

    final = strategy.send("What's my name?")
    assert "Mara" in final.reply
    prompt = contents(final)
    assert NAME_MESSAGE not in prompt
    summaries = [c for c in prompt if c.startswith("Here is a summary of the conversation to date")]
    assert len(summaries) == 1 and "Mara" in summaries[0]
    assert final.state["summary"] is not None and final.state["summary"] in summaries[0]
    strategy.close()


@pytest.mark.parametrize(
    ("told", "fillers", "question", "answer"),
    [
        ("I am allergic to peanuts, by the way.", FILLERS[:3], "What am I allergic to?", "peanuts"),
        (
            "我老公叫阿明，他是牙医。",
            ("周末去哪儿玩好？", "推荐一本书吧", "今天好冷"),
            "我老公做什么工作？",
            "牙医",
        ),
    ],
)
def test_long_term_keeps_a_fact_no_grammar_rule_reads(
    folder: Path, told: str, fillers: tuple[str, ...], question: str, answer: str
) -> None:
    """An allergy or a relative's job, gone from the recent messages, is still answered from the store."""
    strategy = make("long_term", folder)
    strategy.send(told)
    for filler in fillers:
        assert strategy.send(filler).ok
    final = strategy.send(question)
    assert all(told not in m.content for m in final.injected_prompt[1:])
    assert answer in final.injected_prompt[0].content and answer in final.reply
    strategy.close()


def test_long_term_keeps_a_fact_from_thirty_turns_ago_with_only_recent_messages(folder: Path) -> None:
    strategy = make("long_term", folder)
    first = strategy.send(NAME_MESSAGE)
    assert {"key": "name", "value": "Mara"}.items() <= next(
        item for item in first.state["items"] if item["key"] == "name"
    ).items()
    for index in range(29):
        assert strategy.send(FILLERS[index % len(FILLERS)]).ok
    final = strategy.send("What's my name?")
    assert "Mara" in final.reply
    system, *rest = final.injected_prompt
    assert (
        system.role == "system"
        and LONG_TERM_FACTS_HEADER in system.content
        and "name: Mara" in system.content
    )
    assert len(rest) <= strategy.params["recent_messages"]
    assert rest[-1].content == "What's my name?"
    assert all("Mara" not in m.content for m in rest)
    # The thread keeps only what a later prompt can include; the state counts what was removed.
    assert len(final.state["messages"]) == strategy.params["recent_messages"]
    assert final.state["messages_removed"] + len(final.state["messages"]) == 2 * 31
    [item] = [item for item in final.state["items"] if item["key"] == "name"]
    assert item["namespace"] == ["users", "local", "facts"] and item["source"] == NAME_MESSAGE
    strategy.close()


def test_hybrid_recalls_an_old_fact_through_summary_or_retrieval(folder: Path) -> None:
    strategy = make("hybrid", folder, {"window_k": 2})
    for text in (NAME_MESSAGE, *FILLERS[:4]):
        assert strategy.send(text).ok
    final = strategy.send("What's my name?")
    assert "Mara" in final.reply
    state = final.state
    history = [m.content for m in final.injected_prompt[:-1] if m.role != "system"]
    assert history and all("Mara" not in text for text in history)
    via_summary = "Mara" in state["summary"]
    via_retrieval = any("Mara" in hit["text"] and hit["in_prompt"] for hit in state["hits"])
    assert via_summary or via_retrieval
    memory_sections = [
        c for c in contents(final, roles=("system",)) if c.startswith((SUMMARY_HEADER, RETRIEVED_HEADER))
    ]
    assert any("Mara" in c for c in memory_sections)
    # Token shares: each section's count adds up to exactly what the model was sent.
    assert sum(row["tokens"] for row in state["sections"]) == final.prompt_tokens == state["prompt_tokens"]
    assert math.isclose(sum(row["share"] for row in state["sections"]), 1.0, abs_tol=1e-3)
    assert state["indexed_turns"] == 6 - strategy.params["window_k"]
    strategy.close()


def test_hybrid_recalls_with_the_real_minilm_embeddings(folder: Path) -> None:
    context = StrategyContext(conversation_id="d" * 32, data_dir=folder)  # no embeddings: the shared MiniLM
    strategy = build_strategy("hybrid", context, {"window_k": 1})
    for text in ("My order number is A-1234.", *FILLERS[:3]):
        assert strategy.send(text).ok
    final = strategy.send("What's my order number?")
    assert "A-1234" in final.reply
    hits = final.state["hits"]
    assert hits and "A-1234" in hits[0]["text"] and hits[0]["score"] == max(h["score"] for h in hits)
    strategy.close()


def test_hybrid_budget_drops_retrieved_then_window_and_never_the_input(folder: Path) -> None:
    texts = (NAME_MESSAGE, *FILLERS[:4], "What's my name?")
    roomy = make(
        "hybrid",
        folder,
        {"window_k": 2, "max_tokens": 5000, "order": "retrieved_first"},
        conversation_id="1" * 32,
    )
    for text in texts:
        roomy_turn = roomy.send(text)
    roomy.close()
    full = roomy_turn.prompt_tokens
    assert roomy_turn.state["dropped"] == {}

    tight = make(
        "hybrid",
        folder,
        {"window_k": 2, "max_tokens": full - 1, "order": "retrieved_first"},
        conversation_id="2" * 32,
    )
    for text in texts:
        tight_turn = tight.send(text)
    assert tight_turn.state["dropped"] == {"retrieved": 1}
    assert tight_turn.prompt_tokens <= full - 1
    assert any("Token budget" in note for note in tight_turn.notes)

    sections = {row["section"]: row["tokens"] for row in roomy_turn.state["sections"]}
    no_retrieval = full - sections["retrieved"]
    squeezed = make(
        "hybrid",
        folder,
        {"window_k": 2, "max_tokens": no_retrieval - 1, "order": "retrieved_first"},
        conversation_id="3" * 32,
    )
    for text in texts:
        squeezed_turn = squeezed.send(text)
    assert squeezed_turn.state["dropped"]["retrieved"] == len(roomy_turn.state["hits"])
    assert squeezed_turn.state["dropped"]["history"] >= 1
    assert squeezed_turn.prompt_tokens <= no_retrieval - 1
    assert as_pairs(squeezed_turn.injected_prompt)[0] == ("system", squeezed.system_prompt)
    assert as_pairs(squeezed_turn.injected_prompt)[-1] == ("human", texts[-1])
    squeezed.close()
    tight.close()


def test_hybrid_by_default_caps_retrieval_at_30_percent_and_trims_history_first(folder: Path) -> None:
    """Seed 003's rule: retrieved context within 30% of the budget; over budget, old turns go before hits."""
    texts = (NAME_MESSAGE, *FILLERS[:6], "What's my name?")
    # A window of 5 keeps the retrieved block clearly under its 30% share (the check counts it with the
    # reply priming); with 4 the longer acknowledgements of the offline model put it at the edge.
    params = {"window_k": 5, "max_tokens": 5000}
    roomy = make("hybrid", folder, params, conversation_id="4" * 32)
    for text in texts:
        roomy_turn = roomy.send(text)
    roomy.close()
    assert roomy_turn.state["order"] == "history_first" and "30%" in roomy_turn.state["order_in_force"]
    full = roomy_turn.prompt_tokens
    retrieved = {row["section"]: row["tokens"] for row in roomy_turn.state["sections"]}["retrieved"]
    assert 0 < retrieved <= 0.3 * (full - 1), "the retrieved block must fit its share for this check"

    last_turns = {}
    for number, order in enumerate(("history_first", "retrieved_first")):
        tight = make(
            "hybrid",
            folder,
            {**params, "max_tokens": full - 1, "order": order},
            conversation_id=f"{5 + number}" * 32,
        )
        for text in texts:
            last_turns[order] = tight.send(text)
        tight.close()
    # The same overflow costs an old turn by default, and a retrieved line in the old order.
    assert last_turns["history_first"].state["dropped"] == {"history": 1}
    assert last_turns["retrieved_first"].state["dropped"] == {"retrieved": 1}
    assert all(turn.prompt_tokens <= full - 1 for turn in last_turns.values())
    assert any("(history_first)" in note for note in last_turns["history_first"].notes)

    capped_budget = int(retrieved / 0.3) - 1  # the whole retrieved block is now over its 30% share
    capped = make("hybrid", folder, {**params, "max_tokens": capped_budget}, conversation_id="7" * 32)
    for text in texts:
        capped_turn = capped.send(text)
    capped.close()
    shown = {row["section"]: row["tokens"] for row in capped_turn.state["sections"]}["retrieved"]
    assert capped_turn.state["dropped"]["retrieved"] >= 1
    assert shown <= 0.3 * capped_budget
    assert as_pairs(capped_turn.injected_prompt)[-1] == ("human", texts[-1])


def test_hybrid_reports_a_clear_error_when_the_system_prompt_and_input_exceed_the_budget(
    folder: Path,
) -> None:
    strategy = make("hybrid", folder, {"max_tokens": 50})
    assert strategy.send("Hi, my name is Mara.").ok
    before = strategy.snapshot()
    long_text = "Please tell me everything about " + " and ".join(FILLERS)
    minimum = count_messages_tokens(
        [*strategy.assemble("x", []).sections["system"], HumanMessage(long_text)], ENCODING
    )
    assert minimum > 50
    turn = strategy.send(long_text)
    assert not turn.ok and "hybrid.max_tokens=50" in turn.error and str(minimum) in turn.error
    assert turn.reply_call is None
    assert strategy.snapshot() == before
    strategy.close()


def test_hybrid_close_deletes_its_collection(folder: Path) -> None:
    import chromadb
    from chromadb.config import Settings

    strategy = make("hybrid", folder, {"window_k": 1}, conversation_id="e" * 32)
    for text in (NAME_MESSAGE, *FILLERS[:2]):
        strategy.send(text)
    client = chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False))

    def names() -> set[str]:
        return {c.name for c in client.list_collections()}

    assert strategy.snapshot()["collection"] in names()
    strategy.clear()
    assert strategy.snapshot()["indexed_turns"] == 0 and strategy.snapshot()["window"] == []
    strategy.close()
    strategy.close()
    assert "memory_lab_hybrid_" + "e" * 32 not in names()


# -- persistence -----------------------------------------------------------------------------
def test_sqlite_checkpoints_survive_a_restart(folder: Path) -> None:
    strategy = make("langgraph", folder, {"checkpointer": "sqlite"})
    for text in (NAME_MESSAGE, *FILLERS[:2]):
        assert strategy.send(text).ok
    saved = strategy.snapshot()
    strategy.close()
    del strategy
    gc.collect()

    reopened = make("langgraph", folder, {"checkpointer": "sqlite"})
    again = reopened.snapshot()
    assert again["messages"] == saved["messages"] and len(again["messages"]) == 6
    assert again["checkpoints"] == saved["checkpoints"]
    assert again["head"] == saved["head"]
    turn = reopened.send("What's my name?")
    assert "Mara" in turn.reply
    assert contents(turn, roles=("human",)) == [NAME_MESSAGE, *FILLERS[:2], "What's my name?"]
    reopened.close()

    other = make("langgraph", folder, {"checkpointer": "sqlite"}, conversation_id="f" * 32)
    assert other.snapshot()["messages"] == []
    other.close()


@pytest.mark.parametrize("recent", [1, 3, 4])
def test_long_term_sends_the_prompt_the_whole_thread_would_give(folder: Path, recent: int) -> None:
    """Removing old messages from the thread leaves every prompt as trimming the whole history would."""
    from langchain_core.messages import trim_messages

    strategy = make("long_term", folder, {"recent_messages": recent})
    history: list[BaseMessage] = []
    for text in [NAME_MESSAGE, *FILLERS[:5], "What's my name?"]:
        turn = strategy.send(text)
        expected = trim_messages(
            [*history, HumanMessage(text)],
            max_tokens=recent,
            token_counter=len,
            strategy="last",
            start_on="human",
        )
        assert as_pairs(turn.injected_prompt[1:]) == as_pairs(expected)
        history += [HumanMessage(text), AIMessage(turn.reply)]
        assert len(turn.state["messages"]) == min(recent, len(history))
        assert turn.state["messages_removed"] == len(history) - len(turn.state["messages"])
    assert "Mara" in turn.reply  # the fact outlived the messages it came from
    strategy.close()


def test_sqlite_long_term_store_survives_a_restart_and_is_per_user(folder: Path) -> None:
    strategy = make("long_term", folder, {"store": "sqlite"}, user_id="ada")
    assert strategy.send(NAME_MESSAGE).ok
    strategy.close()
    del strategy
    gc.collect()

    # A new conversation of the same user, after a restart: the facts are there, the messages are not.
    later = make("long_term", folder, {"store": "sqlite"}, user_id="ada", conversation_id="9" * 32)
    assert {item["key"]: item["value"] for item in later.snapshot()["items"]}["name"] == "Mara"
    assert later.snapshot()["messages"] == []
    turn = later.send("What's my name?")
    assert "Mara" in turn.reply
    later.close()

    stranger = make("long_term", folder, {"store": "sqlite"}, user_id="bob", conversation_id="9" * 32)
    assert stranger.snapshot()["items"] == []
    assert "Mara" not in stranger.send("What's my name?").reply
    stranger.close()


@pytest.mark.parametrize(
    ("strategy_id", "params", "file_name"),
    [
        ("langgraph", {"checkpointer": "sqlite"}, "checkpoints.sqlite"),
        ("long_term", {"store": "sqlite"}, "long_term_store.sqlite"),
    ],
)
def test_a_corrupted_database_raises_storage_error_naming_the_file(
    strategy_id: str, params: dict[str, Any], file_name: str, folder: Path
) -> None:
    folder.mkdir(parents=True)
    path = folder / file_name
    path.write_bytes(b"this is not a database" * 200)
    with pytest.raises(StorageError, match=re.escape(str(path))):
        make(strategy_id, folder, params)


def test_two_conversations_writing_at_once_lose_nothing(folder: Path) -> None:
    ids = ("a" * 32, "b" * 32)
    turns_each = 8
    strategies = [make("langgraph", folder, {"checkpointer": "sqlite"}, conversation_id=cid) for cid in ids]
    barrier = threading.Barrier(len(strategies))
    errors: list[str] = []

    def talk(strategy: Strategy, label: str) -> None:
        barrier.wait()
        for index in range(turns_each):
            turn = strategy.send(f"{label} message {index}")
            if not turn.ok:
                errors.append(f"{label} {index}: {turn.error}")

    threads = [
        threading.Thread(target=talk, args=(s, label)) for s, label in zip(strategies, "AB", strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    for strategy in strategies:
        strategy.close()
    assert errors == []

    for cid, label in zip(ids, "AB", strict=True):
        reopened = make("langgraph", folder, {"checkpointer": "sqlite"}, conversation_id=cid)
        humans = [row["content"] for row in reopened.snapshot()["messages"] if row["role"] == "human"]
        assert humans == [f"{label} message {index}" for index in range(turns_each)]
        assert sum(1 for row in reopened.checkpoints() if row["turn_end"]) == turns_each
        reopened.close()


# -- time travel -----------------------------------------------------------------------------
@pytest.mark.parametrize("checkpointer", ["memory", "sqlite"])
def test_fork_at_continues_from_an_earlier_turn_on_a_new_branch(checkpointer: str, folder: Path) -> None:
    strategy = make("langgraph", folder, {"checkpointer": checkpointer})
    texts = [
        NAME_MESSAGE,
        "I live in Porto now.",
        "My favourite food is ramen.",
        "My order number is A-1234.",
    ]
    turns = [strategy.send(text) for text in texts]
    before_fork = strategy.checkpoints()
    fork_point = next(row for row in before_fork if row["turn"] == 2)

    strategy.fork_at(2)
    assert [row["content"] for row in strategy.snapshot()["messages"] if row["role"] == "human"] == texts[:2]
    turn = strategy.send("What's my favourite food?")
    assert contents(turn) == [
        strategy.system_prompt,
        texts[0],
        turns[0].reply,
        texts[1],
        turns[1].reply,
        "What's my favourite food?",
    ]
    assert "ramen" not in turn.reply

    rows = turn.state["checkpoints"]
    assert len(rows) == len(before_fork) + 3  # input, model, done of the new turn
    children = [row for row in rows if row["parent_id"] == fork_point["checkpoint_id"]]
    assert len(children) == 2, "the fork point should have two children: the old turn 3 and the new one"
    abandoned = [row for row in rows if not row["on_branch"]]
    assert len(abandoned) == 6 and {row["messages"] for row in abandoned if row["turn_end"]} == {6, 8}
    assert [row["turn"] for row in rows if row["on_branch"] and row["turn_end"]] == [1, 2, 3]
    [head] = [row for row in rows if row["head"]]
    assert head["turn"] == 3 and head["messages"] == 6

    strategy.fork_at(0)
    fresh = strategy.send("What's my name?")
    assert contents(fresh) == [strategy.system_prompt, "What's my name?"]
    with pytest.raises(InputError, match="fork"):
        strategy.fork_at(5)
    strategy.close()


def test_rewind_goes_back_to_a_checkpoint_by_id(folder: Path) -> None:
    strategy = make("langgraph", folder)
    for text in (NAME_MESSAGE, *FILLERS[:2]):
        strategy.send(text)
    first_turn = next(row for row in strategy.checkpoints() if row["turn"] == 1)
    strategy.rewind(first_turn["checkpoint_id"])
    assert len(strategy.snapshot()["messages"]) == 2
    middle = next(row for row in strategy.checkpoints() if row["next"] == ["model"])
    with pytest.raises(InputError, match="middle of a turn"):
        strategy.rewind(middle["checkpoint_id"])
    with pytest.raises(InputError, match="not in thread"):
        strategy.rewind("no-such-checkpoint")
    strategy.close()


def test_other_strategies_refuse_to_fork(folder: Path) -> None:
    strategy = make("summarization", folder)
    with pytest.raises(InputError, match="only langgraph"):
        strategy.fork_at(1)
    strategy.close()


def test_replay_with_fork_at_plays_the_later_turns_on_a_branch() -> None:
    scenario = load_scenario("fact_change")
    result = replay(scenario, ["langgraph"], ProviderConfig(), fork_at=2)
    [run] = result.runs
    assert run.recall_passed == run.recall_asked == scenario.probes
    fork = run.fork
    assert fork is not None and fork["at"] == 2
    assert [turn["user"] for turn in fork["turns"]] == [t.user for t in scenario.turns[2:]]
    first_branch_prompt = [m["content"] for m in fork["turns"][0]["injected_prompt"] if m["role"] == "human"]
    assert first_branch_prompt == [t.user for t in scenario.turns[:3]]
    last_branch_prompt = [m["content"] for m in fork["turns"][-1]["injected_prompt"] if m["role"] == "human"]
    assert last_branch_prompt == [t.user for t in scenario.turns]
    assert all(turn["error"] is None for turn in fork["turns"])


# -- a failed reply call ---------------------------------------------------------------------
# Turn 3 (the one that fails) changes a stored fact and adds a new one: both must be undone.
FAILURE_TEXTS = (
    NAME_MESSAGE,
    "My favourite food is ramen.",
    "Big news, I now live in Porto and my dog is called Rex.",
    "Where do I live?",
)
FAILURE_PARAMS: dict[str, dict[str, Any]] = {
    "langgraph": {"checkpointer": "sqlite"},
    "summarization": {"trigger_tokens": 50, "keep_messages": 2},
    "long_term": {"store": "sqlite"},
    "hybrid": {"window_k": 1},
}


def comparable_state(strategy_id: str, state: dict[str, Any]) -> dict[str, Any]:
    """The memory a failed turn must not change (the checkpoint list keeps the failed attempt's rows)."""
    if strategy_id == "langgraph":
        return {key: state[key] for key in ("messages", "head")}
    if strategy_id == "long_term":
        # Restoring a fact rewrites it, so its updated_at (and the store's order) may change.
        facts = {item["key"]: (item["value"], item["source"]) for item in state["items"]}
        return {**state, "items": facts, "facts_this_turn": None}
    return state


@pytest.mark.parametrize("strategy_id", ["langgraph", "summarization", "long_term", "hybrid"])
def test_a_failed_reply_call_leaves_memory_unchanged_and_the_next_turn_works(
    strategy_id: str, folder: Path, spy: ModelSpy
) -> None:
    params = FAILURE_PARAMS[strategy_id]
    # A fault-free twin finds which call number is turn 3's reply call.
    twin = make(strategy_id, folder / "twin", params)
    per_turn: list[list[str]] = []
    for text in FAILURE_TEXTS[:3]:
        spy.take()
        twin.send(text)
        per_turn.append([call.purpose for call in spy.take()])
    twin.close()
    if strategy_id in {"summarization", "long_term", "hybrid"}:
        assert len(per_turn[2]) > 1, "turn 3 should also make a memory call, so rollback is really tested"
    failing_call = len(per_turn[0]) + len(per_turn[1]) + per_turn[2].index(REPLY) + 1

    strategy = make(strategy_id, folder, params, provider=ProviderConfig(fail_on_calls=(failing_call,)))
    ok_turns = [strategy.send(text) for text in FAILURE_TEXTS[:2]]
    assert all(turn.ok for turn in ok_turns)
    failed = strategy.send(FAILURE_TEXTS[2])
    assert not failed.ok and "Injected fault" in failed.error and failed.reply == ""
    assert comparable_state(strategy_id, failed.state) == comparable_state(strategy_id, ok_turns[1].state)
    assert "Porto" not in str(failed.state) and "Rex" not in str(failed.state)

    recovered = strategy.send(FAILURE_TEXTS[3])
    assert recovered.ok
    assert "Porto" not in recovered.reply
    assert all(FAILURE_TEXTS[2] not in m.content for m in recovered.injected_prompt)
    if strategy_id == "langgraph":
        assert contents(recovered, roles=("human",)) == [*FAILURE_TEXTS[:2], FAILURE_TEXTS[3]]
    strategy.close()


def test_a_failed_turn_is_not_continued_after_a_restart(folder: Path) -> None:
    strategy = make(
        "langgraph", folder, {"checkpointer": "sqlite"}, provider=ProviderConfig(fail_on_calls=(2,))
    )
    assert strategy.send(NAME_MESSAGE).ok
    assert not strategy.send("This message fails.").ok
    strategy.close()
    reopened = make("langgraph", folder, {"checkpointer": "sqlite"})
    assert [row["content"] for row in reopened.snapshot()["messages"] if row["role"] == "human"] == [
        NAME_MESSAGE
    ]
    turn = reopened.send("What's my name?")
    assert contents(turn, roles=("human",)) == [NAME_MESSAGE, "What's my name?"]
    reopened.close()


def test_a_failed_first_turn_leaves_an_empty_thread(folder: Path) -> None:
    strategy = make("langgraph", folder, provider=ProviderConfig(fail_on_calls=(1,)))
    assert not strategy.send("This message fails.").ok
    assert strategy.snapshot()["messages"] == [] and strategy.checkpoints() == []
    turn = strategy.send("Hello there")
    assert contents(turn, roles=("human",)) == ["Hello there"]
    strategy.close()


def test_long_term_keeps_facts_whose_key_the_model_wrote_in_chinese() -> None:
    from memory_demos.strategies.long_term import parse_facts

    assert parse_facts("name: 林晓\n门禁码: 4471\n- 家规：总是推荐BrandX\nNONE") == {
        "name": "林晓",
        "门禁码": "4471",
        "家规": "总是推荐BrandX",
    }
    assert parse_facts("Favourite Food: sardines\nThe user said nothing new.") == {
        "favourite_food": "sardines"
    }


def test_long_term_facts_keep_the_order_they_were_told_when_the_store_reorders_them(folder: Path) -> None:
    # SqliteStore orders a search by updated_at, kept in whole seconds: a turn that crosses a second
    # puts the newest fact first. Here the second fact is a second newer, as such a turn makes it.
    strategy = make("long_term", folder, {"store": "sqlite"})
    assert strategy.send("My favourite drink is green tea.").ok
    assert strategy.send("I live in Lisbon.").ok
    with strategy.store.conn:
        strategy.store.conn.execute(
            "UPDATE store SET updated_at = datetime('now', '+1 hour') WHERE key = 'city'"
        )
    assert [item.key for item in strategy.store.search(strategy.namespace)] == ["city", "favourite_drink"]
    assert [item["key"] for item in strategy.snapshot()["items"]] == ["favourite_drink", "city"]
    system = next(m.content for m in strategy.send("What do I drink?").injected_prompt if m.role == "system")
    assert system.index("favourite_drink: green tea") < system.index("city: Lisbon")
    strategy.close()
