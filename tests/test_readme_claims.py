"""What the documentation says the command line prints and does, pinned to what it does.

The Python snippets are run by tests/test_readme.py and type-checked by
tests/test_typing.py; this module replays the terminal sessions of the README and docs/
(``console`` blocks) in a directory made for each, and checks the claims
its prose makes about output: the run-time dependencies, which problem
``fmt`` names for an invalid file, and what ``fmt`` does to a prompt a
block cannot carry.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from tests.cliutil import run_cli
from tests.docs import ALL, README, ROOT, blocks
from tests.harness import make_harness
from tests.helpers import VALID_DOC

CONSOLE = blocks("console")

#: A sidecar whose prompt, a block, starts on line 7 (its header at column 9).
BLOCK_PROMPT_DOC = (
    "task_spec_version: 1\n"
    "task_id: kg-go-impl-mathx-gcd\n"
    "language: go\n"
    "difficulty: easy\n"
    "generated_from:\n"
    "    kind: kg_template\n"
    "prompt: |-\n"
    "{prompt}\n"
    "verification:\n"
    "    test_cmd:\n"
    "        - go\n"
    "        - test\n"
    "        - ./mathx/...\n"
)


def _block_doc(*lines: str) -> bytes:
    prompt = "\n".join(f"    {line}" if line else "" for line in lines)
    return BLOCK_PROMPT_DOC.format(prompt=prompt).encode()


def _normal(text: str) -> str:
    """*text* with the run time of a summary ("in 0.04 s") as the README writes it."""
    return re.sub(r" in \d+\.\d\d s$", " in 0.00 s", text, flags=re.M)


def _replay(first: str) -> None:
    """Replay, in the working directory, the README's console block that starts with ``$ first``.

    Each ``$ taskspec ...`` must print the lines that follow it (stdout,
    then stderr; none of stderr after ``2>/dev/null``); a line ``...`` ends
    what is compared of its output.
    """
    (block,) = (b for b in CONSOLE if b.startswith(f"$ {first}\n"))
    for step in re.split(r"^\$ ", block, flags=re.M)[1:]:
        command, _, shown = step.partition("\n")
        quiet = command.endswith(" 2>/dev/null")
        argv = command.removesuffix(" 2>/dev/null").split()
        assert argv[0] == "taskspec", command
        result = run_cli(argv[1:])
        printed = _normal(result.out.decode() + ("" if quiet else result.err))
        if "\n...\n" in f"\n{shown}":
            head = shown.split("...\n", 1)[0]
            assert printed.startswith(head), command
        else:
            assert printed == shown, command


@pytest.fixture
def harness_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The harness of tests/harness.py, with the invalid run the README's sessions show."""
    monkeypatch.chdir(tmp_path)
    make_harness(tmp_path)
    doc = (
        VALID_DOC.replace(b"task_id:", b"taskid:")
        .replace(b"language: go", b"language: golang")
        .replace(b"timeout_seconds: 120", b"timeout_seconds: -5")
    )
    run = tmp_path / ".agents" / "eval" / "runs" / "run-0003"
    run.mkdir()
    (run / "taskspec.yaml").write_bytes(doc)
    (tmp_path / "config").mkdir(exist_ok=True)
    return tmp_path


def test_the_readme_shows_what_validate_prints_in_a_harness(harness_run: Path) -> None:
    _replay("taskspec validate .")


def test_the_readme_shows_the_github_annotations_validate_prints(harness_run: Path) -> None:
    _replay("taskspec validate --format github . 2>/dev/null")


def test_the_readme_shows_the_hint_for_a_prompt_a_block_cannot_carry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    rocket = _block_doc("Make it pass \U0001f680", "", "Second line.")
    (tmp_path / "rocket.taskspec.yaml").write_bytes(rocket)
    (tmp_path / "spaced.taskspec.yaml").write_bytes(_block_doc("Make it pass   ", "Second line."))
    _replay("taskspec validate rocket.taskspec.yaml")  # and spaced.taskspec.yaml
    # fmt says the same, and writes what the README says it writes.
    result = run_cli(["fmt", "rocket.taskspec.yaml"])
    assert result.code == 0
    assert result.err.splitlines()[0] == (
        "taskspec: hint: rocket.taskspec.yaml:7:9: fmt writes this prompt as one double-quoted "
        "line, not a block, as Go's writer does: line 1 of the prompt holds \U0001f680 "
        "(U+1F680, ROCKET), which can only be written as an escape"
    )
    (quoted,) = re.findall(r'\(`("Make it pass .*?")`\)', ALL)
    written = (tmp_path / "rocket.taskspec.yaml").read_text()
    assert f"\nprompt: {quoted}\n" in written
    # Formatted, the prompt is no block any more: nothing to say.
    again = run_cli(["fmt", "--check", "rocket.taskspec.yaml"])
    assert (again.code, "hint" in again.err) == (0, False)


@pytest.mark.parametrize(
    ("lines", "hinted"),
    [
        (("Make it pass.", "", "Second line."), False),  # a block it stays
        (("Tabs\tare fine.", "Second line."), False),
        (("Accents: é, 中文.", "Second line."), False),
        (("First line.", "Second line. "), True),  # the last line's trailing space
        (("Bell \x07",), False),  # YAML refuses the raw control character: no hint
    ],
)
def test_the_hint_is_given_exactly_when_fmt_quotes_a_block_prompt(
    tmp_path: Path, lines: tuple[str, ...], hinted: bool
) -> None:
    path = tmp_path / "t.taskspec.yaml"
    path.write_bytes(_block_doc(*lines))
    validated = run_cli(["validate", str(path)])
    assert ("taskspec: hint:" in validated.err) is hinted
    formatted = run_cli(["fmt", str(path)])
    assert ("taskspec: hint:" in formatted.err) is hinted
    if validated.code == 0:
        assert ("\nprompt: |" not in path.read_text()) is hinted


def test_the_readme_names_every_run_time_dependency() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    required = {re.split(r"[<>=!~ \[]", dep)[0] for dep in pyproject["project"]["dependencies"]}
    (claim,) = re.findall(r"needs only (.*?) at\s+run time", README, flags=re.S)
    named = set(re.findall(r"`([A-Za-z0-9_.-]+)`", claim))
    assert named == required


def test_fmt_names_the_problem_validate_lists_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The README: an unknown key on line 18 comes before a bad language on line 4.
    monkeypatch.chdir(tmp_path)
    doc = VALID_DOC.replace(b"language: go", b"language: golang").replace(
        b"      role: target", b"      role: target\n      owner: me"
    )
    path = tmp_path / "t.taskspec.yaml"
    path.write_bytes(doc)
    lines = doc.decode().splitlines()
    assert lines[2] == "language: golang"
    assert lines[17] == "      owner: me"
    validated = run_cli(["validate", path.name])
    first = validated.out.decode().splitlines()[0]
    assert first.startswith("t.taskspec.yaml:18:7: TS001 ")
    assert "t.taskspec.yaml:3:11: TS103 " in validated.out.decode()
    formatted = run_cli(["fmt", path.name])
    assert formatted.code == 1
    assert formatted.err.splitlines()[0] == (
        "t.taskspec.yaml:18:7: TS001 cannot format: the file is invalid "
        "(taskspec validate lists its problems)"
    )
    claim = " ".join(ALL.split())
    assert "reported in one line, at the problem `validate` lists first" in claim
    assert "(an unknown key on line 18 comes before a bad `language` on line 3)" in claim


def test_the_readme_shows_what_fmt_prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    make_harness(tmp_path)
    (tmp_path / "tasks" / "lcm.taskspec.yaml").write_bytes(VALID_DOC)
    gcd = tmp_path / "tasks" / "gcd.taskspec.yaml"
    hand_written = (
        gcd.read_bytes()
        .replace(b"language: go # ", b"language: go  # ")
        .replace(b"    cyclomatic_complexity: 4\n", b"  cyclomatic_complexity: 4\n")
        .replace(b"    edge_count: 9\n", b"  edge_count: 9\n")
    )
    assert hand_written.count(b"\n") == 30
    gcd.write_bytes(hand_written)
    _replay("taskspec fmt --diff tasks")


def test_the_readme_shows_what_fmt_prints_of_a_comment_without_a_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    odd = VALID_DOC.replace(
        b"    template_id: impl-pure-fn\n", b'    template_id: "" # retired\n'
    ).replace(b"difficulty_signals:\n    cyclomatic_complexity: 4\n    edge_count: 9\n", b"")
    assert odd.splitlines()[6] == b'    template_id: "" # retired'
    (tmp_path / "odd.taskspec.yaml").write_bytes(odd)
    before = odd
    _replay("taskspec fmt odd.taskspec.yaml")
    assert (tmp_path / "odd.taskspec.yaml").read_bytes() == before
