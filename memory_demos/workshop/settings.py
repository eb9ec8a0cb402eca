"""Workshop settings: the ``[workshop]`` table of Streamlit's secrets, else ``MEMORY_LAB_*`` env vars.

``WorkshopConfig`` says whether workshop mode is on, holds the access and host codes, per-attendee
limits (``WorkshopLimits``), the model addresses attendees may type, and the host's own model
(``HostProvider``, whose key and address are server secrets). Each field carries its description and
the env var it falls back to.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal

from pydantic import SecretStr

from memory_demos.defaults import DEFAULT_MAX_MESSAGE_CHARS, MAX_MESSAGE_CHARS_ENV
from memory_demos.providers.url_policy import EgressPolicy, UrlRefused, origin_of

if TYPE_CHECKING:
    from memory_demos.providers.chat_models import ProviderConfig

WORKSHOP_ENV = "MEMORY_LAB_WORKSHOP"
SECRETS_TABLE = "workshop"
LINK_SECRET_ENV = "MEMORY_LAB_LINK_SECRET"
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class WorkshopConfigError(ValueError):
    """A workshop setting that cannot be used; the message names the setting, never a secret's value."""


def _describe(
    text: str, env: str, *, secret: bool = False, sensitive: bool = False, outside_workshop: Any = None
) -> dict[str, Any]:
    """Field metadata: a description, the env var it falls back to, and how carefully to treat it.

    ``secret`` fields become ``SecretStr``; ``sensitive`` ones (a server address) stay text but no error
    message ever quotes them. ``outside_workshop`` is a limit's default when workshop mode is off.
    """
    return {
        "description": text,
        "env": env,
        "secret": secret,
        "sensitive": sensitive or secret,
        "outside_workshop": outside_workshop,
    }


@dataclass(frozen=True)
class WorkshopLimits:
    """What one browser session may do in workshop mode (``[workshop.limits]`` in secrets)."""

    max_turns_per_conversation: int = field(
        default=40,
        metadata=_describe(
            "Messages one Compare conversation may send before its panes must be reset.",
            "MEMORY_LAB_MAX_TURNS",
        ),
    )
    max_message_chars: int = field(
        default=2000,
        metadata=_describe(
            "Longest message accepted, in characters (outside workshop mode: 4000 unless set).",
            MAX_MESSAGE_CHARS_ENV,
            outside_workshop=DEFAULT_MAX_MESSAGE_CHARS,
        ),
    )
    max_tokens_per_session: int = field(
        default=150_000,
        metadata=_describe(
            "Tokens (prompt, completion and memory calls) one browser session may spend; checked before "
            "each message.",
            "MEMORY_LAB_MAX_TOKENS_PER_SESSION",
        ),
    )
    max_concurrent_calls_per_session: int = field(
        default=4,
        metadata=_describe(
            "Model calls one attendee runs at the same time (all tabs and pages); the others wait.",
            "MEMORY_LAB_MAX_CONCURRENT_CALLS",
        ),
    )
    max_code_failures_per_address: int = field(
        default=10,
        metadata=_describe(
            "Wrong access or host codes one client address may give before it is locked out.",
            "MEMORY_LAB_MAX_CODE_FAILURES",
        ),
    )
    code_lockout_minutes: float = field(
        default=15.0,
        metadata=_describe(
            "How long failures are remembered and an address stays locked out.",
            "MEMORY_LAB_CODE_LOCKOUT_MINUTES",
        ),
    )
    max_code_checks_per_second: int = field(
        default=5,
        metadata=_describe(
            "Codes the whole server checks per second, from everyone; more attempts are told to wait.",
            "MEMORY_LAB_MAX_CODE_CHECKS_PER_SECOND",
        ),
    )
    idle_minutes: float = field(
        default=30.0,
        metadata=_describe(
            "A session with no activity for this long is released: its panes' memories are closed and "
            "its record dropped.",
            "MEMORY_LAB_IDLE_MINUTES",
        ),
    )

    def __post_init__(self) -> None:
        for spec in fields(self):
            value = getattr(self, spec.name)
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise WorkshopConfigError(f"workshop.limits.{spec.name} must be a positive number.")

    @property
    def idle_seconds(self) -> float:
        return self.idle_minutes * 60.0


@dataclass(frozen=True, repr=False)
class HostProvider:
    """The host's model (``[workshop.host]``): attendees use it without a key of their own.

    The key, and the base URL of a compatible server, stay on the server: the provider built from them
    is marked ``hosted``, so the interface, exports and error messages name only the model.
    """

    kind: Literal["openai", "openai_compatible"] = field(
        default="openai",
        metadata=_describe("openai, or openai_compatible (with base_url).", "MEMORY_LAB_HOST_KIND"),
    )
    model: str = field(
        default="gpt-4o-mini",
        metadata=_describe("The model name the server expects.", "MEMORY_LAB_HOST_MODEL"),
    )
    base_url: str | None = field(
        default=None,
        metadata=_describe(
            "An OpenAI-compatible endpoint, e.g. http://10.0.0.5:11434/v1; kept server-side.",
            "MEMORY_LAB_HOST_BASE_URL",
            sensitive=True,
        ),
    )
    api_key: SecretStr | None = field(
        default=None,
        metadata=_describe(
            "The host's API key; used server-side only.", "MEMORY_LAB_HOST_API_KEY", secret=True
        ),
    )

    def __post_init__(self) -> None:
        if self.kind not in ("openai", "openai_compatible"):
            raise WorkshopConfigError("workshop.host.kind must be openai or openai_compatible.")
        if not self.model.strip():
            raise WorkshopConfigError("workshop.host.model must not be empty.")
        if self.kind == "openai_compatible" and not (self.base_url or "").startswith(("http://", "https://")):
            raise WorkshopConfigError("workshop.host.base_url must start with http:// or https://.")
        if self.kind == "openai" and (self.api_key is None or not self.api_key.get_secret_value()):
            raise WorkshopConfigError("workshop.host.api_key is required for kind = openai.")

    def __repr__(self) -> str:
        return f"HostProvider(kind={self.kind!r}, model={self.model!r})"

    def provider_config(self) -> ProviderConfig:
        """The chat-model configuration sessions use; marked ``hosted`` so its secrets are never shown."""
        # Lazy, not a cycle: reading the settings should not load the chat-model stack (langchain_openai).
        from memory_demos.providers.chat_models import ProviderConfig

        return ProviderConfig(
            kind=self.kind,
            model=self.model,
            base_url=self.base_url if self.kind == "openai_compatible" else None,
            api_key=self.api_key,
            hosted=True,
            use_env_key=False,
        )


@dataclass(frozen=True, repr=False)
class WorkshopConfig:
    """Workshop mode's settings: each from ``[workshop]`` in secrets, else its env var, else the default."""

    enabled: bool = field(
        default=False,
        metadata=_describe("Turn workshop mode on (limits, the instructor view).", WORKSHOP_ENV),
    )
    access_code: SecretStr | None = field(
        default=None,
        metadata=_describe(
            "Asked once per browser session before any page opens; unset: no gate.",
            "MEMORY_LAB_ACCESS_CODE",
            secret=True,
        ),
    )
    host_code: SecretStr | None = field(
        default=None,
        metadata=_describe(
            "Opens the instructor view; unset: the access code does.", "MEMORY_LAB_HOST_CODE", secret=True
        ),
    )
    link_secret: SecretStr | None = field(
        default=None,
        metadata=_describe(
            "Signs conversation links; set the same value on every process behind a load balancer. Unset: "
            "a random secret file in the data folder.",
            LINK_SECRET_ENV,
            secret=True,
        ),
    )
    allowed_base_urls: tuple[str, ...] = field(
        default=(),
        metadata=_describe(
            "Exact origins (https://host[:port]) attendees may type as a model base URL; none by default.",
            "MEMORY_LAB_ALLOWED_BASE_URLS",
        ),
    )
    limits: WorkshopLimits = field(default_factory=WorkshopLimits)
    host: HostProvider | None = None

    def __repr__(self) -> str:
        return (
            f"WorkshopConfig(enabled={self.enabled}, access_code={'set' if self.access_code else None}, "
            f"host_code={'set' if self.host_code else None}, limits={self.limits!r}, host={self.host!r})"
        )

    @classmethod
    def from_sources(
        cls, secrets: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None
    ) -> WorkshopConfig:
        """Read ``secrets["workshop"]`` (and its ``limits`` and ``host`` tables), else ``environ``.

        ``enabled`` is on if either source turns it on. Raises ``WorkshopConfigError`` for a bad value.
        """
        table = _table(secrets or {}, SECRETS_TABLE)
        env = environ or {}
        values = _read(cls, table, env, skip={"limits", "host"})
        values["enabled"] = bool(values.get("enabled")) or _as_bool(env.get(WORKSHOP_ENV), WORKSHOP_ENV)
        limits = _read(WorkshopLimits, _table(table, "limits"), env)
        if not values["enabled"]:  # the defaults of an open app, where a limit has one
            limits = {**_outside_workshop_defaults(), **limits}
        values["limits"] = WorkshopLimits(**limits)
        if values.get("allowed_base_urls"):
            values["allowed_base_urls"] = _origins(values["allowed_base_urls"])
        host_values = _read(HostProvider, _table(table, "host"), env)
        if host_values:
            values["host"] = HostProvider(**host_values)
        return cls(**values)

    def egress_policy(self) -> EgressPolicy | None:
        """The rules for an address an attendee types (None outside workshop mode: anything goes)."""
        if not self.enabled:
            return None
        return EgressPolicy(allowed_origins=frozenset(self.allowed_base_urls))

    @property
    def instructor_code(self) -> SecretStr | None:
        """The code that opens the instructor view: the host code, else the access code."""
        return self.host_code or self.access_code


def _outside_workshop_defaults() -> dict[str, Any]:
    return {
        spec.name: spec.metadata["outside_workshop"]
        for spec in fields(WorkshopLimits)
        if spec.metadata.get("outside_workshop") is not None
    }


def _table(mapping: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = mapping.get(name)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise WorkshopConfigError(f"[{name}] in secrets must be a table.")
    return value


def _read(
    cls: type, table: Mapping[str, Any], env: Mapping[str, str], skip: Iterable[str] = ()
) -> dict[str, Any]:
    """The fields of ``cls`` present in ``table`` or (by their ``env`` metadata) in ``env``, converted."""
    values: dict[str, Any] = {}
    for spec in fields(cls):
        if spec.name in skip or "env" not in spec.metadata:
            continue
        raw = table.get(spec.name)
        source = f"workshop.{spec.name}"
        if raw is None or raw == "":
            raw = env.get(spec.metadata["env"]) or None
            source = spec.metadata["env"]
        if raw is None:
            continue
        values[spec.name] = _convert(spec.default, raw, source, spec.metadata)
    return values


def _origins(values: tuple[str, ...]) -> tuple[str, ...]:
    try:
        return tuple(dict.fromkeys(origin_of(value) for value in values))
    except UrlRefused:
        raise WorkshopConfigError(
            "workshop.allowed_base_urls must list http:// or https:// origins."
        ) from None


def _convert(default: Any, raw: Any, source: str, metadata: Mapping[str, Any]) -> Any:
    shown = "a value that is not text" if metadata["sensitive"] else repr(raw)
    if isinstance(default, tuple):
        items = raw.split(",") if isinstance(raw, str) else raw
        if not isinstance(items, list | tuple) or not all(isinstance(item, str) for item in items):
            raise WorkshopConfigError(f"{source} must be a list of text.")
        return tuple(item.strip() for item in items if item.strip())
    if isinstance(default, bool):
        return _as_bool(raw, source)
    if isinstance(default, int):
        try:
            return int(str(raw).strip()) if not isinstance(raw, int) else raw
        except ValueError:
            raise WorkshopConfigError(f"{source} must be a whole number; got {raw!r}.") from None
    if isinstance(default, float):
        try:
            return float(raw)
        except (TypeError, ValueError):
            raise WorkshopConfigError(f"{source} must be a number; got {raw!r}.") from None
    if not isinstance(raw, str):
        raise WorkshopConfigError(f"{source} must be text; got {shown}.")
    text = raw.strip()
    if metadata["secret"]:
        return SecretStr(text) if text else None
    return text or None


def _as_bool(raw: Any, source: str) -> bool:
    if isinstance(raw, bool) or raw is None:
        return bool(raw)
    text = str(raw).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise WorkshopConfigError(f"{source} must be true or false; got {raw!r}.")
