"""A raw Streamlit websocket client for attack tests: what an attendee could send without a browser.

It speaks Streamlit's own protobufs (``BackMsg``/``ForwardMsg``) over ``/_stcore/stream``: run the
script, read the elements it sent (labels, widget ids, alert texts), submit widget values, and send
messages a browser only sends on request, such as ``clear_cache``. Synchronous (``websocket-client``), so a
test can hold forty at once without an event loop; the messages it sends are the load benches' own
(``memory_demos.bench.ws_client``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import websocket
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

from memory_demos.bench.ws_client import rerun_message, stream_url, trigger

__all__ = ["RawClient", "ScriptRun", "text_value", "trigger"]

RUN_TIMEOUT_S = 60.0


@dataclass
class ScriptRun:
    """What one script run sent: elements by type, widget ids by label, and every text shown."""

    elements: list[tuple[str, Any]] = field(default_factory=list)

    def widget_id(self, kind: str, label: str) -> str:
        for element_type, element in self.elements:
            if element_type == kind and getattr(element, "label", None) == label:
                return str(element.id)
        raise KeyError(f"no {kind} labelled {label!r} in {[k for k, _ in self.elements]}")

    def texts(self) -> list[str]:
        found = []
        for element_type, element in self.elements:
            for name in ("body", "label", "value"):
                value = getattr(element, name, None)
                if (
                    isinstance(value, str)
                    and value
                    and element_type in {"alert", "markdown", "text", "heading"}
                ):
                    found.append(value)
        return found


class RawClient:
    """One websocket session, like a browser tab without a browser."""

    def __init__(self, base_url: str) -> None:
        self.ws = websocket.create_connection(
            stream_url(base_url), subprotocol=["streamlit"], timeout=RUN_TIMEOUT_S
        )

    def close(self) -> None:
        self.ws.close()

    def __enter__(self) -> RawClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(self, message: BackMsg) -> None:
        self.ws.send_binary(message.SerializeToString())

    def run(self, widgets: Iterable[WidgetState] = ()) -> ScriptRun:
        """Ask for a script run (with these widget values) and collect what it sent until it finished."""
        self.send(rerun_message(widgets))
        run = ScriptRun()
        while True:
            forward = ForwardMsg()
            forward.ParseFromString(self.ws.recv())
            kind = forward.WhichOneof("type")
            if kind == "delta" and forward.delta.WhichOneof("type") == "new_element":
                element = forward.delta.new_element
                element_type = element.WhichOneof("type")
                run.elements.append((element_type, getattr(element, element_type)))
            elif kind == "script_finished":
                return run

    def clear_cache(self) -> None:
        """What the browser's "Clear cache" menu item sends (any client may send it)."""
        message = BackMsg()
        message.clear_cache = True
        self.send(message)


def text_value(widget_id: str, value: str) -> WidgetState:
    return WidgetState(id=widget_id, string_value=value)
