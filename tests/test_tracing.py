"""The capture callback records exactly what a model received, with tiktoken counts and purposes."""

from __future__ import annotations

import threading

import pytest
from langchain_classic.memory.prompt import ENTITY_EXTRACTION_PROMPT, SUMMARY_PROMPT
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from memory_demos.providers.tokenizer import count_messages_tokens, encode
from memory_demos.tracing import (
    EXTRACT_ENTITIES,
    REPLY,
    SUMMARIZE,
    CallCapture,
    classify_call,
    purpose_tag,
    with_purpose,
)


def _model(capture: CallCapture, responses: list[str], purpose: str = REPLY) -> FakeListChatModel:
    return FakeListChatModel(responses=responses, callbacks=[capture], tags=[purpose_tag(purpose)])


def test_capture_records_the_messages_the_model_received_through_a_chain() -> None:
    capture = CallCapture("o200k_base")
    prompt = ChatPromptTemplate.from_messages(
        [("system", "Be brief."), MessagesPlaceholder("history"), ("human", "{input}")]
    )
    history = [HumanMessage("I'm Mara"), AIMessage("Hello Mara")]
    (prompt | _model(capture, ["Your name is Mara."])).invoke({"history": history, "input": "Who am I?"})
    [call] = capture.drain()
    assert [(m.role, m.content) for m in call.messages] == [
        ("system", "Be brief."),
        ("human", "I'm Mara"),
        ("ai", "Hello Mara"),
        ("human", "Who am I?"),
    ]
    sent = [SystemMessage("Be brief."), *history, HumanMessage("Who am I?")]
    assert call.prompt_tokens == count_messages_tokens(sent, "o200k_base")
    assert call.completion_tokens == len(encode("Your name is Mara."))
    assert sum(m.tokens for m in call.messages) + 3 == call.prompt_tokens
    assert call.purpose == REPLY
    assert call.token_source.startswith("counted with tiktoken")
    assert capture.drain() == []


def test_calls_are_labelled_by_their_model_tags_never_by_their_text() -> None:
    summary_text = SUMMARY_PROMPT.format(summary="", new_lines="Human: hi\nAI: hello")
    extraction_text = ENTITY_EXTRACTION_PROMPT.format(history="", input="I met John in Paris")
    # A user who pastes LangChain's own instructions is still asking for a reply.
    assert classify_call([HumanMessage(summary_text)], None) == REPLY
    assert classify_call([HumanMessage(extraction_text)], [purpose_tag(REPLY)]) == REPLY
    assert classify_call([HumanMessage("hello")], [purpose_tag(SUMMARIZE)]) == SUMMARIZE
    # Inherited tags come first; the model's own (last) tag names the call.
    tags = [purpose_tag(REPLY), "seq:step:1", purpose_tag(EXTRACT_ENTITIES)]
    assert classify_call([HumanMessage("hello")], tags) == EXTRACT_ENTITIES


def test_with_purpose_labels_a_copy_and_leaves_the_original_alone() -> None:
    capture = CallCapture("o200k_base")
    model = FakeListChatModel(responses=["ok"], callbacks=[capture], tags=[purpose_tag(REPLY), "keep"])
    summarizer = with_purpose(model, SUMMARIZE)
    summarizer.invoke("Progressively summarize the lines of conversation provided")
    model.invoke("Progressively summarize the lines of conversation provided")
    assert [call.purpose for call in capture.drain()] == [SUMMARIZE, REPLY]
    assert summarizer.tags == ["keep", purpose_tag(SUMMARIZE)]
    assert model.tags == [purpose_tag(REPLY), "keep"]


def test_streamed_reply_tokens_reach_the_listener() -> None:
    received: list[str] = []
    capture = CallCapture("o200k_base", token_listener=received.append)
    model = _model(capture, ["one two three"])
    chunks = [chunk.content for chunk in model.stream([HumanMessage("count")])]
    assert "".join(received) == "".join(chunks) == "one two three"
    [call] = capture.drain()
    assert call.output == "one two three"


def test_failed_calls_are_recorded_with_their_error() -> None:
    capture = CallCapture("o200k_base")

    class Boom(FakeListChatModel):
        def _call(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            raise TimeoutError("too slow")

    model = Boom(responses=["x"], callbacks=[capture])
    with pytest.raises(TimeoutError):
        model.invoke([HumanMessage("hi")])
    [call] = capture.drain()
    assert call.error is not None and "timeout" in call.error
    assert call.completion_tokens == 0


def test_capture_is_safe_across_threads() -> None:
    capture = CallCapture("o200k_base")
    model = _model(capture, ["ok"] * 64)

    def worker() -> None:
        for _ in range(8):
            model.invoke([HumanMessage("hi")])

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(capture.drain()) == 64


def test_offline_model_counts_are_labelled_as_tiktoken_counts() -> None:
    from memory_demos.providers.offline_model import OfflineTeachingModel

    capture = CallCapture("o200k_base")
    model = OfflineTeachingModel(callbacks=[capture])
    model.invoke([HumanMessage("Hi, I'm Mara.")])
    [call] = capture.drain()
    assert call.token_source == "counted with tiktoken o200k_base"
    assert call.prompt_tokens == count_messages_tokens([HumanMessage("Hi, I'm Mara.")], "o200k_base")


def test_tool_calls_and_tool_results_are_captured_with_their_counts() -> None:
    from langchain_core.messages import ToolMessage

    capture = CallCapture("o200k_base")
    call_message = AIMessage("", tool_calls=[{"name": "lookup", "args": {"city": "Lisbon"}, "id": "call_1"}])
    sent = [HumanMessage("Weather in Lisbon?"), call_message, ToolMessage("sunny", tool_call_id="call_1")]
    _model(capture, ["It is sunny."]).invoke(sent)
    [call] = capture.drain()
    assert call.messages[1].tool_calls == ({"name": "lookup", "args": {"city": "Lisbon"}, "id": "call_1"},)
    assert call.messages[2].tool_call_id == "call_1"
    assert call.messages[0].tool_calls == () and call.messages[0].tool_call_id is None
    assert call.prompt_tokens == count_messages_tokens(sent, "o200k_base")
    assert sum(m.tokens for m in call.messages) + 3 == call.prompt_tokens
