"""The offline model's layout: a package of small modules; prompt markers on the ground floor."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "memory_demos" / "providers" / "offline_model"


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_prompt_markers_import_nothing_from_the_project() -> None:
    imported = _imported_modules(ROOT / "memory_demos" / "prompt_markers.py")
    assert not {name for name in imported if name.startswith("memory_demos")}


def test_no_module_of_the_offline_model_is_long_or_imports_tracing() -> None:
    modules = sorted(PACKAGE.glob("*.py"))
    assert len(modules) >= 8
    for module in modules:
        assert len(module.read_text(encoding="utf-8").splitlines()) <= 400, module.name
        assert "memory_demos.tracing" not in _imported_modules(module), module.name


def test_loading_the_model_does_not_load_tracing() -> None:
    code = "import sys, memory_demos.providers.offline_model; print('memory_demos.tracing' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def test_the_markers_are_written_once() -> None:
    from memory_demos import prompt_markers
    from memory_demos.providers.offline_model import reply

    assert reply.SUMMARY_MARKER is prompt_markers.SUMMARY_MARKER
    for path in [*PACKAGE.glob("*.py"), ROOT / "memory_demos" / "tracing.py"]:
        assert "Progressively summarize" not in path.read_text(encoding="utf-8"), path.name
