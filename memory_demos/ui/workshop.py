"""Workshop hosting in the app: the configuration, the room, the access gate, recognising an attendee,
budgets, idle clean-up, usage counting and conversation links. The frame (``app.py``) and pages call these.

``ROOM`` is the process's one ``RoomState`` (session registry, attendees' budgets, code guessing): a
module-level object, deliberately not ``st.cache_resource``, which any websocket client can clear with
a ``clear_cache`` message. It is thread-safe and keeps counters per opaque id, never a message or a key.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

import streamlit as st

from memory_demos.conversation_link import LinkError, ManifestStore, link_secret, make_token, open_link
from memory_demos.i18n import t
from memory_demos.lab_config import LabConfig, load_lab_config
from memory_demos.session import KEY_PREFIX, LabSession, widget_key
from memory_demos.storage import StorageError
from memory_demos.turn import Turn
from memory_demos.ui.frame import LANGUAGE_PARAM
from memory_demos.workshop import (
    ATTENDEE_COOKIE,
    RoomState,
    SessionRegistry,
    TurnUsage,
    WorkshopConfig,
    WorkshopConfigError,
    attendee_from_token,
    attendee_key,
    attendee_token,
    codes_match,
    new_attendee_id,
)
from memory_demos.workshop.budget import BudgetGate, SessionBudget

logger = logging.getLogger(__name__)

ADMITTED_KEY = KEY_PREFIX + "admitted"
ATTENDEE_KEY = KEY_PREFIX + "attendee"
COOKIE_SET_KEY = KEY_PREFIX + "attendee_cookie_set"
COOKIE_MAX_AGE_S = 7 * 24 * 3600
INSTRUCTOR_KEY = KEY_PREFIX + "instructor_unlocked"
OPEN_INSTRUCTOR_KEY = KEY_PREFIX + "open_instructor"
RESUME_SEEN_KEY = KEY_PREFIX + "resume_seen"
SAVED_MANIFEST_KEY = KEY_PREFIX + "saved_manifest"
WRONG_CODE_DELAY_S = 1.0
RESUME_PARAM = "resume"


ROOM = RoomState()


def session_registry() -> SessionRegistry:
    """The process's one session registry (thread-safe; counters and release callbacks only)."""
    return ROOM.registry


def _secrets() -> Mapping[str, Any]:
    """Streamlit's secrets as a plain mapping; empty when there is no secrets.toml."""
    try:
        if not st.secrets.load_if_toml_exists():
            return {}
        return st.secrets.to_dict()
    except Exception:  # an unreadable file: Streamlit logs why; the app runs as if it had none
        return {}


def lab_config() -> LabConfig:
    """The app's configuration from secrets and the environment (``load_lab_config`` reads the latter)."""
    return load_lab_config(_secrets())


def load_config_or_stop() -> LabConfig:
    """The configuration, or a clear message (naming the setting, never its value) and a stop."""
    try:
        return lab_config()
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


def client_address() -> str:
    """The client's TCP peer address (Streamlit gives None for loopback); what code guessing is limited by."""
    return st.context.ip_address or "loopback"


def _guarded_check(config: WorkshopConfig, widget: str, expected: dict[str, Any], kind: str) -> str:
    """Compare a typed code with each of ``expected`` (name: code) under the server-wide guard.

    Returns the name of the code it matched, else why not (``locked``, ``busy``, ``wrong``). All codes
    are compared, so the time taken does not say which one was close.
    """
    given = str(st.session_state.get(widget_key(widget)) or "")
    st.session_state[widget_key(widget)] = ""
    address = client_address()
    verdict = ROOM.guard.begin(address, config.limits)
    if verdict != "check":
        ROOM.registry.record_error(None, f"code_{verdict}")
        return verdict
    matches = [name for name, code in expected.items() if codes_match(given, code)]
    if not matches:
        ROOM.registry.record_error(None, kind)
        time.sleep(WRONG_CODE_DELAY_S)  # each wrong try costs a second; the guard is counting meanwhile
    ROOM.guard.end(address, bool(matches), config.limits)
    return matches[0] if matches else "wrong"


def _refusal_text(reason: str, config: WorkshopConfig) -> str:
    if reason == "locked":
        return t("gate.locked", minutes=f"{config.limits.code_lockout_minutes:g}")
    if reason == "busy":
        return t("gate.busy")
    return t("gate.wrong")


def _check_access_code(config: WorkshopConfig) -> None:
    """The gate takes the access code, or the host code (which also opens the instructor view)."""
    codes = {"access": config.access_code}
    if config.host_code is not None:
        codes["host"] = config.host_code
    outcome = _guarded_check(config, "access_code", codes, "access_denied")
    if outcome in codes:
        st.session_state[ADMITTED_KEY] = True
        if outcome == "host":
            _unlock_instructor(config)
            st.session_state[OPEN_INSTRUCTOR_KEY] = True
    else:
        st.session_state[KEY_PREFIX + "access_refused"] = outcome


def open_instructor_view_now() -> bool:
    """True once, right after the host code was given at the gate: the frame then opens that view."""
    return bool(st.session_state.pop(OPEN_INSTRUCTOR_KEY, False))


def render_access_gate(config: WorkshopConfig) -> None:
    """The one thing a session sees before it gives the access code."""
    st.title(t("gate.title"), anchor=False)
    st.caption(t("gate.intro"))
    refused = st.session_state.pop(KEY_PREFIX + "access_refused", None)
    if refused:
        st.error(_refusal_text(str(refused), config), icon=":material/lock:")
    with st.form(key=widget_key("access_form"), border=True):
        st.text_input(t("gate.code"), type="password", key=widget_key("access_code"), autocomplete="off")
        st.form_submit_button(
            t("gate.enter"), icon=":material/login:", on_click=_check_access_code, args=(config,)
        )
    if config.host_code is not None:
        st.caption(":material/co_present: " + t("gate.host_hint"))


def instructor_unlocked() -> bool:
    """True once this browser session gave the host code (at the gate or on the instructor view)."""
    return bool(st.session_state.get(INSTRUCTOR_KEY))


def _unlock_instructor(config: WorkshopConfig) -> None:
    st.session_state[INSTRUCTOR_KEY] = True
    ROOM.mark_host(recognise_attendee(config))  # the host's browser is not counted as an attendee


def _check_host_code(config: WorkshopConfig) -> None:
    outcome = _guarded_check(config, "host_code", {"host": config.instructor_code}, "host_code_denied")
    if outcome == "host":
        _unlock_instructor(config)
    else:
        st.session_state[KEY_PREFIX + "host_refused"] = outcome


def render_host_gate(config: WorkshopConfig) -> None:
    """Ask for the host code (or the access code when no host code is set)."""
    refused = st.session_state.pop(KEY_PREFIX + "host_refused", None)
    if refused:
        st.error(_refusal_text(str(refused), config), icon=":material/lock:")
    with st.form(key=widget_key("host_form"), border=True):
        st.text_input(t("instructor.code"), type="password", key=widget_key("host_code"), autocomplete="off")
        st.form_submit_button(
            t("instructor.unlock"), icon=":material/lock_open:", on_click=_check_host_code, args=(config,)
        )


# -- recognising an attendee and their budget ------------------------------------------------------
def _attendee_signing_key(config: WorkshopConfig) -> bytes:
    configured = config.link_secret.get_secret_value() if config.link_secret else None
    code = config.access_code.get_secret_value() if config.access_code else None
    return attendee_key(link_secret(configured, lab_config().data_folder()), code)


def recognise_attendee(config: WorkshopConfig) -> str:
    """This browser's attendee id: from its signed cookie (then it was admitted before), else a new one.

    A valid cookie also admits the session: the attendee gave the access code in an earlier tab.
    """
    state = st.session_state
    known = state.get(ATTENDEE_KEY)
    if known:
        return str(known)
    returning = attendee_from_token(st.context.cookies.get(ATTENDEE_COOKIE), _attendee_signing_key(config))
    state[ATTENDEE_KEY] = returning or new_attendee_id()
    if returning:
        state[ADMITTED_KEY] = True
        state[COOKIE_SET_KEY] = True
    return str(state[ATTENDEE_KEY])


def remember_attendee(config: WorkshopConfig) -> None:
    """Once admitted, have the browser keep the signed attendee token (a cookie) for reloads and new tabs.

    The token is made by the server and holds only a random id and its signature.
    """
    state = st.session_state
    if state.get(COOKIE_SET_KEY):
        return
    token = attendee_token(recognise_attendee(config), _attendee_signing_key(config))
    cookie = f"{ATTENDEE_COOKIE}={token}; path=/; max-age={COOKIE_MAX_AGE_S}; SameSite=Strict"
    if (st.context.url or "").startswith("https://"):
        cookie += "; Secure"
    st.html(f"<script>document.cookie = {cookie!r};</script>", unsafe_allow_javascript=True, width=1)
    state[COOKIE_SET_KEY] = True


def attendee_budget(session: LabSession, config: WorkshopConfig) -> tuple[SessionBudget | None, Any]:
    """The attendee's budget from the room and a factory for this session's gate (None outside workshop)."""
    if not config.enabled or not admitted(config):
        return None, None
    budget = ROOM.budget_for(recognise_attendee(config), config.limits)
    registry = ROOM.registry
    key = session.registry_key

    def gate_for(budget: SessionBudget) -> BudgetGate:
        return BudgetGate(
            budget, on_usage=lambda calls, tokens: registry.record(key, TurnUsage(calls, tokens, ()))
        )

    return budget, gate_for


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
    """What finished turns are reported to (on any thread): their errors, counted and logged.

    Calls and tokens are counted by the session's budget gate as each model call ends; this adds the
    kinds of the turns that failed, and a line per failure in the server log (no text of the turn).
    It holds the registry, not ``st.session_state``, so it is safe off the script thread.
    """
    registry = session_registry()
    key = session.registry_key

    def record(turns: list[Turn]) -> None:
        usage = TurnUsage.of(turns)
        for kind in usage.error_kinds:
            logger.warning("A turn failed: %s (session %s)", kind, key[:9])
        registry.record(key, TurnUsage(0, 0, usage.error_kinds))

    return record


# -- conversation links ---------------------------------------------------------------------------
def show_storage_detail(error: Exception, config: WorkshopConfig) -> None:
    """The storage error text for a local user; in a workshop only the server log gets it (paths)."""
    if config.enabled:
        logger.warning("Storage error: %s", error)
        st.caption(t("link.storage_hidden"))
    else:
        st.text(str(error))


def _link_parts(config: WorkshopConfig) -> tuple[bytes, ManifestStore]:
    lab = lab_config()
    folder = lab.data_folder()
    configured = config.link_secret.get_secret_value() if config.link_secret else None
    return link_secret(configured, folder), ManifestStore(lab.storage, folder)


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
        show_storage_detail(exc, config)
        return False
    session.restore(claim.owner_id, claim.conversation_id, manifest)
    st.session_state[SAVED_MANIFEST_KEY] = manifest.to_json()
    # Count the panes whose persisted memory really came back, not the ones the manifest promised.
    back = sum(1 for pane in session.panes if pane.persisted and pane.strategy is not None)
    session.flash("success", t("link.opened", persisted=back, total=len(manifest.panes)))
    return True


def render_conversation_link(session: LabSession, config: WorkshopConfig) -> None:
    """The Compare page's link section: the link (saving the pane manifest) or how to get one."""
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
            show_storage_detail(exc, config)
            return
        token = make_token(session.conversation_id, session.user_id, secret)
        base = (st.context.url or "").split("?", 1)[0]
        st.caption(t("link.caption"))
        link = f"{base}?{RESUME_PARAM}={token}&{LANGUAGE_PARAM}={session.language}"  # opens in this language
        st.code(link, language=None, wrap_lines=True)
        if manifest.persisted_count < len(manifest.panes):
            st.caption(t("link.partial", persisted=manifest.persisted_count, total=len(manifest.panes)))
        st.warning(t("link.share_warning"), icon=":material/share:")
