"""Benchmarks that print figures, never timed assertions: ``python -m memory_demos bench …``.

``engine`` (overhead, panes) and ``model`` run in-process on the offline model; ``embeddings`` ranks
the offline embedding models on ``embedding_eval.yaml`` and times them; ``render`` and
``workshop`` start the app (``server``) and drive it with websocket clients (``ws_client``,
``workshop_ws``) or browsers (``workshop_browser``, launched as the e2e tests launch them:
``chromium``); ``redis_capacity`` measures a conversation's bytes in Redis.
"""

from __future__ import annotations

from memory_demos.bench.engine import overhead, panes
from memory_demos.bench.model import model_speed

__all__ = ["embeddings", "model_speed", "overhead", "panes", "render", "workshop"]


def embeddings(repeats: int | None = None) -> int:
    """The offline embedding models' retrieval quality and cost (see ``bench/embeddings.py``)."""
    from memory_demos.bench.embeddings import run_embedding_bench

    return run_embedding_bench(repeats=repeats)


def workshop(
    sessions: int = 40,
    panes: int = 4,
    turns: int | None = None,
    url: str | None = None,
    client: str = "browser",
    think_seconds: float | None = None,
    warm: bool = False,
) -> int:
    """Drive concurrent app sessions against a server (see ``bench/workshop.py``)."""
    from memory_demos.bench.workshop import DEFAULT_THINK_SECONDS, run_load

    return run_load(
        sessions=sessions,
        panes=panes,
        turns=turns or 5,
        url=url,
        client=client,
        think_seconds=DEFAULT_THINK_SECONDS if think_seconds is None else think_seconds,
        warm=warm,
    )


def render(panes: int = 4, turns: int | None = None, repeats: int | None = None) -> int:
    """Server CPU per Compare message as the conversation grows (see ``bench/render.py``)."""
    from memory_demos.bench.render import run_render

    return run_render(panes=panes, turns=turns or 30, repeats=repeats or 1)
