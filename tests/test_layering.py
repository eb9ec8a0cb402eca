"""The core's layers, read from its source: one configuration reader, and dependence that points down.

Every test parses ``memory_demos/``, ``pages/`` and ``app.py`` with ``ast`` (nothing is imported) and counts
every import: at load time, inside functions and under ``TYPE_CHECKING``. ``LAYERS`` declares the order;
no import may run up it and no modules may import each other in a circle. A failure names the line.
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
KNOWN_CYCLES: dict[tuple[str, str], str] = {}

# Modules this layering was cleaned in: each import left inside a function says why in a comment.
CLEANED = (
    "__main__.py",
    "defaults.py",
    "lab_config.py",
    "session.py",
    "replay.py",
    "chat_command.py",
    "conversation_link.py",
    "cli_options.py",
    "note_expiry.py",
    "storage/servers.py",
    "storage/sqlite.py",
    "strategies/base.py",
    "strategies/info.py",
    "strategies/entity.py",
    "strategies/registry.py",
    "strategies/agent.py",
    "strategies/agent_trim.py",
    "strategies/context_editing.py",
    "strategies/shared/trimming_agent.py",
    "workshop/settings.py",
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
# The layers, bottom first: a module imports only from its own layer or below, at load time, inside a
# function and under TYPE_CHECKING alike. A name stands for a module and everything under it; the
# longest name that matches places a module. Every module of memory_demos/, pages/ and app.py is placed.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "records and texts",
        (
            "memory_demos",
            "memory_demos.defaults",
            "memory_demos.turn",
            "memory_demos.i18n",
            "memory_demos.prompt_markers",
            "memory_demos.prompts",
            "memory_demos.prompt_sections",
            "memory_demos.heap",
            "memory_demos.deprecations",
            "memory_demos.tools",
            "memory_demos.scenarios",
            "memory_demos.clock",
        ),
    ),
    ("providers and storage", ("memory_demos.providers", "memory_demos.storage")),
    (
        "capture, budget and configuration",
        ("memory_demos.tracing", "memory_demos.workshop", "memory_demos.lab_config"),
    ),
    ("strategies", ("memory_demos.strategies",)),
    (
        "runners and jobs",
        (
            "memory_demos.runner",
            "memory_demos.replay",
            "memory_demos.scorecard",
            "memory_demos.conversation_link",
            "memory_demos.panes",
            "memory_demos.note_expiry",
            "memory_demos.failure_lab",
            "memory_demos.migration",
        ),
    ),
    ("session", ("memory_demos.session", "memory_demos.page_state", "memory_demos.compare")),
    (
        "views",
        (
            "memory_demos.ui",
            "memory_demos.export",
            "memory_demos.cli_options",
            "memory_demos.cli_table",
            "memory_demos.chat_command",
            "memory_demos.__main__",
            "memory_demos.bench",
            "pages",
            "app",
        ),
    ),
)
VIEWS = len(LAYERS) - 1
# What decides a language or translates into it: above the texts and below the views, no module calls
# these (the core writes a ``Message``, a catalogue key and its values; a view translates it). The texts
# layer itself fills texts: the catalogue, and the simulated tools' results the model reads.
TRANSLATORS = {"t", "current_language", "strategy_title", "strategy_summary", "purpose_label", "translate"}
TRANSLATORS |= {"translate_all"}


def scanned_files() -> list[Path]:
    return [*core_files(), *sorted((ROOT / "pages").glob("*.py")), ROOT / "app.py"]


def layer_of(module: str) -> int | None:
    """The index in ``LAYERS`` of ``module`` (the longest matching name wins), None if unplaced."""
    best: tuple[int, int] | None = None
    for index, (_name, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (
                best is None or len(prefix) > best[1]
            ):
                best = (index, len(prefix))
    return best[0] if best else None


def _resolve(node: ast.Import | ast.ImportFrom, current: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules of ours one import statement names: the most specific known module of each name."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            parts = current.split(".")[: None if is_package else -1]
            parts = parts[: len(parts) - node.level + 1]
            base = ".".join([*parts, base] if base else parts)
        names = [f"{base}.{alias.name}" for alias in node.names] or [base]
    found = set()
    for name in names:
        parts = name.split(".")
        for end in range(len(parts), 0, -1):
            if ".".join(parts[:end]) in known:
                found.add(".".join(parts[:end]))
                break
    return found


class ImportGraph:
    """Every import of every scanned module (module level, in functions, under TYPE_CHECKING), with lines."""

    def __init__(self) -> None:
        self.paths = {module_name(path): path for path in scanned_files()}
        known = set(self.paths)
        self.imports: dict[str, list[tuple[int, str]]] = {}
        self.trees: dict[str, ast.AST] = {}
        for name, path in self.paths.items():
            tree = ast.parse(path.read_text())
            self.trees[name] = tree
            found = []
            for node in ast.walk(tree):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    for target in _resolve(node, name, path.name == "__init__.py", known):
                        # A package's own submodule is its part, not a dependency either way.
                        if (
                            target != name
                            and not target.startswith(name + ".")
                            and not name.startswith(target + ".")
                        ):
                            found.append((node.lineno, target))
            self.imports[name] = sorted(set(found))

    def upward(self) -> list[str]:
        """Imports from a lower layer to a higher one, as ``module:line -> target (layer -> layer)``."""
        found = []
        for name, imports in sorted(self.imports.items()):
            for line, target in imports:
                low, high = layer_of(name), layer_of(target)
                if low is not None and high is not None and high > low:
                    found.append(f"{name}:{line} -> {target} ({LAYERS[low][0]} -> {LAYERS[high][0]})")
        return found

    def circles(self) -> list[list[str]]:
        """The groups of modules that import each other in a loop (Tarjan's strongly connected parts)."""
        graph = {name: {target for _line, target in imports} for name, imports in self.imports.items()}
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        stack: list[str] = []
        found: list[list[str]] = []

        def visit(name: str) -> None:
            index[name] = low[name] = len(index)
            stack.append(name)
            for target in sorted(graph[name]):
                if target not in index:
                    visit(target)
                    low[name] = min(low[name], low[target])
                elif target in stack:
                    low[name] = min(low[name], index[target])
            if low[name] == index[name]:
                group = []
                while True:
                    member = stack.pop()
                    group.append(member)
                    if member == name:
                        break
                if len(group) > 1:
                    found.append(sorted(group))

        for name in sorted(graph):
            if name not in index:
                visit(name)
        return found


@pytest.fixture(scope="module")
def graph() -> ImportGraph:
    return ImportGraph()


def test_every_module_has_a_layer(graph: ImportGraph) -> None:
    assert [name for name in graph.paths if layer_of(name) is None] == []


def test_no_import_runs_from_a_lower_layer_to_a_higher_one(graph: ImportGraph) -> None:
    assert graph.upward() == [], "move the code to the layer it belongs to, or hand it in from above"


def test_no_modules_import_each_other_in_a_circle(graph: ImportGraph) -> None:
    assert graph.circles() == []


def test_the_texts_know_neither_streamlit_nor_the_session(graph: ImportGraph) -> None:
    found = []
    for name, tree in graph.trees.items():
        if layer_of(name) == 0 and name.startswith("memory_demos.i18n"):
            for node in ast.walk(tree):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    names = (
                        [alias.name for alias in node.names]
                        if isinstance(node, ast.Import)
                        else [node.module or ""]
                    )
                    found += [f"{name}:{node.lineno} {n}" for n in names if n.split(".")[0] == "streamlit"]
            found += [
                f"{name}:{line} {target}"
                for line, target in graph.imports[name]
                if target == "memory_demos.session"
            ]
    assert found == []


def test_providers_know_nothing_of_the_room(graph: ImportGraph) -> None:
    room = (
        "memory_demos.workshop",
        "memory_demos.tracing",
        "memory_demos.session",
        "memory_demos.lab_config",
    )
    found = [
        f"{name}:{line} -> {target}"
        for name, imports in graph.imports.items()
        if name.startswith("memory_demos.providers")
        for line, target in imports
        if target.startswith(room)
    ]
    assert found == []


def test_only_views_translate(graph: ImportGraph) -> None:
    """Between the texts and the views a note or an error is a catalogue key and its values (a ``Message``),
    never a finished sentence: providers, strategies, runners and the session call no ``t()``."""
    found = []
    for name, tree in graph.trees.items():
        layer = layer_of(name)
        if layer is None or layer in (0, VIEWS):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("memory_demos.i18n"):
                found += [f"{name}:{node.lineno} {a.name}" for a in node.names if a.name in TRANSLATORS]
    assert found == []


def test_no_module_of_ours_is_loaded_by_a_name_in_a_string(graph: ImportGraph) -> None:
    """``importlib.import_module("memory_demos...")`` would load a module this scan cannot see."""
    found = []
    for name, tree in graph.trees.items():
        nodes = list(ast.walk(tree))
        loads = [
            node.lineno
            for node in nodes
            if isinstance(node, ast.Call)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", ""))
            in {"import_module", "__import__"}
        ]
        names_ours = any(
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value.startswith("memory_demos.")
            for node in nodes
        )
        if loads and names_ours:
            found += [f"{name}:{line}" for line in loads]
    assert found == []


def test_the_scan_sees_imports_in_functions_and_under_type_checking() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from memory_demos.session import LabSession\n"
        "def f():\n    from memory_demos import compare\n"
        "    import memory_demos.ui.pane\n"
    )
    known = {
        "memory_demos",
        "memory_demos.session",
        "memory_demos.compare",
        "memory_demos.ui",
        "memory_demos.ui.pane",
    }
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import | ast.ImportFrom):
            found |= _resolve(node, "memory_demos.turn", False, known)
    assert found == {"memory_demos.session", "memory_demos.compare", "memory_demos.ui.pane"}
    assert [layer_of(name) for name in sorted(found)] == [5, 5, VIEWS]


def test_the_circle_check_finds_a_planted_loop(graph: ImportGraph) -> None:
    real = graph.imports["memory_demos.turn"]
    graph.imports["memory_demos.turn"] = [*real, (1, "memory_demos.prompt_sections")]
    try:
        assert ["memory_demos.prompt_sections", "memory_demos.turn"] in graph.circles()
    finally:
        graph.imports["memory_demos.turn"] = real


# -- the older check, kept: an import inside a function must say why it waits ------------------------
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
    real = scan.inside["memory_demos.defaults"]
    scan.inside["memory_demos.defaults"] = [*real, (1, "memory_demos.storage.sqlite")]
    try:
        assert ("memory_demos.defaults", "memory_demos.storage.sqlite") in scan.hidden_cycles()
    finally:
        scan.inside["memory_demos.defaults"] = real


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
