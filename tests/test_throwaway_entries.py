"""Adding a guide step or a failure demo takes its module and one line in its ordered tuple: a throw-away
one of each, which nothing else in the project knows about, is listed, found by id and run."""

from __future__ import annotations

import importlib
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory_demos import failure_lab, migration
from memory_demos.failure_lab import Demo, DemoResult
from memory_demos.failure_lab.common import demo_result

# The whole step: the buffer's two programs under a new id and title (the page shows and runs them).
STEP_MODULE = '''"""``forgetful``: a step a test writes and throws away."""

from __future__ import annotations

from memory_demos.migration.program import Program

STEP_ID = "forgetful"
TITLE_KEY = "migration.buffer.title"
SUMMARY_KEY = "migration.buffer.summary"
PITFALL_KEYS: tuple[str, ...] = ()
CLASSIC_API = "langchain_classic.memory.ConversationBufferMemory"
MODERN_API = "langchain.agents.create_agent"
meant_to_match = True
DEFAULT_INPUTS: tuple[str, ...] = ("Hi, I am Mara.", "What's my name?")
classic_version = Program("buffer_classic.py")
modern_version = Program("buffer_modern.py")
'''


@pytest.fixture
def throwaway_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Write the step into a fresh package on ``sys.path`` and add its one line to ``STEPS``."""
    package = f"throwaway_{uuid.uuid4().hex[:8]}"
    (tmp_path / package).mkdir()
    (tmp_path / package / "__init__.py").write_text('"""A package for one test."""\n', encoding="utf-8")
    (tmp_path / package / "forgetful.py").write_text(STEP_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    step = importlib.import_module(f"{package}.forgetful")
    monkeypatch.setattr(migration, "STEPS", (*migration.STEPS, step))
    yield "forgetful"
    for name in [name for name in sys.modules if name.startswith(package)]:
        del sys.modules[name]


def test_a_throwaway_guide_step_is_listed_found_and_run(throwaway_step: str) -> None:
    assert throwaway_step == migration.all_steps()[-1].STEP_ID
    step = migration.load_step(throwaway_step)
    run = migration.run_both(step)
    assert run.step_id == throwaway_step and run.classic_error is None and run.modern_error is None
    assert len(run.turns) == 2 and run.all_same


def _forgetful_demo(language: str = "en", gate: object = None) -> DemoResult:
    return demo_result(THROWAWAY_DEMO, language, {"kept": 0}, {"kept": 1}, True, True)


THROWAWAY_DEMO = Demo(
    "forgetful",
    "failure.summary_drift.title",
    "failure.summary_drift.explanation",
    "failure.summary_drift.fix",
    _forgetful_demo,
)


def test_a_throwaway_failure_demo_is_listed_found_and_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(failure_lab, "DEMOS", (*failure_lab.DEMOS, THROWAWAY_DEMO))
    assert failure_lab.demo_ids()[-1] == "forgetful"
    assert failure_lab.get_demo("forgetful") is THROWAWAY_DEMO
    result = failure_lab.run_demo("forgetful", language="zh")
    assert result["failed"] and result["fixed_ok"] and result["naive"] == {"kept": 0}
