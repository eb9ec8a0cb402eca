"""The text catalogue: complete in both languages, every key the code asks for exists, and no words
shown on screen come from anywhere else."""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from memory_demos.i18n import CATALOGUE, CATALOGUE_PARTS

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("en", "zh")

# -- (a) both languages complete ------------------------------------------------------------------


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a text fills (ValueError on unbalanced braces, which ``str.format`` would raise too)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def catalogue_problems(catalogue: dict[str, dict[str, str]]) -> list[str]:
    """Keys missing or empty in a language, and texts whose placeholders differ between languages."""
    problems = []
    every_key = set().union(*(set(texts) for texts in catalogue.values()))
    for key in sorted(every_key):
        for language, texts in catalogue.items():
            if not texts.get(key, "").strip():
                problems.append(f"{key}: missing or empty in {language}")
        try:
            found = {language: placeholders(texts.get(key, "")) for language, texts in catalogue.items()}
        except ValueError as exc:
            problems.append(f"{key}: broken placeholder ({exc})")
            continue
        if len({frozenset(names) for names in found.values()}) > 1:
            problems.append(f"{key}: placeholders differ {found}")
    return problems


def test_every_key_is_in_both_languages_with_the_same_placeholders() -> None:
    assert set(CATALOGUE) == set(LANGUAGES)
    problems = catalogue_problems({language: dict(CATALOGUE[language]) for language in LANGUAGES})
    assert not problems, problems
    assert len(CATALOGUE["en"]) > 400


def test_the_completeness_check_can_fail() -> None:
    assert catalogue_problems({"en": {"a": "A {n}"}, "zh": {"a": "甲 {n}"}}) == []
    assert catalogue_problems({"en": {"a": "A", "b": "B"}, "zh": {"a": "甲"}}) == [
        "b: missing or empty in zh"
    ]
    assert catalogue_problems({"en": {"a": "A"}, "zh": {"a": "  "}}) == ["a: missing or empty in zh"]
    assert catalogue_problems({"en": {"a": "A {n}"}, "zh": {"a": "甲 {count}"}})[0].startswith(
        "a: placeholders differ"
    )
    assert catalogue_problems({"en": {"a": "A {n"}, "zh": {"a": "甲 {n}"}})[0].startswith(
        "a: broken placeholder"
    )


def test_no_key_is_written_in_two_parts_of_one_language() -> None:
    for language, parts in CATALOGUE_PARTS.items():
        seen: dict[str, int] = {}
        for index, part in enumerate(parts):
            for key in part:
                assert key not in seen, f"{language}: {key} is in parts {seen[key]} and {index}"
                seen[key] = index


# Texts meant to be the same in both languages, with the reason.
SAME_IN_BOTH = {
    "tokenizer.sample_text.english": "the English sample the tokenizer page counts, beside a Chinese one",
    "settings.kind.openai": "a product name",
}


def test_chinese_texts_are_translated() -> None:
    """A Chinese text equal to the English one, with a word in it, is English left behind."""
    untranslated = [
        key
        for key, text in CATALOGUE["zh"].items()
        if text == CATALOGUE["en"][key] and re.search("[A-Za-z]{4}", text) and key not in SAME_IN_BOTH
    ]
    assert not untranslated, untranslated


# -- (b) every key the code asks for exists --------------------------------------------------------

KEY_SHAPE = re.compile(r"[a-z_]+(?:\.[a-z0-9_]+)+")
CODE_SOURCES = sorted(
    [ROOT / "app.py", *(ROOT / "pages").glob("*.py"), *(ROOT / "memory_demos").rglob("*.py")]
)


def _is_t_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "t"
        and bool(node.args)
    )


def keys_asked_for(source: str) -> Iterator[str | re.Pattern[str]]:
    """The first argument of every ``t(...)`` call: a literal key, or a pattern for an f-string key."""
    for node in ast.walk(ast.parse(source)):
        if not _is_t_call(node):
            continue
        key = node.args[0]
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            yield key.value
        elif isinstance(key, ast.JoinedStr):
            yield re.compile(
                "".join(
                    re.escape(part.value) if isinstance(part, ast.Constant) else r".+" for part in key.values
                )
            )


def test_every_key_the_code_asks_for_exists() -> None:
    english = CATALOGUE["en"]
    literal: set[str] = set()
    patterns: set[str] = set()
    for path in CODE_SOURCES:
        for key in keys_asked_for(path.read_text(encoding="utf-8")):
            if isinstance(key, str):
                literal.add(key)
            else:
                patterns.add(key.pattern)
    missing = sorted(key for key in literal if key not in english)
    assert not missing, f"keys asked for but not in the catalogue: {missing}"
    # A key built at run time must at least match one key; its known values are checked below.
    unmatched = sorted(
        pattern for pattern in patterns if not any(re.fullmatch(pattern, key) for key in english)
    )
    assert not unmatched, f"f-string keys that match no key: {unmatched}"
    assert len(literal) > 250 and len(patterns) > 5  # the scan found the code


def key_shaped_literals(source: str, namespaces: set[str]) -> Iterator[str]:
    """Whole string literals shaped like a key of one of ``namespaces`` (not the pieces of an f-string)."""
    tree = ast.parse(source)
    pieces = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in pieces
            and KEY_SHAPE.fullmatch(node.value)
            and node.value.split(".")[0] in namespaces
            and not node.value.endswith(".py")
        ):
            yield node.value


def test_every_key_the_data_carries_exists() -> None:
    """Keys kept in data (demos, guide steps, navigation, lists of keys in pages) rather than in a t() call."""
    from memory_demos.failure_lab import DEMOS
    from memory_demos.migration import all_steps

    carried = {key for demo in DEMOS for key in (demo.title_key, demo.explanation_key, demo.fix_key)}
    for step in all_steps():
        carried |= {step.TITLE_KEY, step.SUMMARY_KEY, *step.PITFALL_KEYS}
        for situation in getattr(step, "SITUATIONS", ()):
            carried |= {
                situation.label_key,
                situation.pattern_key,
                situation.why_key,
                situation.watch_out_key,
            }
    carried |= {f"role.{role}" for role in literal_values("Role")}  # prompt_view.role_label
    # Any literal shaped like a key of a catalogue namespace ("home.point_prompt") is meant as one.
    namespaces = {key.split(".")[0] for key in CATALOGUE["en"]}
    for path in CODE_SOURCES:
        if path.parent.name != "i18n":
            carried |= set(key_shaped_literals(path.read_text(encoding="utf-8"), namespaces))
    missing = sorted(key for key in carried if key not in CATALOGUE["en"])
    assert not missing, missing
    assert len(carried) > 400


@cache
def parsed(path: Path) -> ast.Module:
    """A source file's syntax tree, parsed once per test run."""
    return ast.parse(path.read_text(encoding="utf-8"))


def literal_values(type_name: str) -> tuple[str, ...]:
    """The values of ``TypeName = Literal[...]`` wherever the code declares it (modules move; names stay)."""
    for path in CODE_SOURCES:
        for node in parsed(path).body:
            if (
                isinstance(node, ast.Assign)
                and [getattr(target, "id", None) for target in node.targets] == [type_name]
                and isinstance(node.value, ast.Subscript)
                and getattr(node.value.value, "id", None) == "Literal"
            ):
                return tuple(ast.literal_eval(node.value.slice))
    raise LookupError(type_name)


def assigned_literal(name: str) -> tuple[str, ...]:
    """The literal value of a module-level ``name = (...)`` wherever the code declares it."""
    for path in CODE_SOURCES:
        for node in parsed(path).body:
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            if [getattr(target, "id", None) for target in targets] == [name] and node.value is not None:
                return tuple(ast.literal_eval(node.value))
    raise LookupError(name)


def first_arguments(callable_name: str) -> tuple[str, ...]:
    """The literal first argument of every ``callable_name(...)`` call in the code (an error's reason)."""
    return tuple(
        node.args[0].value
        for path in CODE_SOURCES
        for node in ast.walk(parsed(path))
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == callable_name
        and node.args
        and isinstance(node.args[0], ast.Constant)
    )


def tuple_column(name: str, column: int) -> tuple[str, ...]:
    """Column ``column`` of the literal rows of a module-level tuple ``name = ((...), ...)``."""
    for path in CODE_SOURCES:
        for node in parsed(path).body:
            if isinstance(node, ast.Assign) and [getattr(target, "id", None) for target in node.targets] == [
                name
            ]:
                return tuple(ast.literal_eval(row.elts[column]) for row in node.value.elts)
    raise LookupError(name)


# The values each run-time-built key is expanded over: "{}" stands for the f-string's expression.
# None: an open set on purpose, looked up with a fallback (state_label shows an unknown key as it is).
KNOWN_VALUES = {
    "section.{}": lambda: literal_values("Section"),
    "kind.{}": lambda: literal_values("StrategyKind"),
    "changes.count.{}": lambda: literal_values("ChangeKind"),
    "changes.kind.{}": lambda: literal_values("ChangeKind"),
    "link.{}": lambda: literal_values("LinkProblem"),
    "workshop.limit.{}": lambda: literal_values("LimitKind"),
    "migration.{}": lambda: ("classic", "modern"),
    "scorecard.source.{}": lambda: ("bundled", "upload"),
    "settings.kind.{}": lambda: literal_values("ProviderKind"),
    "{}_help": lambda: tuple_column("BOUND_FIELDS", 1),
    "error.{}": lambda: assigned_literal("_OWN_SENTENCES") + assigned_literal("_WITH_DETAIL"),
    "error.generic.{}": lambda: assigned_literal("_GENERIC_SENTENCES"),
    "error.budget.{}": lambda: literal_values("BudgetReason"),
    "url.{}": lambda: literal_values("RefusalReason"),
    "scenario.{}": lambda: first_arguments("ScenarioError"),
    "state.key.{}": None,
}


def key_templates(source: str) -> Iterator[str]:
    """Every f-string key as a template: ``t(f"section.{part.section}")`` gives ``section.{}``."""
    for node in ast.walk(ast.parse(source)):
        if _is_t_call(node) and isinstance(node.args[0], ast.JoinedStr):
            yield "".join(
                part.value if isinstance(part, ast.Constant) else "{}" for part in node.args[0].values
            )


def test_the_key_scans_find_planted_keys() -> None:
    source = (
        'a = t("home.nope")\nb = t(f"section.{s}")\nc = ("home.kept_key", f"home.{n}_x", "app.py", "x.y")'
    )
    assert {key for key in keys_asked_for(source) if isinstance(key, str)} == {"home.nope"}
    assert [key.pattern for key in keys_asked_for(source) if not isinstance(key, str)] == [r"section\..+"]
    assert list(key_templates(source)) == ["section.{}"]
    assert set(key_shaped_literals(source, {"home", "app"})) == {"home.nope", "home.kept_key"}


def test_every_key_built_at_run_time_exists_for_each_known_value() -> None:
    templates = {
        template for path in CODE_SOURCES for template in key_templates(path.read_text(encoding="utf-8"))
    }
    unknown = sorted(templates - set(KNOWN_VALUES))
    assert not unknown, f"say which values these keys are built from, in KNOWN_VALUES: {unknown}"
    missing = []
    for template in templates:
        values = KNOWN_VALUES[template]
        if values is None:
            continue
        expanded = values()
        assert expanded, template
        missing += [template.replace("{}", value) for value in expanded]
    missing = sorted(key for key in missing if key not in CATALOGUE["en"])
    assert not missing, missing


# -- (c) no words on screen from outside the catalogue ---------------------------------------------

# Streamlit functions whose first argument (and help=/placeholder=/label=) is shown to the user.
SHOWN_BY = frozenset(
    [
        "write",
        "markdown",
        "caption",
        "title",
        "header",
        "subheader",
        "info",
        "warning",
        "error",
        "success",
        "toast",
        "button",
        "checkbox",
        "toggle",
        "radio",
        "selectbox",
        "multiselect",
        "text_input",
        "text_area",
        "number_input",
        "slider",
        "expander",
        "tabs",
        "metric",
        "download_button",
        "page_link",
        "spinner",
        "form_submit_button",
        "popover",
        "chat_input",
        "link_button",
        "segmented_control",
        "pills",
        "select_slider",
        "file_uploader",
    ]
)
SHOWN_KEYWORDS = frozenset({"help", "placeholder", "label", "title", "page_title"})
UI_SOURCES = sorted(
    [ROOT / "app.py", *(ROOT / "pages").glob("*.py"), *(ROOT / "memory_demos" / "ui").glob("*.py")]
)
# Icons (:material/x:), colour and badge markup (:red[...], :blue-badge[...]), {placeholders}, markdown.
DECORATION = re.compile(
    r":material/[a-z_]+:|:[a-z]*(?:-badge|-background)?\[|\{[^{}]*\}|\*\*|`[^`]*`|https?://\S+"
)
WORD = re.compile(r"[A-Za-z]{2,}|[\u4e00-\u9fff]")
# Literal text allowed on screen, with the reason.
ALLOWED: dict[str, str] = {}


def shown_literals(node: ast.AST) -> Iterator[str]:
    """The literal text an expression puts on screen: what t(...) returns and variables do not count."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.JoinedStr):
        yield "".join(part.value for part in node.values if isinstance(part, ast.Constant))
    elif isinstance(node, ast.BinOp):  # "a" + b, "%s items" % n
        yield from shown_literals(node.left)
        if isinstance(node.op, ast.Add):
            yield from shown_literals(node.right)
    elif isinstance(node, ast.IfExp):
        yield from shown_literals(node.body)
        yield from shown_literals(node.orelse)
    elif isinstance(node, ast.List | ast.Tuple):  # st.tabs([...])
        for element in node.elts:
            yield from shown_literals(element)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        yield from shown_literals(node.func.value)  # "text {x}".format(...)


def hard_coded_text(source: str) -> list[tuple[int, str]]:
    """(line, text) of each literal with words passed to a Streamlit display or label argument."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):  # a chart's {"title": ...}
            shown = [value for key, value in zip(node.keys, node.values, strict=True) if _is_title(key)]
            found += [(node.lineno, text) for value in shown for text in _words_in(value)]
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        receiver = node.func.value
        if isinstance(receiver, ast.Name) and "log" in receiver.id.lower():
            continue  # logger.info(...) writes to the server log, not the screen
        # page_link's first argument is the page; its text is label=.
        first_shown = node.func.attr in SHOWN_BY and node.func.attr != "page_link"
        shown = [node.args[0]] if first_shown and node.args else []
        shown += [keyword.value for keyword in node.keywords if keyword.arg in SHOWN_KEYWORDS]
        found += [(node.lineno, text) for argument in shown for text in _words_in(argument)]
    return found


def _is_title(key: ast.expr | None) -> bool:
    return isinstance(key, ast.Constant) and key.value == "title"


def _words_in(argument: ast.expr) -> list[str]:
    return [
        text
        for text in shown_literals(argument)
        if WORD.search(DECORATION.sub("", text)) and text not in ALLOWED
    ]


@pytest.mark.parametrize("path", UI_SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_words_on_screen_come_from_outside_the_catalogue(path: Path) -> None:
    found = hard_coded_text(path.read_text(encoding="utf-8"))
    assert not found, f"{path.name}: text shown without t(...): {found}"


def test_the_hard_coded_text_check_flags_planted_literals() -> None:
    planted = [
        'st.button("Reset all")',
        'st.caption(f"Turn {n} of {total}")',
        'column.metric("Tokens", 12)',
        'st.toggle(t("a.b"), help="Shows the raw prompt")',
        'st.tabs([t("a.b"), "History"])',
        'st.error("Failed: " + detail)',
        'st.info("对话已清空")',
        'st.selectbox(label="Pick a model", options=[])',
        'st.page_link("pages/settings.py", label="Settings")',
        'st.set_page_config(page_title="Memory Lab", layout="wide")',
        'spec = {"x": {"field": "tokens", "title": "Tokens"}}',
        'st.markdown(f"**{n}. {title}** :{colour}-badge[classic]")',
        'st.warning("{n} turns dropped".format(n=3))',
    ]
    for line in planted:
        assert hard_coded_text(line), f"not flagged: {line}"
    clean = [
        'st.button(t("pane.reset"), icon=":material/refresh:")',
        "st.markdown(f\"**:material/memory: {t('prompt.added_by_memory')}**\")",
        'st.caption(f"{icon} {heading} · `{strategy_id}`")',
        'st.markdown(" · ".join(parts))',
        'st.metric(t("a.b"), "—")',
        "st.write(data)",
        'logger.info("Released %d idle sessions", n)',
        'st.page_link("pages/settings.py", label=t("sidebar.change_provider"))',
        'st.text_input(t("settings.base_url"), placeholder="http://localhost:11434/v1")',
    ]
    for line in clean:
        assert not hard_coded_text(line), f"flagged wrongly: {line}"


# Core modules whose messages reach the screen (point 2 of issue 12): their sentences come from the
# catalogue too. The command line, logs and exports stay English through t(key, "en").
CORE_MESSAGE_SOURCES = [
    ROOT / "memory_demos" / name
    for name in (
        "providers/errors.py",
        "providers/url_policy.py",
        "workshop/budget.py",
        "scenarios/__init__.py",
        "scorecard.py",
        "migration/__init__.py",
        "failure_lab/common.py",
        "compare.py",
        "deprecations.py",
    )
]
SENTENCE = re.compile(r"^[A-Z][a-z']*(?: [A-Za-z'{}]+){2,}")
# Sentences these modules may keep, with the reason: none is ever shown to a user.
CORE_ALLOWED = {
    "Unknown guide step {}; known: {}": "KeyError for a developer: the page offers only known steps",
    "The guide plays at most {} messages; got {}.": "the page checks the count before it calls run_both",
    "No price for {}; the table has {}": "KeyError for a developer: the page offers only the table's models",
}


def core_sentences(source: str) -> list[tuple[int, str]]:
    """(line, text) of each sentence written in the code, docstrings and log calls aside."""
    tree = ast.parse(source)
    skipped: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            skipped.add(id(body[0].value))  # a docstring
        if isinstance(node, ast.Call) and "log" in ast.unparse(node.func).lower():
            skipped |= {id(argument) for argument in node.args}
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.JoinedStr):
            text = "".join(part.value if isinstance(part, ast.Constant) else "{}" for part in node.values)
            skipped |= {id(part) for part in node.values}
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        if SENTENCE.match(text) and text not in CORE_ALLOWED:
            found.append((node.lineno, text))
    return found


@pytest.mark.parametrize("path", CORE_MESSAGE_SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_core_messages_come_from_the_catalogue(path: Path) -> None:
    found = core_sentences(path.read_text(encoding="utf-8"))
    assert not found, f"{path.name}: sentences outside the catalogue: {found}"


def test_the_core_message_check_flags_planted_sentences() -> None:
    assert core_sentences('raise UrlRefused("The base URL is not valid.")')
    assert core_sentences('message = f"Token budget reached: {n} left."')
    assert not core_sentences(
        'def f():\n    """Say what this does in a sentence."""\n    return t("error.timeout")'
    )
    assert not core_sentences('logger.warning("Storage error: %s", error)')
    assert not core_sentences('MARKERS = ("i do not know", "context_length_exceeded")')
