"""Where Memory Lab keeps its files, the default system prompt, and the defaults of its limits.

Every limit is read in one place, ``WorkshopConfig.from_sources`` (``[workshop.limits]`` in secrets,
else its ``MEMORY_LAB_*`` env var, else its default), in and outside workshop mode alike.
"""

from __future__ import annotations

import os
import re
import uuid
from collections.abc import Mapping
from pathlib import Path

DATA_DIR_ENV = "MEMORY_LAB_DATA_DIR"
DEFAULT_DATA_DIR = ".memory_lab"
DEFAULT_SYSTEM_PROMPT = "You are a helpful assistant. Answer briefly."
MAX_MESSAGE_CHARS_ENV = "MEMORY_LAB_MAX_MESSAGE_CHARS"
# Outside workshop mode a message may be longer than in a workshop (``WorkshopLimits``: 2000).
DEFAULT_MAX_MESSAGE_CHARS = 4000
# Panes of the Compare page; also how many threads answer one message at once.
MAX_PANES = 8

_CONVERSATION_ID = re.compile(r"^[0-9a-f]{32}$")


def data_dir() -> Path:
    """The folder that holds every SQLite file and the persistent chromadb; created on demand (0700)."""
    return private_folder(Path(os.environ.get(DATA_DIR_ENV) or DEFAULT_DATA_DIR).expanduser())


def private_folder(folder: Path) -> Path:
    """``folder``, made owner-only (0700) if missing; an existing one keeps its mode (it may be shared)."""
    if not folder.is_dir():
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        folder.chmod(0o700)  # mkdir's mode is masked by the umask; this is exact
    return folder


def max_message_chars(environ: Mapping[str, str] | None = None) -> int:
    """Longest user message accepted, in characters, as the environment sets it.

    The app reads the limit with its secrets through ``WorkshopConfig``; this is the same reader
    without secrets, for callers without Streamlit (``WorkshopConfigError`` for a bad value).
    """
    from memory_demos.workshop.config import WorkshopConfig

    config = WorkshopConfig.from_sources(None, os.environ if environ is None else environ)
    return config.limits.max_message_chars


def new_conversation_id() -> str:
    """A random, unguessable conversation id (uuid4, hex: also a valid Python identifier tail)."""
    return uuid.uuid4().hex


def is_conversation_id(value: str) -> bool:
    """True when ``value`` has the shape of an id made by ``new_conversation_id``."""
    return bool(_CONVERSATION_ID.match(value))
