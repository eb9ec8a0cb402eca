"""Which offline embedding model a retrieval strategy uses: by its ``embeddings`` parameter and the language.

``auto`` (the default) gives MiniLM to an English session and multilingual-e5-small to a Chinese one:
MiniLM reads English only (most CJK characters are ``[UNK]`` to it), and on English the multilingual
model ranks as well but costs about three times the CPU per text (figures: ``bench embeddings``).
Naming a model (``minilm``, ``multilingual_e5``) picks it in any language.
"""

from __future__ import annotations

from types import MappingProxyType

from langchain_core.embeddings import Embeddings

from memory_demos.providers.embeddings import EMBEDDING_MODEL_LABEL
from memory_demos.providers.multilingual_embeddings import MULTILINGUAL_MODEL_LABEL

AUTO = "auto"
MINILM = "minilm"
MULTILINGUAL_E5 = "multilingual_e5"
EMBEDDING_CHOICES: tuple[str, ...] = (AUTO, MINILM, MULTILINGUAL_E5)
OFFLINE_MODEL_LABELS: MappingProxyType[str, str] = MappingProxyType(
    {MINILM: EMBEDDING_MODEL_LABEL, MULTILINGUAL_E5: MULTILINGUAL_MODEL_LABEL}
)
# The model ``auto`` picks per interface language; a language not listed gets MiniLM.
LANGUAGE_DEFAULTS: MappingProxyType[str, str] = MappingProxyType({"zh": MULTILINGUAL_E5})


def offline_model_id(choice: str, language: str) -> str:
    """The offline model ``choice`` stands for in a session of ``language``."""
    if choice == AUTO:
        return LANGUAGE_DEFAULTS.get(language, MINILM)
    if choice not in OFFLINE_MODEL_LABELS:
        raise ValueError(f"Unknown embedding model {choice!r}; known: {', '.join(EMBEDDING_CHOICES)}")
    return choice


def offline_embeddings(model_id: str) -> Embeddings:
    """The process-wide instance of an offline model (each loads once, on first use)."""
    if model_id == MULTILINGUAL_E5:
        from memory_demos.providers.multilingual_embeddings import multilingual_embeddings

        return multilingual_embeddings()
    if model_id == MINILM:
        from memory_demos.providers.embeddings import default_embeddings

        return default_embeddings()
    raise ValueError(f"Unknown embedding model {model_id!r}; known: {', '.join(OFFLINE_MODEL_LABELS)}")
