"""Conversation links: reopen your persisted panes after a reconnect or a server restart.

A link carries ``?resume=<token>`` where the token is ``<conversation id>.<owner id>.<HMAC>``: the
conversation id and owner id are random (uuid4 hex), and the HMAC (SHA-256, keyed by a server secret)
binds them, so a guessed or altered token is refused. The panes themselves are described by a small
manifest (strategy ids, parameters and each pane's own conversation id; never a message, never a key)
stored in SQLite in the data folder, or in the PostgreSQL server of ``MEMORY_LAB_SQL_URL``, keyed by the
conversation id and a hash of the owner id.

Whoever holds a link is the owner: sharing it is sharing the conversation, on purpose.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import os
import re
import secrets
import stat
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from memory_demos.defaults import is_conversation_id, private_folder
from memory_demos.storage import (
    StorageConfig,
    StorageError,
    connect,
    postgres_connection,
    postgres_setup_lock,
    sqlite_file,
)
from memory_demos.strategies.info import InputError
from memory_demos.strategies.registry import get_info

SECRET_FILE = "link_secret"
MANIFEST_FILE = "conversations.sqlite"
MANIFEST_TABLE = "memory_lab_conversation_manifests"
MANIFEST_VERSION = 1
TOKEN_VERSION = "v1"
MAX_MANIFEST_PANES = 16
_OWNER_ID = re.compile(r"^u[0-9a-f]{32}$")
_MAC = re.compile(r"^[A-Za-z0-9_-]{43}$")
# Parameter choices that keep a strategy's memory outside the process.
PERSISTED_CHOICES: dict[str, tuple[str, tuple[str, ...]]] = {
    "history": ("backend", ("sqlite", "postgres", "redis")),
    "langgraph": ("checkpointer", ("sqlite", "postgres")),
    "long_term": ("store", ("sqlite", "postgres")),
    "entity": ("store", ("sqlite", "postgres", "redis")),
    "agent": ("checkpointer", ("sqlite", "postgres")),
    "agent_trim": ("checkpointer", ("sqlite", "postgres")),
    "context_editing": ("checkpointer", ("sqlite", "postgres")),
    "semantic_store": ("store", ("sqlite", "postgres")),
}
# Strategies whose memory is persisted when the vectors live on a Chroma server.
PERSISTED_ON_CHROMA_SERVER = ("vector", "hybrid")

LinkProblem = Literal["malformed", "forged", "not_found"]


class LinkError(ValueError):
    """A conversation link that cannot be opened; ``problem`` says why (malformed, forged, not_found)."""

    def __init__(self, problem: LinkProblem, message: str) -> None:
        super().__init__(message)
        self.problem = problem


@dataclass(frozen=True)
class LinkClaim:
    """What a verified link says: which conversation, and whose."""

    conversation_id: str
    owner_id: str


def new_owner_id() -> str:
    """A random owner id (also the user id that namespaces long-term memories)."""
    import uuid

    return "u" + uuid.uuid4().hex


def is_owner_id(value: str) -> bool:
    return bool(_OWNER_ID.match(value))


def owner_hash(owner_id: str) -> str:
    """What the manifest table stores instead of the owner id."""
    return hashlib.sha256(f"memory-lab-owner|{owner_id}".encode()).hexdigest()


# -- the server secret -------------------------------------------------------------------------------
def link_secret(configured: str | None, folder: Path) -> bytes:
    """The key that signs links: ``configured`` (secrets/env), else a random file in ``folder`` (0600).

    Every process that must open the same links needs the same secret: set ``MEMORY_LAB_LINK_SECRET``
    (or ``[workshop] link_secret``) when several processes run behind a load balancer.
    """
    if configured:
        return configured.encode("utf-8")
    private_folder(folder)
    path = folder / SECRET_FILE
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(descriptor, "w", encoding="ascii") as out:
            out.write(secrets.token_hex(32))
    if stat.S_IMODE(path.stat().st_mode) & 0o077:
        os.chmod(path, 0o600)  # readable by others: tighten it rather than trust it less
    for _ in range(50):  # another process may have created the file a moment ago and not written it yet
        value = path.read_text(encoding="ascii").strip()
        if value:
            return value.encode("ascii")
        time.sleep(0.01)
    raise StorageError(f"{path} is empty: delete it and a new link secret will be made.")


# -- tokens ------------------------------------------------------------------------------------------
def _mac(conversation_id: str, owner_id: str, secret: bytes) -> str:
    digest = hmac.new(
        secret, f"{TOKEN_VERSION}|{conversation_id}|{owner_id}".encode(), hashlib.sha256
    ).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def make_token(conversation_id: str, owner_id: str, secret: bytes) -> str:
    """The ``resume`` token of a conversation and its owner."""
    if not is_conversation_id(conversation_id) or not is_owner_id(owner_id):
        raise ValueError("A link needs a conversation id and an owner id made by Memory Lab.")
    return f"{conversation_id}.{owner_id}.{_mac(conversation_id, owner_id, secret)}"


def verify_token(token: str, secret: bytes) -> LinkClaim:
    """The claim of a genuine token; ``LinkError`` for a malformed, altered or guessed one."""
    parts = token.strip().split(".") if isinstance(token, str) else []
    if len(parts) != 3 or len(token) > 200:
        raise LinkError("malformed", "This conversation link is incomplete or malformed.")
    conversation_id, owner_id, mac = parts
    if not is_conversation_id(conversation_id) or not is_owner_id(owner_id) or not _MAC.match(mac):
        raise LinkError("malformed", "This conversation link is incomplete or malformed.")
    if not hmac.compare_digest(mac, _mac(conversation_id, owner_id, secret)):
        raise LinkError("forged", "This conversation link was not made by this server, or it was altered.")
    return LinkClaim(conversation_id, owner_id)


# -- the manifest ------------------------------------------------------------------------------------
def is_persisted(strategy_id: str, params: Mapping[str, Any], storage: StorageConfig) -> bool:
    """True if this strategy with these parameters keeps its memory outside the app process."""
    if strategy_id in PERSISTED_CHOICES:
        name, choices = PERSISTED_CHOICES[strategy_id]
        return str(params.get(name, "")) in choices
    return strategy_id in PERSISTED_ON_CHROMA_SERVER and storage.uses_chroma_server


@dataclass(frozen=True)
class PaneManifest:
    """One pane: its strategy, parameters, and its own conversation id."""

    strategy_id: str
    params: dict[str, Any]
    conversation_id: str
    persisted: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "strategy_id": self.strategy_id,
            "params": dict(self.params),
            "conversation_id": self.conversation_id,
            "persisted": self.persisted,
        }


@dataclass(frozen=True)
class ConversationManifest:
    """The Compare page's panes, enough to rebuild them: no messages, no keys."""

    panes: tuple[PaneManifest, ...] = field(default_factory=tuple)
    version: int = MANIFEST_VERSION

    @property
    def persisted_count(self) -> int:
        return sum(1 for pane in self.panes if pane.persisted)

    def to_json(self) -> str:
        return json.dumps(
            {"version": self.version, "panes": [pane.to_json() for pane in self.panes]},
            sort_keys=True,
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> ConversationManifest:
        """Parse and check a stored manifest (strategy ids known, parameters valid, ids well-formed)."""
        try:
            data = json.loads(text)
            if data.get("version") != MANIFEST_VERSION or not isinstance(data.get("panes"), list):
                raise ValueError("unknown manifest version")
            panes = []
            for item in data["panes"][:MAX_MANIFEST_PANES]:
                info = get_info(str(item["strategy_id"]))
                params = info.resolve_params(item.get("params") or {})
                conversation_id = str(item["conversation_id"])
                if not is_conversation_id(conversation_id):
                    raise ValueError("bad pane conversation id")
                panes.append(PaneManifest(info.id, params, conversation_id, bool(item.get("persisted"))))
        except (ValueError, KeyError, TypeError, AttributeError, InputError) as exc:
            raise LinkError(
                "not_found", f"The saved panes of this conversation cannot be read ({exc})."
            ) from None
        return cls(panes=tuple(panes))


class ManifestStore:
    """Where manifests live: ``conversations.sqlite`` in the data folder, or PostgreSQL if configured."""

    def __init__(self, storage: StorageConfig, folder: Path) -> None:
        self.storage = storage
        self.folder = folder

    def save(self, conversation_id: str, owner_id: str, manifest: ConversationManifest) -> None:
        """Insert or replace the manifest of ``conversation_id`` for ``owner_id``."""
        row = (conversation_id, owner_hash(owner_id), manifest.to_json(), time.time())
        if self.storage.uses_postgres:
            with self._postgres() as connection:
                connection.execute(
                    f"INSERT INTO {MANIFEST_TABLE} (conversation_id, owner_hash, manifest, updated_at) "
                    "VALUES (%s, %s, %s, %s) ON CONFLICT (conversation_id, owner_hash) "
                    "DO UPDATE SET manifest = EXCLUDED.manifest, updated_at = EXCLUDED.updated_at",
                    row,
                )
            return
        with self._sqlite() as connection:
            connection.execute(
                f"INSERT INTO {MANIFEST_TABLE} (conversation_id, owner_hash, manifest, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (conversation_id, owner_hash) "
                "DO UPDATE SET manifest = excluded.manifest, updated_at = excluded.updated_at",
                row,
            )
            connection.commit()

    def load(self, conversation_id: str, owner_id: str) -> ConversationManifest | None:
        """The stored manifest, or None if this owner has none under this conversation id."""
        key = (conversation_id, owner_hash(owner_id))
        query = f"SELECT manifest FROM {MANIFEST_TABLE} WHERE conversation_id = {{0}} AND owner_hash = {{0}}"
        if self.storage.uses_postgres:
            with self._postgres() as connection:
                row = connection.execute(query.format("%s"), key).fetchone()
            text = None if row is None else (row["manifest"] if isinstance(row, Mapping) else row[0])
        else:
            with self._sqlite() as connection:
                row = connection.execute(query.format("?"), key).fetchone()
            text = None if row is None else row[0]
        return None if text is None else ConversationManifest.from_json(text)

    @contextlib.contextmanager
    def _sqlite(self) -> Iterator[Any]:
        connection = connect(sqlite_file(MANIFEST_FILE, self.folder))
        try:
            connection.execute(
                f"CREATE TABLE IF NOT EXISTS {MANIFEST_TABLE} (conversation_id TEXT NOT NULL, "
                "owner_hash TEXT NOT NULL, manifest TEXT NOT NULL, updated_at REAL NOT NULL, "
                "PRIMARY KEY (conversation_id, owner_hash))"
            )
            yield connection
        finally:
            connection.close()

    @contextlib.contextmanager
    def _postgres(self) -> Iterator[Any]:
        connection = postgres_connection(self.storage, "conversation links")
        try:
            exists = connection.execute("SELECT to_regclass(%s) AS found", (MANIFEST_TABLE,)).fetchone()
            if (exists["found"] if isinstance(exists, Mapping) else exists[0]) is None:
                with postgres_setup_lock(connection):
                    connection.execute(
                        f"CREATE TABLE IF NOT EXISTS {MANIFEST_TABLE} (conversation_id TEXT NOT NULL, "
                        "owner_hash TEXT NOT NULL, manifest TEXT NOT NULL, updated_at DOUBLE PRECISION "
                        "NOT NULL, PRIMARY KEY (conversation_id, owner_hash))"
                    )
            yield connection
        except Exception as exc:
            if isinstance(exc, StorageError):
                raise
            raise self.storage.error("conversation links: the PostgreSQL server", exc) from None
        finally:
            connection.close()


@dataclass(frozen=True)
class RestoredExchange:
    """One earlier exchange a persisted memory brought back: shown, but not recorded in this session."""

    user: str
    reply: str


def restored_exchanges(messages: Sequence[Any]) -> list[RestoredExchange]:
    """The user/assistant exchanges in a memory's stored messages, oldest first.

    An exchange starts at each human message; its reply is the last assistant text before the next one
    (an agent's tool calls and tool results are steps of the same exchange, not shown).
    """
    exchanges: list[RestoredExchange] = []
    for message in messages:
        kind = getattr(message, "type", "")
        text = str(getattr(message, "text", "") or "")
        if kind == "human":
            exchanges.append(RestoredExchange(text, ""))
        elif kind == "ai" and text and exchanges:
            exchanges[-1] = RestoredExchange(exchanges[-1].user, text)
    return exchanges


def open_link(token: str, secret: bytes, store: ManifestStore) -> tuple[LinkClaim, ConversationManifest]:
    """Verify ``token`` and load its manifest; ``LinkError`` says why a link cannot be opened."""
    claim = verify_token(token, secret)
    manifest = store.load(claim.conversation_id, claim.owner_id)
    if manifest is None:
        raise LinkError("not_found", "No saved conversation belongs to this link.")
    return claim, manifest
