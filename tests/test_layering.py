"""The core's layers, read from its source: one configuration reader, and no import that hides a cycle.

Both tests parse ``memory_demos/`` with ``ast`` (nothing is imported), so they fail on the line that
breaks the rule and say which one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "memory_demos"

# Modules that may read the environment or Streamlit's secrets themselves, and why.
ENVIRONMENT_READERS = {
    "lab_config.py": "the one reader: LabConfig is built from secrets and the environment here",
    "ui/workshop.py": "hands Streamlit's secrets to load_lab_config (st.secrets exists only in the app)",
    "providers/api_keys.py": "an API key is looked up at call time and never kept in LabConfig (cached, logged)",
    "providers/tokenizer.py": "tiktoken reads TIKTOKEN_CACHE_DIR itself: the seeding must use the same folder",
    "bench/server.py": "passes the environment on to the app server it starts; reads no setting",
}

# Function-local imports that still hide a cycle, each in a package another slice is rewriting.
KNOWN_CYCLES = {
    ("memory_demos.i18n", "memory_demos.session"): "current_language reads the session (i18n/ is #12a's)",
    (
        "memory_demos.providers.offline_model.facts",
        "memory_demos.providers.offline_model.knowledge",
    ): "merge_facts belongs in knowledge.py (offline_model/ is being rewritten by #9)",
}

# Modules this layering was cleaned in: each import left inside a function says why in a comment.
CLEANED = (
    "__main__.py",
    "config.py",
    "lab_config.py",
    "session.py",
    "replay.py",
    "chat_command.py",
    "conversation_link.py",
    "cli_options.py",
    "note_expiry.py",
    "storage/config.py",
    "storage/sqlite.py",
    "strategies/base.py",
    "strategies/info.py",
    "strategies/entity.py",
    "strategies/registry.py",
    "strategies/agent.py",
    "strategies/agent_trim.py",
    "strategies/context_editing.py",
    "strategies/shared/trimming_agent.py",
    "workshop/config.py",
    "workshop/budget.py",
    "providers/api_keys.py",
    "providers/chat_models.py",
    "providers/context_window.py",
    "providers/checked_openai.py",
    "providers/embeddings.py",
)


def core_files() -> list[Path]:
    return sorted(CORE.rglob("*.py"))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def environment_reads(tree: ast.AST) -> list[int]:
    """Lines that touch ``os.environ``/``os.getenv``/``st.secrets`` (or import them from ``os``)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if (node.value.id, node.attr) in {
                ("os", "environ"),
                ("os", "environb"),
                ("os", "getenv"),
                ("st", "secrets"),
                ("streamlit", "secrets"),
            }:
                lines.append(node.lineno)
        elif (
            isinstance(node, ast.ImportFrom)
            and node.module in {"os", "streamlit"}
            and {alias.name for alias in node.names} & {"environ", "environb", "getenv", "secrets"}
        ):
            lines.append(node.lineno)
    return sorted(lines)


def test_only_the_configuration_reader_reads_the_environment() -> None:
    found = {}
    for path in core_files():
        relative = path.relative_to(CORE).as_posix()
        lines = environment_reads(ast.parse(path.read_text()))
        if lines and relative not in ENVIRONMENT_READERS:
            found[relative] = lines
    assert found == {}, "read the setting from LabConfig (lab_config.load_lab_config) instead"


@pytest.mark.parametrize("relative", sorted(ENVIRONMENT_READERS))
def test_every_allowed_reader_still_reads(relative: str) -> None:
    assert environment_reads(ast.parse((CORE / relative).read_text())), (
        f"{relative} no longer needs its place"
    )


def test_the_reader_check_sees_every_spelling() -> None:
    source = "import os\nfrom os import getenv\nos.environ.get('X')\nos.getenv('Y')\nst.secrets['z']\n"
    assert environment_reads(ast.parse(source)) == [2, 3, 4, 5]


# -- imports -----------------------------------------------------------------------------------------
def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(node: ast.Import | ast.ImportFrom, current: str, is_package: bool, known: set[str]) -> set[str]:
    """The core modules an import statement loads (a dotted name loads each of its packages too)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            parts = current.split(".")[: None if is_package else -1]
            parts = parts[: len(parts) - node.level + 1]
            base = ".".join([*parts, base] if base else parts)
        names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
    found = set()
    for name in names:
        parts = name.split(".")
        found |= {".".join(parts[:i]) for i in range(1, len(parts) + 1)} & known
    return found


class ImportScan:
    """Every core module's load-time imports, and its imports inside functions (with their lines)."""

    def __init__(self) -> None:
        self.paths = {module_name(path): path for path in core_files()}
        known = set(self.paths)
        self.at_load: dict[str, set[str]] = {}
        self.inside: dict[str, list[tuple[int, str]]] = {}
        for name, path in self.paths.items():
            at_load: set[str] = set()
            inside: list[tuple[int, str]] = []
            is_package = path.name == "__init__.py"

            def visit(nodes: list[ast.AST], in_function: bool) -> None:
                for node in nodes:
                    if isinstance(node, ast.If) and _is_type_checking(node.test):
                        visit(list(node.orelse), in_function)
                    elif isinstance(node, ast.Import | ast.ImportFrom):
                        targets = _imported(node, name, is_package, known) - {name}  # noqa: B023
                        if in_function:
                            inside.extend((node.lineno, target) for target in sorted(targets))  # noqa: B023
                        else:
                            at_load.update(targets)  # noqa: B023
                    else:
                        function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
                        visit(list(ast.iter_child_nodes(node)), in_function or function)

            visit(list(ast.parse(path.read_text()).body), False)
            self.at_load[name], self.inside[name] = at_load, inside

    def loads(self, start: str, target: str) -> bool:
        """Whether loading ``start`` loads ``target`` (a module's packages load before it)."""
        seen, stack = set(), [start]
        while stack:
            name = stack.pop()
            if name == target:
                return True
            if name in seen:
                continue
            seen.add(name)
            parent = name.rpartition(".")[0]
            following = {*self.at_load.get(name, ()), *([parent] if parent else [])}
            if name.startswith(target + "."):  # a package's own submodule is no cycle with it
                following.discard(target)
            stack.extend(following)
        return False

    def hidden_cycles(self) -> dict[tuple[str, str], int]:
        """Imports inside functions whose target loads the importing module again: cycles out of sight."""
        found = {}
        for name, imports in self.inside.items():
            for line, target in imports:
                if not name.startswith(target + ".") and self.loads(target, name):
                    found[(name, target)] = line
        return found


@pytest.fixture(scope="module")
def scan() -> ImportScan:
    return ImportScan()


def test_no_import_inside_a_function_hides_a_cycle(scan: ImportScan) -> None:
    hidden = {pair: line for pair, line in scan.hidden_cycles().items() if pair not in KNOWN_CYCLES}
    assert hidden == {}, "move the code to the layer it belongs to instead of importing late"
    assert set(KNOWN_CYCLES) <= set(scan.hidden_cycles()), "a known cycle is gone: drop it from the list"


def test_the_cycle_check_finds_a_late_import_of_a_module_that_imports_back(scan: ImportScan) -> None:
    # storage.sqlite imports config when it loads; config importing storage.sqlite late would hide that.
    real = scan.inside["memory_demos.config"]
    scan.inside["memory_demos.config"] = [*real, (1, "memory_demos.storage.sqlite")]
    try:
        assert ("memory_demos.config", "memory_demos.storage.sqlite") in scan.hidden_cycles()
    finally:
        scan.inside["memory_demos.config"] = real


@pytest.mark.parametrize("relative", CLEANED)
def test_each_late_import_in_a_cleaned_module_says_why(relative: str, scan: ImportScan) -> None:
    path = CORE / relative
    lines = path.read_text().splitlines()
    silent = []
    for line_number, _target in scan.inside[module_name(path)]:
        index = line_number - 1
        while index > 0 and lines[index - 1].strip().startswith(("from ", "import ")):
            index -= 1  # a block of imports may share the comment above its first line
        above = lines[index - 1].strip() if index > 0 else ""
        if "#" not in lines[line_number - 1] and not above.startswith("#"):
            silent.append(line_number)
    assert silent == [], f"{relative}: say in a comment why these imports wait (or move them to the top)"
