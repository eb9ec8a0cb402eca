"""A new conversation for the same user (issue 22): thread-keyed memory starts empty, a user-keyed store
carries over, the earlier conversation stays as it was, and one user never reads another's store."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from memory_demos.clock import SCENARIO_START, ScenarioClock, parse_duration
from memory_demos.i18n import t
from memory_demos.strategies.base import Strategy, StrategyContext
from memory_demos.strategies.registry import STRATEGIES, available_ids, build_strategy, get_info
from tests.helpers import WordEmbeddings, closed_after_test, send_ok

NAME_MESSAGE = "Hi, my name is Mara and I live in Lisbon."
NAME_QUESTION = "What's my name?"
USER_KEYED = {"long_term", "semantic_store"}


@pytest.fixture
def opened() -> Iterator[list[Strategy]]:
    yield from closed_after_test()


def make(
    strategy_id: str,
    folder: Path,
    params: dict[str, Any] | None = None,
    *,
    user: str = "u1",
    opened: list[Strategy],
) -> Strategy:
    context = StrategyContext(data_dir=folder, user_id=user, embeddings=WordEmbeddings(128))
    strategy = build_strategy(strategy_id, context, params)
    opened.append(strategy)
    return strategy


def test_every_strategy_says_what_it_keeps_and_for_whom() -> None:
    for cls in STRATEGIES:
        info = cls.info
        assert info.keeps, info.id
        assert {part.scope for part in info.keeps} <= {"conversation", "user"}
        for part in info.keeps:  # data, translated by the view: both languages have each name
            for language in ("en", "zh"):
                assert t(f"memory.part.{part.name}", language) != f"memory.part.{part.name}"
                assert t(f"memory.scope.{part.scope}", language) != f"memory.scope.{part.scope}"
    carrying = {sid for sid in available_ids() if get_info(sid).carries_over}
    assert carrying >= USER_KEYED
    assert not carrying & {"buffer", "agent", "history", "langgraph", "entity", "vector", "hybrid"}
    assert [p.name for p in get_info("long_term").carries_over] == ["facts"]
    assert [p.name for p in get_info("long_term").per_conversation] == ["messages"]
    assert get_info("semantic_store").to_json()["keeps"][1] == {"name": "exchanges", "scope": "user"}


@pytest.mark.parametrize("strategy_id", list(available_ids()))
def test_a_new_conversation_starts_without_what_is_kept_per_conversation(
    strategy_id: str, tmp_path: Path, opened: list[Strategy]
) -> None:
    first = make(strategy_id, tmp_path, opened=opened)
    send_ok(first, NAME_MESSAGE)
    send_ok(first, "What is a nice hobby for the winter?")
    assert first.stored_messages() or strategy_id in {"summary", "vector", "hybrid", "semantic_store"}
    second = first.new_conversation()
    opened.append(second)
    assert second.conversation_id != first.conversation_id
    assert second.context.user_id == first.context.user_id and second.params == first.params
    assert second.stored_messages() == []
    reply = send_ok(second, NAME_QUESTION).reply
    if get_info(strategy_id).carries_over:
        assert "Mara" in reply, reply
    else:
        assert "Mara" not in reply, reply
    # The earlier conversation is untouched by the new one and can go on.
    assert "Mara" in send_ok(first, NAME_QUESTION).reply


@pytest.mark.parametrize("store", ["memory", "sqlite"])
@pytest.mark.parametrize("strategy_id", sorted(USER_KEYED))
def test_the_store_carries_over_and_says_where_each_item_came_from(
    strategy_id: str, store: str, tmp_path: Path, opened: list[Strategy]
) -> None:
    first = make(strategy_id, tmp_path, {"store": store}, opened=opened)
    send_ok(first, NAME_MESSAGE)
    assert not any(item["from_earlier_conversation"] for item in first.snapshot()["items"])
    second = first.new_conversation()
    opened.append(second)
    turn = send_ok(second, NAME_QUESTION)
    assert "Mara" in turn.reply
    state = second.snapshot()
    assert state["namespace"] == ["users", "u1", "facts" if strategy_id == "long_term" else "exchanges"]
    assert state["messages"] == [] or all("Mara" not in m["content"] for m in state["messages"][:-2])
    carried = [item for item in state["items"] if item["from_earlier_conversation"]]
    assert carried and any("Mara" in str(item) for item in carried)


def test_the_agent_thread_is_new_in_the_same_checkpointer(tmp_path: Path, opened: list[Strategy]) -> None:
    first = make("agent", tmp_path, opened=opened)
    send_ok(first, NAME_MESSAGE)
    second = first.new_conversation()
    opened.append(second)
    assert second.checkpointer is first.checkpointer  # one InMemorySaver, a thread per conversation
    assert second.thread_id != first.thread_id
    assert "Mara" not in send_ok(second, NAME_QUESTION).reply
    assert second.saved_thread_ids() == sorted([first.thread_id, second.thread_id])
    assert second.snapshot()["thread_id"] == second.thread_id


CARRYING = sorted(sid for sid in available_ids() if get_info(sid).carries_over)


@pytest.mark.parametrize("strategy_id", CARRYING)
def test_reset_keeps_the_users_store_and_forget_user_deletes_it(
    strategy_id: str, tmp_path: Path, opened: list[Strategy]
) -> None:
    first = make(strategy_id, tmp_path, opened=opened)
    send_ok(first, NAME_MESSAGE)
    send_ok(first, "What is a nice hobby for the winter?")  # a background manager runs a turn later
    first.clear()
    assert first.stored_messages() == []
    if "items" in first.snapshot():
        assert first.snapshot()["items"], "Reset cleared the user's long-term memory"
    assert "Mara" in send_ok(first, NAME_QUESTION).reply
    second = first.new_conversation()
    opened.append(second)
    second.forget_user()
    if "items" in second.snapshot():
        assert second.snapshot()["items"] == [] and first.snapshot()["items"] == []
    assert "Mara" not in send_ok(second, NAME_QUESTION).reply
    third = second.new_conversation()
    opened.append(third)
    assert "Mara" not in send_ok(third, NAME_QUESTION).reply


@pytest.mark.parametrize("store", ["memory", "sqlite"])
@pytest.mark.parametrize("strategy_id", sorted(USER_KEYED))
def test_another_user_never_sees_the_store(
    strategy_id: str, store: str, tmp_path: Path, opened: list[Strategy]
) -> None:
    mara = make(strategy_id, tmp_path, {"store": store}, user="mara", opened=opened)
    send_ok(mara, NAME_MESSAGE)
    other = make(strategy_id, tmp_path, {"store": store}, user="kofi", opened=opened)
    assert other.snapshot()["items"] == []
    assert "Mara" not in send_ok(other, NAME_QUESTION).reply
    # A context handed on with another user id gets its own backends, never the first user's.
    stranger = build_strategy(
        strategy_id, type(mara.context)(**{**_fields(mara.context), "user_id": "kofi"}), {"store": store}
    )
    opened.append(stranger)
    assert stranger.backends is not mara.backends
    assert "Mara" not in send_ok(stranger, NAME_QUESTION).reply
    other.forget_user()  # forgetting one user touches nobody else
    assert mara.snapshot()["items"]


def _fields(context: StrategyContext) -> dict[str, Any]:
    names = ("provider", "conversation_id", "user_id", "data_dir", "embeddings", "language", "backends")
    return {name: getattr(context, name) for name in names}


def test_turns_carry_the_time_of_the_contexts_clock(tmp_path: Path, opened: list[Strategy]) -> None:
    clock = ScenarioClock()
    context = StrategyContext(data_dir=tmp_path, clock=clock, embeddings=WordEmbeddings(128))
    strategy = build_strategy("long_term", context)
    opened.append(strategy)
    first = send_ok(strategy, NAME_MESSAGE)
    clock.advance(timedelta(days=3))
    second = strategy.new_conversation()
    opened.append(second)
    later = send_ok(second, NAME_QUESTION)
    assert second.context.clock is clock
    assert first.at == SCENARIO_START.isoformat()
    assert later.at == (SCENARIO_START + timedelta(days=3, minutes=1)).isoformat()
    assert first.to_json()["at"] == first.at
    told = {item["key"]: item["told_at"] for item in strategy.snapshot()["items"]}
    assert told and set(told.values()) == {SCENARIO_START.isoformat()}


def test_durations() -> None:
    assert parse_duration("3 days") == timedelta(days=3)
    assert parse_duration("1 week") == timedelta(weeks=1)
    assert parse_duration(" 90 Minutes ") == timedelta(minutes=90)
    assert parse_duration("2 hours") == timedelta(hours=2)
    for bad in ("", "3", "three days", "3 months", "-1 day", "1.5 days", "99999 weeks"):
        assert parse_duration(bad) is None, bad
    with pytest.raises(ValueError):
        ScenarioClock().advance(timedelta(minutes=-1))


def test_a_fresh_context_shares_nothing(tmp_path: Path, opened: list[Strategy]) -> None:
    """Two strategies built from one context (not through new_conversation) keep their own backends."""
    context = StrategyContext(data_dir=tmp_path, user_id="u1", conversation_id=uuid.uuid4().hex)
    one = build_strategy("long_term", context)
    two = build_strategy("long_term", context)
    opened += [one, two]
    send_ok(one, NAME_MESSAGE)
    assert two.snapshot()["items"] == []


# -- scenarios with sessions ---------------------------------------------------------------------
SESSIONS_YAML = """
name: two sessions
language: en
turns:
  - user: Hi, my name is Mara and I live in Lisbon.
  - user: What's my name?
    expect: [Mara]
  - session: new
    after: 3 days
  - user: What's my name?
    expect: [Mara]
  - user: What's my favourite colour?
    abstain: true
  - session: new
  - user: Do I still live in Lisbon?
    reject: ["No"]
  - user: Where do I live?
    expect: [Lisbon]
    kind: after_time
"""


def test_a_scenario_numbers_its_sessions_and_infers_probe_kinds() -> None:
    from memory_demos.scenarios import parse_scenario

    scenario = parse_scenario(SESSIONS_YAML)
    assert scenario.sessions == 3 and len(scenario.turns) == 6
    assert [turn.session for turn in scenario.turns] == [1, 1, 2, 2, 3, 3]
    assert [turn.new_session for turn in scenario.turns] == [False, False, True, False, True, False]
    assert scenario.turns[2].gap == timedelta(days=3) and scenario.turns[2].after == "3 days"
    assert scenario.turns[4].gap is None
    assert [turn.probe_kind for turn in scenario.turns] == [
        None,
        "same_conversation",
        "across_conversations",
        "should_refuse",
        "after_change",
        "after_time",
    ]


def test_an_abstention_passes_only_on_a_refusal() -> None:
    from memory_demos.scenarios import ScenarioTurn

    probe = ScenarioTurn("What's my favourite colour?", reject=("blue",), abstain=True)
    assert probe.passed("I can't answer that from what I was given.")
    assert not probe.passed("Your favourite colour is green.")
    assert not probe.passed("I don't know. Maybe blue?")
    assert not probe.passed("")


@pytest.mark.parametrize(
    ("items", "reason"),
    [
        ("  - session: new\n  - user: hi\n", "session_first"),
        ("  - user: hi\n  - session: new\n", "session_last"),
        ("  - user: hi\n  - session: new\n  - session: new\n  - user: x\n", "session_twice"),
        ("  - user: hi\n  - session: old\n  - user: x\n", "session_form"),
        ("  - user: hi\n  - session: new\n    user: x\n", "session_form"),
        ("  - user: hi\n  - session: new\n    after: 3 months\n  - user: x\n", "after_invalid"),
        ("  - user: hi\n    abstain: yes please\n", "abstain_not_bool"),
        ("  - user: hi\n    abstain: true\n    expect: [x]\n", "abstain_with_expect"),
        ("  - user: hi\n    expect: [x]\n    kind: later\n", "kind_unknown"),
        ("  - user: hi\n    kind: after_time\n", "kind_without_probe"),
    ],
)
def test_a_malformed_session_break_is_refused_with_its_reason(items: str, reason: str) -> None:
    from memory_demos.scenarios import ScenarioError, parse_scenario

    with pytest.raises(ScenarioError) as raised:
        parse_scenario("name: t\nturns:\n" + items)
    assert raised.value.reason == reason
    assert "scenario." not in raised.value.describe("zh") and "scenario." not in str(raised.value)


def test_replay_starts_a_new_conversation_at_each_break_and_marks_it(tmp_path: Path) -> None:
    from memory_demos.providers.chat_models import ProviderConfig
    from memory_demos.replay import replay
    from memory_demos.scenarios import parse_scenario

    result = replay(
        parse_scenario(SESSIONS_YAML), ["long_term", "agent"], ProviderConfig(), stop_after_failed_turns=None
    )
    runs = {run.strategy_id: run.to_json() for run in result.runs}
    for data in runs.values():
        assert [t["session"] for t in data["turns"]] == [1, 1, 2, 2, 3, 3]
        breaks = [t.get("session_break") for t in data["turns"]]
        assert breaks == [
            None,
            None,
            {"new_conversation": True, "after": "3 days"},
            None,
            {"new_conversation": True, "after": None},
            None,
        ]
        # The scenario clock: a minute a message, three days at the first break.
        assert data["turns"][0]["at"] == SCENARIO_START.isoformat()
        assert data["turns"][2]["at"] == (SCENARIO_START + timedelta(days=3, minutes=2)).isoformat()
        ids = [s["conversation_id"] for s in data["sessions"]]
        assert len(set(ids)) == 3 and [s["first_turn"] for s in data["sessions"]] == [1, 3, 5]
    long_term, agent = runs["long_term"], runs["agent"]
    assert [(s["passed"], s["asked"]) for s in long_term["sessions"]] == [(1, 1), (2, 2), (2, 2)]
    assert [(s["passed"], s["asked"]) for s in agent["sessions"]] == [(1, 1), (1, 2), (1, 2)]
    assert agent["recall"]["by_kind"]["across_conversations"] == {"passed": 0, "asked": 1}
    assert long_term["recall"]["by_kind"]["across_conversations"] == {"passed": 1, "asked": 1}
    assert agent["turns"][3]["state"]["thread_id"] != agent["turns"][1]["state"]["thread_id"]


def test_fork_is_refused_for_a_scenario_with_several_conversations() -> None:
    from memory_demos.providers.chat_models import ProviderConfig
    from memory_demos.replay import replay
    from memory_demos.scenarios import parse_scenario

    with pytest.raises(ValueError, match="several"):
        replay(parse_scenario(SESSIONS_YAML), ["langgraph"], ProviderConfig(), fork_at=1)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_bundled_session_scenarios_separate_thread_from_store(language: str) -> None:
    from memory_demos.providers.chat_models import ProviderConfig
    from memory_demos.replay import replay
    from memory_demos.scenarios import load_scenario

    suffix = "_zh" if language == "zh" else ""
    scenario = load_scenario("sessions_recall" + suffix)
    assert scenario.language == language and scenario.sessions == 2
    ids = ["long_term", "semantic_store", "buffer", "agent", "history"]
    result = replay(scenario, ids, ProviderConfig(), stop_after_failed_turns=None)
    across = {run.strategy_id: run.recall_by_kind()["across_conversations"]["passed"] for run in result.runs}
    assert across == {"long_term": 2, "semantic_store": 2, "buffer": 0, "agent": 0, "history": 0}
    for name in ("sessions_update", "sessions_expiry", "sessions_abstention"):
        assert load_scenario(name + suffix).sessions >= 2


# -- the chat command ----------------------------------------------------------------------------
def test_chat_starts_the_users_next_conversation_and_forgets_the_user(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    from tests.test_cli import run_cli

    base = ["chat", "--strategy", "long_term", "--param", "long_term.store=sqlite", "--user", "mara"]
    code, _out, err = run_cli(capsys, *base, "--conversation", "new", NAME_MESSAGE)
    assert code == 0 and err.startswith("conversation: ")
    first = err.split()[1]
    code, out, err = run_cli(capsys, *base, "--conversation", "new", "--json", NAME_QUESTION)
    data = json.loads(out)
    assert code == 0 and "Mara" in data["reply"] and data["conversation_id"] not in (first, "new")
    assert data["user_id"] == "mara" and err.split()[1] == data["conversation_id"]
    other = ["chat", "--strategy", "long_term", "--param", "long_term.store=sqlite", "--user", "kofi"]
    code, out, _ = run_cli(capsys, *other, "--conversation", "new", NAME_QUESTION)
    assert code == 0 and "Mara" not in out  # another user, the same file
    code, out, _ = run_cli(capsys, *base, "--conversation", first, "--forget-user")
    assert code == 0 and "facts" in out
    code, out, _ = run_cli(capsys, *base, "--conversation", "new", NAME_QUESTION)
    assert code == 0 and "Mara" not in out
    code, _out, err = run_cli(capsys, *base, "--conversation", "new")
    assert code == 2 and "--forget-user" in err


def test_the_replay_table_says_where_the_breaks_are_and_recall_in_each_conversation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tests.test_cli import run_cli

    code, out, _ = run_cli(
        capsys,
        "replay",
        "--scenario",
        "sessions_update",
        "--strategies",
        "long_term,agent",
        "--provider",
        "offline",
    )
    assert code == 0
    assert "before turn 3 (after 1 week), turn 5 (after 2 days)" in out
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.startswith("  ")}
    assert rows["long_term"] == ["0/0", "·", "0/0", "·", "2/2"] and rows["agent"][-1] == "0/2"
