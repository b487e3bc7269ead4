"""The catalogue's forms: rendered by name, and written nowhere else in the package.

Each form of a problem's words is declared once, in problems.proto, and
rendered by taskspec._words.render. The last test reads every string literal
of the package and fails on one that holds a form's words: they belong in
the catalogue. Files that still hold some wait, listed in _PENDING with
how many; the list only shrinks (a file that no longer holds any must leave
it).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from taskspec import _forms_gen
from taskspec._codes import CATALOGUE, explain
from taskspec._words import MESSAGE, Form, render, text_of

ROOT = Path(__file__).resolve().parent.parent

#: The package's files that still write out some of the catalogue's words,
#: with how many pieces each; to be converted to render from the forms.
_PENDING: dict[str, int] = {}

_ARGUMENT = re.compile(r"\{[a-z0-9_]+\}")
#: The shortest piece of a form that counts as its words.
_MIN_LENGTH = 18


def _literals(text: str) -> Iterator[str]:
    """The string literals of Python source *text*, docstrings and lone strings left out."""
    tree = ast.parse(text)
    skip = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            skip.update(id(part) for part in node.values)
            yield "{}".join(
                str(p.value) if isinstance(p, ast.Constant) else "{}" for p in node.values
            )
        elif (
            isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
        ):
            yield node.value


def _package_files() -> Iterator[Path]:
    for path in sorted((ROOT / "python" / "taskspec").rglob("*.py")):
        if not path.name.endswith(("_pb2.py", "_pb2_grpc.py", "_gen.py")):
            yield path


def _form_words() -> set[str]:
    """The pieces of every form between its arguments, long enough to be a sentence's."""
    words = set()
    for kind in CATALOGUE.values():
        for forms in (kind.message_forms, kind.hint_forms, kind.reasons):
            for text in forms.values():
                for raw in _ARGUMENT.split(text):
                    piece = raw.strip()
                    if len(piece) >= _MIN_LENGTH and " " in piece:
                        words.add(piece)
    return words


def test_render_fills_in_named_arguments_only() -> None:
    form = _forms_gen.HINT_UNKNOWN_KEY_DID_YOU_MEAN
    assert render(form, key='"task_id"') == 'did you mean "task_id"?'
    # A brace that is no argument is itself, and an argument's value is not read again.
    assert render(_forms_gen.MSG_UNCLOSED_FLOW_MAPPING) == (
        "invalid YAML: a { mapping is not closed with }"
    )
    assert render(_forms_gen.MSG_UNSUPPORTED_AT_PATH, path="a", reason="{path}") == "a: {path}"
    # A name with no argument stays as written.
    assert render(_forms_gen.MSG_UNSUPPORTED_PLAIN) == "{reason}"


def test_every_form_of_the_catalogue_has_its_constant() -> None:
    named = {v for v in vars(_forms_gen).values() if isinstance(v, Form)}
    for code, kind in CATALOGUE.items():
        for ident in kind.message_forms:
            assert Form(code, MESSAGE, ident) in named, (code, ident)
    for form in named:
        assert text_of(form)  # every constant names a declared form


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_the_generated_module_is_current() -> None:
    done = _run("scripts.gen_forms", "--check")
    assert done.returncode == 0, done.stdout + done.stderr


def test_libyaml_rows_name_syntax_forms() -> None:
    rows = _forms_gen.LIBYAML_PROBLEMS
    assert len(rows) >= 20
    for _, _, form in rows:
        assert text_of(form).startswith("invalid YAML: ")


def _hits() -> Counter[str]:
    words = _form_words()
    assert len(words) > 50
    found: Counter[str] = Counter()
    for path in _package_files():
        for literal in _literals(path.read_text()):
            found[str(path.relative_to(ROOT))] += sum(1 for w in words if w in literal)
    return +found


def test_no_module_writes_out_the_catalogues_words() -> None:
    found = _hits()
    extra = {f: n for f, n in found.items() if n > _PENDING.get(f, 0)}
    assert not extra, f"render these from the catalogue's forms (taskspec._forms_gen): {extra}"
    done = sorted(f for f in _PENDING if f not in found)
    assert not done, f"no longer pending, take them off _PENDING: {done}"


def test_copied_fragments_stay_under_the_makefiles_ceiling() -> None:
    ceiling = re.search(
        r"^COPIED_FRAGMENTS_CEILING := (\d+)$", (ROOT / "Makefile").read_text(), re.M
    )
    assert ceiling is not None
    done = _run("scripts.copied_fragments", "--list", "--ceiling", ceiling[1])
    assert done.returncode == 0, done.stdout + done.stderr
    count = re.search(r"^(\d+) message fragments copied", done.stdout, re.M)
    assert count is not None and int(count[1]) <= int(ceiling[1])
    # One line a fragment, each naming a Python and a Go file.
    listed = [line for line in done.stdout.splitlines() if " | " in line]
    assert len(listed) == int(count[1])
    assert all(line.split(" | ")[1].startswith("go/") for line in listed)
    # A ceiling below the count fails, naming the catalogue.
    if int(count[1]) > 0:
        low = _run("scripts.copied_fragments", "--ceiling", str(int(count[1]) - 1))
        assert low.returncode == 1 and "problems.proto" in low.stderr


def test_explain_lists_a_codes_reasons() -> None:
    text = explain("TS021")
    reasons = list(CATALOGUE["TS021"].reasons.values())
    assert len(reasons) >= 10
    listed = text.split("\nReasons:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert listed == [f"    {r}" for r in reasons]
    assert "\nReasons:\n" not in explain("TS011")
