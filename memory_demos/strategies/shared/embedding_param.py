"""The ``embeddings`` parameter the retrieval strategies declare (``vector``, ``semantic_store``, ``hybrid``).

One spec, so the choices and their help read the same in every pane; what each choice loads is
``providers.embedding_choice``.
"""

from __future__ import annotations

from memory_demos.providers.embedding_choice import AUTO, EMBEDDING_CHOICES
from memory_demos.strategies.info import ParamSpec

EMBEDDINGS_PARAM = ParamSpec(
    "embeddings",
    AUTO,
    "The embedding model: auto (MiniLM in English, multilingual-e5-small in Chinese, the provider's when "
    "it is configured for embeddings), minilm (English only, fastest) or multilingual_e5 (reads Chinese, "
    "English and both mixed).",
    choices=EMBEDDING_CHOICES,
    help_zh="嵌入模型：auto（英文用 MiniLM，中文用 multilingual-e5-small；若提供方配置了嵌入则用提供方的）、"
    "minilm（只读英文，最快）或 multilingual_e5（读中文、英文及两者混合）。",
)
