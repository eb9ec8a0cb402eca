"""Looking texts up in the catalogue, and strategies' names in Chinese (the catalogue itself: test_i18n_catalogue)."""

from __future__ import annotations

import re

from memory_demos.i18n import CATALOGUE, t


def test_lookup_fills_placeholders_and_falls_back() -> None:
    assert t("pane.turn_n", language="zh", n=3) == "第 3 轮"
    assert t("pane.turn_n", language="en", n=3) == "Turn 3"
    assert t("no.such.key", language="zh") == "no.such.key"
    assert t("home.title", language="xx") == CATALOGUE["en"]["home.title"]


def test_every_strategy_has_a_chinese_name_and_description() -> None:
    """Each module's INFO carries both languages; the interface reads them from there."""
    from memory_demos.i18n import strategy_summary, strategy_title
    from memory_demos.strategies.registry import all_infos

    cjk = re.compile("[\u4e00-\u9fff]")
    for info in all_infos():
        assert info.title_zh and info.summary_zh, info.id
        assert strategy_title(info, "zh") == info.title_zh
        assert strategy_summary(info, "zh") == info.summary_zh
        assert cjk.search(strategy_summary(info, "zh")), info.id
        assert strategy_title(info, "en") == info.title
        assert strategy_summary(info, "en") == info.summary
