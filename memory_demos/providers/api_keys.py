"""API keys read from the server's environment at call time: the one place the core looks a key up.

A key is deliberately not part of ``LabConfig``: that object is cached for the process and safe to log,
while a key must live only in the ``SecretStr`` of the call that needs it. The variable is whichever one
the provider names (``OPENAI_API_KEY`` by default, or ``--api-key-env``), so it is read when needed.
"""

from __future__ import annotations

import os
from typing import Any

from pydantic import SecretStr

DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"


def key_from_environment(variable: str) -> SecretStr | None:
    """The key in ``variable``, or None when it is unset or empty; never logged."""
    value = os.environ.get(variable)
    return SecretStr(value) if value else None


def resolve_openai_key(config: Any) -> SecretStr | None:
    """The key of ``config`` (a ``ProviderConfig``), else from the variable ``config.key_env_name`` names."""
    if config.api_key is not None and config.api_key.get_secret_value():
        return config.api_key
    if config.key_env_name is None:
        return None
    return key_from_environment(config.key_env_name)
