"""Suite-wide guards: no outbound network, a private data folder, and the offline provider."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex
_real_create_connection = socket.create_connection


class NetworkBlockedError(RuntimeError):
    """A test tried to reach a host that is not this machine."""


def _is_loopback(address: Any) -> bool:
    if isinstance(address, str | bytes):  # AF_UNIX path
        return True
    host = address[0] if isinstance(address, tuple) else address
    if host in {"localhost", ""}:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _guarded_connect(self: socket.socket, address: Any) -> Any:
    if not _is_loopback(address):
        raise NetworkBlockedError(f"Network access blocked in tests: connect to {address!r}")
    return _real_connect(self, address)


def _guarded_connect_ex(self: socket.socket, address: Any) -> Any:
    if not _is_loopback(address):
        raise NetworkBlockedError(f"Network access blocked in tests: connect to {address!r}")
    return _real_connect_ex(self, address)


def _guarded_create_connection(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
    if not _is_loopback(address):
        raise NetworkBlockedError(f"Network access blocked in tests: connect to {address!r}")
    return _real_create_connection(address, *args, **kwargs)


@pytest.fixture(autouse=True, scope="session")
def block_outbound_network() -> Iterator[None]:
    """Every test runs with outbound sockets refused; loopback stays open for local servers."""
    socket.socket.connect = _guarded_connect  # type: ignore[method-assign]
    socket.socket.connect_ex = _guarded_connect_ex  # type: ignore[method-assign]
    socket.create_connection = _guarded_create_connection  # type: ignore[assignment]
    try:
        yield
    finally:
        socket.socket.connect = _real_connect  # type: ignore[method-assign]
        socket.socket.connect_ex = _real_connect_ex  # type: ignore[method-assign]
        socket.create_connection = _real_create_connection  # type: ignore[assignment]


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test writes its SQLite files and vector stores into its own folder, never ./.memory_lab."""
    folder = tmp_path_factory.mktemp("memory_lab_data")
    monkeypatch.setenv("MEMORY_LAB_DATA_DIR", str(folder))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    return folder
