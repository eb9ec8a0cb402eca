"""What a workshop load run measured: one result per attendee and the report the bench prints."""

from __future__ import annotations

import os
import statistics
from collections import Counter
from dataclasses import dataclass, field


@dataclass
class SessionResult:
    """What one simulated attendee measured and saw."""

    index: int
    marker: str
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    crosstalk: set[str] = field(default_factory=set)


@dataclass
class LoadReport:
    """The figures the benchmark prints."""

    sessions: int
    panes: int
    turns: int
    concurrency: int
    results: list[SessionResult]
    wall_seconds: float
    rss_kib: dict[str, int | None]
    server_cpu_seconds: float | None = None
    client: str = "browser"
    think_seconds: float | None = None
    client_cpu_seconds: float | None = None

    @property
    def latencies(self) -> list[float]:
        return sorted(latency for result in self.results for latency in result.latencies)

    def latencies_of_turn(self, turn: int) -> list[float]:
        """Every attendee's latency for its ``turn``-th message (1-based), sorted."""
        return sorted(r.latencies[turn - 1] for r in self.results if len(r.latencies) >= turn)

    @property
    def errors(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for result in self.results:
            total.update(result.errors)
        return total

    @property
    def crosstalk(self) -> int:
        return sum(len(result.crosstalk) for result in self.results)

    def lines(self) -> list[str]:
        latencies = self.latencies
        done = len(latencies)

        def pct(q: float, values: list[float] = latencies) -> str:
            if not values:
                return "n/a"
            return f"{values[min(len(values) - 1, round(q * (len(values) - 1)))]:.2f} s"

        def mib(kib: int | None) -> str:
            return f"{kib / 1024:.0f} MiB" if kib is not None else "n/a"

        errors = self.errors
        pacing = (
            f"think time {self.think_seconds:g} s (±50%) between messages"
            if self.think_seconds is not None
            else f"up to {self.concurrency} sessions sending at once"
        )
        cpu_per_message = (
            f" · {self.server_cpu_seconds / done:.3f} s per message"
            if self.server_cpu_seconds is not None and done
            else ""
        )
        return [
            f"Workshop load ({self.client} clients): {self.sessions} sessions x {self.panes} panes x "
            f"{self.turns} turns, offline model, {pacing}, {os.cpu_count()} CPUs",
            f"turns completed:  {done} of {self.sessions * self.turns} "
            f"({done * self.panes} pane replies) in {self.wall_seconds:.1f} s",
            f"turn latency:     p50 {pct(0.5)} · p95 {pct(0.95)} · max {pct(1.0)}"
            + (f" · mean {statistics.mean(latencies):.2f} s" if latencies else ""),
            "by turn (p95):    "
            + " · ".join(f"{n}: {pct(0.95, self.latencies_of_turn(n))}" for n in range(1, self.turns + 1)),
            f"errors:           {sum(errors.values())}"
            + (f" ({', '.join(f'{kind}: {n}' for kind, n in sorted(errors.items()))})" if errors else ""),
            f"cross-talk:       {self.crosstalk}",
            f"server RSS:       before {mib(self.rss_kib.get('before'))} · "
            f"peak {mib(self.rss_kib.get('peak'))} · after {mib(self.rss_kib.get('after'))}",
            "server CPU:       "
            + (
                f"{self.server_cpu_seconds:.0f} s in {self.wall_seconds:.0f} s "
                f"({self.server_cpu_seconds / self.wall_seconds:.0%} of one core){cpu_per_message}"
                if self.server_cpu_seconds is not None and self.wall_seconds > 0
                else "n/a"
            ),
            "client CPU:       "
            + (
                f"{self.client_cpu_seconds:.0f} s "
                f"({self.client_cpu_seconds / self.wall_seconds:.0%} of one core, on the same machine)"
                if self.client_cpu_seconds is not None and self.wall_seconds > 0
                else "n/a"
            ),
        ]
