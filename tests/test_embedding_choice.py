"""Strategies use the shipped MiniLM by default and the provider's embeddings only when asked."""

from __future__ import annotations

import pytest
from langchain_openai import OpenAIEmbeddings
from pydantic import SecretStr

from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.providers.embeddings import MiniLMEmbeddings
from memory_demos.strategies.base import InputError, StrategyContext


def test_default_is_the_offline_minilm() -> None:
    assert isinstance(StrategyContext().get_embeddings(), MiniLMEmbeddings)
    openai_chat_only = ProviderConfig(kind="openai", model="gpt-4o-mini", api_key=SecretStr("sk-test-123456"))
    assert isinstance(StrategyContext(provider=openai_chat_only).get_embeddings(), MiniLMEmbeddings)


def test_openai_embeddings_when_configured() -> None:
    provider = ProviderConfig(
        kind="openai_compatible",
        model="llama3.1",
        base_url="http://127.0.0.1:9/v1",
        embeddings="openai",
        embedding_model="nomic-embed-text",
    )
    embeddings = StrategyContext(provider=provider).get_embeddings()
    assert isinstance(embeddings, OpenAIEmbeddings)
    assert embeddings.model == "nomic-embed-text"


def test_openai_embeddings_without_a_key_are_refused() -> None:
    provider = ProviderConfig(kind="openai", model="gpt-4o-mini", embeddings="openai")
    with pytest.raises(InputError, match="API key"):
        StrategyContext(provider=provider).get_embeddings()
