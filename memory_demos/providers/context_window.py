"""How many tokens the model can take: from a table of known models, from the server, or assumed.

The gauge and the overflow messages need the real window. OpenAI models come from the table
below (each row names where its figure was read). A local server is asked when it tells:
llama.cpp's ``/props`` (the context it was started with), vLLM's ``/v1/models``
(``max_model_len``), LM Studio's ``/api/v0/models`` and Ollama's ``/api/show``. Otherwise
the window is a Settings value, or a guess that the interface labels "assumed".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from memory_demos.i18n import Message
from memory_demos.providers.api_keys import resolve_openai_key

ASSUMED_CONTEXT_WINDOW = 8_192
PROBE_TIMEOUT_SECONDS = 3.0
OPENAI_MODELS_PAGE = "platform.openai.com/docs/models (checked November 2026)"

# (model-name prefix, tokens, source); the longest matching prefix wins.
KNOWN_CONTEXT_WINDOWS: tuple[tuple[str, int, str], ...] = (
    ("gpt-4o", 128_000, OPENAI_MODELS_PAGE),
    ("gpt-4.1", 1_047_576, OPENAI_MODELS_PAGE),
    ("gpt-5", 400_000, OPENAI_MODELS_PAGE),
    ("gpt-4-turbo", 128_000, OPENAI_MODELS_PAGE),
    ("gpt-4", 8_192, OPENAI_MODELS_PAGE),
    ("gpt-3.5-turbo", 16_385, OPENAI_MODELS_PAGE),
    ("o1", 200_000, OPENAI_MODELS_PAGE),
    ("o3", 200_000, OPENAI_MODELS_PAGE),
    ("o4-mini", 200_000, OPENAI_MODELS_PAGE),
)


@dataclass(frozen=True)
class ContextWindow:
    """A context window in tokens, where the figure came from, and whether it is only a guess."""

    tokens: int
    source: str
    assumed: bool = False


_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
# A table row's source, as known_context_window writes it: "<model> from <page> (checked <Month> <year>)".
_TABLE_SOURCE = re.compile(
    rf"(?P<model>\S+) from (?P<page>\S+) \(checked (?P<month>{'|'.join(_MONTHS)}) (?P<year>\d{{4}})\)"
)


def describe_source(window: ContextWindow) -> str:
    """Where the window's figure came from, as a message a view shows in its language (a table's or
    server's own names and fields stay as they are)."""
    kind, _, detail = window.source.partition(": ")
    if window.source == "Settings":
        return Message("window.source.settings")
    unknown_model = re.match(r"(.+) is not in the table", detail)
    if kind == "assumed" and detail.startswith("the offline teaching model"):
        return Message("window.source.offline")
    if kind == "assumed" and unknown_model:
        return Message("window.source.assumed", model=unknown_model.group(1))
    from_table = _TABLE_SOURCE.fullmatch(detail) if kind == "table" else None
    if from_table is not None:
        month = Message(f"month.{_MONTHS.index(from_table.group('month')) + 1}")
        return Message(
            "window.source.table_checked",
            model=from_table.group("model"),
            page=from_table.group("page"),
            month=month,
            year=from_table.group("year"),
        )
    if kind in ("table", "server"):
        return Message(f"window.source.{kind}", detail=detail)
    return window.source


def known_context_window(model: str) -> ContextWindow | None:
    """The table's window for ``model`` (longest matching prefix), or None."""
    name = model.lower()
    matches = [row for row in KNOWN_CONTEXT_WINDOWS if name.startswith(row[0])]
    if not matches:
        return None
    prefix, tokens, source = max(matches, key=lambda row: len(row[0]))
    return ContextWindow(tokens, f"table: {prefix} from {source}")


def assumed_context_window(model: str) -> ContextWindow:
    """The guess for a model nobody described: labelled as such everywhere it shows."""
    return ContextWindow(
        ASSUMED_CONTEXT_WINDOW,
        f"assumed: {model!r} is not in the table and the server did not say; set it in Settings",
        assumed=True,
    )


def _server_root(base_url: str) -> str:
    """``http://host:8080/v1`` → ``http://host:8080`` (llama.cpp, Ollama and LM Studio serve there)."""
    return re.sub(r"/v1/?$", "", base_url.rstrip("/"))


def _positive_int(value: Any) -> int | None:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if number > 0 else None


def _from_models_list(payload: Any, model: str) -> ContextWindow | None:
    """vLLM's ``max_model_len`` (or a ``context_length`` field some servers add) for ``model``."""
    rows = payload.get("data") if isinstance(payload, dict) else None
    if not isinstance(rows, list):
        return None
    rows = [row for row in rows if isinstance(row, dict)]
    chosen = [row for row in rows if row.get("id") == model] or (rows if len(rows) == 1 else [])
    for row in chosen:
        for field in ("max_model_len", "context_length", "max_context_length", "loaded_context_length"):
            tokens = _positive_int(row.get(field))
            if tokens:
                return ContextWindow(tokens, f"server: /v1/models {field}")
    return None


def _from_llama_cpp_props(payload: Any) -> ContextWindow | None:
    """llama.cpp's ``/props``: the ``n_ctx`` the server runs with (per slot)."""
    if not isinstance(payload, dict):
        return None
    settings = payload.get("default_generation_settings")
    candidates = [payload.get("n_ctx"), settings.get("n_ctx") if isinstance(settings, dict) else None]
    for value in candidates:
        tokens = _positive_int(value)
        if tokens:
            return ContextWindow(tokens, "server: llama.cpp /props n_ctx")
    return None


def _from_ollama_show(payload: Any) -> ContextWindow | None:
    """Ollama's ``/api/show``: ``num_ctx`` if the model sets it, else the trained length (a ceiling)."""
    if not isinstance(payload, dict):
        return None
    parameters = str(payload.get("parameters") or "")
    match = re.search(r"^\s*num_ctx\s+(\d+)", parameters, re.MULTILINE)
    if match:
        return ContextWindow(int(match.group(1)), "server: Ollama /api/show num_ctx")
    info = payload.get("model_info")
    if isinstance(info, dict):
        for key, value in info.items():
            tokens = _positive_int(value) if str(key).endswith(".context_length") else None
            if tokens:
                # Ollama runs with its own num_ctx default, which may be far below what the model supports.
                return ContextWindow(
                    tokens,
                    "assumed: Ollama reports the model's trained length; the server may run it with a "
                    "smaller num_ctx (set num_ctx, or the window in Settings)",
                    assumed=True,
                )
    return None


def _from_lm_studio(payload: Any, model: str) -> ContextWindow | None:
    """LM Studio's ``/api/v0/models``: the loaded context length, else the model's maximum."""
    rows = payload.get("data") if isinstance(payload, dict) else None
    for row in rows if isinstance(rows, list) else []:
        if isinstance(row, dict) and row.get("id") == model:
            for field in ("loaded_context_length", "max_context_length"):
                tokens = _positive_int(row.get(field))
                if tokens:
                    return ContextWindow(tokens, f"server: LM Studio /api/v0/models {field}")
    return None


def ask_server(
    base_url: str, model: str, api_key: str | None = None, timeout: float = PROBE_TIMEOUT_SECONDS
) -> ContextWindow | None:
    """Ask an OpenAI-compatible server for ``model``'s context window; None if it does not tell.

    Only the server at ``base_url`` is asked (its ``/v1/models`` and the well-known endpoints of
    llama.cpp, Ollama and LM Studio on the same host); any failure means "does not tell".
    """
    import httpx

    root = _server_root(base_url)
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    probes: tuple[tuple[str, str, Any], ...] = (
        ("GET", f"{root}/props", _from_llama_cpp_props),
        ("GET", f"{base_url.rstrip('/')}/models", lambda payload: _from_models_list(payload, model)),
        ("POST", f"{root}/api/show", _from_ollama_show),
        ("GET", f"{root}/api/v0/models", lambda payload: _from_lm_studio(payload, model)),
    )
    with httpx.Client(timeout=timeout, follow_redirects=False, headers=headers) as client:
        for method, url, read in probes:
            try:
                body = {"model": model} if method == "POST" else None
                response = client.request(method, url, json=body)
            except Exception:  # refused, blocked, too slow: no other endpoint of it will answer either
                return None
            try:
                found = read(response.json()) if response.status_code == 200 else None
            except Exception:  # not JSON, an odd shape: this endpoint does not tell
                found = None
            if found is not None:
                return found
    return None


def with_server_context_window(config: Any) -> Any:  # a ProviderConfig (chat_models imports this module)
    """``config`` with the window its server reports, when the table does not know the model."""
    if config.base_url is None or known_context_window(config.model) is not None:
        return config
    key = resolve_openai_key(config)
    found = ask_server(config.base_url, config.model, key.get_secret_value() if key else None)
    if found is None:
        return config
    return config.with_overrides(context_window_tokens=found.tokens, context_window_source=found.source)
