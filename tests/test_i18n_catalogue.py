"""The text catalogue: complete in both languages, and every key the code or its data asks for exists.

That no words reach the screen from outside the catalogue is tests/test_i18n_stray_text.py."""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from memory_demos.i18n import CATALOGUE, CATALOGUE_PARTS

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("en", "zh")

# -- (a) both languages complete ------------------------------------------------------------------


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a text fills (ValueError on unbalanced braces, which ``str.format`` would raise too);
    a plural choice ``{n|word|words}`` fills nothing of its own."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None and "|" not in name}


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
    "provider.openai": "a product name and a model name",
    "error.raw": "an exception's class name and its own text: data, with nothing of ours to translate",
    "error.with_evidence": "two messages side by side, each translated on its own",
    "tokens.short.exact": "a library's name (tiktoken)",
    "tokens.short.approximate": "a library's name (tiktoken) and ≈",
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
        and node.func.id in ("t", "Message")  # a Message is a key the core asks a view to show
        and bool(node.args)
    )


def keys_asked_for(source: str) -> Iterator[str | re.Pattern[str]]:
    """The first argument of every ``t(...)`` and ``Message(...)`` call: a literal key, or a pattern for an
    f-string key."""
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


def state_values() -> tuple[str, ...]:
    """The field values the state view translates: message roles, the hybrid's prompt sections, audit
    operations and the memory manager's run states."""
    from memory_demos.strategies.shared.budgeted_prompt import SECTIONS
    from memory_demos.strategies.shared.memory_audit import OPERATIONS

    roles = ("human", "ai", "system", "tool")
    statuses = ("pending", "done", "failed", "cancelled")
    return (
        *(f"role.{r}" for r in roles),
        *(f"section.{s}" for s in SECTIONS),
        "section.reply_priming",
        *(f"operation.{o}" for o in OPERATIONS),
        *(f"status.{s}" for s in statuses),
    )


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
    "migration.could_not_compare.{}": lambda: ("classic", "modern", "both"),
    "scorecard.source.{}": lambda: ("bundled", "upload"),
    "settings.kind.{}": lambda: literal_values("ProviderKind"),
    "{}_help": lambda: tuple_column("BOUND_FIELDS", 1),
    "error.{}": lambda: assigned_literal("_OWN_SENTENCES") + assigned_literal("_WITH_DETAIL"),
    "error.generic.{}": lambda: assigned_literal("_GENERIC_SENTENCES"),
    "error.budget.{}": lambda: literal_values("BudgetReason"),
    "url.{}": lambda: literal_values("RefusalReason"),
    "scenario.{}": lambda: first_arguments("ScenarioError"),
    "state.key.{}": None,
    "state.column.{}": None,  # a record field; its own name shows where the catalogue has none
    "state.value.{}": lambda: state_values(),
    "tool.condition.{}": lambda: assigned_literal("_CONDITIONS"),
    "tool.order.{}": lambda: assigned_literal("_ORDER_STATUSES"),
    "strategy.hybrid.order.{}": lambda: assigned_literal("ORDERS"),
    "strategy.turn_trim.{}": lambda: ("system", "turn", "turn_and_system"),
    "window.source.{}": lambda: ("table", "server"),
    "embedding.offline_label.{}": lambda: ("minilm", "multilingual_e5"),  # OFFLINE_MODEL_LABELS' ids
    "month.{}": lambda: tuple(str(number) for number in range(1, 13)),
    "failure_kind.{}": lambda: failure_kinds(),
    "scorecard.outcome.{}": lambda: ("passed", "missed", "failed"),
    "tokens.short.{}": lambda: assigned_literal("TOKEN_SOURCE_KINDS"),
    "tokens.src.{}": lambda: assigned_literal("TOKEN_SOURCE_KINDS"),
    "threshold.{}": lambda: literal_values("ThresholdRole"),
    "threshold.unit.{}": lambda: literal_values("ThresholdUnit"),
    "memory.part.{}": lambda: literal_values("MemoryPartName"),
    "scorecard.kind.{}": lambda: assigned_literal("PROBE_KINDS"),
    "memory.scope.{}": lambda: literal_values("MemoryScope"),
}


def failure_kinds() -> tuple[str, ...]:
    """Every kind ``error_kind`` can answer, and ``other`` (what it answers for anything else)."""
    from memory_demos.providers.errors import _KINDS

    return (*(kind for kind, _ in _KINDS), "other")


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


def test_counts_take_the_singular_or_the_plural_and_no_text_says_s_in_brackets() -> None:
    from memory_demos.i18n import choose_plurals, t

    assert t("tokens.hidden_calls", "en", n=1) == "Memory made 1 extra model call you never see in the chat:"
    assert t("tokens.hidden_calls", "en", n=3) == "Memory made 3 extra model calls you never see in the chat:"
    assert t("strategy.note.block_clipped", "en", label="human", dropped="1").startswith(
        "The human block was full: 1 character of the edit was dropped"
    )
    assert choose_plurals("{n} {n|call|calls}, {tokens|token|tokens}", {"n": 0, "tokens": "1,024"}) == (
        "{n} calls, tokens"
    )
    assert "(s)" not in t("tokens.failed_calls", "en", n=1, tokens="12")
    bracketed = [
        key
        for texts in CATALOGUE.values()
        for key, text in texts.items()
        if re.search(r"[A-Za-z]\(s\)", text)
    ]
    assert not bracketed, f"'(s)' plurals: {bracketed}"


def test_the_full_block_demo_quotes_the_tools_reply_in_the_words_it_shows_below() -> None:
    # The Chinese explanation quoted the tool as answering "Saved." while the table under it (the tool's
    # own replies, in the session's language) read 已保存。
    for language, said in (("en", "Saved."), ("zh", "已保存。")):
        texts = CATALOGUE[language]
        assert texts["strategy.block_tool.done"].startswith(said)
        assert said in texts["failure.full_block.explanation"], language
    assert "Saved" not in CATALOGUE["zh"]["failure.full_block.explanation"]
