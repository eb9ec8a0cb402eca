"""What pages keep between runs, held by the session: typed page state and widget values, no Streamlit run."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

import pytest

from memory_demos.i18n import t
from memory_demos.lab_config import LabConfig
from memory_demos.page_state import MigrationState, ScorecardOutcome, ScorecardState
from memory_demos.scenarios import load_scenario
from memory_demos.session import KEY_PREFIX, LabSession, widget_key
from memory_demos.workshop import WorkshopConfig, WorkshopLimits

ROOT = Path(__file__).resolve().parents[1]


def test_the_migration_guide_stays_within_its_steps_and_builds_warnings_once() -> None:
    state = MigrationState(step_count=3)
    state.go(-1)
    assert state.step_index == 0
    state.go(5)
    assert state.step_index == 2
    built: list[int] = []
    first = state.deprecations("buffer", lambda: (built.append(1), ((), ()))[1])
    again = state.deprecations("buffer", lambda: (built.append(1), ((), ()))[1])
    assert first is again and built == [1]


def test_page_state_lives_under_the_session_prefix_and_survives_reruns() -> None:
    raw: dict[str, object] = {}
    session = LabSession(raw)
    session.migration(4).go(1)
    session.failure_lab.results["x"] = {"failed": True}
    assert LabSession(raw).migration(4).step_index == 1
    assert LabSession(raw).failure_lab.results == {"x": {"failed": True}}
    assert LabSession({}).migration(4).step_index == 0  # another browser session: its own
    assert all(key.startswith(KEY_PREFIX) for key in raw)


def test_widget_values_accept_only_widget_keys() -> None:
    raw: dict[str, object] = {KEY_PREFIX + "provider": "secret-holder"}
    widgets = LabSession(raw).widgets
    widgets[widget_key("chat")] = "hello"
    assert raw[widget_key("chat")] == "hello" and dict(widgets) == {widget_key("chat"): "hello"}
    with pytest.raises(KeyError):
        widgets[KEY_PREFIX + "provider"]
    with pytest.raises(KeyError):
        widgets["ml_job"] = None


def finished_job(result: object = None, cancelled: bool = False, error: str | None = None) -> SimpleNamespace:
    return SimpleNamespace(
        result=result, cancelled=cancelled, error=error, scenario="scenario", provider="provider", done=True
    )


def test_a_finished_replay_becomes_an_outcome_or_a_notice() -> None:
    state = ScorecardState()
    counted: list[list[object]] = []
    turns = [object(), object()]
    result = SimpleNamespace(runs=[SimpleNamespace(turns=turns[:1]), SimpleNamespace(turns=turns[1:])])
    state.start(finished_job(result))  # type: ignore[arg-type]
    state.collect(counted.append)
    assert state.job is None and counted == [turns]  # every turn goes to the budget's usage, once
    assert state.outcome == ScorecardOutcome(result, "scenario", "provider")  # type: ignore[arg-type]
    state.collect(counted.append)
    assert len(counted) == 1
    state.start(finished_job(cancelled=True))  # type: ignore[arg-type]
    assert state.outcome is None
    state.collect(counted.append)
    assert state.notice == ("info", t("scorecard.cancelled"), None)
    state.start(finished_job(error="boom"))  # type: ignore[arg-type]
    state.collect(counted.append)
    assert state.notice == ("error", t("scorecard.failed"), "boom") and len(counted) == 1


def test_a_replay_is_sized_against_the_workshop_budget_before_it_starts() -> None:
    session = LabSession({})
    scenario = load_scenario("name_recall")
    assert ScorecardState.run_refusal(session.budget, session.provider, scenario, 6) is None  # no workshop
    session.configure(
        LabConfig(workshop=WorkshopConfig(enabled=True, limits=WorkshopLimits(max_tokens_per_session=20_000)))
    )
    hit = ScorecardState.run_refusal(session.budget, session.provider, scenario, 6)
    assert hit is not None and hit.kind == "run_tokens" and hit.limit <= 20_000 < hit.current
    assert ScorecardState.run_refusal(session.budget, session.provider, scenario, 1) is None  # one fits


def function_local_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found += [
                f"{node.name}:{inner.lineno}"
                for inner in ast.walk(node)
                if isinstance(inner, ast.Import | ast.ImportFrom)
            ]
    return found


@pytest.mark.parametrize("module", ["session.py", "panes.py", "compare.py", "page_state.py"])
def test_the_session_modules_show_every_import_at_the_top(module: str) -> None:
    assert function_local_imports(ROOT / "memory_demos" / module) == []


@pytest.mark.parametrize("page", sorted(path.name for path in (ROOT / "pages").glob("*.py")))
def test_every_page_is_a_render_run_by_the_frame_over_the_session(page: str) -> None:
    source = (ROOT / "pages" / page).read_text()
    tree = ast.parse(source)
    assert "session_state" not in source  # state goes through the session object
    functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert "render" in functions
    last = tree.body[-1]
    assert isinstance(last, ast.Expr) and ast.unparse(last) == "run_in_frame(render)"
    calls_at_top = [
        ast.unparse(node)
        for node in tree.body[1:-1]  # after the docstring, before the last line
        if isinstance(node, ast.Expr)
    ]
    assert calls_at_top == []  # nothing else runs when the module is executed
