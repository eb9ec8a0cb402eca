"""Which addresses the server may call for a model someone typed in the browser.

In a hosted workshop the *server* makes the HTTP request, so a base URL typed by an attendee would let
them aim the host's machine at its own network. ``EgressPolicy`` is the host's decision: off unless the
origin is listed in ``[workshop] allowed_base_urls``; when listed, every request (redirects included,
though none is followed) resolves the name and goes only to public addresses, pinned to the address
that was checked so a second DNS answer cannot point inside. Outside workshop mode no policy applies:
``http://localhost:11434/v1`` keeps working for local use.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlsplit

import httpx

from memory_demos.i18n import Message

MAX_TIMEOUT_SECONDS = 60.0
_DEFAULT_PORTS = {"http": 80, "https": 443}
# Cloud metadata endpoints that are not link-local in every cloud (AWS IPv6, Alibaba).
_METADATA = {ipaddress.ip_address("fd00:ec2::254"), ipaddress.ip_address("100.100.100.200")}

Resolver = Callable[[str, int], list[str]]
AddressCheck = Callable[[str], bool]


RefusalReason = Literal[
    "invalid", "scheme", "unresolved", "credentials", "query", "not_allowed", "private", "left_allowed"
]


class UrlRefused(ValueError):
    """A base URL or request address the policy refuses; ``reason`` says why (``url.<reason>``)."""

    def __init__(self, reason: RefusalReason) -> None:
        super().__init__(Message(f"url.{reason}"))
        self.reason = reason


def origin_of(url: str) -> str:
    """``scheme://host[:port]``, lower case, no default port; ``UrlRefused`` unless http(s)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        raise UrlRefused("invalid") from None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        raise UrlRefused("scheme")
    host = parts.hostname.lower().rstrip(".")
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}" + (f":{port}" if port and port != _DEFAULT_PORTS[scheme] else "")


def is_public_address(address: str) -> bool:
    """True for a globally routable unicast address; False for loopback, private, link-local, metadata..."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if embedded is not None and not is_public_address(str(embedded)):
            return False
    return ip.is_global and not ip.is_multicast and ip not in _METADATA


def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (IPv4 and IPv6)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise UrlRefused("unresolved") from None
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


@dataclass(frozen=True)
class EgressPolicy:
    """The rules for a model address typed in the browser of a workshop attendee.

    ``allowed_origins`` are exact origins (``https://api.example.com``); ``resolver`` and
    ``address_allowed`` are injectable so tests can point a name at an address without real DNS.
    """

    allowed_origins: frozenset[str] = frozenset()
    max_timeout_seconds: float = MAX_TIMEOUT_SECONDS
    resolver: Resolver = field(default=resolve, compare=False, repr=False)
    address_allowed: AddressCheck = field(default=is_public_address, compare=False, repr=False)

    @classmethod
    def from_origins(cls, origins: Iterable[str]) -> EgressPolicy:
        return cls(allowed_origins=frozenset(origin_of(origin) for origin in origins))

    def check_url(self, url: str) -> str:
        """The URL, stripped, if its shape and origin are allowed; ``UrlRefused`` otherwise (no DNS here)."""
        url = url.strip()
        origin = origin_of(url)
        parts = urlsplit(url)
        if parts.username is not None or parts.password is not None:
            raise UrlRefused("credentials")
        if parts.query or parts.fragment or "?" in url or "#" in url:
            raise UrlRefused("query")
        if origin not in self.allowed_origins:
            raise UrlRefused("not_allowed")
        return url

    def pinned_address(self, host: str, port: int) -> str:
        """The address to connect to: ``host`` resolved, refused if any answer is not public."""
        addresses = self.resolver(host, port)
        if not addresses:
            raise UrlRefused("unresolved")
        if not all(self.address_allowed(address) for address in addresses):
            raise UrlRefused("private")
        return addresses[0]

    def vet(self, request: httpx.Request) -> None:
        """Check one outgoing request and pin it to the address that was checked (keeps Host and SNI)."""
        url = request.url
        if origin_of(str(url)) not in self.allowed_origins:
            raise UrlRefused("left_allowed")
        host = url.host
        port = url.port or _DEFAULT_PORTS[url.scheme]
        address = self.pinned_address(host, port)
        if url.scheme == "https":
            request.extensions = {**request.extensions, "sni_hostname": host}
        request.url = url.copy_with(host=address)

    def transport(self) -> httpx.BaseTransport:
        """A transport that vets every request it sends (to wrap, or to give an ``httpx.Client``)."""
        return _GuardedTransport(self)

    def clients(self, timeout: float) -> tuple[httpx.Client, httpx.AsyncClient]:
        """Sync and async HTTP clients that vet every request, never follow redirects and cap the timeout."""
        timeout = min(timeout, self.max_timeout_seconds)
        sync = httpx.Client(transport=_GuardedTransport(self), follow_redirects=False, timeout=timeout)
        async_ = httpx.AsyncClient(
            transport=_AsyncGuardedTransport(self), follow_redirects=False, timeout=timeout
        )
        return sync, async_


class _GuardedTransport(httpx.HTTPTransport):
    def __init__(self, policy: EgressPolicy, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._policy = policy

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self._policy.vet(request)
        return super().handle_request(request)


class _AsyncGuardedTransport(httpx.AsyncHTTPTransport):
    def __init__(self, policy: EgressPolicy, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._policy = policy

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self._policy.vet(request)  # getaddrinfo blocks briefly; the async path is rarely used here
        return await super().handle_async_request(request)


def url_refusal(policy: EgressPolicy, url: str) -> Message | None:
    """Why ``policy`` refuses ``url`` (shape, allow-list, then what it resolves to), as a message; or None."""
    try:
        policy.check_url(url)
        parts = urlsplit(url.strip())
        policy.pinned_address(parts.hostname or "", parts.port or _DEFAULT_PORTS[parts.scheme.lower()])
    except UrlRefused as exc:
        return Message(f"url.{exc.reason}")
    return None
