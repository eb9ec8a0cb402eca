"""Where Memory Lab keeps its files, and the limits it enforces; each falls back to an env var."""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path

DATA_DIR_ENV = "MEMORY_LAB_DATA_DIR"
DEFAULT_DATA_DIR = ".memory_lab"
DEFAULT_SYSTEM_PROMPT = "You are a helpful assistant. Answer briefly."
MAX_MESSAGE_CHARS_ENV = "MEMORY_LAB_MAX_MESSAGE_CHARS"
DEFAULT_MAX_MESSAGE_CHARS = 4000

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


def max_message_chars() -> int:
    """Longest user message accepted, in characters."""
    raw = os.environ.get(MAX_MESSAGE_CHARS_ENV, "")
    return int(raw) if raw.isdigit() and int(raw) > 0 else DEFAULT_MAX_MESSAGE_CHARS


def new_conversation_id() -> str:
    """A random, unguessable conversation id (uuid4, hex: also a valid Python identifier tail)."""
    return uuid.uuid4().hex


def is_conversation_id(value: str) -> bool:
    """True when ``value`` has the shape of an id made by ``new_conversation_id``."""
    return bool(_CONVERSATION_ID.match(value))
