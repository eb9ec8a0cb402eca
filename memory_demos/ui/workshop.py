"""Workshop hosting in the app: the configuration, the one session registry, the access gate, idle
clean-up, usage counting and conversation links. The frame (``app.py``) and the pages call these.

The registry is the only process-wide object here, held by ``st.cache_resource``: it is thread-safe
and keeps counters per opaque session key, never a message or a key.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Mapping
from typing import Any

import streamlit as st

from memory_demos.i18n import t
from memory_demos.session import KEY_PREFIX, LabSession, widget_key
from memory_demos.turn import Turn
from memory_demos.workshop import (
    SessionRegistry,
    TurnUsage,
    WorkshopConfig,
    WorkshopConfigError,
    codes_match,
)

logger = logging.getLogger(__name__)

ADMITTED_KEY = KEY_PREFIX + "admitted"
INSTRUCTOR_KEY = KEY_PREFIX + "instructor_unlocked"
RESUME_SEEN_KEY = KEY_PREFIX + "resume_seen"
SAVED_MANIFEST_KEY = KEY_PREFIX + "saved_manifest"
WRONG_CODE_DELAY_S = 1.0
RESUME_PARAM = "resume"


@st.cache_resource(show_spinner=False)
def session_registry() -> SessionRegistry:
    """The process's one session registry (thread-safe; counters and release callbacks only)."""
    return SessionRegistry()


def _secrets() -> Mapping[str, Any]:
    """Streamlit's secrets as a plain mapping; empty when there is no secrets.toml."""
    try:
        if not st.secrets.load_if_toml_exists():
            return {}
        return st.secrets.to_dict()
    except Exception:  # an unreadable file: Streamlit logs why; the app runs as if it had none
        return {}


def workshop_config() -> WorkshopConfig:
    """The workshop settings from secrets and the environment (read on every run: cheap, and editable)."""
    return WorkshopConfig.from_sources(_secrets(), os.environ)


def load_config_or_stop() -> WorkshopConfig:
    """The configuration, or a clear message (naming the setting, never its value) and a stop."""
    try:
        return workshop_config()
    except WorkshopConfigError as exc:
        st.error(t("workshop.config_error"), icon=":material/error:")
        st.text(str(exc))
        st.stop()
        raise  # unreachable: st.stop raises


# -- the access gate -----------------------------------------------------------------------------
def admitted(config: WorkshopConfig) -> bool:
    """True if no code is needed, or this browser session gave it already."""
    if not config.enabled or config.access_code is None:
        return True
    return bool(st.session_state.get(ADMITTED_KEY))


def _check_access_code(config: WorkshopConfig) -> None:
    given = str(st.session_state.get(widget_key("access_code")) or "")
    st.session_state[widget_key("access_code")] = ""
    if codes_match(given, config.access_code):
        st.session_state[ADMITTED_KEY] = True
        return
    session_registry().record_error(None, "access_denied")
    time.sleep(WRONG_CODE_DELAY_S)  # slows guessing down; each try costs a second
    st.session_state[KEY_PREFIX + "access_refused"] = True


def render_access_gate(config: WorkshopConfig) -> None:
    """The one thing a session sees before it gives the access code."""
    st.title(t("gate.title"), anchor=False)
    st.caption(t("gate.intro"))
    if st.session_state.pop(KEY_PREFIX + "access_refused", False):
        st.error(t("gate.wrong"), icon=":material/lock:")
    with st.form(key=widget_key("access_form"), border=True):
        st.text_input(t("gate.code"), type="password", key=widget_key("access_code"), autocomplete="off")
        st.form_submit_button(
            t("gate.enter"), icon=":material/login:", on_click=_check_access_code, args=(config,)
        )


def instructor_unlocked() -> bool:
    return bool(st.session_state.get(INSTRUCTOR_KEY))


def _check_host_code(config: WorkshopConfig) -> None:
    given = str(st.session_state.get(widget_key("host_code")) or "")
    st.session_state[widget_key("host_code")] = ""
    if codes_match(given, config.instructor_code):
        st.session_state[INSTRUCTOR_KEY] = True
        return
    session_registry().record_error(None, "host_code_denied")
    time.sleep(WRONG_CODE_DELAY_S)
    st.session_state[KEY_PREFIX + "host_refused"] = True


def render_host_gate(config: WorkshopConfig) -> None:
    """Ask for the host code (or the access code when no host code is set)."""
    if st.session_state.pop(KEY_PREFIX + "host_refused", False):
        st.error(t("gate.wrong"), icon=":material/lock:")
    with st.form(key=widget_key("host_form"), border=True):
        st.text_input(t("instructor.code"), type="password", key=widget_key("host_code"), autocomplete="off")
        st.form_submit_button(
            t("instructor.unlock"), icon=":material/lock_open:", on_click=_check_host_code, args=(config,)
        )


# -- activity, idle clean-up and usage ------------------------------------------------------------
def track_session(session: LabSession, config: WorkshopConfig) -> None:
    """Mark this session active, bring it back if it was released, and sweep idle sessions (rate-limited)."""
    registry = session_registry()
    registry.touch(session.registry_key, session.releaser())
    if session.revive():
        session.flash("info", t("workshop.idle_released", minutes=f"{config.limits.idle_minutes:g}"))
    released = registry.maybe_sweep(config.limits.idle_seconds)
    if released:
        logger.info("Released %d idle session(s)", released)


def usage_recorder(session: LabSession) -> Callable[[list[Turn]], None]:
    """What a finished broadcast calls (on its worker thread): count usage in the budget and registry.

    It holds the budget and the registry, not ``st.session_state``, so it is safe off the script thread.
    """
    registry = session_registry()
    key = session.registry_key
    budget = session.budget

    def record(turns: list[Turn]) -> None:
        usage = TurnUsage.of(turns)
        if budget is not None:
            budget.record(usage.tokens)
        registry.record(key, usage)

    return record


# -- conversation links ---------------------------------------------------------------------------
def _link_parts(config: WorkshopConfig) -> tuple[bytes, Any]:
    from memory_demos.config import data_dir
    from memory_demos.conversation_link import ManifestStore, link_secret
    from memory_demos.storage import StorageConfig

    folder = data_dir()
    configured = config.link_secret.get_secret_value() if config.link_secret else None
    return link_secret(configured, folder), ManifestStore(StorageConfig.from_env(), folder)


def capture_resume_token(session: LabSession) -> str | None:
    """A ``?resume=`` token this session has not handled yet (kept across the access gate)."""
    token = st.query_params.get(RESUME_PARAM)
    if not token or st.session_state.get(RESUME_SEEN_KEY) == token:
        return None
    return str(token)


def open_resume_link(session: LabSession, config: WorkshopConfig, token: str) -> bool:
    """Open a conversation link into this session; True if it worked (then show the Compare page).

    A refusal is shown at once, above whichever page opens; success is a notice for the Compare page.
    """
    from memory_demos.conversation_link import LinkError, open_link
    from memory_demos.storage import StorageError

    st.session_state[RESUME_SEEN_KEY] = token
    try:
        secret, store = _link_parts(config)
        claim, manifest = open_link(token, secret, store)
    except LinkError as exc:
        session_registry().record_error(session.registry_key, f"link_{exc.problem}")
        st.warning(t(f"link.{exc.problem}"), icon=":material/link_off:")
        return False
    except StorageError as exc:
        st.error(t("link.storage_error"), icon=":material/error:")
        st.text(str(exc))
        return False
    session.restore(claim.owner_id, claim.conversation_id, manifest)
    st.session_state[SAVED_MANIFEST_KEY] = manifest.to_json()
    session.flash("success", t("link.opened", persisted=manifest.persisted_count, total=len(manifest.panes)))
    return True


def render_conversation_link(session: LabSession, config: WorkshopConfig) -> None:
    """The Compare page's link section: the link (saving the pane manifest) or how to get one."""
    from memory_demos.conversation_link import make_token
    from memory_demos.storage import StorageError

    manifest = session.manifest()
    with st.expander(t("link.title"), icon=":material/link:"):
        if manifest.persisted_count == 0:
            st.caption(t("link.none"))
            return
        try:
            secret, store = _link_parts(config)
            saved = manifest.to_json()
            if st.session_state.get(SAVED_MANIFEST_KEY) != saved:
                store.save(session.conversation_id, session.user_id, manifest)
                st.session_state[SAVED_MANIFEST_KEY] = saved
        except StorageError as exc:
            st.warning(t("link.storage_error"), icon=":material/warning:")
            st.text(str(exc))
            return
        token = make_token(session.conversation_id, session.user_id, secret)
        base = (st.context.url or "").split("?", 1)[0]
        st.caption(t("link.caption"))
        st.code(f"{base}?{RESUME_PARAM}={token}", language=None, wrap_lines=True)
        if manifest.persisted_count < len(manifest.panes):
            st.caption(t("link.partial", persisted=manifest.persisted_count, total=len(manifest.panes)))
        st.warning(t("link.share_warning"), icon=":material/share:")
