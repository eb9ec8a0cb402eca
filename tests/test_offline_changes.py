"""offline_model.changes: change words are taken out of a clause and kept as flags."""

from __future__ import annotations

import pytest

from memory_demos.providers.offline_model.changes import normalize_en, normalize_zh


@pytest.mark.parametrize(
    ("clause", "expected"),
    [
        ("S no longer live in Lisbon", ("S live in Lisbon", True, True, False)),
        ("S don't drink coffee anymore", ("S drink coffee", True, True, False)),
        ("S used to love coffee", ("S love coffee", True, True, False)),
        ("These days S only drink green tea", ("S drink green tea", False, True, True)),
        ("S just turned 31", ("S turned 31", False, True, False)),
        ("S don't like jazz", ("S don't like jazz", False, False, False)),
        ("S is not from Spain", ("S is from Spain", True, False, False)),
    ],
)
def test_english(clause: str, expected: tuple[str, bool, bool, bool]) -> None:
    assert normalize_en(clause) == expected


@pytest.mark.parametrize(
    ("clause", "expected"),
    [
        ("S现在不住在北京了", ("S住在北京", True, True, False)),
        ("S已经不住北京了", ("S住北京", True, True, False)),
        ("S不喜欢咖啡了", ("S喜欢咖啡", True, True, False)),
        ("S不喜欢咖啡", ("S不喜欢咖啡", False, False, False)),
        ("S以前住在北京", ("S住在北京", True, True, False)),
        ("S现在只喝绿茶", ("S喝绿茶", False, True, True)),
        ("S住在成都", ("S住在成都", False, False, False)),
        ("S的订单号改成了B-2", ("S的订单号是B-2", False, True, False)),
    ],
)
def test_chinese(clause: str, expected: tuple[str, bool, bool, bool]) -> None:
    assert normalize_zh(clause) == expected
