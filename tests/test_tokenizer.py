"""The offline tiktoken set-up gives the genuine encoders, and our message counts match OpenAI's."""

from __future__ import annotations

import hashlib

import pytest
import tiktoken
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_openai import ChatOpenAI

from memory_demos.providers import tokenizer


def test_seeded_vocabularies_match_tiktokens_expected_hashes(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    folder = tokenizer.seed_tiktoken_cache()
    assert folder == tmp_path
    for name, url in tokenizer._VOCABULARY_URLS.items():
        cached = tmp_path / hashlib.sha1(url.encode()).hexdigest()
        assert hashlib.sha256(cached.read_bytes()).hexdigest() == tokenizer._VOCABULARY_SHA256[name]


def test_known_token_ids_with_network_blocked() -> None:
    # Reference ids published in OpenAI's tiktoken README and cookbook.
    assert tokenizer.encode("hello world", "cl100k_base") == [15339, 1917]
    assert tokenizer.encode("tiktoken is great!", "cl100k_base") == [83, 1609, 5963, 374, 2294, 0]
    encoding = tokenizer.get_encoding("o200k_base")
    assert encoding.n_vocab > 199_000
    assert tiktoken.get_encoding("o200k_base").encode("hello world") == encoding.encode("hello world")


def test_user_typed_special_tokens_are_counted_as_text() -> None:
    ids = tokenizer.encode("<|endoftext|>", "o200k_base")
    assert len(ids) > 1
    assert 199999 not in ids


@pytest.mark.parametrize(
    ("model", "encoding", "approximate"),
    [
        ("gpt-4o-mini", "o200k_base", False),
        ("gpt-4.1", "o200k_base", False),
        ("gpt-5", "o200k_base", False),
        ("o3-mini", "o200k_base", False),
        ("gpt-4", "cl100k_base", False),
        ("gpt-3.5-turbo", "cl100k_base", False),
        ("llama3.1:8b", "o200k_base", True),
    ],
)
def test_model_names_map_to_their_encodings(model: str, encoding: str, approximate: bool) -> None:
    choice = tokenizer.choose_encoding(model)
    assert (choice.encoding_name, choice.approximate) == (encoding, approximate)
    assert ("approximate" in choice.label) is approximate


@pytest.mark.parametrize(("model", "encoding"), [("gpt-4o", "o200k_base"), ("gpt-4", "cl100k_base")])
def test_message_count_equals_chat_openai_count(model: str, encoding: str) -> None:
    messages = [
        SystemMessage("You are a helpful assistant."),
        HumanMessage("Hi, my name is Mara. 我叫小明。"),
        AIMessage("Nice to meet you, Mara!"),
        HumanMessage("What's my name?"),
    ]
    expected = ChatOpenAI(model=model, api_key="sk-test-not-used").get_num_tokens_from_messages(messages)
    assert tokenizer.count_messages_tokens(messages, encoding) == expected


def test_tool_messages_are_counted() -> None:
    call = AIMessage("", tool_calls=[{"name": "get_weather", "args": {"city": "Lisbon"}, "id": "call_1"}])
    result = ToolMessage("sunny", tool_call_id="call_1")
    assert tokenizer.count_message_tokens(call) > tokenizer.count_message_tokens(AIMessage(""))
    assert tokenizer.count_message_tokens(result) > tokenizer.count_message_tokens(
        ToolMessage("", tool_call_id="")
    )


def test_remembered_counts_match_a_fresh_encoding_and_the_cache_keeps_no_text() -> None:
    said = "Turn 7: my name is Ada, I live in Lisbon and I like tea."
    first = tokenizer.count_text_tokens(said, "cl100k_base")
    assert (
        first
        == tokenizer.count_text_tokens(said, "cl100k_base")
        == len(tokenizer.encode(said, "cl100k_base"))
    )
    # The same text under another encoding is a different count, not the remembered one.
    chinese = "你好，世界。" * 5
    assert tokenizer.count_text_tokens(chinese, "cl100k_base") == len(
        tokenizer.encode(chinese, "cl100k_base")
    )
    assert tokenizer.count_text_tokens(chinese, "o200k_base") == len(tokenizer.encode(chinese, "o200k_base"))
    assert len(tokenizer.encode(chinese, "cl100k_base")) != len(tokenizer.encode(chinese, "o200k_base"))
    # Keys are digests: a user's words never sit in the process-wide cache.
    assert all(isinstance(digest, bytes) and b"Ada" not in digest for digest, _ in tokenizer._counts)
    assert len(tokenizer._counts) <= tokenizer._COUNT_CACHE_ENTRIES
