"""Recognising an attendee: a signed token the browser keeps as a cookie once it was admitted.

A reload or a new tab of the same browser brings back the same attendee, and so the same budget.
"""

from __future__ import annotations

import hashlib
import hmac
import uuid

ATTENDEE_COOKIE = "memory_lab_attendee"


def new_attendee_id() -> str:
    return "a" + uuid.uuid4().hex


def _signature(attendee_id: str, key: bytes) -> str:
    return hmac.new(key, attendee_id.encode("ascii"), hashlib.sha256).hexdigest()[:32]


def attendee_token(attendee_id: str, key: bytes) -> str:
    """``<id>.<signature>``: what the browser keeps; the signature proves the server issued it."""
    return f"{attendee_id}.{_signature(attendee_id, key)}"


def attendee_from_token(token: str | None, key: bytes) -> str | None:
    """The attendee id in a token this server signed with ``key``; None for anything else."""
    if not token or token.count(".") != 1:
        return None
    attendee_id, signature = token.split(".")
    if not (attendee_id.startswith("a") and len(attendee_id) == 33 and attendee_id[1:].isalnum()):
        return None
    return attendee_id if hmac.compare_digest(signature, _signature(attendee_id, key)) else None


def attendee_key(link_secret: bytes, access_code: str | None) -> bytes:
    """The signing key of attendee tokens: changing the access code ends every earlier admission."""
    return hmac.new(link_secret, b"attendee|" + (access_code or "").encode("utf-8"), hashlib.sha256).digest()
