"""The interface catalogue: both languages complete and consistent, and every key the UI asks for exists."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from memory_demos.i18n import CATALOGUE, t
from memory_demos.prompt_sections import SECTIONS
from memory_demos.providers.chat_models import PROVIDER_KINDS
from memory_demos.ui.nav import PAGES

ROOT = Path(__file__).resolve().parents[1]
UI_SOURCES = [
    ROOT / "app.py",
    ROOT / "pages" / "home.py",
    ROOT / "pages" / "compare.py",
    ROOT / "pages" / "tokens.py",
    ROOT / "pages" / "settings.py",
    ROOT / "pages" / "instructor.py",
    *sorted((ROOT / "memory_demos" / "ui").glob("*.py")),
]
LITERAL_KEY = re.compile(r"""\bt\(\s*["']([a-z_]+(?:\.[a-z_]+)+)["']""")
# Streamlit calls whose first argument is shown to the user: a literal there may hold formatting,
# icons and {placeholders}, but no words of its own (those come from t()).
SHOWN_LITERAL = re.compile(
    r"""st\.(?:title|header|subheader|markdown|caption|write|button|info|warning|error|success|"""
    r"""expander|popover|selectbox|radio|text_input|text_area|number_input|toggle|chat_input|metric)"""
    r"""\(\s*f?(["'])(.*?)\1"""
)
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
DECORATION = re.compile(r":material/[a-z_]+:|:[a-z]*-badge\[|:[a-z]+\[")


def literal_words(line: str) -> str | None:
    """The words a Streamlit call's literal first argument would show, if any."""
    match = SHOWN_LITERAL.search(line)
    if match is None:
        return None
    rest = DECORATION.sub("", PLACEHOLDER.sub("", match.group(2)))
    return rest if re.search(r"[A-Za-z\u4e00-\u9fff]", rest) else None


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_both_languages_have_the_same_keys() -> None:
    english, chinese = set(CATALOGUE["en"]), set(CATALOGUE["zh"])
    assert english - chinese == set(), f"missing in zh: {sorted(english - chinese)}"
    assert chinese - english == set(), f"missing in en: {sorted(chinese - english)}"


@pytest.mark.parametrize("key", sorted(CATALOGUE["en"]))
def test_both_languages_fill_the_same_placeholders(key: str) -> None:
    assert placeholders(CATALOGUE["en"][key]) == placeholders(CATALOGUE["zh"][key]), key
    assert CATALOGUE["zh"][key].strip(), f"empty Chinese text for {key}"


def test_every_key_the_interface_asks_for_exists() -> None:
    used: set[str] = set()
    for source in UI_SOURCES:
        used |= set(LITERAL_KEY.findall(source.read_text(encoding="utf-8")))
    used |= {spec.title_key for spec in PAGES} | {spec.blurb_key for spec in PAGES}
    # Keys built at run time from a fixed set of values.
    used |= {f"kind.{kind}" for kind in ("classic", "modern")}
    used |= {f"section.{section}" for section in SECTIONS}
    used |= {f"role.{role}" for role in ("system", "human", "ai", "tool")}
    used |= {f"settings.kind.{kind}" for kind in PROVIDER_KINDS}
    kinds = ("added", "dropped", "summarized", "summary", "retrieved", "entities")
    used |= {f"changes.kind.{kind}" for kind in kinds} | {f"changes.count.{kind}" for kind in kinds}
    missing = sorted(key for key in used if key not in CATALOGUE["en"])
    assert not missing, f"keys used but not in the catalogue: {missing}"
    assert len(used) > 100  # the scan found the interface (a broken regex would find nothing)


@pytest.mark.parametrize("source", UI_SOURCES, ids=lambda path: path.name)
def test_no_interface_text_is_hard_coded(source: Path) -> None:
    offending = [
        line.strip() for line in source.read_text(encoding="utf-8").splitlines() if literal_words(line)
    ]
    assert not offending, f"{source.name} shows literal text instead of t(...): {offending}"


def test_the_hard_coded_text_check_can_fail() -> None:
    assert literal_words('st.button("Reset all")') == "Reset all"
    assert literal_words('st.caption(f"{icon} {heading}")') is None
    assert literal_words("st.markdown(f\"**:material/memory: {t('prompt.added_by_memory')}**\")") is None


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
