"""The app's whole configuration, read by one function from Streamlit's secrets and the environment.

``LabConfig`` gathers what was read in several places: the workshop settings and limits
(``WorkshopConfig``), where persisted memories live (``StorageConfig``), the data folder, and whether
the server has an ``OPENAI_API_KEY`` (whether, never its value). ``load_lab_config`` builds it once per
distinct set of sources in a process; pages and the session look it up instead of reading variables.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from memory_demos.defaults import DATA_DIR_ENV, DEFAULT_DATA_DIR, MAX_PANES, private_folder
from memory_demos.providers.api_keys import DEFAULT_API_KEY_ENV
from memory_demos.storage import StorageConfig
from memory_demos.workshop.settings import WorkshopConfig

# The variables the configuration depends on: a change to any of them is a new configuration.
_PREFIX = "MEMORY_LAB_"


@dataclass(frozen=True)
class LabConfig:
    """Every setting of the app; safe to log (secrets are ``SecretStr``; the server key is only a flag)."""

    workshop: WorkshopConfig = field(default_factory=WorkshopConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)
    data_dir: Path = Path(DEFAULT_DATA_DIR)
    server_openai_key: bool = False  # OPENAI_API_KEY is set on the server (its value is never kept here)
    max_panes: int = MAX_PANES

    @property
    def max_message_chars(self) -> int:
        """Longest message accepted, in characters (one reader: ``[workshop.limits]``, else its env var)."""
        return self.workshop.limits.max_message_chars

    def data_folder(self) -> Path:
        """The data folder, created owner-only on first use."""
        return private_folder(self.data_dir.expanduser())

    @classmethod
    def from_sources(cls, secrets: Mapping[str, Any] | None, environ: Mapping[str, str]) -> LabConfig:
        """Build the configuration from explicit sources (``WorkshopConfigError`` for a bad setting)."""
        return cls(
            workshop=WorkshopConfig.from_sources(secrets, environ),
            storage=StorageConfig.from_env(environ),
            data_dir=Path(environ.get(DATA_DIR_ENV) or DEFAULT_DATA_DIR),
            server_openai_key=bool(environ.get(DEFAULT_API_KEY_ENV)),
        )


def load_lab_config(
    secrets: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None
) -> LabConfig:
    """The configuration for these sources (default: no secrets, ``os.environ``), built once per process.

    Only the ``MEMORY_LAB_*`` variables and whether ``OPENAI_API_KEY`` is set are looked at; the
    result is cached under them, so a changed variable or secrets file gives a new configuration.
    """
    env = os.environ if environ is None else environ
    relevant = tuple(sorted((name, value) for name, value in env.items() if name.startswith(_PREFIX)))
    has_key = bool(env.get(DEFAULT_API_KEY_ENV))
    return _cached(json.dumps(secrets or {}, sort_keys=True, default=str), relevant, has_key)


@lru_cache(maxsize=8)
def _cached(secrets_json: str, relevant: tuple[tuple[str, str], ...], has_key: bool) -> LabConfig:
    environ = dict(relevant)
    if has_key:
        environ[DEFAULT_API_KEY_ENV] = "set"  # presence only: the value never enters the cache
    return LabConfig.from_sources(json.loads(secrets_json), environ)
