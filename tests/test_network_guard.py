"""The suite's network guard really refuses outbound connections and allows loopback."""

import socket

import pytest

from tests.conftest import NetworkBlockedError


def test_outbound_connection_is_refused() -> None:
    with pytest.raises(NetworkBlockedError):
        socket.create_connection(("93.184.215.14", 443), timeout=1)


def test_loopback_is_allowed() -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    client = socket.create_connection(("127.0.0.1", port), timeout=2)
    client.close()
    server.close()
