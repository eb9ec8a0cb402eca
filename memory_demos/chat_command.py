"""``python -m memory_demos chat``: send one message to a persisted conversation, from any process.

The strategy is built for ``--conversation`` and ``--user`` with the storage named by
``MEMORY_LAB_SQL_URL``, ``MEMORY_LAB_CHROMA_URL`` and ``MEMORY_LAB_REDIS_URL`` (unset: the SQLite files of
the data folder and an in-process chromadb). It sends the message, prints the turn, and closes:
``close()`` releases connections but never deletes persisted state, so the next run, in another process
or on another machine sharing the servers, continues the same conversation. Pick a persisted backend
with ``--param`` (``history.backend=postgres``, ``langgraph.checkpointer=postgres``, ...); with the
default in-memory backends each run starts from nothing.

``--conversation new`` starts the same user's next conversation under a fresh id (printed, to continue
with): what the strategy keeps per conversation starts empty there, and a store kept per user
(``long_term.store=sqlite``) carries over. ``--forget-user`` deletes what the strategy keeps about the user
across conversations, and sends nothing.

Exit status: 0 for a good turn, 1 for a failed turn or unusable storage, 2 for bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from memory_demos.cli_options import (
    add_param_argument,
    add_provider_arguments,
    param_assignments,
    provider_from_args,
)
from memory_demos.defaults import new_conversation_id
from memory_demos.lab_config import load_lab_config
from memory_demos.storage import StorageConfig, StorageError
from memory_demos.strategies.base import InputError, StrategyContext
from memory_demos.turn import Turn

EXIT_TURN_FAILED = 1
NEW = "new"  # --conversation new: the user's next conversation, under a fresh id


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register the ``chat`` subcommand on ``subparsers`` (from ``ArgumentParser.add_subparsers``)."""
    chat = subparsers.add_parser(
        "chat", help="send one message to a persisted conversation and print the turn"
    )
    chat.add_argument("--strategy", required=True, help="a strategy id (see `strategies`)")
    chat.add_argument(
        "--conversation",
        required=True,
        help="the conversation id; reuse it to continue, or 'new' for the user's next conversation",
    )
    chat.add_argument("--user", default="local", help="the user id (default: local)")
    add_param_argument(chat)
    add_provider_arguments(chat)
    chat.add_argument("--json", action="store_true", help="print the turn as JSON (Turn.to_json)")
    chat.add_argument(
        "--forget-user",
        action="store_true",
        help="delete what the strategy keeps about --user across conversations (sends nothing)",
    )
    chat.add_argument("message", nargs="?", default=None, help="the message to send")
    chat.set_defaults(func=cmd_chat)
    return chat


def cmd_chat(args: argparse.Namespace) -> int:
    """Build, send one message, print the turn, close (never discard)."""
    # Lazy: the registry imports every strategy module; the CLI's other commands start without them.
    from memory_demos.strategies.registry import build_strategy, get_info

    get_info(args.strategy)
    if not args.conversation.strip() or not args.user.strip():
        raise InputError("--conversation and --user must not be empty")
    if args.message is None and not args.forget_user:
        raise InputError("give the message to send (or --forget-user)")
    conversation = new_conversation_id() if args.conversation == NEW else args.conversation
    params = param_assignments(args.param, [args.strategy]).get(args.strategy, {})
    storage = StorageConfig()
    try:
        config = load_lab_config()
        storage = config.storage
        context = StrategyContext.from_config(
            config,
            provider=provider_from_args(args),
            conversation_id=conversation,
            user_id=args.user,
        )
        strategy = build_strategy(args.strategy, context, params)
        try:
            if args.forget_user:
                strategy.forget_user()
                kept = ", ".join(part.name for part in strategy.info.carries_over) or "nothing"
                print(f"forgot what {args.strategy} keeps about {args.user} across conversations: {kept}")
                return 0
            turn = strategy.send(args.message)
        finally:
            strategy.close()
    except StorageError as exc:
        print(f"error: {storage.redact(str(exc))}", file=sys.stderr)
        return EXIT_TURN_FAILED
    if args.conversation == NEW:  # the id to continue this conversation with
        print(f"conversation: {conversation}", file=sys.stderr)
    return print_turn(args, turn, storage, conversation)


def print_turn(args: argparse.Namespace, turn: Turn, storage: StorageConfig, conversation: str) -> int:
    """The turn on stdout (its reply, or its JSON), notes and errors on stderr; the exit status."""
    if args.json:
        data = {"conversation_id": conversation, "user_id": args.user, **turn.to_json()}
        print(storage.redact(json.dumps(data, ensure_ascii=False)))
    elif turn.empty_reply:
        print("note: empty reply: the model returned no text (empty or whitespace only)", file=sys.stderr)
    elif turn.ok:
        print(storage.redact(turn.reply))
    for note in turn.notes:  # a reply cut by max_tokens or the deadline says so here
        print(f"note: {storage.redact(note)}", file=sys.stderr)
    if not turn.ok:
        print(f"error: {storage.redact(turn.error or '')}", file=sys.stderr)
        return EXIT_TURN_FAILED
    return 0
