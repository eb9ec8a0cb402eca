"""Command line: ``python -m memory_demos strategies | replay | bench | chat | guide``.

Bad input (unknown strategy, bad parameter, unknown scenario, empty turn) prints one line naming
the problem and exits with status 2; no traceback, no memory touched. ``replay`` exits with status 1
when every turn of a strategy failed (an unreachable server, a refused key), and says which; a replay
whose first turns all fail that way stops after two of them, naming the kind of failure.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memory_demos import chat_command
from memory_demos.cli_options import (
    add_param_argument,
    add_provider_arguments,
    param_assignments,
    provider_from_args,
)
from memory_demos.cli_table import strategy_column_width
from memory_demos.scenarios import ScenarioError, load_scenario
from memory_demos.strategies.base import InputError

EXIT_TURN_FAILED = 1
EXIT_BAD_INPUT = 2
# The command line speaks English: the failure kinds a stopped replay names, in words.
FAILURE_KIND_WORDS = {
    "connection": "the server cannot be reached",
    "url_refused": "the address is refused",
    "authentication": "the key was refused",
    "permission": "access to the model was denied",
    "not_found": "the server does not know this model or URL",
}


def cmd_strategies(args: argparse.Namespace) -> int:
    # Lazy, here and below: each command loads only what it runs (the registry loads every strategy).
    from memory_demos.strategies.registry import all_infos

    infos = all_infos()
    if args.json:
        print(json.dumps([info.to_json() for info in infos], indent=2, ensure_ascii=False))
        return 0
    width = strategy_column_width(info.id for info in infos)
    for info in infos:
        params = ", ".join(f"{info.id}.{p.name}={p.default}" for p in info.params) or "-"
        print(f"{info.id:<{width}} {info.kind:<8} {info.title}  [{params}]")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    # Lazy: see cmd_strategies.
    from memory_demos.replay import replay
    from memory_demos.strategies.registry import parse_selection

    scenario = load_scenario(args.scenario)
    strategy_ids = parse_selection(args.strategies)
    params = param_assignments(args.param, strategy_ids)
    provider = provider_from_args(args)
    concurrency = provider.max_concurrent_panes
    result = replay(
        scenario,
        strategy_ids,
        provider,
        params,
        fork_at=args.fork_at,
        concurrency=concurrency,
        check_first=True,
    )
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    else:
        print_replay_table(result)
    if result.stopped is not None:
        stop = result.stopped
        where = f"after its first {stop.failed_turns} turns failed" if stop.failed_turns else "before turn 1"
        words = FAILURE_KIND_WORDS.get(stop.kind, stop.kind)
        print(f"error: replay stopped {where}: {stop.kind}: {words} ({stop.error})", file=sys.stderr)
        return EXIT_TURN_FAILED
    failed = [run.strategy_id for run in result.runs if run.turns and all(not turn.ok for turn in run.turns)]
    for strategy_id in failed:
        run = next(run for run in result.runs if run.strategy_id == strategy_id)
        print(f"error: every turn of {strategy_id} failed: {run.turns[0].error}", file=sys.stderr)
    return EXIT_TURN_FAILED if failed else 0


def print_replay_table(result: Any) -> None:
    """The replay as a table; the last column says where each strategy's counts came from."""
    temperature = "server default" if result.temperature is None else f"{result.temperature:g}"
    print(f"Scenario: {result.scenario} · provider: {result.provider} · temperature: {temperature}")
    width = strategy_column_width(run.strategy_id for run in result.runs)
    header = (
        f"{'strategy':<{width}} {'recall':>7} {'prompt':>8} {'completion':>10} "
        f"{'memory':>8} {'tools':>7} {'calls':>6} {'errors':>6} {'empty':>6}  counted by"
    )
    print(header)
    print("-" * len(header))
    for run in result.runs:
        totals = run.totals()
        errors = sum(1 for t in run.turns if t.error)
        empty = sum(1 for t in run.turns if t.empty_reply)
        recall = f"{run.recall_passed}/{run.recall_asked}"
        counted = counted_by_label(run.turns)
        print(
            f"{run.strategy_id:<{width}} {recall:>7} {totals['prompt_tokens']:>8} "
            f"{totals['completion_tokens']:>10} "
            f"{totals['memory_tokens']:>8} {totals['tool_round_tokens']:>7} {totals['model_calls']:>6} "
            f"{errors:>6} {empty:>6}  {counted}"
        )
    print("tools: tokens of the agent's tool rounds (tool calls, memory-block edits) before its reply.")
    print("Failed calls cost what the provider reported for them (nothing, unless it sent usage).")
    print_session_recall(result)
    if any(turn.empty_reply for run in result.runs for turn in run.turns):
        print("empty: replies with no text (empty or whitespace only); a probe counts them as failed.")


def print_session_recall(result: Any) -> None:
    """For a scenario with session breaks: recall in each conversation, strategy by strategy."""
    runs = [run for run in result.runs if len(run.sessions) > 1]
    if not runs:
        return
    breaks = ", ".join(
        f"turn {start.first_turn}" + (f" (after {start.after})" if start.after else "")
        for start in runs[0].sessions[1:]
    )
    print(f"New conversation of the same user before {breaks}. Recall in each conversation:")
    width = strategy_column_width(run.strategy_id for run in runs)
    for run in runs:
        cells = [f"{row['passed']}/{row['asked']}" for row in run.recall_by_session()]
        print(f"  {run.strategy_id:<{width}} " + " · ".join(cells))


def counted_by_label(turns: Sequence[Any]) -> str:
    """``provider``, ``tiktoken:o200k_base (approximate)``, or each source with its turn count if mixed."""
    counts: dict[str, int] = {}
    for turn in turns:
        label = turn.counted_by + (" (approximate)" if turn.counts_are_approximate else "")
        counts[label] = counts.get(label, 0) + 1
    if len(counts) <= 1:
        return next(iter(counts), "-")
    return "mixed: " + ", ".join(f"{label} ×{n}" for label, n in counts.items())


def cmd_bench(args: argparse.Namespace) -> int:
    from memory_demos import bench  # lazy: see cmd_strategies

    if args.what == "overhead":
        return bench.overhead(turns=args.turns, strategy_ids=args.strategies)
    if args.what == "panes":
        return bench.panes(panes=args.panes or 6, latency_ms=args.latency_ms, turns=args.turns)
    if args.what == "model" and args.battery:
        from memory_demos.bench.battery import print_battery  # lazy: see cmd_strategies

        return print_battery(Path(args.battery), show_failures=args.failures, window=not args.no_window)
    if args.what == "model":
        return bench.model_speed(repeats=args.repeats)
    if args.what == "embeddings":
        return bench.embeddings(repeats=args.repeats)
    if args.what == "workshop":
        return bench.workshop(
            sessions=args.sessions,
            panes=args.panes or 4,
            turns=args.turns,
            url=args.url,
            client=args.client,
            think_seconds=args.think_seconds,
            warm=args.warm,
        )
    if args.what == "render":
        return bench.render(panes=args.panes or 4, turns=args.turns, repeats=args.repeats)
    raise InputError(f"Unknown benchmark {args.what!r}")


def cmd_guide(args: argparse.Namespace) -> int:
    """Write the migration guide's programs, as the page shows them, for an engineer to take home."""
    from memory_demos import migration  # lazy: see cmd_strategies

    directory = Path(args.export)
    written = migration.export_programs(directory)
    if args.recordings:
        written += migration.export_recordings(directory)
    for path in written:
        print(path)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m memory_demos", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    strategies = sub.add_parser("strategies", help="list the strategies and their parameters")
    strategies.add_argument("--json", action="store_true")
    strategies.set_defaults(func=cmd_strategies)

    replay = sub.add_parser("replay", help="play a scripted conversation through strategies")
    replay.add_argument("--scenario", required=True, help="a bundled scenario name or a YAML file")
    replay.add_argument("--strategies", default="all", help="'all' or ids, comma-separated")
    add_provider_arguments(replay)
    add_param_argument(replay)
    replay.add_argument("--fork-at", type=int, default=None, help="rewind to turn N and branch (langgraph)")
    replay.add_argument("--json", action="store_true")
    replay.set_defaults(func=cmd_replay)

    bench = sub.add_parser("bench", help="print performance figures")
    bench.add_argument("what", choices=["overhead", "panes", "workshop", "render", "model", "embeddings"])
    bench.add_argument("--turns", type=int, default=None)
    bench.add_argument("--panes", type=int, default=None, help="panes: 6 by default; workshop, render: 4")
    bench.add_argument("--latency-ms", type=int, default=300)
    bench.add_argument("--sessions", type=int, default=40)
    bench.add_argument("--strategies", default="all")
    bench.add_argument(
        "--repeats",
        type=int,
        default=None,
        help="model: timed replies per prompt; embeddings: timings per text (5); render: runs (default 1)",
    )
    bench.add_argument(
        "--battery",
        default=None,
        help="model: a folder of battery YAML files to play through buffer and window",
    )
    bench.add_argument("--failures", action="store_true", help="model --battery: list every failed probe")
    bench.add_argument("--no-window", action="store_true", help="model --battery: skip the window k=1 run")
    bench.add_argument("--url", default=None, help="workshop: a running server (default: start one)")
    bench.add_argument(
        "--client",
        default="browser",
        choices=["browser", "ws"],
        help="workshop: headless Chromium per attendee, or a websocket client speaking Streamlit's protocol",
    )
    bench.add_argument(
        "--think-seconds",
        type=float,
        default=None,
        help="workshop --client ws: mean pause between an attendee's messages (default 8)",
    )
    bench.add_argument(
        "--warm",
        action="store_true",
        help="workshop: a host session sends one message before the room (no cold start in the figures)",
    )
    bench.set_defaults(func=cmd_bench)

    guide = sub.add_parser("guide", help="the migration guide's standalone programs")
    guide.add_argument(
        "--export", required=True, metavar="DIR", help="write <step>_classic.py and <step>_modern.py here"
    )
    guide.add_argument(
        "--recordings",
        action="store_true",
        help="also run each step on the offline model and write <step>_<side>.recording.json for --replay",
    )
    guide.set_defaults(func=cmd_guide)

    chat_command.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except (InputError, ScenarioError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
