"""The audit trail of memories an agent or a manager writes itself: one record per insert, update, delete.

Strategies whose memory is edited by the model (LangMem's tools and store manager, self-edited memory
blocks) keep a list of ``MemoryWrite`` and show it with ``audit_state``: the state view and
``replay --json`` read the same plain rows, so a test can check which turn wrote what, and how.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal, get_args

from memory_demos.strategies.shared.paging import STATE_PAGE, paged

Operation = Literal["insert", "update", "delete"]
OPERATIONS: tuple[str, ...] = get_args(Operation)
AUDIT_KEY = "audit_trail"


@dataclass(frozen=True)
class MemoryWrite:
    """One change to a memory: which turn made it, what changed, where, and which call made it.

    ``turn`` counts the conversation's user messages from 1 (the turn whose processing wrote it; a
    background manager's run is stamped with the turn it ran in). ``where`` is a store namespace (joined
    with ``/``) or a block label; ``key`` the item's key (or the block label again); ``value`` the text
    written (for a delete: the text removed). ``via`` names the maker: ``tool:manage_memory``,
    ``manager``, ``tool:memory_replace``. ``tokens`` are the tokens of the model call that decided it, if
    one call can be named (None when several writes share a call or no count is known).
    """

    turn: int
    operation: Operation
    where: str
    key: str
    value: str
    via: str
    tokens: int | None = None

    def __post_init__(self) -> None:
        if self.operation not in OPERATIONS:
            raise ValueError(f"operation must be one of {OPERATIONS}, not {self.operation!r}")
        if self.turn < 1:
            raise ValueError(f"turn counts from 1, not {self.turn}")

    def to_json(self) -> dict[str, Any]:
        """The write as plain data: every field, under its own name."""
        return asdict(self)


def audit_rows(writes: Sequence[MemoryWrite]) -> list[dict[str, Any]]:
    """Every write as plain data, oldest first: the rows of the state view and ``replay --json``."""
    return [write.to_json() for write in writes]


def audit_state(writes: Sequence[MemoryWrite], page: int = STATE_PAGE) -> dict[str, Any]:
    """``{"audit_trail": rows}`` for a snapshot: the newest ``page`` writes, and the total when longer."""
    return paged(AUDIT_KEY, writes, audit_rows, page)


def writes_in_turn(writes: Sequence[MemoryWrite], turn: int) -> list[MemoryWrite]:
    """The writes ``turn`` made, in order (for a turn's note, or to say when a memory was formed)."""
    return [write for write in writes if write.turn == turn]
