"""AppTest of the Compare page with a LangChain 1.x pane: deprecation status in headers, tools in the prompt."""

from __future__ import annotations

from memory_demos.session import widget_key
from tests.helpers import open_inspector
from tests.test_app_pages import EN, focus_view, open_app, pane_badges, panes, send


def test_pane_headers_show_what_langchain_warned_and_the_agent_prompt_shows_its_tools() -> None:
    at = open_app("pages/compare.py")
    at.selectbox(key=widget_key("add_strategy")).set_value("agent").run()
    at.button[[b.label for b in at.button].index(EN["compare.add_pane"])].click().run()
    assert not at.exception
    assert panes(at)[0].strategy_id == "buffer" and panes(at)[-1].strategy_id == "agent"
    agent_index = len(panes(at)) - 1

    buffer_badges = pane_badges(at, 0)
    assert any(
        EN["deprecation.raised"] in text and "ConversationBufferMemory" in tip for text, tip in buffer_badges
    )
    agent_badges = pane_badges(at, agent_index)
    assert any(EN["kind.modern"] in text for text, _tip in agent_badges)
    assert not any(EN["deprecation.raised"] in text for text, _tip in agent_badges)

    send(at, "What's the weather in Lisbon?")
    agent = panes(at)[-1]
    turn = agent.turns[-1]
    assert turn.ok and turn.tool_tokens > 0 and "Lisbon" in turn.reply
    open_inspector(at, agent_index, "prompt")  # the focus view opens on demand
    prompt = focus_view(at)
    tools = next(e for e in prompt.expander if "Tool definitions sent with the prompt" in e.label)
    assert f"· {turn.tool_tokens} tokens" in tools.label
    assert any('"get_weather"' in code.value for code in tools.code)
    assert any("Estimated" in c.value for c in tools.caption)
