"""No words on screen come from outside the text catalogue: not from a Streamlit call's literal, nor from
a sentence written in a core module whose messages reach the screen (issue 12, point 1)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

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
        # st.column_config: a table column's header
        "Column",
        "TextColumn",
        "NumberColumn",
        "CheckboxColumn",
        "SelectboxColumn",
        "ListColumn",
        "LinkColumn",
        "DatetimeColumn",
        "ProgressColumn",
        "LineChartColumn",
        "BarChartColumn",
    ]
)
SHOWN_KEYWORDS = frozenset({"help", "placeholder", "label", "title", "page_title", "x_label", "y_label"})
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
        'st.column_config.NumberColumn("input / 1M (USD)", min_value=0.0)',
        'st.line_chart(table, x_label=t("a.b"), y_label="prompt tokens")',
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
