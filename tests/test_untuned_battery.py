"""The untuned development battery: everyday conversations written by people who never read the model's
code, played through the real ``buffer`` strategy. The floors are what the model reaches today; raise
them as it improves, never lower them to fit a change."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory_demos.bench.battery import load_battery, pass_rates

DEV = Path(__file__).parent / "data" / "untuned_battery" / "dev"
DEV2 = Path(__file__).parent / "data" / "untuned_battery" / "dev2"
DEV3 = Path(__file__).parent / "data" / "untuned_battery" / "dev3"
DEV4 = Path(__file__).parent / "data" / "untuned_battery" / "dev4"
DEV5 = Path(__file__).parent / "data" / "untuned_battery" / "dev5"
DEV6 = Path(__file__).parent / "data" / "untuned_battery" / "dev6"
DEV7 = Path(__file__).parent / "data" / "untuned_battery" / "dev7"
DEV8 = Path(__file__).parent / "data" / "untuned_battery" / "dev8"
DEV9 = Path(__file__).parent / "data" / "untuned_battery" / "dev9"
DEV10 = Path(__file__).parent / "data" / "untuned_battery" / "dev10"
DEV11 = Path(__file__).parent / "data" / "untuned_battery" / "dev11"
DEV12 = Path(__file__).parent / "data" / "untuned_battery" / "dev12"
ISSUE = Path(__file__).parent / "data" / "issue_battery"
# Raised to the probes each set passed at the end of the ninth day (f9b9b25), rounded down.
FLOORS = {"en": 0.82, "zh": 0.86}
DEV2_FLOORS = {"en": 0.81, "zh": 0.82}
DEV3_FLOORS = {"en": 0.74, "zh": 0.79}
DEV4_FLOORS = {"en": 0.71, "zh": 0.76}
DEV5_FLOORS = {"en": 0.78, "zh": 0.78}
DEV6_FLOORS = {"en": 0.78, "zh": 0.80}
DEV7_FLOORS = {"en": 0.81, "zh": 0.82}
DEV8_FLOORS = {"en": 0.78, "zh": 0.78}
DEV9_FLOORS = {"en": 0.78, "zh": 0.68}  # first measured at .785 / .665
DEV10_FLOORS = {"en": 0.67, "zh": 0.75}  # first measured at 0f05c99: .669 / .731
DEV11_FLOORS = {"en": 0.71, "zh": 0.73}  # first measured at 7b99301: .711 / .736
DEV12_FLOORS = {"en": 0.65, "zh": 0.72}  # first measured at f8d55bc: .660 / .725


def test_the_dev_battery_is_big_bilingual_and_untouched() -> None:
    conversations = load_battery(DEV)
    assert len(conversations) >= 300
    assert sum(c.language == "zh" for c in conversations) >= 0.4 * len(conversations)
    assert len({c.topic for c in conversations}) >= 30


@pytest.mark.parametrize("language", sorted(FLOORS))
def test_the_dev_battery_passes_its_floor(language: str) -> None:
    conversations = [c for c in load_battery(DEV) if c.language == language]
    assert pass_rates(conversations)[language] >= FLOORS[language]


_LATER_BATTERIES = {  # written one after another by engineers who never read the model
    # battery: (its path, its floors, how many conversations of each language it holds at least)
    "second": (DEV2, DEV2_FLOORS, 100),
    "third": (DEV3, DEV3_FLOORS, 100),  # 1 Dec 2026; only its totals are looked at, never a failure
    "fourth": (DEV4, DEV4_FLOORS, 100),  # third day of work; totals only
    "fifth": (DEV5, DEV5_FLOORS, 100),  # fourth day of work; totals only
    "sixth": (DEV6, DEV6_FLOORS, 100),  # fifth day of work; its failures were read that day
    "seventh": (DEV7, DEV7_FLOORS, 90),  # sixth day of work; its failures were read that day
    "eighth": (DEV8, DEV8_FLOORS, 90),  # seventh day of work; its failures were read that day
    "ninth": (DEV9, DEV9_FLOORS, 85),  # eighth day of work; totals only
    "tenth": (DEV10, DEV10_FLOORS, 85),  # ninth day of work; totals only
    "eleventh": (DEV11, DEV11_FLOORS, 70),  # tenth day of work; totals only
    "twelfth": (DEV12, DEV12_FLOORS, 36),  # thirteenth session; totals only
}


@pytest.mark.parametrize("language", sorted(FLOORS))
@pytest.mark.parametrize("battery", sorted(_LATER_BATTERIES))
def test_each_later_dev_battery_passes_its_floor(battery: str, language: str) -> None:
    path, floors, least = _LATER_BATTERIES[battery]
    conversations = [c for c in load_battery(path) if c.language == language]
    assert len(conversations) >= least
    assert pass_rates(conversations)[language] >= floors[language]


def test_every_example_of_issue_19_gets_the_right_answer() -> None:
    rates = pass_rates(load_battery(ISSUE))
    assert rates == {"en": 1.0, "zh": 1.0, "all": 1.0}


_REPLIES = """
import sys
from pathlib import Path
from langchain_core.messages import AIMessage, HumanMessage
from memory_demos.bench.battery import load_battery
from memory_demos.providers.offline_model import OfflineTeachingModel
model = OfflineTeachingModel()
for conversation in load_battery(Path(sys.argv[1])):
    messages = []
    for turn in conversation.turns:
        messages.append(HumanMessage(turn.user))
        reply = str(model.invoke(messages).content)
        print(conversation.id, repr(reply))
        messages.append(AIMessage(reply))
"""


def test_the_model_says_the_same_whatever_python_hashes_strings_to() -> None:
    """Deterministic across processes too: no answer may hang on the order of a set of strings (a
    server restart must not change what a lesson shows)."""
    import os
    import subprocess
    import sys

    replies = []
    for seed in ("0", "11"):
        environment = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run(
            [sys.executable, "-c", _REPLIES, str(DEV2)],
            capture_output=True,
            text=True,
            env=environment,
            check=True,
        )
        replies.append(run.stdout.splitlines())
    assert len(replies[0]) > 600
    assert replies[0] == replies[1]


def test_a_probe_whose_model_call_failed_is_listed_as_a_failed_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """A raised model call is no refusal and no forgotten fact: the failure line says the call failed."""
    from memory_demos.bench.battery import Conversation, Probe, score
    from memory_demos.providers.offline_model import OfflineTeachingModel

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("rules crashed")

    monkeypatch.setattr(OfflineTeachingModel, "_generate", broken)
    monkeypatch.setattr(OfflineTeachingModel, "_stream", broken, raising=False)
    conversation = Conversation("x-en-1", "test", "en", (Probe("what's my name?", refuse=True),))
    tally = score(conversation, window=False)
    assert tally.passed == 0
    assert (
        len(tally.failures) == 1 and "[failed:" in tally.failures[0] and "rules crashed" in tally.failures[0]
    )
