"""One cheap request that says whether a provider answers, before anyone waits on a run against it.

``check_provider`` asks the server for its model list (``GET <base URL>/models``: no tokens spent), once,
with no retries, bounded by the provider's timeout, through the workshop's address rules when they apply.
It returns plain data: a failure kind in the vocabulary of ``providers.errors.error_kind`` (the views
translate it) and, for a server at an address the user chose, the model names it lists.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from memory_demos.providers.api_keys import resolve_openai_key

OPENAI_BASE_URL = "https://api.openai.com/v1"
# HTTP statuses that name a kind of failure; any other answer means the server is there.
_STATUS_KINDS = {401: "authentication", 403: "permission"}
MAX_LISTED_MODELS = 50


@dataclass(frozen=True)
class ProviderCheck:
    """What the check found: ``kind`` is None when the server answered and accepted the request.

    ``models`` are the names it lists (empty when it lists none, or for the workshop's own model, whose
    server is the host's business); ``status`` the HTTP status, None when no answer came.
    """

    kind: str | None
    seconds: float
    models: tuple[str, ...] = ()
    status: int | None = None
    detail: str = ""  # the transport's own words for a failure (no secrets: it names no key)

    @property
    def ok(self) -> bool:
        return self.kind is None

    def lists(self, model: str) -> bool | None:
        """Whether the server lists ``model``; None when it lists nothing (it may still serve it)."""
        return model in self.models if self.models else None


def _model_names(payload: Any) -> tuple[str, ...]:
    data = payload.get("data") if isinstance(payload, dict) else None
    if not isinstance(data, list):
        return ()
    names = [str(entry["id"]) for entry in data if isinstance(entry, dict) and entry.get("id")]
    return tuple(dict.fromkeys(names))[:MAX_LISTED_MODELS]


def _failure_kind(error: BaseException) -> str:
    """The kind of a request that got no answer: refused by a workshop rule, too slow, or unreachable."""
    import httpx

    chain: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and len(chain) < 10:
        chain.append(current)
        current = current.__cause__ or current.__context__
    names = {cls.__name__ for item in chain for cls in type(item).__mro__}
    if "UrlRefused" in names:
        return "url_refused"
    if any(isinstance(item, httpx.TimeoutException) for item in chain):
        return "timeout"
    return "connection"


def models_url(config: Any) -> str | None:
    """Where ``config`` (a ``ProviderConfig``) lists its models; None for the offline model."""
    if config.kind == "offline":
        return None
    base_url = config.base_url or (OPENAI_BASE_URL if config.kind == "openai" else None)
    return f"{base_url.rstrip('/')}/models" if base_url else None


def check_provider(config: Any, timeout: float | None = None) -> ProviderCheck | None:
    """Ask ``config``'s server for its model list once; None for the offline model (nothing to ask).

    Bounded by ``timeout`` (default: the provider's own), never retried.
    """
    import httpx

    url = models_url(config)
    if url is None:
        return None
    bound = min(timeout or config.timeout_seconds, config.timeout_seconds)
    key = resolve_openai_key(config)
    headers = {"Authorization": f"Bearer {key.get_secret_value()}"} if key is not None else {}
    started = time.perf_counter()
    try:
        transport = config.egress.transport() if config.egress is not None else None  # the host's rules
        if config.egress is not None:
            bound = min(bound, config.egress.max_timeout_seconds)
        with httpx.Client(transport=transport, timeout=bound, follow_redirects=False) as client:
            response = client.get(url, headers=headers)
    except Exception as exc:  # refused, unreachable, too slow
        kind = _failure_kind(exc)
        detail = "" if config.generic_errors else f"GET {url}: {type(exc).__name__}"
        return ProviderCheck(kind, time.perf_counter() - started, detail=detail)
    seconds = time.perf_counter() - started
    status = response.status_code
    if status in _STATUS_KINDS:
        return ProviderCheck(_STATUS_KINDS[status], seconds, status=status)
    models: tuple[str, ...] = ()
    if status == 200 and not config.hosted:
        try:
            models = _model_names(response.json())
        except ValueError:  # not JSON: the server is there, it just lists nothing we can read
            models = ()
    return ProviderCheck(None, seconds, models=models, status=status)
