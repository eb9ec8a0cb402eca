"""AppTest of Compare when a message fails: the page says so above the panes, and the cost charts leave the
failed turns out instead of drawing them as free."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.session import KEY_PREFIX
from tests.test_app_pages import panes, send

APP = str(Path(__file__).resolve().parents[1] / "app.py")


def test_a_failed_message_is_named_above_the_panes_and_left_out_of_the_cost_charts() -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    # The offline model fails the first call of every strategy; the second succeeds.
    at.session_state[KEY_PREFIX + "provider"] = ProviderConfig(fail_on_calls=(1,))
    at.run()
    at.switch_page("pages/compare.py").run()
    send(at, "Hello there, I am Bo.")
    assert not at.exception
    count = len(panes(at))
    warnings = [w.value for w in at.warning if w.value.startswith("The last message failed")]
    assert warnings == [
        f"The last message failed in {count} of {count} panes; their memory is as it was.\n\n"
        f"- **injected fault: {count} turns**: The offline teaching model failed on purpose (a fault "
        "switch): nothing is wrong."
    ]
    captions = [c.value for c in at.caption]
    assert "Send a message to draw the charts." in captions  # no point at all: every turn failed
    assert any(c.startswith("Failed turns are left out of these charts") for c in captions)

    send(at, "Second try, I am Bo.")
    assert not [w.value for w in at.warning if w.value.startswith("The last message failed")]
