"""The names and defaults of Memory Lab's settings, the default system prompt, and conversation ids.

Nothing here reads the environment: ``lab_config.load_lab_config`` is the one reader, and every value
the app uses comes from the ``LabConfig`` it builds (the defaults below apply when a variable is unset).
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

DATA_DIR_ENV = "MEMORY_LAB_DATA_DIR"
DEFAULT_DATA_DIR = ".memory_lab"
DEFAULT_SYSTEM_PROMPT = "You are a helpful assistant. Answer briefly."
DEFAULT_SYSTEM_PROMPT_ZH = "你是一个乐于助人的助手。请简短回答。"
MAX_MESSAGE_CHARS_ENV = "MEMORY_LAB_MAX_MESSAGE_CHARS"
# Outside workshop mode a message may be longer than in a workshop (``WorkshopLimits``: 2000).
DEFAULT_MAX_MESSAGE_CHARS = 4000
# Panes of the Compare page; also how many threads answer one message at once.
MAX_PANES = 8

_CONVERSATION_ID = re.compile(r"^[0-9a-f]{32}$")


def private_folder(folder: Path) -> Path:
    """``folder``, made owner-only (0700) if missing; an existing one keeps its mode (it may be shared)."""
    if not folder.is_dir():
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        folder.chmod(0o700)  # mkdir's mode is masked by the umask; this is exact
    return folder


def default_system_prompt(language: str) -> str:
    """The default system prompt in the conversation's ``language``: a Chinese page's prompt is Chinese."""
    return DEFAULT_SYSTEM_PROMPT_ZH if language == "zh" else DEFAULT_SYSTEM_PROMPT


def new_conversation_id() -> str:
    """A random, unguessable conversation id (uuid4, hex: also a valid Python identifier tail)."""
    return uuid.uuid4().hex


def is_conversation_id(value: str) -> bool:
    """True when ``value`` has the shape of an id made by ``new_conversation_id``."""
    return bool(_CONVERSATION_ID.match(value))
