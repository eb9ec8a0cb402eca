"""A light client of a running app that speaks Streamlit's own websocket protocol, for the benchmarks.

It does what the browser does on the wire and nothing else: it opens ``/_stcore/stream``, asks for a
page with a ``BackMsg(rerun_script=ClientState(...))``, reads the ``ForwardMsg`` deltas into a flat
element list, and answers widgets by id (a chat message is a ``chat_input_value``, a click a
``trigger_value``). It reports the hashes of the cacheable messages it received, as the browser
does, so the server sends references instead of repeating large elements. One asyncio loop holds
a hundred of these for a fraction of one core, so a load test measures the server, not browsers.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

# Element fields whose text the page shows (what a cross-talk check must read).
TEXT_FIELDS: dict[str, tuple[str, ...]] = {
    "text": ("body",),
    "markdown": ("body",),
    "code": ("code_text",),
    "alert": ("body",),
    "exception": ("type", "message"),
    "heading": ("body",),
}
RUN_TIMEOUT_SECONDS = 180.0
MAX_MESSAGE_BYTES = 64 * 1024 * 1024


def stream_url(base_url: str) -> str:
    """The websocket endpoint a browser opens for the app at ``base_url``."""
    return base_url.replace("http://", "ws://").replace("https://", "wss://").rstrip("/") + "/_stcore/stream"


def rerun_message(
    widgets: Iterable[WidgetState] = (),
    *,
    page_script_hash: str = "",
    page_name: str = "",
    cached_message_hashes: Iterable[str] = (),
) -> BackMsg:
    """The ``BackMsg`` a browser sends to run the page script with these widget values."""
    client_state = ClientState(
        page_script_hash=page_script_hash,
        page_name=page_name,
        cached_message_hashes=list(cached_message_hashes),
    )
    client_state.widget_states.widgets.extend(widgets)
    return BackMsg(rerun_script=client_state)


def trigger(widget_id: str) -> WidgetState:
    """A button click (a trigger value) for the widget ``widget_id``."""
    return WidgetState(id=widget_id, trigger_value=True)


class ProtocolError(RuntimeError):
    """The server sent something this client cannot follow (a closed socket, a page not found, ...)."""


@dataclass
class Element:
    """One element drawn by the last finished script run: its kind and its protobuf."""

    path: tuple[int, ...]
    kind: str
    proto: Any

    @property
    def texts(self) -> list[str]:
        inner = getattr(self.proto, self.kind)
        return [str(getattr(inner, name)) for name in TEXT_FIELDS.get(self.kind, ())]

    @property
    def widget_id(self) -> str | None:
        inner = getattr(self.proto, self.kind, None)
        widget_id = getattr(inner, "id", None)
        return str(widget_id) if widget_id else None

    @property
    def label(self) -> str:
        return str(getattr(getattr(self.proto, self.kind), "label", ""))


@dataclass
class RunResult:
    """What one script run sent: how it ended and how many messages of each kind."""

    status: str | None = None
    counts: dict[str, int] = field(default_factory=dict)


class AppClient:
    """One simulated browser session on one page of the app."""

    def __init__(self, url: str, page: str = "") -> None:
        self.ws_url = stream_url(url)
        self.page = page
        self._socket: Any = None
        self._elements: dict[tuple[int, ...], Element] = {}
        self._drawing: dict[tuple[int, ...], Element] = {}
        self._cache: dict[str, ForwardMsg] = {}
        self.page_script_hash = ""
        self.session_id = ""

    async def __aenter__(self) -> AppClient:
        from websockets.asyncio.client import connect

        self._socket = await connect(
            self.ws_url, subprotocols=["streamlit"], max_size=MAX_MESSAGE_BYTES, open_timeout=60
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._socket is not None:
            with contextlib.suppress(Exception):
                await self._socket.close()
            self._socket = None

    # -- what the page shows -------------------------------------------------------------------
    @property
    def elements(self) -> list[Element]:
        """The elements of the last finished full run, in page order."""
        return [self._elements[path] for path in sorted(self._elements)]

    def texts(self) -> Iterator[str]:
        for element in self.elements:
            yield from element.texts

    def widget(self, *, key: str | None = None, kind: str | None = None, label: str | None = None) -> str:
        """The id of the first widget matching a user key (a suffix of the id), a kind and a label."""
        for element in self.elements:
            widget_id = element.widget_id
            if widget_id is None:
                continue
            if key is not None and not widget_id.endswith("-" + key):
                continue
            if kind is not None and element.kind != kind:
                continue
            if label is not None and element.label != label:
                continue
            return widget_id
        raise ProtocolError(f"no widget with key={key!r} kind={kind!r} label={label!r} on the page")

    def widget_ids(self, key_part: str) -> list[str]:
        """Ids of the widgets whose user key contains ``key_part``."""
        return [
            e.widget_id for e in self.elements if e.widget_id and key_part in e.widget_id.split("-", 2)[-1]
        ]

    # -- what the client does ------------------------------------------------------------------
    async def open(self) -> RunResult:
        """Ask for the page (the first run of the session)."""
        return await self.rerun()

    async def send_chat(self, text: str) -> RunResult:
        """Submit ``text`` in the page's chat input; returns when the run it started has finished."""
        state = WidgetState(id=self.widget(kind="chat_input"))
        state.chat_input_value.data = text
        return await self.rerun([state])

    async def click(self, widget_id: str) -> RunResult:
        return await self.rerun([trigger(widget_id)])

    async def rerun(self, widgets: list[WidgetState] | None = None) -> RunResult:
        """Send a ``rerun_script`` and read until the runs it caused are over."""
        message = rerun_message(
            widgets or [],
            page_script_hash=self.page_script_hash,
            page_name=self.page if not self.page_script_hash else "",
            cached_message_hashes=self._cache,
        )
        await self._socket.send(message.SerializeToString())
        return await asyncio.wait_for(self._read_until_idle(), RUN_TIMEOUT_SECONDS)

    async def _read_until_idle(self) -> RunResult:
        """Read messages until a run finished for good (not stopped early for a rerun)."""
        result = RunResult()
        while True:
            message = self._expanded(await self._socket.recv())
            kind = message.WhichOneof("type")
            result.counts[kind or "?"] = result.counts.get(kind or "?", 0) + 1
            if kind == "script_finished":
                result.status = ForwardMsg.ScriptFinishedStatus.Name(message.script_finished)
                if self._run_over(result.status):
                    return result
            else:
                self._take(kind, message)

    def _expanded(self, raw: bytes) -> ForwardMsg:
        """The message ``raw`` stands for: a reference to a cached message is replaced by that message."""
        message = ForwardMsg()
        message.ParseFromString(raw)
        if message.WhichOneof("type") != "ref_hash":
            if message.metadata.cacheable and message.hash:
                self._cache[message.hash] = message
            return message
        cached = self._cache.get(message.ref_hash)
        if cached is None:
            raise ProtocolError(f"the server referred to a message never received: {message.ref_hash}")
        path = tuple(message.metadata.delta_path)
        expanded = ForwardMsg()
        expanded.CopyFrom(cached)
        expanded.metadata.delta_path[:] = path
        return expanded

    def _take(self, kind: str | None, message: ForwardMsg) -> None:
        """Follow a message that is not the end of a run: a new run, the page it is on, an element."""
        if kind == "new_session":
            self.session_id = message.new_session.initialize.session_id or self.session_id
            self._drawing = {}
        elif kind == "navigation":
            self.page_script_hash = message.navigation.page_script_hash or self.page_script_hash
        elif kind == "delta":
            self._record_delta(message)
        elif kind == "page_not_found":
            raise ProtocolError(f"page {self.page!r} not found")

    def _run_over(self, status: str) -> bool:
        """True when a run ending in ``status`` drew the whole page (its elements become the page)."""
        if status == "FINISHED_SUCCESSFULLY":
            self._elements = self._drawing
            return True
        if status == "FINISHED_FRAGMENT_RUN_SUCCESSFULLY":
            self._elements.update(self._drawing)
            return True
        if status == "FINISHED_WITH_COMPILE_ERROR":
            raise ProtocolError("the app failed to compile")
        return False

    def _record_delta(self, message: ForwardMsg) -> None:
        path = tuple(message.metadata.delta_path)
        delta = message.delta
        which = delta.WhichOneof("type")
        if which not in ("new_element", "add_block"):
            return
        # What is drawn at a path replaces whatever was drawn at and below it (an st.empty refilled).
        for stale in [p for p in self._drawing if p[: len(path)] == path]:
            del self._drawing[stale]
        if which == "new_element":
            element = delta.new_element
            self._drawing[path] = Element(path, element.WhichOneof("type") or "", element)
