"""Settings: which model answers (offline, OpenAI, OpenAI-compatible), its key, timeout, and the language."""

from __future__ import annotations

import streamlit as st
from pydantic import SecretStr

from memory_demos.i18n import LANGUAGE_NAMES, t, translate
from memory_demos.providers.bounds import WORKSHOP_TIMEOUT, BoundProblem, bound_problems
from memory_demos.providers.chat_models import (
    DEFAULT_OPENAI_MODEL,
    OFFLINE_CONTEXT_WINDOW,
    OFFLINE_MODEL_NAME,
    PROVIDER_KINDS,
    ProviderConfig,
)
from memory_demos.providers.context_window import ContextWindow, describe_source
from memory_demos.providers.reachability import check_provider
from memory_demos.providers.url_policy import EgressPolicy, url_refusal
from memory_demos.session import LANGUAGES, get_session, widget_key
from memory_demos.ui.failures import kind_help, kind_words
from memory_demos.ui.frame import in_session_language, run_in_frame
from memory_demos.ui.notices import show_flashes
from memory_demos.ui.text import provider_label
from memory_demos.ui.workshop import lab_config

FIELD_WIDTH = 520
KIND_KEY = widget_key("settings_kind")
MODEL_KEY = widget_key("settings_model")
BASE_URL_KEY = widget_key("settings_base_url")
API_KEY_KEY = widget_key("settings_api_key")
TIMEOUT_KEY = widget_key("settings_timeout")
MAX_TOKENS_KEY = widget_key("settings_max_tokens")
CONCURRENCY_KEY = widget_key("settings_concurrency")
CONTEXT_WINDOW_KEY = widget_key("settings_context_window")
TEMPERATURE_KEY = widget_key("settings_temperature")
LANGUAGE_KEY = widget_key("settings_language")
HOSTED = "hosted"  # the radio's value for the workshop model (not a ProviderConfig kind)
SETTINGS_SOURCE = "Settings"
LISTED_MODELS_KEY = widget_key("settings_listed_models")  # what the typed server lists (not a widget)
COMPATIBLE_MODEL_EXAMPLE = "llama3.1:8b"
CHECK_SECONDS = 10.0  # Apply waits at most this long (and never past the timeout) for the server's answer
LOOKUP_SECONDS = 5.0  # asking a just-typed server for its models: optional, so shorter
LISTED_IN_A_NOTICE = 8


def _fill_widgets_from(provider: ProviderConfig) -> None:
    """Widgets start from the active provider (they are forgotten when the user leaves this page).

    The workshop model's base URL is the host's secret: it never goes into a widget (widget values are
    sent to the browser).
    """
    widgets = get_session().widgets
    widgets.setdefault(KIND_KEY, HOSTED if provider.hosted else provider.kind)
    own_model = provider.kind != "offline" and not provider.hosted
    # Empty unless a model of the user's own is active: OpenAI's default name is offered when OpenAI is
    # chosen (``kind_changed``); a server's name is the server's (its list, or the user's to type).
    widgets.setdefault(MODEL_KEY, provider.model if own_model else "")
    widgets.setdefault(BASE_URL_KEY, "" if provider.hosted else provider.base_url or "")
    widgets.setdefault(API_KEY_KEY, "")
    timeout = int(provider.timeout_seconds)
    if lab_config().workshop.enabled:  # the server waits at most this long for an attendee's model
        timeout = min(timeout, WORKSHOP_TIMEOUT.highest)
    widgets.setdefault(TIMEOUT_KEY, timeout)
    _fill_bounds_from(provider)


def apply_settings() -> None:
    """Build the new provider; if it differs, rebuild every pane with it (their conversations restart).

    Every value that cannot be used is reported at once, each with what is allowed, and nothing is
    applied: a value is never clamped or replaced behind the user's back.

    A key typed here stays in this session. The server's keys never travel to an address typed in the
    browser: the workshop model's key is only used with the workshop model, and ``OPENAI_API_KEY`` only
    with OpenAI itself, outside workshop mode.
    """
    session = get_session()
    config = lab_config()
    workshop = config.workshop
    current = session.provider
    widgets = session.widgets
    typed_key = str(widgets.get(API_KEY_KEY) or "").strip()
    widgets[API_KEY_KEY] = ""  # the key leaves the widget at once; only the SecretStr below keeps it
    kind = widgets[KIND_KEY]
    model = str(widgets.get(MODEL_KEY) or "").strip()
    base_url = str(widgets.get(BASE_URL_KEY) or "").strip() or None
    egress = workshop.egress_policy()  # None outside workshop mode: any address, as for local use
    own_key = None if current.hosted else current.api_key
    api_key = SecretStr(typed_key) if typed_key else own_key
    env_key_allowed = kind == "openai" and not workshop.enabled

    problems: list[tuple[str, str | None]] = []
    if kind in PROVIDER_KINDS and kind != "offline":
        server_key_usable = env_key_allowed and config.server_openai_key
        problems += _form_problems(
            kind, model, base_url, api_key, server_key_usable, egress, workshop.enabled
        )
        problems += _url_advice(problems, workshop.host is not None)
    problems += [(_bound_text(problem), None) for problem in _bound_problems(workshop.enabled)]
    if problems:
        for message, detail in problems:
            session.flash("error", message, detail)
        session.flash("info", t("settings.not_applied"))
        return

    timeout = float(widgets[TIMEOUT_KEY])
    if kind == HOSTED and workshop.host is not None:
        new = workshop.host.provider_config().with_overrides(timeout_seconds=timeout)
    elif kind == "offline" or kind == HOSTED:
        new = ProviderConfig(timeout_seconds=timeout)
    else:
        new = ProviderConfig(
            kind=kind,
            model=model,
            base_url=None if kind == "openai" else base_url,
            api_key=api_key,
            timeout_seconds=timeout,
            use_env_key=env_key_allowed,
            egress=egress if kind == "openai_compatible" else None,
        )

    new = _with_bounds(new, workshop.enabled)
    if new == current:
        session.flash("info", t("settings.unchanged"))
        return
    session.provider = new
    rebuilt = session.rebuild_all()
    _flash_check(new, t("settings.applied", n=rebuilt))


def _flash_check(provider: ProviderConfig, applied: str) -> None:
    """Ask the new provider once whether it answers (its model list: no tokens), and say what was found.

    ``applied`` (the model changed) is a success only if the check did not fail: a server that cannot be
    reached is in use now, but a green tick above its error would read as if all were well.
    Skipped for the offline model; bounded by the provider's timeout and at most ``CHECK_SECONDS``.
    """
    session = get_session()
    check = check_provider(provider, timeout=CHECK_SECONDS)
    if check is not None and not check.ok:
        session.flash("warning", applied)
        message = t("check.failed", kind=kind_words(check.kind), help=kind_help(check.kind))
        session.flash("error", message, check.detail or None)
        return
    session.flash("success", applied)
    if check is None:
        return
    seconds = f"{check.seconds:.2f}"
    if provider.hosted:
        session.flash("info", t("check.hosted", seconds=seconds))
        return
    listed = check.lists(provider.model)
    reached = t("check.reached", seconds=seconds)
    if listed is None:
        found = t("check.lists_none", model=provider.model)
    elif listed:
        found = t("check.lists_model", model=provider.model)
    else:
        models = ", ".join(check.models[:LISTED_IN_A_NOTICE])
        found = t("check.not_listed", model=provider.model, models=models)
    session.flash("warning" if listed is False else "info", t("check.found", reached=reached, found=found))


def kind_changed() -> None:
    """OpenAI gets its default model name; a server gets none of OpenAI's (its own list, or empty)."""
    widgets = get_session().widgets
    kind, model = widgets.get(KIND_KEY), str(widgets.get(MODEL_KEY) or "").strip()
    if kind == "openai" and not model:
        widgets[MODEL_KEY] = DEFAULT_OPENAI_MODEL
    elif kind == "openai_compatible" and model == DEFAULT_OPENAI_MODEL:
        listed = widgets.get(LISTED_MODELS_KEY) or ()
        widgets[MODEL_KEY] = listed[0] if listed else ""


def base_url_changed() -> None:
    """Ask the typed server which models it lists (one request, bounded): the model field starts from
    the first when it is empty. Not for an attendee-typed address in a workshop (the host's server would
    ask it, and say what it found)."""
    session = get_session()
    widgets = session.widgets
    widgets[LISTED_MODELS_KEY] = ()
    base_url = str(widgets.get(BASE_URL_KEY) or "").strip()
    if lab_config().workshop.enabled or not base_url.startswith(("http://", "https://")):
        return
    typed_key = str(widgets.get(API_KEY_KEY) or "").strip()
    own_key = None if session.provider.hosted else session.provider.api_key
    probe = ProviderConfig(
        kind="openai_compatible",
        model="",
        base_url=base_url,
        api_key=SecretStr(typed_key) if typed_key else own_key,
        use_env_key=False,
    )
    check = check_provider(probe, timeout=LOOKUP_SECONDS)
    models = check.models if check is not None and check.ok else ()
    widgets[LISTED_MODELS_KEY] = models
    if models and not str(widgets.get(MODEL_KEY) or "").strip():
        widgets[MODEL_KEY] = models[0]


def _form_problems(
    kind: str,
    model: str,
    base_url: str | None,
    api_key: SecretStr | None,
    server_key_usable: bool,
    egress: EgressPolicy | None,
    workshop_enabled: bool,
) -> list[tuple[str, str | None]]:
    """Why the form cannot make a ``kind`` provider (no model, key or address; a refused address).

    An attendee is never told to set a variable on the server: that is the host's machine.
    """
    problems: list[tuple[str, str | None]] = [] if model else [(t("settings.need_model"), None)]
    if kind == "openai":
        if api_key is None and not server_key_usable:
            problems.append((t("settings.need_key_here" if workshop_enabled else "settings.need_key"), None))
    elif not base_url or not base_url.startswith(("http://", "https://")):
        problems.append((t("settings.need_base_url"), None))
    else:
        refusal = url_refusal(egress, base_url) if egress is not None else None
        if refusal is not None:
            problems.append((t("settings.url_refused"), translate(refusal)))
    return problems


def _url_advice(problems: list[tuple[str, str | None]], host_model: bool) -> list[tuple[str, str | None]]:
    """What an attendee whose address was refused can do: the workshop model only if there is one."""
    if not any(message == t("settings.url_refused") for message, _detail in problems):
        return []
    return [(t("settings.url_advice_hosted" if host_model else "settings.url_advice_no_host"), None)]


def _bound_problems(workshop_enabled: bool) -> list[BoundProblem]:
    widgets = get_session().widgets
    values = {
        "timeout_seconds": widgets.get(TIMEOUT_KEY),
        "max_tokens": widgets.get(MAX_TOKENS_KEY),
        "max_concurrent_panes": widgets.get(CONCURRENCY_KEY),
        "context_window_tokens": widgets.get(CONTEXT_WINDOW_KEY),
        "temperature": widgets.get(TEMPERATURE_KEY),
    }
    return bound_problems(values, workshop=workshop_enabled)


# The form's label of each bound, by ProviderConfig field.
BOUND_LABELS = {
    "timeout_seconds": "settings.timeout",
    "max_tokens": "settings.max_tokens",
    "max_concurrent_panes": "settings.concurrency",
    "context_window_tokens": "settings.context_window",
    "temperature": "settings.temperature",
}


def _bound_text(problem: BoundProblem) -> str:
    """One refused value, named by its field, with the range it must be in."""
    setting = problem.setting
    given = f"{problem.given:,}" if isinstance(problem.given, int | float) else t("settings.empty_value")
    field = t(BOUND_LABELS[setting.name])
    if problem.window is not None:
        return t("settings.reply_exceeds_window", field=field, given=given, window=f"{problem.window:,}")
    key = "settings.out_of_range_auto" if setting.zero_means_auto else "settings.out_of_range"
    key = "settings.out_of_range_fractions" if setting.fractions else key
    return t(key, field=field, given=given, lowest=f"{setting.lowest:,}", highest=f"{setting.highest:,}")


# -- bounds and the server's shape (issue: real providers) ------------------------------------------
def _fill_bounds_from(provider: ProviderConfig) -> None:
    widgets = get_session().widgets
    widgets.setdefault(MAX_TOKENS_KEY, provider.max_tokens)
    widgets.setdefault(CONCURRENCY_KEY, provider.max_concurrent_panes)
    given = provider.context_window_tokens if provider.context_window_source == SETTINGS_SOURCE else None
    widgets.setdefault(CONTEXT_WINDOW_KEY, given or 0)
    widgets.setdefault(TEMPERATURE_KEY, provider.temperature)


def _with_bounds(provider: ProviderConfig, workshop_enabled: bool) -> ProviderConfig:
    """``provider`` with the form's max tokens, pane concurrency and context window.

    A window of 0 means: the table for known models, else ask the server. A server an attendee typed
    is not asked in workshop mode (the hosted server would send a request to an address typed in a
    browser); the workshop model's own server is.
    """
    widgets = get_session().widgets
    provider = provider.with_overrides(
        max_tokens=int(widgets[MAX_TOKENS_KEY]),
        max_concurrent_panes=int(widgets[CONCURRENCY_KEY]),
        temperature=None if widgets.get(TEMPERATURE_KEY) is None else float(widgets[TEMPERATURE_KEY]),
        context_window_tokens=None,
        context_window_source="",
    )
    typed_window = int(widgets.get(CONTEXT_WINDOW_KEY) or 0)
    if typed_window > 0:
        return provider.with_overrides(
            context_window_tokens=typed_window, context_window_source=SETTINGS_SOURCE
        )
    if provider.kind == "openai_compatible" and (provider.hosted or not workshop_enabled):
        from memory_demos.providers.context_window import with_server_context_window

        return with_server_context_window(provider)
    return provider


# (widget key, label key, step) of the bound fields, in the order shown. The inputs take any number:
# Apply checks them against ``providers.bounds`` and says what is allowed (a browser-side min/max
# would silently put the old value back).
BOUND_FIELDS = (
    (MAX_TOKENS_KEY, "settings.max_tokens", 64),
    (CONCURRENCY_KEY, "settings.concurrency", 1),
    (CONTEXT_WINDOW_KEY, "settings.context_window", 1024),
)


def _bounds_widgets(current: ProviderConfig, kind: str) -> None:
    for key, label, step in BOUND_FIELDS:
        st.number_input(
            t(label),
            step=step,
            key=key,
            help=t(f"{label}_help"),
            width=FIELD_WIDTH,
        )
    st.number_input(
        t("settings.temperature"),
        step=0.1,
        key=TEMPERATURE_KEY,
        help=t("settings.temperature_help"),
        width=FIELD_WIDTH,
    )
    window = _chosen_window(current, kind)
    source = translate(describe_source(window))
    st.text(t("settings.context_window_now", tokens=f"{window.tokens:,}", source=source))


def _chosen_window(current: ProviderConfig, kind: str) -> ContextWindow:
    """The context window of the kind of model the form shows, applied or not: a typed window; the
    applied provider's own (which may come from its server) while the form keeps its kind; else the
    table's or a guess for the model typed (or the example)."""
    typed = get_session().widgets.get(CONTEXT_WINDOW_KEY)
    if isinstance(typed, int | float) and typed > 0:
        return ContextWindow(int(typed), SETTINGS_SOURCE)
    applied_kind = HOSTED if current.hosted else current.kind
    if kind == applied_kind:
        return current.context_window_info
    if kind == "offline" or kind == HOSTED:
        return OFFLINE_CONTEXT_WINDOW if kind == "offline" else current.context_window_info
    model = str(get_session().widgets.get(MODEL_KEY) or "").strip()
    return ProviderConfig(kind=kind, model=model or _placeholder(kind)).context_window_info


def _placeholder(kind: str) -> str:
    """The example in an empty model field: OpenAI's default, or a typical local server's model."""
    return DEFAULT_OPENAI_MODEL if kind == "openai" else COMPATIBLE_MODEL_EXAMPLE


def forget_key() -> None:
    session = get_session()
    provider = session.provider
    if provider.hosted:
        return  # the workshop model's key is the host's, not this session's
    session.provider = provider.with_overrides(api_key=None)
    if provider.kind != "offline":
        session.rebuild_all()
    session.flash("info", t("settings.key_forgotten"))


def language_changed() -> None:
    session = get_session()
    session.language = session.widgets[LANGUAGE_KEY]


def render() -> None:
    """The page: the model form (applied by a callback) and the language."""
    session = get_session()
    config = lab_config()
    workshop = config.workshop
    current = session.provider
    st.title(t("settings.title"), anchor=False)
    _fill_widgets_from(current)
    kinds: tuple[str, ...] = PROVIDER_KINDS
    labels = {kind: t(f"settings.kind.{kind}") for kind in PROVIDER_KINDS}
    if workshop.host is not None:
        kinds = (HOSTED, *PROVIDER_KINDS)
        labels[HOSTED] = t("settings.kind.hosted")
    widgets = session.widgets
    if widgets.get(KIND_KEY) not in kinds:
        widgets[KIND_KEY] = "offline"

    with st.container(border=True):
        st.subheader(t("settings.provider"), anchor=False)
        st.caption(t("settings.active"))
        st.text(provider_label(current))
        kind = st.radio(
            t("settings.provider_kind"),
            kinds,
            format_func=labels.__getitem__,
            key=KIND_KEY,
            horizontal=True,
            on_change=kind_changed,
        )
        if kind == HOSTED and workshop.host is not None:
            st.caption(t("settings.hosted_note", model=workshop.host.model))
        elif kind == "offline":
            st.caption(t("settings.offline_note", model=OFFLINE_MODEL_NAME))
        else:
            if kind == "openai_compatible":
                st.text_input(
                    t("settings.base_url"),
                    key=BASE_URL_KEY,
                    placeholder="http://localhost:11434/v1",
                    help=t("settings.base_url_help"),
                    width=FIELD_WIDTH,
                    on_change=base_url_changed,
                )
            st.text_input(
                t("settings.model"),
                key=MODEL_KEY,
                placeholder=t("settings.model_placeholder", example=_placeholder(kind)),
                help=t("settings.model_help"),
                width=FIELD_WIDTH,
            )
            listed = widgets.get(LISTED_MODELS_KEY) or ()
            if kind == "openai_compatible" and listed:
                shown = ", ".join(listed[:LISTED_IN_A_NOTICE]) + (
                    " …" if len(listed) > LISTED_IN_A_NOTICE else ""
                )
                st.caption(t("settings.server_lists", count=len(listed), models=shown))
            st.text_input(
                t("settings.api_key"),
                key=API_KEY_KEY,
                type="password",
                autocomplete="off",
                help=t("settings.api_key_help"),
                width=FIELD_WIDTH,
            )
            if current.api_key is not None and not current.hosted:
                st.caption(":material/key: " + t("settings.key_in_session"))
                st.button(
                    t("settings.forget_key"),
                    icon=":material/key_off:",
                    on_click=in_session_language(forget_key),
                )
            elif kind == "openai" and not workshop.enabled and config.server_openai_key:
                st.caption(":material/key: " + t("settings.key_from_env"))
        st.number_input(
            t("settings.timeout"),
            step=5,
            key=TIMEOUT_KEY,
            help=t("settings.timeout_help"),
            width=FIELD_WIDTH,
        )
        _bounds_widgets(current, kind)
        st.caption(":material/info: " + t("settings.rebuild_note"))
        st.button(
            t("settings.apply"),
            icon=":material/check:",
            type="primary",
            on_click=in_session_language(apply_settings),
        )
        # What Apply found (refusals, the change, the server's answer) right under it, where the user is.
        show_flashes(session)

    with st.container(border=True):
        st.subheader(t("settings.language"), anchor=False)
        widgets[LANGUAGE_KEY] = session.language
        st.radio(
            t("settings.language"),
            LANGUAGES,
            format_func=LANGUAGE_NAMES.__getitem__,
            key=LANGUAGE_KEY,
            on_change=language_changed,
            horizontal=True,
            label_visibility="collapsed",
        )


run_in_frame(render)
