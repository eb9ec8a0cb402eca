"""Scenario YAML: the bundled files load, and hostile or malformed files get a clear error."""

from __future__ import annotations

import pytest

from memory_demos.scenarios import (
    MAX_SCENARIO_BYTES,
    ScenarioError,
    bundled_names,
    load_scenario,
    parse_scenario,
)


def test_bundled_scenarios_cover_the_required_situations() -> None:
    names = bundled_names()
    assert {"name_recall", "fact_change", "people_and_places", "tool_weather_order", "name_recall_zh"} <= set(
        names
    )
    for name in names:
        scenario = load_scenario(name)
        assert scenario.probes >= 1
    long_one = load_scenario("name_recall")
    first_probe = next(i for i, t in enumerate(long_one.turns) if t.expect)
    assert first_probe >= 11, "the name must be asked for after 10+ unrelated turns"
    assert load_scenario("name_recall_zh").language == "zh"


def test_expect_matches_case_insensitively_any_string() -> None:
    scenario = parse_scenario("name: t\nlanguage: en\nturns:\n  - user: hi\n    expect: [Mara, Lisbon]\n")
    turn = scenario.turns[0]
    assert turn.passed("you are MARA")
    assert turn.passed("lisbon!")
    assert not turn.passed("I don't know")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- just a list", "mapping"),
        ("name: x\nturns: []\n", "non-empty list"),
        ("name: x\nturns:\n  - user: ''\n", "non-empty string"),
        ("name: x\nturns:\n  - user: 5\n", "non-empty string"),
        ("name: x\nturns:\n  - user: hi\n    expect: {a: 1}\n", "list of strings"),
        ("name: x\nlanguage: fr\nturns:\n  - user: hi\n", "language"),
        ("name: x\nturns:\n  - user: hi\n    bogus: 1\n", "unknown fields"),
        ("name: x\nextra: 1\nturns:\n  - user: hi\n", "Unknown scenario fields"),
        ("name: [unclosed\n", "Not valid YAML"),
        ("name: !!python/object:os.system x\nturns:\n  - user: hi\n", "tags"),
        ("name: &a x\nturns:\n  - user: *a\n", "anchors or aliases"),
        ("name: x\nturns:\n  - user: hi\n    expect: [[[[[[[[[a]]]]]]]]]\n", "nested deeper"),
    ],
)
def test_bad_scenarios_are_rejected_with_a_clear_message(text: str, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        parse_scenario(text)


def test_billion_laughs_is_refused_before_expansion() -> None:
    bomb = 'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n'
    bomb += "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nname: x\nturns:\n  - user: hi\n"
    with pytest.raises(ScenarioError, match="anchors or aliases"):
        parse_scenario(bomb)


def test_huge_file_is_refused() -> None:
    with pytest.raises(ScenarioError, match="bytes"):
        parse_scenario(b"name: x\n" + b"#" * (MAX_SCENARIO_BYTES + 1))


def test_unknown_scenario_name_lists_the_bundled_ones() -> None:
    with pytest.raises(ScenarioError, match="name_recall"):
        load_scenario("no_such_scenario")
