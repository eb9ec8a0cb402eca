"""The Instructor view's texts from plain counts: every error kind and every limit named in words, in
the language the page hands over, numbers with grouped digits. No attendee text ever comes here."""

from __future__ import annotations

from dataclasses import fields

from memory_demos.i18n import t
from memory_demos.workshop import WorkshopLimits

# What each counted error kind is called: refused codes and links (ui/workshop.py) and the kinds of a
# failed model call (providers/errors.py). A kind not listed here is counted as "Other errors".
ERROR_KINDS = {
    "access_denied": "instructor.kind.access_denied",
    "host_code_denied": "instructor.kind.host_code_denied",
    "code_locked": "instructor.kind.code_locked",
    "code_busy": "instructor.kind.code_busy",
    "link_malformed": "instructor.kind.link_malformed",
    "link_forged": "instructor.kind.link_forged",
    "link_not_found": "instructor.kind.link_not_found",
    "timeout": "instructor.kind.timeout",
    "rate_limit": "instructor.kind.rate_limit",
    "authentication": "instructor.kind.authentication",
    "permission": "instructor.kind.permission",
    "not_found": "instructor.kind.not_found",
    "context_overflow": "instructor.kind.context_overflow",
    "interrupted": "instructor.kind.interrupted",
    "connection_dropped": "instructor.kind.connection_dropped",
    "connection": "instructor.kind.connection",
    "server": "instructor.kind.server",
    "rejected": "instructor.kind.rejected",
    "malformed": "instructor.kind.malformed",
    "input": "instructor.kind.input",
    "storage": "instructor.kind.storage",
    "budget": "instructor.kind.budget",
    "injected": "instructor.kind.injected",
    "url_refused": "instructor.kind.url_refused",
    "other": "instructor.kind.other",
}
UNKNOWN_KIND = "instructor.kind.unknown"
# Each limit per attendee: its name in words, and the unit its value is shown with.
LIMITS = {
    "max_turns_per_conversation": ("instructor.limit.max_turns_per_conversation", "instructor.unit.messages"),
    "max_message_chars": ("instructor.limit.max_message_chars", "instructor.unit.characters"),
    "max_tokens_per_session": ("instructor.limit.max_tokens_per_session", "instructor.unit.tokens"),
    "max_concurrent_calls_per_session": (
        "instructor.limit.max_concurrent_calls_per_session",
        "instructor.unit.calls",
    ),
    "max_code_failures_per_address": (
        "instructor.limit.max_code_failures_per_address",
        "instructor.unit.codes",
    ),
    "code_lockout_minutes": ("instructor.limit.code_lockout_minutes", "instructor.unit.minutes"),
    "max_code_checks_per_second": (
        "instructor.limit.max_code_checks_per_second",
        "instructor.unit.per_second",
    ),
    "idle_minutes": ("instructor.limit.idle_minutes", "instructor.unit.minutes"),
}


def number(value: float) -> str:
    """A count or limit as people read it: 150,000; 15; 0.5."""
    return f"{value:,}" if isinstance(value, int) else f"{value:,g}"


def error_rows(errors: dict[str, int], language: str) -> list[dict[str, str]]:
    """The last hour's errors, each kind named in words (unknown kinds counted together), most first."""
    counts: dict[str, int] = {}
    for kind, count in errors.items():
        label = t(ERROR_KINDS.get(kind, UNKNOWN_KIND), language)
        counts[label] = counts.get(label, 0) + count
    ordered = sorted(counts.items(), key=lambda item: -item[1])
    return [
        {t("instructor.error_kind", language): label, t("instructor.error_count", language): number(count)}
        for label, count in ordered
    ]


def limit_rows(limits: WorkshopLimits, language: str) -> list[dict[str, str]]:
    """Every limit per attendee, named in words, its value with its unit."""
    rows = []
    for spec in fields(limits):
        name_key, unit_key = LIMITS[spec.name]
        rows.append(
            {
                t("instructor.limit_name", language): t(name_key, language),
                t("instructor.limit_value", language): t(
                    unit_key, language, value=number(getattr(limits, spec.name))
                ),
            }
        )
    return rows
