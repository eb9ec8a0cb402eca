"""Scenario YAML: the bundled files load, and hostile or malformed files get a clear error."""

from __future__ import annotations

import pytest

from memory_demos.scenarios import (
    MAX_SCENARIO_BYTES,
    ScenarioError,
    ScenarioTurn,
    bundled_names,
    is_refusal,
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


def test_a_refusal_never_counts_as_recall_even_when_it_names_the_fact() -> None:
    turn = parse_scenario("name: t\nturns:\n  - user: q\n    expect: [Lisbon]\n").turns[0]
    assert not turn.passed(
        "I can only answer from what is in my prompt, and it says nothing about weather and Lisbon."
    )
    assert not turn.passed("I don't know where you live in Lisbon.")
    assert not turn.passed("我不知道Lisbon的天气。")
    assert turn.passed("I can't answer your first question from what I was given. You live in Lisbon.")


def test_every_offline_refusal_is_recognised_as_one() -> None:
    from memory_demos.providers.offline_model import lexicon

    refusals = [
        lexicon.DONT_KNOW_EN,
        lexicon.DONT_KNOW_ZH,
        lexicon.DONT_KNOW_ALL_EN,
        lexicon.DONT_KNOW_ALL_ZH,
        *(lexicon.DONT_KNOW_NTH_EN.format(nth=n) for n in lexicon.ORDINALS_EN),
        *(lexicon.DONT_KNOW_NTH_ZH.format(nth=n) for n in lexicon.ORDINALS_ZH),
    ]
    for refusal in refusals:
        assert is_refusal(refusal), refusal


def test_reject_fails_a_reply_that_states_a_taken_back_fact() -> None:
    text = "name: t\nturns:\n  - user: q\n    expect: [Porto]\n    reject: [live in Lisbon]\n  - user: r\n    reject: Lisbon\n"
    scenario = parse_scenario(text)
    both, only_reject = scenario.turns
    assert scenario.probes == 2
    assert both.passed("You live in Porto.")
    assert not both.passed("You live in Lisbon and in Porto.")
    assert both.rejected("You live in Lisbon.") == ["live in Lisbon"]
    assert only_reject.passed("I can't answer that from what I was given.")
    assert not only_reject.passed("You live in Lisbon.")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- just a list", "mapping"),
        ("name: x\nturns: []\n", "non-empty list"),
        ("name: x\nturns:\n  - user: ''\n", "non-empty string"),
        ("name: x\nturns:\n  - user: 5\n", "non-empty string"),
        ("name: x\nturns:\n  - user: hi\n    expect: {a: 1}\n", "list of strings"),
        ("name: x\nturns:\n  - user: hi\n    reject: [[a]]\n", "'reject' must be a list of strings"),
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


def _needs_a_tool(scripted: ScenarioTurn) -> bool:
    return any(word in scripted.user.lower() for word in ("weather", "status of order"))


@pytest.mark.parametrize("name", bundled_names())
def test_buffer_passes_every_probe_whose_answer_is_in_its_prompt(name: str) -> None:
    from memory_demos.providers.chat_models import ProviderConfig
    from memory_demos.replay import replay_strategy

    scenario = load_scenario(name)
    run = replay_strategy(scenario, "buffer", ProviderConfig())
    for scripted, turn, passed in zip(scenario.turns, run.turns, run.passed_flags, strict=True):
        # Buffer binds no tools, and a new conversation starts its buffer empty (only an abstention can
        # pass there).
        in_its_prompt = scripted.session == 1 or scripted.abstain
        if scripted.is_probe and not _needs_a_tool(scripted) and in_its_prompt:
            assert passed, (scripted.user, turn.reply)


@pytest.mark.parametrize("name", bundled_names())
def test_a_one_exchange_window_refuses_what_left_it_instead_of_guessing(name: str) -> None:
    from memory_demos.providers.chat_models import ProviderConfig
    from memory_demos.replay import replay_strategy
    from memory_demos.scenarios import answering_text

    scenario = load_scenario(name)
    run = replay_strategy(scenario, "window", ProviderConfig(), {"k": 1})
    for scripted, turn in zip(scenario.turns, run.turns, strict=True):
        if scripted.is_probe:
            assert answering_text(turn.reply) == "", (scripted.user, turn.reply)


def test_a_rejected_scenario_is_described_in_either_language() -> None:
    with pytest.raises(ScenarioError) as raised:
        parse_scenario("name: x\nturns:\n  - user: hi\n    bad: 1\n")
    assert str(raised.value) == "Turn 1 has unknown fields: bad"  # English for the command line
    assert raised.value.describe("zh") == "第 1 轮有未知字段：bad"
