"""Workshop hosting: one server for a room of attendees, one concern per module.

``config`` reads the settings (``WorkshopConfig``, ``WorkshopLimits``, ``HostProvider``); ``budget``
holds one attendee's limits and the gate every model built for them goes through; ``registry`` records
sessions (counters only) and releases idle ones; ``code_guard`` compares codes and limits guessing;
``attendee`` signs the cookie that recognises a returning attendee; ``room`` holds all of it for the
server process. The names below are re-exported so ``from memory_demos.workshop import X`` works.
"""

from memory_demos.workshop.attendee import (
    ATTENDEE_COOKIE,
    attendee_from_token,
    attendee_key,
    attendee_token,
    new_attendee_id,
)
from memory_demos.workshop.budget import (
    REPLY_RESERVE_TOKENS,
    BudgetExceeded,
    BudgetGate,
    LimitHit,
    SessionBudget,
    check_scripted_run,
    estimate_next_turn_tokens,
    estimate_run_tokens,
)
from memory_demos.workshop.code_guard import CodeGuard, GuardStats, codes_match
from memory_demos.workshop.registry import RegistryStats, SessionRecord, SessionRegistry, TurnUsage
from memory_demos.workshop.room import RoomState
from memory_demos.workshop.settings import (
    SECRETS_TABLE,
    WORKSHOP_ENV,
    HostProvider,
    WorkshopConfig,
    WorkshopConfigError,
    WorkshopLimits,
)

__all__ = [
    "ATTENDEE_COOKIE",
    "REPLY_RESERVE_TOKENS",
    "SECRETS_TABLE",
    "WORKSHOP_ENV",
    "BudgetExceeded",
    "BudgetGate",
    "CodeGuard",
    "GuardStats",
    "HostProvider",
    "LimitHit",
    "RegistryStats",
    "RoomState",
    "SessionBudget",
    "SessionRecord",
    "SessionRegistry",
    "TurnUsage",
    "WorkshopConfig",
    "WorkshopConfigError",
    "WorkshopLimits",
    "attendee_from_token",
    "attendee_key",
    "attendee_token",
    "check_scripted_run",
    "codes_match",
    "estimate_next_turn_tokens",
    "estimate_run_tokens",
    "new_attendee_id",
]
