"""LangChain 1.x: create_agent with a checkpointer keeps the thread; each call names it by thread_id.

A complete program: it imports only LangChain,
LangGraph and the standard library. At home:

    pip install langchain langchain-openai
    pip install langchain-classic
    export OPENAI_API_KEY=...
    python program.py        # on gpt-4o-mini
    python program.py "I'm Mara." "My name?"
    python program.py --model openai:gpt-4.1
    python program.py --replay recording.json

--replay needs no key: it answers with the
replies Memory Lab's Run both recorded (the
page offers them for download). It prints
every prompt the model received, as the guide
shows it. In Memory Lab the page calls
chat(model, messages) itself, with the offline
teaching model (or the provider you chose).
"""

from __future__ import annotations

import argparse
import json
import secrets
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from langchain.agents import create_agent
from langchain.chat_models import init_chat_model
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_openai import ChatOpenAI
from langgraph.checkpoint.memory import InMemorySaver

SYSTEM_PROMPT = "You are a helpful assistant. Answer briefly."
MESSAGES = (
    "Hi, my name is Mara and I live in Lisbon.",
    "My order number is A-1234.",
    "Can you recommend a book about gardening?",
    "What's my name?",
)


def chat(model: BaseChatModel, messages: Iterable[str]) -> list[str]:
    """create_agent: the checkpointer keeps the thread; each call sends only the new message."""
    agent = create_agent(model=model, tools=[], system_prompt=SYSTEM_PROMPT, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": secrets.token_urlsafe(16)}}  # one unguessable thread
    replies = []
    for user_text in messages:
        state = agent.invoke({"messages": [HumanMessage(user_text)]}, config)  # only the new message
        replies.append(state["messages"][-1].text)
    return replies


# -- running it: the same in every program of the guide --------------------------------------------


def prompt_lines(messages: Sequence[BaseMessage]) -> list[str]:
    """A prompt as the guide shows it: ``[role] text`` per message, tool calls as JSON."""
    lines = []
    for message in messages:
        prefix = f"[{message.type}] "
        content = message.content if isinstance(message.content, str) else str(message.content)
        first, *rest = content.splitlines() or [""]
        lines.append(prefix + first)
        lines.extend(" " * len(prefix) + line if line else "" for line in rest)
        if isinstance(message, AIMessage) and message.tool_calls:
            calls = [{"name": c["name"], "args": c["args"], "id": c.get("id")} for c in message.tool_calls]
            lines.append(f"{prefix}tool_calls={json.dumps(calls, ensure_ascii=False)}")
        if isinstance(message, ToolMessage) and message.tool_call_id:
            lines.append(f"{prefix}tool_call_id={message.tool_call_id}")
    return lines


class PromptPrinter(BaseCallbackHandler):
    """Prints every prompt a chat model receives, headed by its purpose (a ``purpose:`` tag, else reply)."""

    def on_chat_model_start(
        self, serialized: dict[str, Any], messages: list[list[BaseMessage]], **kwargs: Any
    ) -> None:
        tags = kwargs.get("tags") or []
        purposes = [tag.removeprefix("purpose:") for tag in tags if tag.startswith("purpose:")]
        print(f"--- {purposes[-1] if purposes else 'reply'} prompt")
        print("\n".join(prompt_lines(messages[0])))


class ReplayedChatModel(GenericFakeChatModel):
    """LangChain's fake chat model, answering with recorded replies in order: no key, no network."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ReplayedChatModel:
        return self  # the recorded replies already hold their tool calls

    def get_num_tokens_from_messages(
        self, messages: list[BaseMessage], tools: Sequence[Any] | None = None
    ) -> int:
        # Counted as gpt-4o-mini counts them (tiktoken o200k_base), as Memory Lab's offline model does.
        return ChatOpenAI(model="gpt-4o-mini", api_key="unused").get_num_tokens_from_messages(messages)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the conversation on a real model or a recording, printing every prompt sent."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("messages", nargs="*", default=list(MESSAGES), help="what the user says, a turn each")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--model", default="openai:gpt-4o-mini", help="an init_chat_model name")
    source.add_argument("--replay", metavar="FILE", help="replies recorded by Memory Lab (JSON)")
    args = parser.parse_args(argv)
    if args.replay:
        with open(args.replay, encoding="utf-8") as file:
            recorded = [AIMessage(**reply) for reply in json.load(file)["replies"]]
        model = ReplayedChatModel(messages=iter(recorded), callbacks=[PromptPrinter()])
    else:
        model = init_chat_model(args.model, callbacks=[PromptPrinter()])

    def turns() -> Iterator[str]:
        for number, text in enumerate(args.messages, start=1):
            print(f"=== turn {number}: {text}")
            yield text

    replies = chat(model, turns())
    print("=== replies")
    print("\n".join(replies))


if __name__ == "__main__":
    main()
