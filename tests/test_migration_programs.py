"""The migration guide's programs stand alone: run as scripts outside the repo, they print the page's prompts.

Each shown program is exported byte for byte, run in a fresh ``python -I`` subprocess from a temporary
folder (so neither the repo nor PYTHONPATH is importable) on the replies the page's own run recorded
(``--replay``), and every prompt it prints must equal what the page captured and shows. A fresh virtual
environment per run would take minutes; instead the imports are checked to be the standard library
or packages that ``requirements.txt`` installs, LangChain and LangGraph only.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from memory_demos.__main__ import main as cli_main
from memory_demos.defaults import DEFAULT_SYSTEM_PROMPT
from memory_demos.migration import (
    STEP_IDS,
    MigrationRun,
    VersionTurn,
    default_inputs,
    load_step,
    prompt_lines,
    run_both,
    shown_programs,
)
from memory_demos.migration.program import PROGRAMS_DIR, Program
from memory_demos.providers.tokenizer import seed_tiktoken_cache

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = sorted(PROGRAMS_DIR.glob("*.py"))
SIDES = ("classic", "modern")
# The families a guide program may import from, beside the standard library.
ALLOWED_FAMILIES = re.compile(r"^(langchain|langchain_[a-z]+|langgraph)$")
RUNNING_IT = "# -- running it: the same in every program of the guide"


def _requirement_closure() -> set[str]:
    """Every distribution installing ``requirements.txt`` brings, by canonical name."""
    wanted = []
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            wanted.append(canonicalize_name(Requirement(line).name))
    seen: set[str] = set()
    while wanted:
        name = wanted.pop()
        if name in seen:
            continue
        seen.add(name)
        for spec in metadata.requires(name) or []:
            requirement = Requirement(spec)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                wanted.append(canonicalize_name(requirement.name))
    return seen


def _imported_top_levels(path: Path) -> set[str]:
    """The top-level packages a program imports, anywhere in it (functions included)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative import"
            names.add((node.module or "").split(".")[0])
    return names - {"__future__"}


def test_there_are_two_programs_a_step_and_every_file_is_shown() -> None:
    shown = {program.filename for step_id in STEP_IDS for program in shown_programs(load_step(step_id))}
    assert shown == {path.name for path in PROGRAMS}
    for step_id in STEP_IDS:
        classic, modern = shown_programs(load_step(step_id))
        assert isinstance(classic, Program) and isinstance(modern, Program)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda path: path.stem)
def test_a_program_imports_only_langchain_langgraph_and_the_standard_library(path: Path) -> None:
    provided = _requirement_closure()
    distributions = metadata.packages_distributions()
    for name in sorted(_imported_top_levels(path)):
        if name in sys.stdlib_module_names:
            continue
        assert ALLOWED_FAMILIES.match(name), f"{path.name} imports {name}: not LangChain or LangGraph"
        assert name != "memory_demos"
        owners = {canonicalize_name(owner) for owner in distributions.get(name, [])}
        assert owners & provided, f"{path.name} imports {name}, which requirements.txt does not install"


def test_the_import_check_could_fail() -> None:
    """A program importing a Memory Lab helper, or a package outside requirements.txt, is caught."""
    assert not ALLOWED_FAMILIES.match("memory_demos")
    assert "pytest" not in {
        canonicalize_name(owner)
        for owner in metadata.packages_distributions().get("pytest", [])
        if canonicalize_name(owner) in _requirement_closure()
    }


@pytest.mark.parametrize("step_id", STEP_IDS)
def test_a_program_keeps_the_step_script_the_system_prompt_and_the_shared_runner(step_id: str) -> None:
    step = load_step(step_id)
    reference = (PROGRAMS_DIR / "buffer_classic.py").read_text(encoding="utf-8")
    for program in shown_programs(step):
        module = program.load()
        assert tuple(module.MESSAGES) == tuple(step.DEFAULT_INPUTS), program.filename
        if hasattr(module, "SYSTEM_PROMPT"):
            assert module.SYSTEM_PROMPT == DEFAULT_SYSTEM_PROMPT
        text = program.text
        assert text.count(RUNNING_IT) == 1
        assert "At home:" in text and "--replay" in text  # the docstring says how to run it
        if not program.takes_embeddings:  # the vector programs add embeddings to the same runner
            assert text[text.index(RUNNING_IT) :] == reference[reference.index(RUNNING_IT) :], (
                program.filename
            )


def test_guide_export_writes_every_program_byte_for_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_main(["guide", "--export", str(tmp_path / "out")]) == 0
    written = sorted(path.name for path in (tmp_path / "out").iterdir())
    assert written == sorted(f"{step_id}_{side}.py" for step_id in STEP_IDS for side in SIDES)
    for step_id in STEP_IDS:
        for side, program in zip(SIDES, shown_programs(load_step(step_id)), strict=True):
            assert (tmp_path / "out" / f"{step_id}_{side}.py").read_bytes() == program.path.read_bytes()
    assert len(capsys.readouterr().out.splitlines()) == 2 * len(STEP_IDS)


# -- run as scripts ---------------------------------------------------------------------------------


def _printed_turns(stdout: str) -> list[list[tuple[str, str]]]:
    """A program's printout as turns, each a list of (purpose, prompt text) in call order."""
    turns: list[list[tuple[str, str]]] = []
    body = stdout.split("\n=== replies\n", 1)[0]
    for block in re.split(r"^=== turn \d+: .*\n", body, flags=re.MULTILINE)[1:]:
        calls = re.split(r"^--- (.+) prompt\n", block, flags=re.MULTILINE)[1:]
        turns.append([(calls[i], calls[i + 1].removesuffix("\n")) for i in range(0, len(calls), 2)])
    return turns


def _shown(side: VersionTurn) -> list[tuple[str, str]]:
    """The page's view of one turn: its reply prompt (what the page shows) and the memory calls."""
    memory = [(call.purpose, "\n".join(prompt_lines(call.messages))) for call in side.memory_calls]
    return [("reply", "\n".join(prompt_lines(side.injected_prompt))), *memory]


def _run_script(program: Path, recording: dict, inputs: tuple[str, ...], folder: Path) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / program.name
    script.write_bytes(program.read_bytes())
    replay = folder / "recording.json"
    replay.write_text(json.dumps(recording), encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["TIKTOKEN_CACHE_DIR"] = str(seed_tiktoken_cache())  # tiktoken's vocabulary, offline
    env["PYTHONIOENCODING"] = "utf-8"
    result = subprocess.run(
        # -I: isolated, so neither PYTHONPATH, the user's site nor the script's folder adds to sys.path
        [sys.executable, "-I", str(script), "--replay", str(replay), "--", *inputs],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def _check_side(run: MigrationRun, side: str, stdout: str) -> None:
    printed = _printed_turns(stdout)
    assert len(printed) == len(run.turns)
    for turn, calls in zip(run.turns, printed, strict=True):
        page = getattr(turn, side)
        replies = [text for purpose, text in calls if purpose == "reply"]
        memory = [(purpose, text) for purpose, text in calls if purpose != "reply"]
        assert replies[0] == "\n".join(prompt_lines(page.injected_prompt)), (side, turn.index)
        assert memory == _shown(page)[1:], (side, turn.index)
        assert len(replies) - 1 == page.tool_rounds


CASES = [(step_id, "en") for step_id in STEP_IDS] + [("buffer", "zh"), ("combined", "zh")]


@pytest.mark.parametrize(("step_id", "language"), CASES)
def test_every_shown_program_run_as_a_script_prints_the_prompts_the_page_shows(
    step_id: str, language: str, tmp_path: Path
) -> None:
    assert ROOT not in tmp_path.parents
    step = load_step(step_id)
    inputs = default_inputs(step, language)
    run = run_both(step, inputs)
    assert run.compared and run.turns
    # The two sides in parallel: each is a fresh interpreter importing LangChain (seconds each).
    with ThreadPoolExecutor(max_workers=2) as pool:
        outputs = pool.map(
            lambda pair: _run_script(
                pair[1].path, getattr(run, f"{pair[0]}_recording"), inputs, tmp_path / pair[0]
            ),
            zip(SIDES, shown_programs(step), strict=True),
        )
        for side, stdout in zip(SIDES, list(outputs), strict=True):
            _check_side(run, side, stdout)


def test_a_script_that_sends_another_prompt_is_caught(tmp_path: Path) -> None:
    """The comparison can fail: the window program replayed on the buffer step's run sends fewer messages."""
    run = run_both("buffer", load_step("window").DEFAULT_INPUTS)
    window = load_step("window").modern_version
    stdout = _run_script(window.path, run.modern_recording, load_step("window").DEFAULT_INPUTS, tmp_path)
    with pytest.raises(AssertionError):
        _check_side(run, "modern", stdout)
