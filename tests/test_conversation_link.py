"""Conversation links in the core: signed tokens, tampering refused, manifests stored and read back."""

# The PostgreSQL fixture is imported from tests/services.py; its name as a parameter is F811.
# ruff: noqa: F811

from __future__ import annotations

import os
import stat
import string
from pathlib import Path

import pytest

from memory_demos.conversation_link import (
    ConversationManifest,
    LinkError,
    ManifestStore,
    PaneManifest,
    is_persisted,
    link_secret,
    make_token,
    new_owner_id,
    open_link,
    verify_token,
)
from memory_demos.defaults import new_conversation_id
from memory_demos.session import KEY_PREFIX, LabSession
from memory_demos.storage import StorageConfig
from memory_demos.strategies.registry import get_info
from tests.services import postgres_url  # noqa: F401

SECRET = b"test-link-secret-0123456789abcdef"


def test_a_token_verifies_and_names_its_conversation_and_owner() -> None:
    conversation, owner = new_conversation_id(), new_owner_id()
    token = make_token(conversation, owner, SECRET)
    claim = verify_token(token, SECRET)
    assert (claim.conversation_id, claim.owner_id) == (conversation, owner)
    assert len(token) < 120 and set(token) <= set(string.ascii_letters + string.digits + "._-")  # URL-safe


def test_every_altered_character_is_refused() -> None:
    token = make_token(new_conversation_id(), new_owner_id(), SECRET)
    for index, char in enumerate(token):
        if char == ".":
            continue
        replacement = "0" if char != "0" else "1"
        altered = token[:index] + replacement + token[index + 1 :]
        with pytest.raises(LinkError) as caught:
            verify_token(altered, SECRET)
        assert caught.value.problem in ("forged", "malformed"), index


@pytest.mark.parametrize(
    "token",
    [
        "",
        "abc",
        "a.b.c",
        "x" * 500,
        "../../etc/passwd",
        "%00",
        "a.b",
        "0" * 32 + ".u" + "0" * 32 + "." + "A" * 43,
    ],
)
def test_malformed_or_guessed_tokens_are_refused(token: str) -> None:
    with pytest.raises(LinkError) as caught:
        verify_token(token, SECRET)
    assert caught.value.problem in ("malformed", "forged")


def test_another_owner_or_another_secret_cannot_use_a_link() -> None:
    conversation, owner, other = new_conversation_id(), new_owner_id(), new_owner_id()
    token = make_token(conversation, owner, SECRET)
    _, _, mac = token.split(".")
    with pytest.raises(LinkError, match="altered"):
        verify_token(f"{conversation}.{other}.{mac}", SECRET)  # someone else's owner id, same signature
    with pytest.raises(LinkError, match="altered"):
        verify_token(token, b"another-server-secret")


def test_the_secret_file_is_made_once_and_only_its_owner_may_read_it(tmp_path: Path) -> None:
    first = link_secret(None, tmp_path)
    path = tmp_path / "link_secret"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert link_secret(None, tmp_path) == first and len(first) == 64
    os.chmod(path, 0o644)
    assert link_secret(None, tmp_path) == first
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # tightened again
    assert link_secret("configured", tmp_path) == b"configured"


def manifest() -> ConversationManifest:
    return ConversationManifest(
        panes=(
            # Loading fills in every parameter's default, so the saved ones are complete too.
            PaneManifest(
                "history",
                get_info("history").resolve_params({"backend": "sqlite"}),
                new_conversation_id(),
                True,
            ),
            PaneManifest("window", get_info("window").resolve_params({"k": 2}), new_conversation_id(), False),
        )
    )


def test_a_manifest_round_trips_through_sqlite_and_is_keyed_by_owner(tmp_path: Path) -> None:
    store = ManifestStore(StorageConfig(), tmp_path)
    conversation, owner = new_conversation_id(), new_owner_id()
    saved = manifest()
    store.save(conversation, owner, saved)
    assert store.load(conversation, owner) == saved
    assert store.load(conversation, new_owner_id()) is None  # the same id under another owner: nothing
    assert store.load(new_conversation_id(), owner) is None
    claim, loaded = open_link(make_token(conversation, owner, SECRET), SECRET, store)
    assert loaded == saved and claim.owner_id == owner
    with pytest.raises(LinkError) as caught:
        open_link(make_token(new_conversation_id(), owner, SECRET), SECRET, store)
    assert caught.value.problem == "not_found"
    stored = (tmp_path / "conversations.sqlite").read_bytes()
    assert owner.encode() not in stored  # only a hash of the owner id is kept


def test_a_manifest_holds_no_message_and_no_key() -> None:
    from pydantic import SecretStr

    from memory_demos.providers.chat_models import ProviderConfig

    state: dict = {KEY_PREFIX + "panes_initialised": True}
    session = LabSession(state)
    session.provider = ProviderConfig(latency_ms=0, api_key=SecretStr("sk-manifest-test-key-123456"))
    session.panes.append(session.new_pane("buffer"))
    turn = session.panes[0].strategy.send("My secret is Otter-55.")
    assert turn.ok
    text = session.manifest().to_json()
    assert "Otter" not in text and "sk-manifest" not in text and session.user_id not in text
    session.panes[0].release()


def test_a_stored_manifest_is_checked_when_read(tmp_path: Path) -> None:
    for bad in (
        '{"version": 1, "panes": [{"strategy_id": "no_such", "params": {}, "conversation_id": "%s"}]}',
        '{"version": 1, "panes": [{"strategy_id": "window", "params": {"k": -1}, "conversation_id": "%s"}]}',
        '{"version": 1, "panes": [{"strategy_id": "window", "params": {}, "conversation_id": "../x"}]}',
        '{"version": 9, "panes": []}',
        "not json",
    ):
        with pytest.raises(LinkError):
            ConversationManifest.from_json(bad.replace("%s", new_conversation_id()))


@pytest.mark.parametrize(
    ("strategy_id", "params", "chroma", "expected"),
    [
        ("history", {"backend": "sqlite"}, False, True),
        ("history", {"backend": "memory"}, False, False),
        ("history", {"backend": "redis"}, False, True),
        ("entity", {"store": "redis"}, False, True),
        ("langgraph", {"checkpointer": "postgres"}, False, True),
        ("long_term", {"store": "sqlite"}, False, True),
        ("entity", {"store": "memory"}, False, False),
        ("vector", {"k": 2}, False, False),
        ("vector", {"k": 2}, True, True),
        ("hybrid", {}, True, True),
        ("buffer", {}, True, False),
    ],
)
def test_which_panes_keep_their_memory(strategy_id: str, params: dict, chroma: bool, expected: bool) -> None:
    storage = StorageConfig(chroma_url="http://127.0.0.1:8000" if chroma else None)
    assert is_persisted(strategy_id, params, storage) is expected


def test_a_manifest_round_trips_through_postgres_from_two_processes_worth_of_stores(
    postgres_url: str, tmp_path: Path
) -> None:
    """Behind a load balancer another process (another store object) must find the same manifest."""
    conversation, owner = new_conversation_id(), new_owner_id()
    saved = manifest()
    ManifestStore(StorageConfig(sql_url=postgres_url), tmp_path / "a").save(conversation, owner, saved)
    other = ManifestStore(StorageConfig(sql_url=postgres_url), tmp_path / "b")
    assert other.load(conversation, owner) == saved
    assert other.load(conversation, new_owner_id()) is None
    updated = ConversationManifest(panes=saved.panes[:1])
    other.save(conversation, owner, updated)
    assert ManifestStore(StorageConfig(sql_url=postgres_url), tmp_path).load(conversation, owner) == updated
    assert not (tmp_path / "a" / "conversations.sqlite").exists()  # nothing went to SQLite


@pytest.mark.parametrize("strategy_id", ["langgraph", "agent"])
def test_a_pane_rebuilt_on_a_sqlite_checkpointer_lists_the_exchanges_it_got_back(
    strategy_id: str, tmp_path: Path
) -> None:
    from memory_demos.conversation_link import RestoredExchange
    from memory_demos.panes import Pane, unseen_messages
    from memory_demos.strategies.base import StrategyContext

    context = StrategyContext(data_dir=tmp_path)
    params = {"checkpointer": "sqlite"}
    first = Pane("p1", strategy_id, params)
    first.build(context)
    assert first.strategy is not None and first.restored == []
    reply = first.strategy.send("My name is Zed and I live in Oslo.").reply
    first.release()  # the process ends; the checkpoint file stays

    again = Pane("p2", strategy_id, params, conversation_id=first.conversation_id)
    again.build(context, fresh=False)
    assert again.restored == [RestoredExchange("My name is Zed and I live in Oslo.", reply)]
    newcomer = Pane("p3", "buffer")
    newcomer.build(context)
    assert unseen_messages([again, newcomer], newcomer) == 1
    assert unseen_messages([again, newcomer], again) == 0
    assert again.memory_back and not newcomer.memory_back
    fresh = Pane("p4", strategy_id, params, conversation_id=first.conversation_id)
    fresh.build(context)  # a fresh build starts a new conversation: nothing restored
    assert fresh.restored == []
    for pane in (again, newcomer, fresh):
        pane.close()


def test_a_memory_that_keeps_no_messages_comes_back_without_claiming_it_missed_any(tmp_path: Path) -> None:
    from memory_demos.panes import Pane, unseen_messages
    from memory_demos.strategies.base import StrategyContext

    context = StrategyContext(data_dir=tmp_path)
    first = Pane("p1", "entity", {"store": "sqlite"})
    first.build(context)
    first.strategy.send("My name is Zed and I live in Oslo.")
    first.release()
    again = Pane("p2", "entity", {"store": "sqlite"}, conversation_id=first.conversation_id)
    again.build(context, fresh=False)
    other = Pane("p3", "buffer")
    other.build(context)
    other.turns.append(other.strategy.send("Hello"))
    assert again.memory_back and again.restored == []  # its notes came back, no messages to list
    assert unseen_messages([again, other], again) == 0
    for pane in (again, other):
        pane.close()
