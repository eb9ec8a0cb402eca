"""The core returns data, the view translates (issue 25): a note is a catalogue key and its values, an
error a kind and its details, so a run on a thread that knows no language still reads in Chinese."""

from __future__ import annotations

import pickle
import re

from memory_demos.i18n import CATALOGUE, Message, current_language, language_scope, translate, translate_all
from memory_demos.providers.chat_models import ProviderConfig
from memory_demos.providers.errors import describe_error
from memory_demos.scenarios import load_scenario
from memory_demos.scorecard import ReplayJob

CJK = re.compile(r"[\u4e00-\u9fff]")


def _texts(job: ReplayJob) -> list[Message]:
    assert job.result is not None, job.error
    turns = [turn for run in job.result.runs for turn in run.turns]
    return [*(note for turn in turns for note in turn.notes), *(turn.error for turn in turns if turn.error)]


def test_a_scorecard_run_on_a_bare_thread_shows_every_note_and_error_in_chinese() -> None:
    scenario = load_scenario("name_recall_zh")
    # A tiny token budget notes that nothing was kept; the offline model fails the 3rd call of each run.
    params = {"token_buffer": {"max_token_limit": 20}}
    job = ReplayJob(scenario, ["token_buffer", "summary"], ProviderConfig(fail_on_calls=(3,)), params)
    seen: list[str] = []
    work = job._work
    job._work = lambda running: (seen.append(current_language()), work(running))[1]
    job.start()
    assert job.wait(120)
    assert seen == ["en"]  # the job's thread was handed no language: it writes data, not sentences
    texts = _texts(job)
    notes = [text for text in texts if text.key.startswith("strategy.note.")]
    errors = [text for text in texts if text.key.startswith("error.")]
    assert notes and errors, [text.key for text in texts]
    with language_scope("zh"):  # what the frame sets for a Chinese session's script run
        shown = [translate(text) for text in texts]
    for message, text in zip(texts, shown, strict=True):
        assert isinstance(message, Message) and message.key in CATALOGUE["zh"], message
        assert text == message.in_language("zh") != str(message) and CJK.search(text), text


def test_a_message_is_its_english_text_and_keeps_its_key_and_values() -> None:
    note = Message("strategy.note.nothing_fits", limit=20)
    assert note == CATALOGUE["en"]["strategy.note.nothing_fits"].format(limit=20)
    assert (note.key, dict(note.values)) == ("strategy.note.nothing_fits", {"limit": 20})
    assert pickle.loads(pickle.dumps(note)).in_language("zh") == note.in_language("zh")
    assert translate("model output", "zh") == "model output"  # data is never translated


def test_an_error_that_nests_messages_is_translated_whole() -> None:
    refused = describe_error(ValueError(Message("price.empty")))
    both = Message("error.rollback_failed", error=refused, rollback=describe_error(TimeoutError("slow")))
    chinese = both.in_language("zh")
    assert CATALOGUE["zh"]["price.empty"] in chinese and CATALOGUE["zh"]["error.timeout"] in chinese
    assert translate_all({"rows": [both], "n": 1}, "zh") == {"rows": [chinese], "n": 1}
