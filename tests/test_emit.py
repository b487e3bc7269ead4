"""Tests for the canonical YAML writer (taskspec.bridge._emit) and the resolver.

Every expected byte string below was recorded from go yaml.v3 v3.0.4
(``yaml.Marshal`` of the Go ``TaskSpec`` struct, and yaml.v3's own
``resolve``), not written by hand: the contract is byte identity with Go, so
the only trustworthy oracle is Go's output. Where yaml.v3 writes bytes it
cannot read back, the table holds this writer's fix and Go's bytes side by
side (see ``_emit.ROUND_TRIP_FIXES``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, cast

import pytest
import yaml

from taskspec._errors import TaskSpecError
from taskspec.bridge import _emit
from taskspec.bridge._layout import TASK_SPEC
from taskspec.bridge._resolve import needs_quotes, resolve
from taskspec.v1 import taskspec_pb2 as pb
from tests.gobridge import GoConsumer, spec_to_json

GOLDEN: Final = Path(__file__).resolve().parent / "data" / "golden"


# --- helpers -------------------------------------------------------------------


def spec_from_plain(doc: dict[str, Any]) -> pb.TaskSpec:
    """Build a TaskSpec from a ``yaml.safe_load`` result, by hand.

    Deliberately independent of the real decoder, so that these tests pin
    the writer alone.
    """
    enum = {f.name: f.enum for f in TASK_SPEC.fields if f.enum is not None}
    spec = pb.TaskSpec(
        task_spec_version=doc["task_spec_version"],
        task_id=doc["task_id"],
        language=cast(pb.Language, enum["language"].from_string[doc["language"]]),
        difficulty=cast(pb.Difficulty, enum["difficulty"].from_string[doc["difficulty"]]),
        prompt=doc["prompt"],
    )
    spec.difficulty_signals.update(doc.get("difficulty_signals") or {})
    gen = doc["generated_from"]
    kind = TASK_SPEC.by_name["generated_from"].message
    assert kind is not None and kind.by_name["kind"].enum is not None
    spec.generated_from.kind = cast(
        pb.GeneratedKind, kind.by_name["kind"].enum.from_string[gen["kind"]]
    )
    spec.generated_from.template_id = gen.get("template_id", "")
    if "kg_query" in gen:
        spec.generated_from.kg_query.SetInParent()
        spec.generated_from.kg_query.intent = gen["kg_query"].get("intent", "")
        spec.generated_from.kg_query.seed_symbol = gen["kg_query"].get("seed_symbol", "")
    for art in doc.get("solution_artifacts") or []:
        spec.solution_artifacts.add(path=art["path"], role=art.get("role", ""))
    ver = doc["verification"]
    spec.verification.build_cmd.extend(ver.get("build_cmd") or [])
    spec.verification.test_cmd.extend(ver["test_cmd"])
    spec.verification.timeout_seconds = ver.get("timeout_seconds", 0)
    return spec


def base_spec() -> pb.TaskSpec:
    """The spec of BASE_DOC; each table position overwrites one field of it."""
    spec = pb.TaskSpec(
        task_spec_version=1,
        task_id="t",
        language=pb.LANGUAGE_GO,
        difficulty=pb.DIFFICULTY_EASY,
        prompt="p",
    )
    spec.generated_from.kind = pb.GENERATED_KIND_KG_TEMPLATE
    spec.generated_from.kg_query.intent = "i"
    spec.solution_artifacts.add(path="a.go", role="target")
    spec.verification.test_cmd.append("x")
    return spec


BASE_DOC: Final = """\
task_spec_version: 1
task_id: t
language: go
difficulty: easy
generated_from:
    kind: kg_template
    kg_query:
        intent: i
prompt: p
solution_artifacts:
    - path: a.go
      role: target
verification:
    test_cmd:
        - x
"""


def _set_task_id(s: pb.TaskSpec, v: str) -> None:
    s.task_id = v


def _set_template_id(s: pb.TaskSpec, v: str) -> None:
    s.generated_from.template_id = v


def _set_intent(s: pb.TaskSpec, v: str) -> None:
    s.generated_from.kg_query.intent = v


def _set_test_cmd(s: pb.TaskSpec, v: str) -> None:
    s.verification.test_cmd[0] = v


def _set_role(s: pb.TaskSpec, v: str) -> None:
    s.solution_artifacts[0].role = v


def _set_signal(s: pb.TaskSpec, v: str) -> None:
    s.difficulty_signals[v] = 1


#: Where a table string goes: a setter, and the lines of BASE_DOC around the
#: fragment that the string's field produces (None: end of document). The
#: positions cover every context yaml.v3 writes a string in: a mapping value
#: at key columns 0, 4 and 8, a sequence item (dash at column 8), a value in
#: a mapping inside a sequence item (key at column 6) and a mapping key.
POSITIONS: Final[dict[str, tuple[Callable[[pb.TaskSpec, str], None], str, str | None]]] = {
    "task_id": (_set_task_id, "task_spec_version: 1\n", "language: go\n"),
    "template_id": (_set_template_id, "    kind: kg_template\n", "    kg_query:\n"),
    "intent": (_set_intent, "    kg_query:\n", "prompt: p\n"),
    "test_cmd": (_set_test_cmd, "    test_cmd:\n", None),
    "role": (_set_role, "    - path: a.go\n", "verification:\n"),
    "signal": (_set_signal, "difficulty: easy\n", "generated_from:\n"),
}


def doc_with(text: str, position: str) -> tuple[pb.TaskSpec, Callable[[str], str]]:
    """The base spec with ``text`` at ``position``, and a function splicing a
    fragment into BASE_DOC at that position."""
    setter, before, after = POSITIONS[position]
    spec = base_spec()
    setter(spec, text)
    start = BASE_DOC.index(before) + len(before)
    end = BASE_DOC.index(after, start) if after is not None else len(BASE_DOC)
    return spec, lambda fragment: BASE_DOC[:start] + fragment + BASE_DOC[end:]


def read_back(doc: str, position: str) -> object:
    """What PyYAML reads at ``position`` of a document built by doc_with."""
    data = yaml.safe_load(doc)
    if position == "task_id":
        return data["task_id"]
    if position == "template_id":
        return data["generated_from"]["template_id"]
    if position == "intent":
        return data["generated_from"]["kg_query"]["intent"]
    if position == "test_cmd":
        return data["verification"]["test_cmd"][0]
    if position == "role":
        return data["solution_artifacts"][0]["role"]
    (key,) = data["difficulty_signals"]
    return key


# --- golden vectors ----------------------------------------------------------


GOLDEN_NAMES: Final = ("documented-example.yaml", "r2-contract-sidecar.yaml")


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden_vector_remarshals_byte_identically(name: str) -> None:
    raw = (GOLDEN / name).read_bytes()
    assert _emit.marshal(spec_from_plain(yaml.safe_load(raw))) == raw


def test_base_doc_is_what_go_writes() -> None:
    # Every table case below is spliced into this document.
    assert _emit.marshal(base_spec()) == BASE_DOC.encode()


# --- the scalar table ----------------------------------------------------------
#
# (text, position, fragment): yaml.v3's bytes for the field holding ``text``.
# Groups: YAML 1.1 booleans and null-likes, numbers, dates and times, base 60,
# spaces, indicators first/alone/inside, multi-line (literal block chomping,
# indentation indicator, fall-back to double quotes), tabs, CR, CRLF, NEL,
# LS/PS, NBSP, BOM, C0/C1 controls, non-BMP (escaped: yaml.v3 does not
# consider 4-byte UTF-8 printable), CJK, long lines and keys over 128 bytes.

SCALARS: Final[list[tuple[str, str, str]]] = [
    ("y", "task_id", 'task_id: "y"\n'),
    ("y", "test_cmd", '        - "y"\n'),
    ("y", "signal", 'difficulty_signals:\n    "y": 1\n'),
    ("Y", "task_id", 'task_id: "Y"\n'),
    ("Y", "test_cmd", '        - "Y"\n'),
    ("Y", "signal", 'difficulty_signals:\n    "Y": 1\n'),
    ("yes", "task_id", 'task_id: "yes"\n'),
    ("yes", "test_cmd", '        - "yes"\n'),
    ("yes", "signal", 'difficulty_signals:\n    "yes": 1\n'),
    ("Yes", "task_id", 'task_id: "Yes"\n'),
    ("Yes", "test_cmd", '        - "Yes"\n'),
    ("Yes", "signal", 'difficulty_signals:\n    "Yes": 1\n'),
    ("YES", "task_id", 'task_id: "YES"\n'),
    ("YES", "test_cmd", '        - "YES"\n'),
    ("YES", "signal", 'difficulty_signals:\n    "YES": 1\n'),
    ("n", "task_id", 'task_id: "n"\n'),
    ("n", "test_cmd", '        - "n"\n'),
    ("n", "signal", 'difficulty_signals:\n    "n": 1\n'),
    ("N", "task_id", 'task_id: "N"\n'),
    ("N", "test_cmd", '        - "N"\n'),
    ("N", "signal", 'difficulty_signals:\n    "N": 1\n'),
    ("no", "task_id", 'task_id: "no"\n'),
    ("no", "test_cmd", '        - "no"\n'),
    ("no", "signal", 'difficulty_signals:\n    "no": 1\n'),
    ("No", "task_id", 'task_id: "No"\n'),
    ("No", "test_cmd", '        - "No"\n'),
    ("No", "signal", 'difficulty_signals:\n    "No": 1\n'),
    ("NO", "task_id", 'task_id: "NO"\n'),
    ("NO", "test_cmd", '        - "NO"\n'),
    ("NO", "signal", 'difficulty_signals:\n    "NO": 1\n'),
    ("on", "task_id", 'task_id: "on"\n'),
    ("on", "test_cmd", '        - "on"\n'),
    ("on", "signal", 'difficulty_signals:\n    "on": 1\n'),
    ("On", "task_id", 'task_id: "On"\n'),
    ("On", "test_cmd", '        - "On"\n'),
    ("On", "signal", 'difficulty_signals:\n    "On": 1\n'),
    ("ON", "task_id", 'task_id: "ON"\n'),
    ("ON", "test_cmd", '        - "ON"\n'),
    ("ON", "signal", 'difficulty_signals:\n    "ON": 1\n'),
    ("off", "task_id", 'task_id: "off"\n'),
    ("off", "test_cmd", '        - "off"\n'),
    ("off", "signal", 'difficulty_signals:\n    "off": 1\n'),
    ("Off", "task_id", 'task_id: "Off"\n'),
    ("Off", "test_cmd", '        - "Off"\n'),
    ("Off", "signal", 'difficulty_signals:\n    "Off": 1\n'),
    ("OFF", "task_id", 'task_id: "OFF"\n'),
    ("OFF", "test_cmd", '        - "OFF"\n'),
    ("OFF", "signal", 'difficulty_signals:\n    "OFF": 1\n'),
    ("true", "task_id", 'task_id: "true"\n'),
    ("true", "test_cmd", '        - "true"\n'),
    ("true", "signal", 'difficulty_signals:\n    "true": 1\n'),
    ("True", "task_id", 'task_id: "True"\n'),
    ("True", "test_cmd", '        - "True"\n'),
    ("True", "signal", 'difficulty_signals:\n    "True": 1\n'),
    ("TRUE", "task_id", 'task_id: "TRUE"\n'),
    ("TRUE", "test_cmd", '        - "TRUE"\n'),
    ("TRUE", "signal", 'difficulty_signals:\n    "TRUE": 1\n'),
    ("false", "task_id", 'task_id: "false"\n'),
    ("false", "test_cmd", '        - "false"\n'),
    ("false", "signal", 'difficulty_signals:\n    "false": 1\n'),
    ("False", "task_id", 'task_id: "False"\n'),
    ("False", "test_cmd", '        - "False"\n'),
    ("False", "signal", 'difficulty_signals:\n    "False": 1\n'),
    ("FALSE", "task_id", 'task_id: "FALSE"\n'),
    ("FALSE", "test_cmd", '        - "FALSE"\n'),
    ("FALSE", "signal", 'difficulty_signals:\n    "FALSE": 1\n'),
    ("tRUE", "task_id", "task_id: tRUE\n"),
    ("yES", "task_id", "task_id: yES\n"),
    ("oN", "task_id", "task_id: oN\n"),
    ("nO", "task_id", "task_id: nO\n"),
    ("Yes!", "task_id", "task_id: Yes!\n"),
    ("yes please", "task_id", "task_id: yes please\n"),
    ("onion", "task_id", "task_id: onion\n"),
    ("n/a", "task_id", "task_id: n/a\n"),
    ("null", "task_id", 'task_id: "null"\n'),
    ("null", "test_cmd", '        - "null"\n'),
    ("null", "signal", 'difficulty_signals:\n    "null": 1\n'),
    ("Null", "task_id", 'task_id: "Null"\n'),
    ("Null", "test_cmd", '        - "Null"\n'),
    ("Null", "signal", 'difficulty_signals:\n    "Null": 1\n'),
    ("NULL", "task_id", 'task_id: "NULL"\n'),
    ("NULL", "test_cmd", '        - "NULL"\n'),
    ("NULL", "signal", 'difficulty_signals:\n    "NULL": 1\n'),
    ("~", "task_id", 'task_id: "~"\n'),
    ("~", "test_cmd", '        - "~"\n'),
    ("~", "signal", 'difficulty_signals:\n    "~": 1\n'),
    ("", "task_id", 'task_id: ""\n'),
    ("", "test_cmd", '        - ""\n'),
    ("", "signal", 'difficulty_signals:\n    "": 1\n'),
    ("nULL", "task_id", "task_id: nULL\n"),
    ("nULL", "test_cmd", "        - nULL\n"),
    ("nULL", "signal", "difficulty_signals:\n    nULL: 1\n"),
    ("nil", "task_id", "task_id: nil\n"),
    ("nil", "test_cmd", "        - nil\n"),
    ("nil", "signal", "difficulty_signals:\n    nil: 1\n"),
    ("None", "task_id", "task_id: None\n"),
    ("None", "test_cmd", "        - None\n"),
    ("None", "signal", "difficulty_signals:\n    None: 1\n"),
    ("~x", "task_id", "task_id: ~x\n"),
    ("~x", "test_cmd", "        - ~x\n"),
    ("~x", "signal", "difficulty_signals:\n    ~x: 1\n"),
    ("0x1F", "task_id", 'task_id: "0x1F"\n'),
    ("1e3", "task_id", 'task_id: "1e3"\n'),
    ("1.50", "task_id", 'task_id: "1.50"\n'),
    ("0o17", "task_id", 'task_id: "0o17"\n'),
    ("017", "task_id", 'task_id: "017"\n'),
    ("1_000", "task_id", 'task_id: "1_000"\n'),
    (".5", "task_id", 'task_id: ".5"\n'),
    ("+1", "task_id", 'task_id: "+1"\n'),
    ("-0b1", "task_id", 'task_id: "-0b1"\n'),
    ("0b101", "task_id", 'task_id: "0b101"\n'),
    ("08", "task_id", 'task_id: "08"\n'),
    ("09.5", "task_id", 'task_id: "09.5"\n'),
    ("1e400", "task_id", "task_id: 1e400\n"),
    ("1e-400", "task_id", 'task_id: "1e-400"\n'),
    ("-1", "task_id", 'task_id: "-1"\n'),
    ("0", "task_id", 'task_id: "0"\n'),
    ("-0", "task_id", 'task_id: "-0"\n'),
    ("9223372036854775807", "task_id", 'task_id: "9223372036854775807"\n'),
    ("9223372036854775808", "task_id", 'task_id: "9223372036854775808"\n'),
    ("18446744073709551615", "task_id", 'task_id: "18446744073709551615"\n'),
    ("18446744073709551616", "task_id", 'task_id: "18446744073709551616"\n'),
    ("-9223372036854775808", "task_id", 'task_id: "-9223372036854775808"\n'),
    ("-9223372036854775809", "task_id", 'task_id: "-9223372036854775809"\n'),
    (".inf", "task_id", 'task_id: ".inf"\n'),
    ("-.Inf", "task_id", 'task_id: "-.Inf"\n'),
    ("+.INF", "task_id", 'task_id: "+.INF"\n'),
    (".NaN", "task_id", 'task_id: ".NaN"\n'),
    ("nan", "task_id", "task_id: nan\n"),
    ("NaN", "task_id", "task_id: NaN\n"),
    ("inf", "task_id", "task_id: inf\n"),
    ("1.", "task_id", 'task_id: "1."\n'),
    ("1e", "task_id", "task_id: 1e\n"),
    ("0x", "task_id", "task_id: 0x\n"),
    ("0b", "task_id", "task_id: 0b\n"),
    ("0o", "task_id", "task_id: 0o\n"),
    ("0b-1", "task_id", 'task_id: "0b-1"\n'),
    ("0o+7", "task_id", 'task_id: "0o+7"\n'),
    ("._5", "task_id", "task_id: ._5\n"),
    (".5_0", "task_id", 'task_id: ".5_0"\n'),
    ("1__0", "task_id", 'task_id: "1__0"\n'),
    ("+", "task_id", "task_id: +\n"),
    ("-", "task_id", "task_id: '-'\n"),
    (".", "task_id", "task_id: .\n"),
    ("0xG", "task_id", "task_id: 0xG\n"),
    ("1.2.3", "task_id", "task_id: 1.2.3\n"),
    ("1,000", "task_id", "task_id: 1,000\n"),
    ("v1.2", "task_id", "task_id: v1.2\n"),
    ("0x1F", "test_cmd", '        - "0x1F"\n'),
    ("0x1F", "signal", 'difficulty_signals:\n    "0x1F": 1\n'),
    ("1e3", "test_cmd", '        - "1e3"\n'),
    ("1e3", "signal", 'difficulty_signals:\n    "1e3": 1\n'),
    ("1.50", "test_cmd", '        - "1.50"\n'),
    ("1.50", "signal", 'difficulty_signals:\n    "1.50": 1\n'),
    ("017", "test_cmd", '        - "017"\n'),
    ("017", "signal", 'difficulty_signals:\n    "017": 1\n'),
    ("-0b1", "test_cmd", '        - "-0b1"\n'),
    ("-0b1", "signal", 'difficulty_signals:\n    "-0b1": 1\n'),
    ("2001-12-14", "task_id", 'task_id: "2001-12-14"\n'),
    ("2001-12-14T21:59:43.10-05:00", "task_id", 'task_id: "2001-12-14T21:59:43.10-05:00"\n'),
    ("2001-12-14t21:59:43.10Z", "task_id", 'task_id: "2001-12-14t21:59:43.10Z"\n'),
    ("2001-12-14 21:59:43.10", "task_id", 'task_id: "2001-12-14 21:59:43.10"\n'),
    ("2001-12-14   21:59:43", "task_id", 'task_id: "2001-12-14   21:59:43"\n'),
    ("2001-12-14 21:59:43.10 -5", "task_id", "task_id: 2001-12-14 21:59:43.10 -5\n"),
    ("2001-12-14T21:59:43", "task_id", "task_id: 2001-12-14T21:59:43\n"),
    ("2001-12-14T21:59:43Z", "task_id", 'task_id: "2001-12-14T21:59:43Z"\n'),
    ("2001-12-14T21:59:43,5Z", "task_id", 'task_id: "2001-12-14T21:59:43,5Z"\n'),
    ("2001-12-14T24:00:00Z", "task_id", "task_id: 2001-12-14T24:00:00Z\n"),
    ("2001-12-14T21:59:43+24:00", "task_id", 'task_id: "2001-12-14T21:59:43+24:00"\n'),
    ("2001-12-14T21:59:43+25:00", "task_id", "task_id: 2001-12-14T21:59:43+25:00\n"),
    ("2001-02-30", "task_id", "task_id: 2001-02-30\n"),
    ("2001-02-29", "task_id", "task_id: 2001-02-29\n"),
    ("2000-02-29", "task_id", 'task_id: "2000-02-29"\n'),
    ("1900-02-29", "task_id", "task_id: 1900-02-29\n"),
    ("2001-13-01", "task_id", "task_id: 2001-13-01\n"),
    ("2001-00-01", "task_id", "task_id: 2001-00-01\n"),
    ("2001-1-2", "task_id", 'task_id: "2001-1-2"\n'),
    ("2001-01-32", "task_id", "task_id: 2001-01-32\n"),
    ("20011-01-01", "task_id", "task_id: 20011-01-01\n"),
    ("2001-12-14 ", "task_id", "task_id: '2001-12-14 '\n"),
    ("2001-12-14x", "task_id", "task_id: 2001-12-14x\n"),
    ("1:20", "task_id", 'task_id: "1:20"\n'),
    ("-1:20:30.5", "task_id", 'task_id: "-1:20:30.5"\n'),
    ("1:60", "task_id", "task_id: 1:60\n"),
    ("190:20:30", "task_id", 'task_id: "190:20:30"\n'),
    ("1:2", "task_id", 'task_id: "1:2"\n'),
    ("a:20", "task_id", "task_id: a:20\n"),
    ("1:20:", "task_id", "task_id: '1:20:'\n"),
    (" a", "task_id", "task_id: ' a'\n"),
    (" a", "test_cmd", "        - ' a'\n"),
    (" a", "signal", "difficulty_signals:\n    ' a': 1\n"),
    ("a ", "task_id", "task_id: 'a '\n"),
    ("a ", "test_cmd", "        - 'a '\n"),
    ("a ", "signal", "difficulty_signals:\n    'a ': 1\n"),
    (" ", "task_id", "task_id: ' '\n"),
    (" ", "test_cmd", "        - ' '\n"),
    (" ", "signal", "difficulty_signals:\n    ' ': 1\n"),
    ("  ", "task_id", "task_id: '  '\n"),
    ("  ", "test_cmd", "        - '  '\n"),
    ("  ", "signal", "difficulty_signals:\n    '  ': 1\n"),
    ("a  b", "task_id", "task_id: a  b\n"),
    ("a  b", "test_cmd", "        - a  b\n"),
    ("a  b", "signal", "difficulty_signals:\n    a  b: 1\n"),
    (" a ", "task_id", "task_id: ' a '\n"),
    (" a ", "test_cmd", "        - ' a '\n"),
    (" a ", "signal", "difficulty_signals:\n    ' a ': 1\n"),
    ("?", "task_id", "task_id: '?'\n"),
    (":", "task_id", "task_id: ':'\n"),
    (",", "task_id", "task_id: ','\n"),
    ("[", "task_id", "task_id: '['\n"),
    ("]", "task_id", "task_id: ']'\n"),
    ("{", "task_id", "task_id: '{'\n"),
    ("}", "task_id", "task_id: '}'\n"),
    ("#", "task_id", "task_id: '#'\n"),
    ("&", "task_id", "task_id: '&'\n"),
    ("*", "task_id", "task_id: '*'\n"),
    ("!", "task_id", "task_id: '!'\n"),
    ("|", "task_id", "task_id: '|'\n"),
    (">", "task_id", "task_id: '>'\n"),
    ("'", "task_id", "task_id: ''''\n"),
    ('"', "task_id", "task_id: '\"'\n"),
    ("%", "task_id", "task_id: '%'\n"),
    ("@", "task_id", "task_id: '@'\n"),
    ("`", "task_id", "task_id: '`'\n"),
    ("-a", "task_id", "task_id: -a\n"),
    ("?a", "task_id", "task_id: ?a\n"),
    (":a", "task_id", "task_id: :a\n"),
    (",a", "task_id", "task_id: ',a'\n"),
    ("[a", "task_id", "task_id: '[a'\n"),
    ("]a", "task_id", "task_id: ']a'\n"),
    ("{a", "task_id", "task_id: '{a'\n"),
    ("}a", "task_id", "task_id: '}a'\n"),
    ("#a", "task_id", "task_id: '#a'\n"),
    ("&a", "task_id", "task_id: '&a'\n"),
    ("*a", "task_id", "task_id: '*a'\n"),
    ("!a", "task_id", "task_id: '!a'\n"),
    ("|a", "task_id", "task_id: '|a'\n"),
    (">a", "task_id", "task_id: '>a'\n"),
    ("'a", "task_id", "task_id: '''a'\n"),
    ('"a', "task_id", "task_id: '\"a'\n"),
    ("%a", "task_id", "task_id: '%a'\n"),
    ("@a", "task_id", "task_id: '@a'\n"),
    ("`a", "task_id", "task_id: '`a'\n"),
    ("a-b", "task_id", "task_id: a-b\n"),
    ("a?b", "task_id", "task_id: a?b\n"),
    ("a:b", "task_id", "task_id: a:b\n"),
    ("a,b", "task_id", "task_id: a,b\n"),
    ("a[b", "task_id", "task_id: a[b\n"),
    ("a]b", "task_id", "task_id: a]b\n"),
    ("a{b", "task_id", "task_id: a{b\n"),
    ("a}b", "task_id", "task_id: a}b\n"),
    ("a#b", "task_id", "task_id: a#b\n"),
    ("a&b", "task_id", "task_id: a&b\n"),
    ("a*b", "task_id", "task_id: a*b\n"),
    ("a!b", "task_id", "task_id: a!b\n"),
    ("a|b", "task_id", "task_id: a|b\n"),
    ("a>b", "task_id", "task_id: a>b\n"),
    ("a'b", "task_id", "task_id: a'b\n"),
    ('a"b', "task_id", 'task_id: a"b\n'),
    ("a%b", "task_id", "task_id: a%b\n"),
    ("a@b", "task_id", "task_id: a@b\n"),
    ("a`b", "task_id", "task_id: a`b\n"),
    ("- a", "task_id", "task_id: '- a'\n"),
    ("? a", "task_id", "task_id: '? a'\n"),
    (": a", "task_id", "task_id: ': a'\n"),
    ("a:", "task_id", "task_id: 'a:'\n"),
    ("a: b", "task_id", "task_id: 'a: b'\n"),
    ("a :b", "task_id", "task_id: a :b\n"),
    ("a #b", "task_id", "task_id: 'a #b'\n"),
    ("a# b", "task_id", "task_id: a# b\n"),
    ("a::b", "task_id", "task_id: a::b\n"),
    ("---", "task_id", "task_id: '---'\n"),
    ("...", "task_id", "task_id: '...'\n"),
    ("--- a", "task_id", "task_id: '--- a'\n"),
    ("...a", "task_id", "task_id: '...a'\n"),
    ("----", "task_id", "task_id: '----'\n"),
    ("..", "task_id", "task_id: ..\n"),
    ("--", "task_id", "task_id: --\n"),
    ("<<", "task_id", "task_id: <<\n"),
    ("=", "task_id", "task_id: =\n"),
    ("a'b'", "task_id", "task_id: a'b'\n"),
    ("''", "task_id", "task_id: ''''''\n"),
    ("\\", "task_id", "task_id: \\\n"),
    ("a\\nb", "task_id", "task_id: a\\nb\n"),
    ("- a", "test_cmd", "        - '- a'\n"),
    ("- a", "signal", "difficulty_signals:\n    '- a': 1\n"),
    ("- a", "role", "      role: '- a'\n"),
    ("a: b", "test_cmd", "        - 'a: b'\n"),
    ("a: b", "signal", "difficulty_signals:\n    'a: b': 1\n"),
    ("a: b", "role", "      role: 'a: b'\n"),
    ("a #b", "test_cmd", "        - 'a #b'\n"),
    ("a #b", "signal", "difficulty_signals:\n    'a #b': 1\n"),
    ("a #b", "role", "      role: 'a #b'\n"),
    ("#a", "test_cmd", "        - '#a'\n"),
    ("#a", "signal", "difficulty_signals:\n    '#a': 1\n"),
    ("#a", "role", "      role: '#a'\n"),
    ("<<", "test_cmd", "        - <<\n"),
    ("<<", "role", "      role: <<\n"),
    ("=", "test_cmd", "        - =\n"),
    ("=", "signal", "difficulty_signals:\n    =: 1\n"),
    ("=", "role", "      role: =\n"),
    ("---", "test_cmd", "        - '---'\n"),
    ("---", "signal", "difficulty_signals:\n    '---': 1\n"),
    ("---", "role", "      role: '---'\n"),
    ("'a'", "test_cmd", "        - '''a'''\n"),
    ("'a'", "signal", "difficulty_signals:\n    '''a''': 1\n"),
    ("'a'", "role", "      role: '''a'''\n"),
    ("a\nb", "task_id", "task_id: |-\n    a\n    b\n"),
    ("a\nb", "template_id", "    template_id: |-\n        a\n        b\n"),
    ("a\nb", "intent", "        intent: |-\n            a\n            b\n"),
    ("a\nb", "test_cmd", "        - |-\n          a\n          b\n"),
    ("a\nb", "role", "      role: |-\n        a\n        b\n"),
    ("a\nb", "signal", "difficulty_signals:\n    ? |-\n        a\n        b\n    : 1\n"),
    ("a\nb\n", "task_id", "task_id: |\n    a\n    b\n"),
    ("a\nb\n", "template_id", "    template_id: |\n        a\n        b\n"),
    ("a\nb\n", "intent", "        intent: |\n            a\n            b\n"),
    ("a\nb\n", "test_cmd", "        - |\n          a\n          b\n"),
    ("a\nb\n", "role", "      role: |\n        a\n        b\n"),
    ("a\nb\n", "signal", "difficulty_signals:\n    ? |\n        a\n        b\n    : 1\n"),
    ("a\nb\n\n", "task_id", "task_id: |+\n    a\n    b\n\n"),
    ("a\nb\n\n", "template_id", "    template_id: |+\n        a\n        b\n\n"),
    ("a\nb\n\n", "intent", "        intent: |+\n            a\n            b\n\n"),
    ("a\nb\n\n", "test_cmd", "        - |+\n          a\n          b\n\n"),
    ("a\nb\n\n", "role", "      role: |+\n        a\n        b\n\n"),
    ("a\nb\n\n", "signal", "difficulty_signals:\n    ? |+\n        a\n        b\n\n    : 1\n"),
    ("a\n", "task_id", "task_id: |\n    a\n"),
    ("a\n", "template_id", "    template_id: |\n        a\n"),
    ("a\n", "intent", "        intent: |\n            a\n"),
    ("a\n", "test_cmd", "        - |\n          a\n"),
    ("a\n", "role", "      role: |\n        a\n"),
    ("a\n", "signal", "difficulty_signals:\n    ? |\n        a\n    : 1\n"),
    ("a\n\n", "task_id", "task_id: |+\n    a\n\n"),
    ("a\n\n", "template_id", "    template_id: |+\n        a\n\n"),
    ("a\n\n", "intent", "        intent: |+\n            a\n\n"),
    ("a\n\n", "test_cmd", "        - |+\n          a\n\n"),
    ("a\n\n", "role", "      role: |+\n        a\n\n"),
    ("a\n\n", "signal", "difficulty_signals:\n    ? |+\n        a\n\n    : 1\n"),
    ("\na", "task_id", "task_id: |4-\n\n    a\n"),
    ("\na", "template_id", "    template_id: |4-\n\n        a\n"),
    ("\na", "intent", "        intent: |4-\n\n            a\n"),
    ("\na", "signal", "difficulty_signals:\n    ? |4-\n\n        a\n    : 1\n"),
    ("\n\na", "task_id", "task_id: |4-\n\n\n    a\n"),
    ("\n\na", "template_id", "    template_id: |4-\n\n\n        a\n"),
    ("\n\na", "intent", "        intent: |4-\n\n\n            a\n"),
    ("\n\na", "signal", "difficulty_signals:\n    ? |4-\n\n\n        a\n    : 1\n"),
    (" a\nb", "task_id", "task_id: |4-\n     a\n    b\n"),
    (" a\nb", "template_id", "    template_id: |4-\n         a\n        b\n"),
    (" a\nb", "intent", "        intent: |4-\n             a\n            b\n"),
    (" a\nb", "signal", "difficulty_signals:\n    ? |4-\n         a\n        b\n    : 1\n"),
    ("a\n\nb", "task_id", "task_id: |-\n    a\n\n    b\n"),
    ("a\n\nb", "template_id", "    template_id: |-\n        a\n\n        b\n"),
    ("a\n\nb", "intent", "        intent: |-\n            a\n\n            b\n"),
    ("a\n\nb", "test_cmd", "        - |-\n          a\n\n          b\n"),
    ("a\n\nb", "role", "      role: |-\n        a\n\n        b\n"),
    ("a\n\nb", "signal", "difficulty_signals:\n    ? |-\n        a\n\n        b\n    : 1\n"),
    ("a \nb", "task_id", 'task_id: "a \\nb"\n'),
    ("a \nb", "template_id", '    template_id: "a \\nb"\n'),
    ("a \nb", "intent", '        intent: "a \\nb"\n'),
    ("a \nb", "test_cmd", '        - "a \\nb"\n'),
    ("a \nb", "role", '      role: "a \\nb"\n'),
    ("a \nb", "signal", 'difficulty_signals:\n    ? "a \\nb"\n    : 1\n'),
    ("a\n b", "task_id", "task_id: |-\n    a\n     b\n"),
    ("a\n b", "template_id", "    template_id: |-\n        a\n         b\n"),
    ("a\n b", "intent", "        intent: |-\n            a\n             b\n"),
    ("a\n b", "test_cmd", "        - |-\n          a\n           b\n"),
    ("a\n b", "role", "      role: |-\n        a\n         b\n"),
    ("a\n b", "signal", "difficulty_signals:\n    ? |-\n        a\n         b\n    : 1\n"),
    ("\n", "task_id", "task_id: |4+\n\n"),
    ("\n", "template_id", "    template_id: |4+\n\n"),
    ("\n", "intent", "        intent: |4+\n\n"),
    ("\n", "test_cmd", "        - |4+\n\n"),
    ("\n", "role", "      role: |4+\n\n"),
    ("\n", "signal", "difficulty_signals:\n    ? |4+\n\n    : 1\n"),
    ("\n\n", "task_id", "task_id: |4+\n\n\n"),
    ("\n\n", "template_id", "    template_id: |4+\n\n\n"),
    ("\n\n", "intent", "        intent: |4+\n\n\n"),
    ("\n\n", "test_cmd", "        - |4+\n\n\n"),
    ("\n\n", "role", "      role: |4+\n\n\n"),
    ("\n\n", "signal", "difficulty_signals:\n    ? |4+\n\n\n    : 1\n"),
    ("a\tb\nc", "task_id", "task_id: |-\n    a\tb\n    c\n"),
    ("a\tb\nc", "template_id", "    template_id: |-\n        a\tb\n        c\n"),
    ("a\tb\nc", "intent", "        intent: |-\n            a\tb\n            c\n"),
    ("a\tb\nc", "test_cmd", "        - |-\n          a\tb\n          c\n"),
    ("a\tb\nc", "role", "      role: |-\n        a\tb\n        c\n"),
    ("a\tb\nc", "signal", "difficulty_signals:\n    ? |-\n        a\tb\n        c\n    : 1\n"),
    ("a\n\tb", "task_id", "task_id: |-\n    a\n    \tb\n"),
    ("a\n\tb", "template_id", "    template_id: |-\n        a\n        \tb\n"),
    ("a\n\tb", "intent", "        intent: |-\n            a\n            \tb\n"),
    ("a\n\tb", "test_cmd", "        - |-\n          a\n          \tb\n"),
    ("a\n\tb", "role", "      role: |-\n        a\n        \tb\n"),
    ("a\n\tb", "signal", "difficulty_signals:\n    ? |-\n        a\n        \tb\n    : 1\n"),
    ("a\n ", "task_id", 'task_id: "a\\n "\n'),
    ("a\n ", "template_id", '    template_id: "a\\n "\n'),
    ("a\n ", "intent", '        intent: "a\\n "\n'),
    ("a\n ", "test_cmd", '        - "a\\n "\n'),
    ("a\n ", "role", '      role: "a\\n "\n'),
    ("a\n ", "signal", 'difficulty_signals:\n    ? "a\\n "\n    : 1\n'),
    ("a\nb ", "task_id", 'task_id: "a\\nb "\n'),
    ("a\nb ", "template_id", '    template_id: "a\\nb "\n'),
    ("a\nb ", "intent", '        intent: "a\\nb "\n'),
    ("a\nb ", "test_cmd", '        - "a\\nb "\n'),
    ("a\nb ", "role", '      role: "a\\nb "\n'),
    ("a\nb ", "signal", 'difficulty_signals:\n    ? "a\\nb "\n    : 1\n'),
    ("- a\n- b", "task_id", "task_id: |-\n    - a\n    - b\n"),
    ("- a\n- b", "template_id", "    template_id: |-\n        - a\n        - b\n"),
    ("- a\n- b", "intent", "        intent: |-\n            - a\n            - b\n"),
    ("- a\n- b", "test_cmd", "        - |-\n          - a\n          - b\n"),
    ("- a\n- b", "role", "      role: |-\n        - a\n        - b\n"),
    ("- a\n- b", "signal", "difficulty_signals:\n    ? |-\n        - a\n        - b\n    : 1\n"),
    ("a: b\nc: d", "task_id", "task_id: |-\n    a: b\n    c: d\n"),
    ("a: b\nc: d", "template_id", "    template_id: |-\n        a: b\n        c: d\n"),
    ("a: b\nc: d", "intent", "        intent: |-\n            a: b\n            c: d\n"),
    ("a: b\nc: d", "test_cmd", "        - |-\n          a: b\n          c: d\n"),
    ("a: b\nc: d", "role", "      role: |-\n        a: b\n        c: d\n"),
    (
        "a: b\nc: d",
        "signal",
        ("difficulty_signals:\n    ? |-\n        a: b\n        c: d\n    : 1\n"),
    ),
    ("#x\ny", "task_id", "task_id: |-\n    #x\n    y\n"),
    ("#x\ny", "template_id", "    template_id: |-\n        #x\n        y\n"),
    ("#x\ny", "intent", "        intent: |-\n            #x\n            y\n"),
    ("#x\ny", "test_cmd", "        - |-\n          #x\n          y\n"),
    ("#x\ny", "role", "      role: |-\n        #x\n        y\n"),
    ("#x\ny", "signal", "difficulty_signals:\n    ? |-\n        #x\n        y\n    : 1\n"),
    ("'a'\n\"b\"", "task_id", "task_id: |-\n    'a'\n    \"b\"\n"),
    ("'a'\n\"b\"", "template_id", "    template_id: |-\n        'a'\n        \"b\"\n"),
    ("'a'\n\"b\"", "intent", "        intent: |-\n            'a'\n            \"b\"\n"),
    ("'a'\n\"b\"", "test_cmd", "        - |-\n          'a'\n          \"b\"\n"),
    ("'a'\n\"b\"", "role", "      role: |-\n        'a'\n        \"b\"\n"),
    (
        "'a'\n\"b\"",
        "signal",
        ("difficulty_signals:\n    ? |-\n        'a'\n        \"b\"\n    : 1\n"),
    ),
    ("a\n---\nb", "task_id", "task_id: |-\n    a\n    ---\n    b\n"),
    ("a\n---\nb", "template_id", "    template_id: |-\n        a\n        ---\n        b\n"),
    ("a\n---\nb", "intent", "        intent: |-\n            a\n            ---\n            b\n"),
    ("a\n---\nb", "test_cmd", "        - |-\n          a\n          ---\n          b\n"),
    ("a\n---\nb", "role", "      role: |-\n        a\n        ---\n        b\n"),
    (
        "a\n---\nb",
        "signal",
        ("difficulty_signals:\n    ? |-\n        a\n        ---\n        b\n    : 1\n"),
    ),
    ("a\n...\n", "task_id", "task_id: |\n    a\n    ...\n"),
    ("a\n...\n", "template_id", "    template_id: |\n        a\n        ...\n"),
    ("a\n...\n", "intent", "        intent: |\n            a\n            ...\n"),
    ("a\n...\n", "test_cmd", "        - |\n          a\n          ...\n"),
    ("a\n...\n", "role", "      role: |\n        a\n        ...\n"),
    ("a\n...\n", "signal", "difficulty_signals:\n    ? |\n        a\n        ...\n    : 1\n"),
    ("\n a", "task_id", "task_id: |4-\n\n     a\n"),
    ("\n a", "template_id", "    template_id: |4-\n\n         a\n"),
    ("\n a", "intent", "        intent: |4-\n\n             a\n"),
    ("\n a", "signal", "difficulty_signals:\n    ? |4-\n\n         a\n    : 1\n"),
    (" \na", "task_id", 'task_id: " \\na"\n'),
    (" \na", "template_id", '    template_id: " \\na"\n'),
    (" \na", "intent", '        intent: " \\na"\n'),
    (" \na", "test_cmd", '        - " \\na"\n'),
    (" \na", "role", '      role: " \\na"\n'),
    (" \na", "signal", 'difficulty_signals:\n    ? " \\na"\n    : 1\n'),
    ("a\r\nb", "task_id", 'task_id: "a\\r\\nb"\n'),
    ("a\r\nb", "template_id", '    template_id: "a\\r\\nb"\n'),
    ("a\r\nb", "intent", '        intent: "a\\r\\nb"\n'),
    ("a\r\nb", "test_cmd", '        - "a\\r\\nb"\n'),
    ("a\r\nb", "role", '      role: "a\\r\\nb"\n'),
    ("a\r\nb", "signal", 'difficulty_signals:\n    ? "a\\r\\nb"\n    : 1\n'),
    ("a\rb\nc", "task_id", 'task_id: "a\\rb\\nc"\n'),
    ("a\rb\nc", "template_id", '    template_id: "a\\rb\\nc"\n'),
    ("a\rb\nc", "intent", '        intent: "a\\rb\\nc"\n'),
    ("a\rb\nc", "test_cmd", '        - "a\\rb\\nc"\n'),
    ("a\rb\nc", "role", '      role: "a\\rb\\nc"\n'),
    ("a\rb\nc", "signal", 'difficulty_signals:\n    ? "a\\rb\\nc"\n    : 1\n'),
    ("a\x85b\nc", "task_id", 'task_id: "a\\Nb\\nc"\n'),
    ("a\x85b\nc", "template_id", '    template_id: "a\\Nb\\nc"\n'),
    ("a\x85b\nc", "intent", '        intent: "a\\Nb\\nc"\n'),
    ("a\x85b\nc", "test_cmd", '        - "a\\Nb\\nc"\n'),
    ("a\x85b\nc", "role", '      role: "a\\Nb\\nc"\n'),
    ("a\x85b\nc", "signal", 'difficulty_signals:\n    ? "a\\Nb\\nc"\n    : 1\n'),
    ("a\u2028b\nc", "task_id", "task_id: |-\n    a\u2028    b\n    c\n"),
    ("a\u2028b\nc", "template_id", "    template_id: |-\n        a\u2028        b\n        c\n"),
    (
        "a\u2028b\nc",
        "intent",
        ("        intent: |-\n            a\u2028            b\n            c\n"),
    ),
    ("a\u2028b\nc", "test_cmd", "        - |-\n          a\u2028          b\n          c\n"),
    ("a\u2028b\nc", "role", "      role: |-\n        a\u2028        b\n        c\n"),
    (
        "a\u2028b\nc",
        "signal",
        ("difficulty_signals:\n    ? |-\n        a\u2028        b\n        c\n    : 1\n"),
    ),
    ("a\nb\u2028", "task_id", "task_id: |\n    a\n    b\u2028"),
    ("a\nb\u2028", "template_id", "    template_id: |\n        a\n        b\u2028"),
    ("a\nb\u2028", "intent", "        intent: |\n            a\n            b\u2028"),
    ("a\nb\u2028", "test_cmd", "        - |\n          a\n          b\u2028"),
    ("a\nb\u2028", "role", "      role: |\n        a\n        b\u2028"),
    ("a\nb\u2028", "signal", "difficulty_signals:\n    ? |\n        a\n        b\u2028    : 1\n"),
    ("\u2028a\nb", "task_id", "task_id: |4-\n\u2028    a\n    b\n"),
    ("\u2028a\nb", "template_id", "    template_id: |4-\n\u2028        a\n        b\n"),
    ("\u2028a\nb", "intent", "        intent: |4-\n\u2028            a\n            b\n"),
    (
        "\u2028a\nb",
        "signal",
        ("difficulty_signals:\n    ? |4-\n\u2028        a\n        b\n    : 1\n"),
    ),
    ("a\n\u2029b", "task_id", "task_id: |-\n    a\n\u2029    b\n"),
    ("a\n\u2029b", "template_id", "    template_id: |-\n        a\n\u2029        b\n"),
    ("a\n\u2029b", "intent", "        intent: |-\n            a\n\u2029            b\n"),
    ("a\n\u2029b", "test_cmd", "        - |-\n          a\n\u2029          b\n"),
    ("a\n\u2029b", "role", "      role: |-\n        a\n\u2029        b\n"),
    (
        "a\n\u2029b",
        "signal",
        ("difficulty_signals:\n    ? |-\n        a\n\u2029        b\n    : 1\n"),
    ),
    ("\xa0a\nb", "task_id", "task_id: |-\n    \xa0a\n    b\n"),
    ("\xa0a\nb", "template_id", "    template_id: |-\n        \xa0a\n        b\n"),
    ("\xa0a\nb", "intent", "        intent: |-\n            \xa0a\n            b\n"),
    ("\xa0a\nb", "test_cmd", "        - |-\n          \xa0a\n          b\n"),
    ("\xa0a\nb", "role", "      role: |-\n        \xa0a\n        b\n"),
    ("\xa0a\nb", "signal", "difficulty_signals:\n    ? |-\n        \xa0a\n        b\n    : 1\n"),
    ("a\n\ufeff", "task_id", 'task_id: "a\\n\\uFEFF"\n'),
    ("a\n\ufeff", "template_id", '    template_id: "a\\n\\uFEFF"\n'),
    ("a\n\ufeff", "intent", '        intent: "a\\n\\uFEFF"\n'),
    ("a\n\ufeff", "test_cmd", '        - "a\\n\\uFEFF"\n'),
    ("a\n\ufeff", "role", '      role: "a\\n\\uFEFF"\n'),
    ("a\n\ufeff", "signal", 'difficulty_signals:\n    ? "a\\n\\uFEFF"\n    : 1\n'),
    ("\ufeffa\nb", "task_id", 'task_id: "\\uFEFF\\x61\\n\\x62"\n'),
    ("\ufeffa\nb", "template_id", '    template_id: "\\uFEFF\\x61\\n\\x62"\n'),
    ("\ufeffa\nb", "intent", '        intent: "\\uFEFF\\x61\\n\\x62"\n'),
    ("\ufeffa\nb", "test_cmd", '        - "\\uFEFF\\x61\\n\\x62"\n'),
    ("\ufeffa\nb", "role", '      role: "\\uFEFF\\x61\\n\\x62"\n'),
    ("\ufeffa\nb", "signal", 'difficulty_signals:\n    ? "\\uFEFF\\x61\\n\\x62"\n    : 1\n'),
    ("a\x00\nb", "task_id", 'task_id: "a\\0\\nb"\n'),
    ("a\x00\nb", "template_id", '    template_id: "a\\0\\nb"\n'),
    ("a\x00\nb", "intent", '        intent: "a\\0\\nb"\n'),
    ("a\x00\nb", "test_cmd", '        - "a\\0\\nb"\n'),
    ("a\x00\nb", "role", '      role: "a\\0\\nb"\n'),
    ("a\x00\nb", "signal", 'difficulty_signals:\n    ? "a\\0\\nb"\n    : 1\n'),
    ("a\n\U0001f600", "task_id", 'task_id: "a\\n\\U0001F600"\n'),
    ("a\n\U0001f600", "template_id", '    template_id: "a\\n\\U0001F600"\n'),
    ("a\n\U0001f600", "intent", '        intent: "a\\n\\U0001F600"\n'),
    ("a\n\U0001f600", "test_cmd", '        - "a\\n\\U0001F600"\n'),
    ("a\n\U0001f600", "role", '      role: "a\\n\\U0001F600"\n'),
    ("a\n\U0001f600", "signal", 'difficulty_signals:\n    ? "a\\n\\U0001F600"\n    : 1\n'),
    ("\u4e2d\u6587\n\u4e2d\u6587", "task_id", "task_id: |-\n    \u4e2d\u6587\n    \u4e2d\u6587\n"),
    (
        "\u4e2d\u6587\n\u4e2d\u6587",
        "template_id",
        ("    template_id: |-\n        \u4e2d\u6587\n        \u4e2d\u6587\n"),
    ),
    (
        "\u4e2d\u6587\n\u4e2d\u6587",
        "intent",
        ("        intent: |-\n            \u4e2d\u6587\n            \u4e2d\u6587\n"),
    ),
    (
        "\u4e2d\u6587\n\u4e2d\u6587",
        "test_cmd",
        ("        - |-\n          \u4e2d\u6587\n          \u4e2d\u6587\n"),
    ),
    (
        "\u4e2d\u6587\n\u4e2d\u6587",
        "role",
        ("      role: |-\n        \u4e2d\u6587\n        \u4e2d\u6587\n"),
    ),
    (
        "\u4e2d\u6587\n\u4e2d\u6587",
        "signal",
        ("difficulty_signals:\n    ? |-\n        \u4e2d\u6587\n        \u4e2d\u6587\n    : 1\n"),
    ),
    ("a\tb", "task_id", 'task_id: "a\\tb"\n'),
    ("a\tb", "template_id", '    template_id: "a\\tb"\n'),
    ("a\tb", "intent", '        intent: "a\\tb"\n'),
    ("a\tb", "test_cmd", '        - "a\\tb"\n'),
    ("a\tb", "role", '      role: "a\\tb"\n'),
    ("a\tb", "signal", 'difficulty_signals:\n    "a\\tb": 1\n'),
    ("\t", "task_id", 'task_id: "\\t"\n'),
    ("\t", "template_id", '    template_id: "\\t"\n'),
    ("\t", "intent", '        intent: "\\t"\n'),
    ("\t", "test_cmd", '        - "\\t"\n'),
    ("\t", "role", '      role: "\\t"\n'),
    ("\t", "signal", 'difficulty_signals:\n    "\\t": 1\n'),
    ("\ta", "task_id", 'task_id: "\\ta"\n'),
    ("\ta", "template_id", '    template_id: "\\ta"\n'),
    ("\ta", "intent", '        intent: "\\ta"\n'),
    ("\ta", "test_cmd", '        - "\\ta"\n'),
    ("\ta", "role", '      role: "\\ta"\n'),
    ("\ta", "signal", 'difficulty_signals:\n    "\\ta": 1\n'),
    ("a\t", "task_id", 'task_id: "a\\t"\n'),
    ("a\t", "template_id", '    template_id: "a\\t"\n'),
    ("a\t", "intent", '        intent: "a\\t"\n'),
    ("a\t", "test_cmd", '        - "a\\t"\n'),
    ("a\t", "role", '      role: "a\\t"\n'),
    ("a\t", "signal", 'difficulty_signals:\n    "a\\t": 1\n'),
    ("a\rb", "task_id", 'task_id: "a\\rb"\n'),
    ("a\rb", "template_id", '    template_id: "a\\rb"\n'),
    ("a\rb", "intent", '        intent: "a\\rb"\n'),
    ("a\rb", "test_cmd", '        - "a\\rb"\n'),
    ("a\rb", "role", '      role: "a\\rb"\n'),
    ("a\rb", "signal", 'difficulty_signals:\n    ? "a\\rb"\n    : 1\n'),
    ("\r", "task_id", 'task_id: "\\r"\n'),
    ("\r", "template_id", '    template_id: "\\r"\n'),
    ("\r", "intent", '        intent: "\\r"\n'),
    ("\r", "test_cmd", '        - "\\r"\n'),
    ("\r", "role", '      role: "\\r"\n'),
    ("\r", "signal", 'difficulty_signals:\n    ? "\\r"\n    : 1\n'),
    ("a\u2028b", "task_id", "task_id: 'a\u2028    b'\n"),
    ("a\u2028b", "template_id", "    template_id: 'a\u2028        b'\n"),
    ("a\u2028b", "intent", "        intent: 'a\u2028            b'\n"),
    ("a\u2028b", "test_cmd", "        - 'a\u2028          b'\n"),
    ("a\u2028b", "role", "      role: 'a\u2028        b'\n"),
    ("a\u2028b", "signal", "difficulty_signals:\n    ? 'a\u2028        b'\n    : 1\n"),
    ("\u2028", "task_id", "task_id: '\u2028'\n"),
    ("\u2028", "template_id", "    template_id: '\u2028'\n"),
    ("\u2028", "intent", "        intent: '\u2028'\n"),
    ("\u2028", "test_cmd", "        - '\u2028'\n"),
    ("\u2028", "role", "      role: '\u2028'\n"),
    ("\u2028", "signal", "difficulty_signals:\n    ? '\u2028'\n    : 1\n"),
    ("a\u2029b", "task_id", "task_id: 'a\u2029    b'\n"),
    ("a\u2029b", "template_id", "    template_id: 'a\u2029        b'\n"),
    ("a\u2029b", "intent", "        intent: 'a\u2029            b'\n"),
    ("a\u2029b", "test_cmd", "        - 'a\u2029          b'\n"),
    ("a\u2029b", "role", "      role: 'a\u2029        b'\n"),
    ("a\u2029b", "signal", "difficulty_signals:\n    ? 'a\u2029        b'\n    : 1\n"),
    ("a\u2028 b", "task_id", 'task_id: "a\\L b"\n'),
    ("a\u2028 b", "template_id", '    template_id: "a\\L b"\n'),
    ("a\u2028 b", "intent", '        intent: "a\\L b"\n'),
    ("a\u2028 b", "test_cmd", '        - "a\\L b"\n'),
    ("a\u2028 b", "role", '      role: "a\\L b"\n'),
    ("a\u2028 b", "signal", 'difficulty_signals:\n    ? "a\\L b"\n    : 1\n'),
    ("a \u2028b", "task_id", 'task_id: "a \\Lb"\n'),
    ("a \u2028b", "template_id", '    template_id: "a \\Lb"\n'),
    ("a \u2028b", "intent", '        intent: "a \\Lb"\n'),
    ("a \u2028b", "test_cmd", '        - "a \\Lb"\n'),
    ("a \u2028b", "role", '      role: "a \\Lb"\n'),
    ("a \u2028b", "signal", 'difficulty_signals:\n    ? "a \\Lb"\n    : 1\n'),
    ("\u2028a", "task_id", "task_id: '\u2028    a'\n"),
    ("\u2028a", "template_id", "    template_id: '\u2028        a'\n"),
    ("\u2028a", "intent", "        intent: '\u2028            a'\n"),
    ("\u2028a", "test_cmd", "        - '\u2028          a'\n"),
    ("\u2028a", "role", "      role: '\u2028        a'\n"),
    ("\u2028a", "signal", "difficulty_signals:\n    ? '\u2028        a'\n    : 1\n"),
    ("a\u2028", "task_id", "task_id: 'a\u2028'\n"),
    ("a\u2028", "template_id", "    template_id: 'a\u2028'\n"),
    ("a\u2028", "intent", "        intent: 'a\u2028'\n"),
    ("a\u2028", "test_cmd", "        - 'a\u2028'\n"),
    ("a\u2028", "role", "      role: 'a\u2028'\n"),
    ("a\u2028", "signal", "difficulty_signals:\n    ? 'a\u2028'\n    : 1\n"),
    ("a\x85b", "task_id", 'task_id: "a\\Nb"\n'),
    ("a\x85b", "template_id", '    template_id: "a\\Nb"\n'),
    ("a\x85b", "intent", '        intent: "a\\Nb"\n'),
    ("a\x85b", "test_cmd", '        - "a\\Nb"\n'),
    ("a\x85b", "role", '      role: "a\\Nb"\n'),
    ("a\x85b", "signal", 'difficulty_signals:\n    ? "a\\Nb"\n    : 1\n'),
    ("\x85", "task_id", 'task_id: "\\N"\n'),
    ("\x85", "template_id", '    template_id: "\\N"\n'),
    ("\x85", "intent", '        intent: "\\N"\n'),
    ("\x85", "test_cmd", '        - "\\N"\n'),
    ("\x85", "role", '      role: "\\N"\n'),
    ("\x85", "signal", 'difficulty_signals:\n    ? "\\N"\n    : 1\n'),
    ("a\xa0b", "task_id", "task_id: a\xa0b\n"),
    ("a\xa0b", "template_id", "    template_id: a\xa0b\n"),
    ("a\xa0b", "intent", "        intent: a\xa0b\n"),
    ("a\xa0b", "test_cmd", "        - a\xa0b\n"),
    ("a\xa0b", "role", "      role: a\xa0b\n"),
    ("a\xa0b", "signal", "difficulty_signals:\n    a\xa0b: 1\n"),
    ("\xa0", "task_id", "task_id: \xa0\n"),
    ("\xa0", "template_id", "    template_id: \xa0\n"),
    ("\xa0", "intent", "        intent: \xa0\n"),
    ("\xa0", "test_cmd", "        - \xa0\n"),
    ("\xa0", "role", "      role: \xa0\n"),
    ("\xa0", "signal", "difficulty_signals:\n    \xa0: 1\n"),
    ("\xa0a", "task_id", "task_id: \xa0a\n"),
    ("\xa0a", "template_id", "    template_id: \xa0a\n"),
    ("\xa0a", "intent", "        intent: \xa0a\n"),
    ("\xa0a", "test_cmd", "        - \xa0a\n"),
    ("\xa0a", "role", "      role: \xa0a\n"),
    ("\xa0a", "signal", "difficulty_signals:\n    \xa0a: 1\n"),
    ("\ufeff", "task_id", 'task_id: "\\uFEFF"\n'),
    ("\ufeff", "template_id", '    template_id: "\\uFEFF"\n'),
    ("\ufeff", "intent", '        intent: "\\uFEFF"\n'),
    ("\ufeff", "test_cmd", '        - "\\uFEFF"\n'),
    ("\ufeff", "role", '      role: "\\uFEFF"\n'),
    ("\ufeff", "signal", 'difficulty_signals:\n    "\\uFEFF": 1\n'),
    ("\ufeffa", "task_id", 'task_id: "\\uFEFF\\x61"\n'),
    ("\ufeffa", "template_id", '    template_id: "\\uFEFF\\x61"\n'),
    ("\ufeffa", "intent", '        intent: "\\uFEFF\\x61"\n'),
    ("\ufeffa", "test_cmd", '        - "\\uFEFF\\x61"\n'),
    ("\ufeffa", "role", '      role: "\\uFEFF\\x61"\n'),
    ("\ufeffa", "signal", 'difficulty_signals:\n    "\\uFEFF\\x61": 1\n'),
    ("a\ufeff", "task_id", 'task_id: "a\\uFEFF"\n'),
    ("a\ufeff", "template_id", '    template_id: "a\\uFEFF"\n'),
    ("a\ufeff", "intent", '        intent: "a\\uFEFF"\n'),
    ("a\ufeff", "test_cmd", '        - "a\\uFEFF"\n'),
    ("a\ufeff", "role", '      role: "a\\uFEFF"\n'),
    ("a\ufeff", "signal", 'difficulty_signals:\n    "a\\uFEFF": 1\n'),
    ("\ufeffa b\n\t\xa0", "task_id", 'task_id: "\\uFEFF\\x61\\x20\\x62\\n\\t\\_"\n'),
    ("\ufeffa b\n\t\xa0", "template_id", '    template_id: "\\uFEFF\\x61\\x20\\x62\\n\\t\\_"\n'),
    ("\ufeffa b\n\t\xa0", "intent", '        intent: "\\uFEFF\\x61\\x20\\x62\\n\\t\\_"\n'),
    ("\ufeffa b\n\t\xa0", "test_cmd", '        - "\\uFEFF\\x61\\x20\\x62\\n\\t\\_"\n'),
    ("\ufeffa b\n\t\xa0", "role", '      role: "\\uFEFF\\x61\\x20\\x62\\n\\t\\_"\n'),
    (
        "\ufeffa b\n\t\xa0",
        "signal",
        ('difficulty_signals:\n    ? "\\uFEFF\\x61\\x20\\x62\\n\\t\\_"\n    : 1\n'),
    ),
    ("\x00", "task_id", 'task_id: "\\0"\n'),
    ("\x00", "template_id", '    template_id: "\\0"\n'),
    ("\x00", "intent", '        intent: "\\0"\n'),
    ("\x00", "test_cmd", '        - "\\0"\n'),
    ("\x00", "role", '      role: "\\0"\n'),
    ("\x00", "signal", 'difficulty_signals:\n    "\\0": 1\n'),
    ("\x01", "task_id", 'task_id: "\\x01"\n'),
    ("\x01", "template_id", '    template_id: "\\x01"\n'),
    ("\x01", "intent", '        intent: "\\x01"\n'),
    ("\x01", "test_cmd", '        - "\\x01"\n'),
    ("\x01", "role", '      role: "\\x01"\n'),
    ("\x01", "signal", 'difficulty_signals:\n    "\\x01": 1\n'),
    ("\x07", "task_id", 'task_id: "\\a"\n'),
    ("\x07", "template_id", '    template_id: "\\a"\n'),
    ("\x07", "intent", '        intent: "\\a"\n'),
    ("\x07", "test_cmd", '        - "\\a"\n'),
    ("\x07", "role", '      role: "\\a"\n'),
    ("\x07", "signal", 'difficulty_signals:\n    "\\a": 1\n'),
    ("\x08", "task_id", 'task_id: "\\b"\n'),
    ("\x08", "template_id", '    template_id: "\\b"\n'),
    ("\x08", "intent", '        intent: "\\b"\n'),
    ("\x08", "test_cmd", '        - "\\b"\n'),
    ("\x08", "role", '      role: "\\b"\n'),
    ("\x08", "signal", 'difficulty_signals:\n    "\\b": 1\n'),
    ("\x0b", "task_id", 'task_id: "\\v"\n'),
    ("\x0b", "template_id", '    template_id: "\\v"\n'),
    ("\x0b", "intent", '        intent: "\\v"\n'),
    ("\x0b", "test_cmd", '        - "\\v"\n'),
    ("\x0b", "role", '      role: "\\v"\n'),
    ("\x0b", "signal", 'difficulty_signals:\n    "\\v": 1\n'),
    ("\x0c", "task_id", 'task_id: "\\f"\n'),
    ("\x0c", "template_id", '    template_id: "\\f"\n'),
    ("\x0c", "intent", '        intent: "\\f"\n'),
    ("\x0c", "test_cmd", '        - "\\f"\n'),
    ("\x0c", "role", '      role: "\\f"\n'),
    ("\x0c", "signal", 'difficulty_signals:\n    "\\f": 1\n'),
    ("\x1b", "task_id", 'task_id: "\\e"\n'),
    ("\x1b", "template_id", '    template_id: "\\e"\n'),
    ("\x1b", "intent", '        intent: "\\e"\n'),
    ("\x1b", "test_cmd", '        - "\\e"\n'),
    ("\x1b", "role", '      role: "\\e"\n'),
    ("\x1b", "signal", 'difficulty_signals:\n    "\\e": 1\n'),
    ("\x1f", "task_id", 'task_id: "\\x1F"\n'),
    ("\x1f", "template_id", '    template_id: "\\x1F"\n'),
    ("\x1f", "intent", '        intent: "\\x1F"\n'),
    ("\x1f", "test_cmd", '        - "\\x1F"\n'),
    ("\x1f", "role", '      role: "\\x1F"\n'),
    ("\x1f", "signal", 'difficulty_signals:\n    "\\x1F": 1\n'),
    ("\x7f", "task_id", 'task_id: "\\x7F"\n'),
    ("\x7f", "template_id", '    template_id: "\\x7F"\n'),
    ("\x7f", "intent", '        intent: "\\x7F"\n'),
    ("\x7f", "test_cmd", '        - "\\x7F"\n'),
    ("\x7f", "role", '      role: "\\x7F"\n'),
    ("\x7f", "signal", 'difficulty_signals:\n    "\\x7F": 1\n'),
    ("\x80", "task_id", 'task_id: "\\x80"\n'),
    ("\x80", "template_id", '    template_id: "\\x80"\n'),
    ("\x80", "intent", '        intent: "\\x80"\n'),
    ("\x80", "test_cmd", '        - "\\x80"\n'),
    ("\x80", "role", '      role: "\\x80"\n'),
    ("\x80", "signal", 'difficulty_signals:\n    "\\x80": 1\n'),
    ("\x9f", "task_id", 'task_id: "\\x9F"\n'),
    ("\x9f", "template_id", '    template_id: "\\x9F"\n'),
    ("\x9f", "intent", '        intent: "\\x9F"\n'),
    ("\x9f", "test_cmd", '        - "\\x9F"\n'),
    ("\x9f", "role", '      role: "\\x9F"\n'),
    ("\x9f", "signal", 'difficulty_signals:\n    "\\x9F": 1\n'),
    ("\ud7ff", "task_id", "task_id: \ud7ff\n"),
    ("\ud7ff", "template_id", "    template_id: \ud7ff\n"),
    ("\ud7ff", "intent", "        intent: \ud7ff\n"),
    ("\ud7ff", "test_cmd", "        - \ud7ff\n"),
    ("\ud7ff", "role", "      role: \ud7ff\n"),
    ("\ud7ff", "signal", "difficulty_signals:\n    \ud7ff: 1\n"),
    ("\ue000", "task_id", "task_id: \ue000\n"),
    ("\ue000", "template_id", "    template_id: \ue000\n"),
    ("\ue000", "intent", "        intent: \ue000\n"),
    ("\ue000", "test_cmd", "        - \ue000\n"),
    ("\ue000", "role", "      role: \ue000\n"),
    ("\ue000", "signal", "difficulty_signals:\n    \ue000: 1\n"),
    ("\ufffd", "task_id", "task_id: \ufffd\n"),
    ("\ufffd", "template_id", "    template_id: \ufffd\n"),
    ("\ufffd", "intent", "        intent: \ufffd\n"),
    ("\ufffd", "test_cmd", "        - \ufffd\n"),
    ("\ufffd", "role", "      role: \ufffd\n"),
    ("\ufffd", "signal", "difficulty_signals:\n    \ufffd: 1\n"),
    ("\ufffe", "task_id", 'task_id: "\\uFFFE"\n'),
    ("\ufffe", "template_id", '    template_id: "\\uFFFE"\n'),
    ("\ufffe", "intent", '        intent: "\\uFFFE"\n'),
    ("\ufffe", "test_cmd", '        - "\\uFFFE"\n'),
    ("\ufffe", "role", '      role: "\\uFFFE"\n'),
    ("\ufffe", "signal", 'difficulty_signals:\n    "\\uFFFE": 1\n'),
    ("\uffff", "task_id", 'task_id: "\\uFFFF"\n'),
    ("\uffff", "template_id", '    template_id: "\\uFFFF"\n'),
    ("\uffff", "intent", '        intent: "\\uFFFF"\n'),
    ("\uffff", "test_cmd", '        - "\\uFFFF"\n'),
    ("\uffff", "role", '      role: "\\uFFFF"\n'),
    ("\uffff", "signal", 'difficulty_signals:\n    "\\uFFFF": 1\n'),
    ("\U0001f600", "task_id", 'task_id: "\\U0001F600"\n'),
    ("\U0001f600", "template_id", '    template_id: "\\U0001F600"\n'),
    ("\U0001f600", "intent", '        intent: "\\U0001F600"\n'),
    ("\U0001f600", "test_cmd", '        - "\\U0001F600"\n'),
    ("\U0001f600", "role", '      role: "\\U0001F600"\n'),
    ("\U0001f600", "signal", 'difficulty_signals:\n    "\\U0001F600": 1\n'),
    ("a\U0001f600b", "task_id", 'task_id: "a\\U0001F600b"\n'),
    ("a\U0001f600b", "template_id", '    template_id: "a\\U0001F600b"\n'),
    ("a\U0001f600b", "intent", '        intent: "a\\U0001F600b"\n'),
    ("a\U0001f600b", "test_cmd", '        - "a\\U0001F600b"\n'),
    ("a\U0001f600b", "role", '      role: "a\\U0001F600b"\n'),
    ("a\U0001f600b", "signal", 'difficulty_signals:\n    "a\\U0001F600b": 1\n'),
    ("\U00010000", "task_id", 'task_id: "\\U00010000"\n'),
    ("\U00010000", "template_id", '    template_id: "\\U00010000"\n'),
    ("\U00010000", "intent", '        intent: "\\U00010000"\n'),
    ("\U00010000", "test_cmd", '        - "\\U00010000"\n'),
    ("\U00010000", "role", '      role: "\\U00010000"\n'),
    ("\U00010000", "signal", 'difficulty_signals:\n    "\\U00010000": 1\n'),
    ("\U0010ffff", "task_id", 'task_id: "\\U0010FFFF"\n'),
    ("\U0010ffff", "template_id", '    template_id: "\\U0010FFFF"\n'),
    ("\U0010ffff", "intent", '        intent: "\\U0010FFFF"\n'),
    ("\U0010ffff", "test_cmd", '        - "\\U0010FFFF"\n'),
    ("\U0010ffff", "role", '      role: "\\U0010FFFF"\n'),
    ("\U0010ffff", "signal", 'difficulty_signals:\n    "\\U0010FFFF": 1\n'),
    ("\u4e2d\u6587", "task_id", "task_id: \u4e2d\u6587\n"),
    ("\u4e2d\u6587", "template_id", "    template_id: \u4e2d\u6587\n"),
    ("\u4e2d\u6587", "intent", "        intent: \u4e2d\u6587\n"),
    ("\u4e2d\u6587", "test_cmd", "        - \u4e2d\u6587\n"),
    ("\u4e2d\u6587", "role", "      role: \u4e2d\u6587\n"),
    ("\u4e2d\u6587", "signal", "difficulty_signals:\n    \u4e2d\u6587: 1\n"),
    (
        "\u65e5\u672c\u8a9e \u30c6\u30ad\u30b9\u30c8",
        "task_id",
        "task_id: \u65e5\u672c\u8a9e \u30c6\u30ad\u30b9\u30c8\n",
    ),
    (
        "\u65e5\u672c\u8a9e \u30c6\u30ad\u30b9\u30c8",
        "template_id",
        ("    template_id: \u65e5\u672c\u8a9e \u30c6\u30ad\u30b9\u30c8\n"),
    ),
    (
        "\u65e5\u672c\u8a9e \u30c6\u30ad\u30b9\u30c8",
        "intent",
        ("        intent: \u65e5\u672c\u8a9e \u30c6\u30ad\u30b9\u30c8\n"),
    ),
    (
        "\u65e5\u672c\u8a9e \u30c6\u30ad\u30b9\u30c8",
        "test_cmd",
        "        - \u65e5\u672c\u8a9e \u30c6\u30ad\u30b9\u30c8\n",
    ),
    (
        "\u65e5\u672c\u8a9e \u30c6\u30ad\u30b9\u30c8",
        "role",
        "      role: \u65e5\u672c\u8a9e \u30c6\u30ad\u30b9\u30c8\n",
    ),
    (
        "\u65e5\u672c\u8a9e \u30c6\u30ad\u30b9\u30c8",
        "signal",
        ("difficulty_signals:\n    \u65e5\u672c\u8a9e \u30c6\u30ad\u30b9\u30c8: 1\n"),
    ),
    ("\xe9", "task_id", "task_id: \xe9\n"),
    ("\xe9", "template_id", "    template_id: \xe9\n"),
    ("\xe9", "intent", "        intent: \xe9\n"),
    ("\xe9", "test_cmd", "        - \xe9\n"),
    ("\xe9", "role", "      role: \xe9\n"),
    ("\xe9", "signal", "difficulty_signals:\n    \xe9: 1\n"),
    ("e\u0301", "task_id", "task_id: e\u0301\n"),
    ("e\u0301", "template_id", "    template_id: e\u0301\n"),
    ("e\u0301", "intent", "        intent: e\u0301\n"),
    ("e\u0301", "test_cmd", "        - e\u0301\n"),
    ("e\u0301", "role", "      role: e\u0301\n"),
    ("e\u0301", "signal", "difficulty_signals:\n    e\u0301: 1\n"),
    ("\u200b", "task_id", "task_id: \u200b\n"),
    ("\u200b", "template_id", "    template_id: \u200b\n"),
    ("\u200b", "intent", "        intent: \u200b\n"),
    ("\u200b", "test_cmd", "        - \u200b\n"),
    ("\u200b", "role", "      role: \u200b\n"),
    ("\u200b", "signal", "difficulty_signals:\n    \u200b: 1\n"),
    ("\u3000", "task_id", "task_id: \u3000\n"),
    ("\u3000", "template_id", "    template_id: \u3000\n"),
    ("\u3000", "intent", "        intent: \u3000\n"),
    ("\u3000", "test_cmd", "        - \u3000\n"),
    ("\u3000", "role", "      role: \u3000\n"),
    ("\u3000", "signal", "difficulty_signals:\n    \u3000: 1\n"),
    ("a\u3000", "task_id", "task_id: a\u3000\n"),
    ("a\u3000", "template_id", "    template_id: a\u3000\n"),
    ("a\u3000", "intent", "        intent: a\u3000\n"),
    ("a\u3000", "test_cmd", "        - a\u3000\n"),
    ("a\u3000", "role", "      role: a\u3000\n"),
    ("a\u3000", "signal", "difficulty_signals:\n    a\u3000: 1\n"),
    ("-\u3000", "task_id", "task_id: -\u3000\n"),
    ("-\u3000", "template_id", "    template_id: -\u3000\n"),
    ("-\u3000", "intent", "        intent: -\u3000\n"),
    ("-\u3000", "test_cmd", "        - -\u3000\n"),
    ("-\u3000", "role", "      role: -\u3000\n"),
    ("-\u3000", "signal", "difficulty_signals:\n    -\u3000: 1\n"),
    ('a"b', "template_id", '    template_id: a"b\n'),
    ('a"b', "intent", '        intent: a"b\n'),
    ('a"b', "test_cmd", '        - a"b\n'),
    ('a"b', "role", '      role: a"b\n'),
    ('a"b', "signal", 'difficulty_signals:\n    a"b: 1\n'),
    ('"a"', "task_id", "task_id: '\"a\"'\n"),
    ('"a"', "template_id", "    template_id: '\"a\"'\n"),
    ('"a"', "intent", "        intent: '\"a\"'\n"),
    ('"a"', "test_cmd", "        - '\"a\"'\n"),
    ('"a"', "role", "      role: '\"a\"'\n"),
    ('"a"', "signal", "difficulty_signals:\n    '\"a\"': 1\n"),
    ("a\\b", "task_id", "task_id: a\\b\n"),
    ("a\\b", "template_id", "    template_id: a\\b\n"),
    ("a\\b", "intent", "        intent: a\\b\n"),
    ("a\\b", "test_cmd", "        - a\\b\n"),
    ("a\\b", "role", "      role: a\\b\n"),
    ("a\\b", "signal", "difficulty_signals:\n    a\\b: 1\n"),
    (
        (
            "word word word word word word word word word word word wor"
            "d word word word word word word word word word word word w"
            "ord word word word word word word word word word word word"
            " word word word word word end"
        ),
        "task_id",
        (
            "task_id: word word word word word word word word word word"
            " word word word word word word word word word word word wo"
            "rd word word word word word word word word word word word "
            "word word word word word word word end\n"
        ),
    ),
    (
        (
            "word word word word word word word word word word word wor"
            "d word word word word word word word word word word word w"
            "ord word word word word word word word word word word word"
            " word word word word word end"
        ),
        "test_cmd",
        (
            "        - word word word word word word word word word wor"
            "d word word word word word word word word word word word w"
            "ord word word word word word word word word word word word"
            " word word word word word word word end\n"
        ),
    ),
    (
        (
            "word word word word word word word word word word word wor"
            "d word word word word word word word word word word word w"
            "ord word word word word word word word word word word word"
            " word word word word word end"
        ),
        "signal",
        (
            "difficulty_signals:\n    ? word word word word word word w"
            "ord word word word word word word word word word word word"
            " word word word word word word word word word word word wo"
            "rd word word word word word word word word word word end\n"
            "    : 1\n"
        ),
    ),
    (
        (
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxx"
        ),
        "task_id",
        (
            "task_id: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxx\n"
        ),
    ),
    (
        (
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxx"
        ),
        "test_cmd",
        (
            "        - xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxx\n"
        ),
    ),
    (
        (
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxx"
        ),
        "signal",
        (
            "difficulty_signals:\n    ? xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n    : 1\n"
        ),
    ),
    (
        (
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaa"
        ),
        "task_id",
        (
            "task_id: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaaaaaaaaaa\n"
        ),
    ),
    (
        (
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaa"
        ),
        "test_cmd",
        (
            "        - aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaaaaaaaaaaa\n"
        ),
    ),
    (
        (
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaa"
        ),
        "signal",
        (
            "difficulty_signals:\n    aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: 1\n"
        ),
    ),
    (
        (
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaa"
        ),
        "task_id",
        (
            "task_id: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaaaaaaaaaaa\n"
        ),
    ),
    (
        (
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaa"
        ),
        "test_cmd",
        (
            "        - aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaaaaaaaaaaaa\n"
        ),
    ),
    (
        (
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaa"
        ),
        "signal",
        (
            "difficulty_signals:\n    ? aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n    : 1\n"
        ),
    ),
    (
        (
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
        ),
        "task_id",
        (
            "task_id: \xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\n"
        ),
    ),
    (
        (
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
        ),
        "test_cmd",
        (
            "        - \xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\n"
        ),
    ),
    (
        (
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
        ),
        "signal",
        (
            "difficulty_signals:\n    \xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9: "
            "1\n"
        ),
    ),
    (
        (
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
        ),
        "task_id",
        (
            "task_id: \xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\n"
        ),
    ),
    (
        (
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
        ),
        "test_cmd",
        (
            "        - \xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\n"
        ),
    ),
    (
        (
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
        ),
        "signal",
        (
            "difficulty_signals:\n    ? \xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9\xe9"
            "\xe9\xe9\n    : 1\n"
        ),
    ),
    (
        (
            "word word word word word word word word word word word wor"
            "d word word word word word word word word word word word w"
            "ord word word word word word word word word word word word"
            " word word word word word end\nxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
        ),
        "task_id",
        (
            "task_id: |-\n    word word word word word word word word w"
            "ord word word word word word word word word word word word"
            " word word word word word word word word word word word wo"
            "rd word word word word word word word word end\n    xxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxx\n"
        ),
    ),
    (
        (
            "word word word word word word word word word word word wor"
            "d word word word word word word word word word word word w"
            "ord word word word word word word word word word word word"
            " word word word word word end\nxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
        ),
        "test_cmd",
        (
            "        - |-\n          word word word word word word word"
            " word word word word word word word word word word word wo"
            "rd word word word word word word word word word word word "
            "word word word word word word word word word word end\n   "
            "       xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxx\n"
        ),
    ),
    (
        (
            "word word word word word word word word word word word wor"
            "d word word word word word word word word word word word w"
            "ord word word word word word word word word word word word"
            " word word word word word end\nxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
        ),
        "signal",
        (
            "difficulty_signals:\n    ? |-\n        word word word word"
            " word word word word word word word word word word word wo"
            "rd word word word word word word word word word word word "
            "word word word word word word word word word word word wor"
            "d word end\n        xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n    : 1\n"
        ),
    ),
]

FIXED: Final[list[tuple[str, str, str, str]]] = [
    (
        "<<",
        "signal",
        'difficulty_signals:\n    "<<": 1\n',
        "difficulty_signals:\n    <<: 1\n",
    ),
    (
        "\na",
        "test_cmd",
        "        - |2-\n\n          a\n",
        "        - |4-\n\n          a\n",
    ),
    (
        "\na",
        "role",
        "      role: |2-\n\n        a\n",
        "      role: |4-\n\n        a\n",
    ),
    (
        "\n\na",
        "test_cmd",
        "        - |2-\n\n\n          a\n",
        "        - |4-\n\n\n          a\n",
    ),
    (
        "\n\na",
        "role",
        "      role: |2-\n\n\n        a\n",
        "      role: |4-\n\n\n        a\n",
    ),
    (
        " a\nb",
        "test_cmd",
        "        - |2-\n           a\n          b\n",
        "        - |4-\n           a\n          b\n",
    ),
    (
        " a\nb",
        "role",
        "      role: |2-\n         a\n        b\n",
        "      role: |4-\n         a\n        b\n",
    ),
    (
        "\ta\nb",
        "task_id",
        "task_id: |4-\n    \ta\n    b\n",
        "task_id: |-\n    \ta\n    b\n",
    ),
    (
        "\ta\nb",
        "template_id",
        "    template_id: |4-\n        \ta\n        b\n",
        "    template_id: |-\n        \ta\n        b\n",
    ),
    (
        "\ta\nb",
        "intent",
        "        intent: |4-\n            \ta\n            b\n",
        "        intent: |-\n            \ta\n            b\n",
    ),
    (
        "\ta\nb",
        "test_cmd",
        "        - |2-\n          \ta\n          b\n",
        "        - |-\n          \ta\n          b\n",
    ),
    (
        "\ta\nb",
        "role",
        "      role: |2-\n        \ta\n        b\n",
        "      role: |-\n        \ta\n        b\n",
    ),
    (
        "\ta\nb",
        "signal",
        ("difficulty_signals:\n    ? |4-\n        \ta\n        b\n    : 1\n"),
        ("difficulty_signals:\n    ? |-\n        \ta\n        b\n    : 1\n"),
    ),
    (
        "\n a",
        "test_cmd",
        "        - |2-\n\n           a\n",
        "        - |4-\n\n           a\n",
    ),
    (
        "\n a",
        "role",
        "      role: |2-\n\n         a\n",
        "      role: |4-\n\n         a\n",
    ),
    (
        "\u2028a\nb",
        "test_cmd",
        "        - |2-\n\u2028          a\n          b\n",
        "        - |4-\n\u2028          a\n          b\n",
    ),
    (
        "\u2028a\nb",
        "role",
        "      role: |2-\n\u2028        a\n        b\n",
        "      role: |4-\n\u2028        a\n        b\n",
    ),
]


@pytest.mark.parametrize(("text", "position", "fragment"), SCALARS)
def test_scalar_is_written_as_yaml_v3_writes_it(text: str, position: str, fragment: str) -> None:
    spec, expected = doc_with(text, position)
    assert _emit.marshal(spec).decode() == expected(fragment)


@pytest.mark.parametrize(("text", "position", "ours", "go"), FIXED)
def test_round_trip_fix_differs_from_go_and_reads_back(
    text: str, position: str, ours: str, go: str
) -> None:
    spec, expected = doc_with(text, position)
    written = _emit.marshal(spec).decode()
    assert written == expected(ours)
    assert ours != go
    assert read_back(written, position) == text


def _fix_kind(text: str, position: str, ours: str) -> str:
    if text == "<<":
        return "merge-key"
    if text.startswith("\t"):
        return "tab-first-literal"
    assert "|2" in ours, ours
    return "indicator-in-sequence-item" if position == "test_cmd" else "indicator-in-item-mapping"


def test_every_fix_is_a_listed_deviation() -> None:
    kinds = {_fix_kind(text, position, ours) for text, position, ours, _ in FIXED}
    assert kinds == set(_emit.ROUND_TRIP_FIXES)


def test_round_trip_fixes_read_back_in_yaml_v3(go: GoConsumer) -> None:
    """Go's own decoder reads the fixed bytes back, and not Go's bytes."""
    for text, position, ours, go_bytes in FIXED:
        _, expected = doc_with(text, position)
        mine = go.decode(expected(ours).encode())
        assert mine["ok"], (text, position, mine)
        theirs = go.decode(expected(go_bytes).encode())
        assert not theirs["ok"], (text, position)


# --- map keys --------------------------------------------------------------------

#: yaml.v3's order for string map keys, recorded from Go (each set ordered the
#: same way in 400 runs with Go's randomized map iteration).
KEY_ORDERS: Final[list[list[str]]] = [
    ["a9", "a10", "b"],
    ["1", "9", "10", "100"],
    ["a1", "a01", "a001", "a2"],
    ["cyclomatic_proxy", "kg_edges", "kg_nodes"],
    ["cyclomatic_complexity", "edge_count", "involved_symbols"],
    ["-", ".", "_a", "1", "A", "a"],
    ["1", "1a", "1_", "10"],
    ["a", "a-", "a.", "a_", "a0", "aA", "aa"],
    ["x1y2", "x1y10", "x2y1", "x10y1"],
    ["_", "~", "A", "B", "Z", "a", "b", "z"],
    ["E", "e", "f", "\xc9", "\xe9"],
    ["node_count", "node_count_2", "node_count_10", "node_count2"],
    ["v1.2.3", "v1.9", "v1.10", "v10"],
    ["0", "00", "000", "1", "01"],
    ["a0b", "a00b", "a1b", "a01b"],
    ["", " ", "!", "a"],
    ["k 1", "k-1", "k.1", "k_1", "k1"],
    ["1hop_nodes", "2hop_nodes", "10hop_nodes", "hop_nodes"],
    ["1", "\u0661", "a", "\u4e2d"],
    ["x", "x\xb2", "x2", "x3"],
    ["E1", "e2", "\xe9", "\xe99", "\xe910"],
    ["_1", "1_", "A9", "A10", "a9", "a10"],
    ["k_", "k\xb2", "k2", "k10", "ka"],
    ["step_1_of_10", "step_01_of_10", "step_9_of_10", "step_10_of_10"],
    ["x1A", "x1a", "x1-2", "x1.5", "x1.10"],
]


@pytest.mark.parametrize("order", KEY_ORDERS, ids=lambda o: ",".join(map(ascii, o)))
def test_signal_keys_follow_yaml_v3_order(order: list[str]) -> None:
    for shuffled in (order[::-1], sorted(order), random.Random(7).sample(order, len(order))):
        assert _emit.sort_map_keys(shuffled) == order
        spec = base_spec()
        for i, key in enumerate(shuffled):
            spec.difficulty_signals[key] = i
        written = yaml.safe_load(_emit.marshal(spec))["difficulty_signals"]
        assert list(written) == order


def test_key_order_differs_from_byte_order() -> None:
    # SignalKeys() in Go is byte order; the YAML is not.
    assert sorted(["a9", "a10"]) == ["a10", "a9"]
    assert _emit.sort_map_keys(["a10", "a9"]) == ["a9", "a10"]


def test_cyclic_key_sets_are_written_deterministically() -> None:
    # yaml.v3's comparison overflows int64 on long digit runs and so can be
    # cyclic; Go's order then varies run to run. Ours must not.
    keys = ["9223372036854775808", "1ze3", "92\U0001e4d0"]
    less = _emit._key_less
    assert less(keys[0], keys[1]) and less(keys[1], keys[2]) and less(keys[2], keys[0])
    orders = {tuple(_emit.sort_map_keys(p)) for p in (keys, keys[::-1], keys[1:] + keys[:1])}
    assert len(orders) == 1


# --- fields, omitempty and empty collections -------------------------------------


def test_zero_spec_writes_required_fields_only() -> None:
    assert _emit.marshal(pb.TaskSpec()) == (
        b'task_spec_version: 0\ntask_id: ""\nlanguage: ""\ndifficulty: ""\n'
        b'generated_from:\n    kind: ""\nprompt: ""\nverification:\n    test_cmd: []\n'
    )


def test_kg_query_set_but_empty_is_braces() -> None:
    spec = pb.TaskSpec()
    spec.generated_from.kind = pb.GENERATED_KIND_KG_TEMPLATE
    spec.generated_from.kg_query.SetInParent()
    written = _emit.marshal(spec)
    assert b"generated_from:\n    kind: kg_template\n    kg_query: {}\nprompt" in written


def test_kg_query_unset_is_omitted_and_one_field_is_kept() -> None:
    spec = pb.TaskSpec()
    assert b"kg_query" not in _emit.marshal(spec)
    spec.generated_from.kg_query.seed_symbol = "s"
    assert b"    kg_query:\n        seed_symbol: s\nprompt" in _emit.marshal(spec)


def test_int64_extremes_and_omitted_zero() -> None:
    spec = pb.TaskSpec(task_spec_version=-(2**63))
    spec.difficulty_signals.update({"max": 2**63 - 1, "min": -(2**63), "zero": 0})
    spec.verification.test_cmd.append("t")
    spec.verification.timeout_seconds = 2**63 - 1
    assert _emit.marshal(spec) == (
        b'task_spec_version: -9223372036854775808\ntask_id: ""\nlanguage: ""\ndifficulty: ""\n'
        b"difficulty_signals:\n    max: 9223372036854775807\n    min: -9223372036854775808\n"
        b'    zero: 0\ngenerated_from:\n    kind: ""\nprompt: ""\nverification:\n'
        b"    test_cmd:\n        - t\n    timeout_seconds: 9223372036854775807\n"
    )
    spec.verification.timeout_seconds = 0
    assert b"timeout_seconds" not in _emit.marshal(spec)
    spec.verification.timeout_seconds = -1
    assert _emit.marshal(spec).endswith(b"    timeout_seconds: -1\n")


def test_artifacts_keep_empty_path_and_drop_empty_role() -> None:
    spec = pb.TaskSpec()
    spec.solution_artifacts.add(path="", role="")
    spec.solution_artifacts.add(path="", role="r")
    assert b'solution_artifacts:\n    - path: ""\n    - path: ""\n      role: r\n' in (
        _emit.marshal(spec)
    )


def test_build_cmd_omitted_when_empty_and_test_cmd_never() -> None:
    spec = pb.TaskSpec()
    spec.verification.build_cmd.append("make")
    assert _emit.marshal(spec).endswith(
        b"verification:\n    build_cmd:\n        - make\n    test_cmd: []\n"
    )


def test_unspecified_enums_are_empty_strings() -> None:
    written = _emit.marshal(pb.TaskSpec())
    assert b'language: ""\ndifficulty: ""\n' in written
    assert b'    kind: ""\n' in written


@pytest.mark.parametrize(
    ("mutate", "path"),
    [
        (lambda s: setattr(s, "language", 77), "language"),
        (lambda s: setattr(s, "difficulty", -1), "difficulty"),
        (lambda s: setattr(s.generated_from, "kind", 3), "generated_from.kind"),
    ],
)
def test_unknown_enum_number_is_an_error_naming_the_field(
    mutate: Callable[[pb.TaskSpec], None], path: str
) -> None:
    spec = base_spec()
    mutate(spec)
    with pytest.raises(TaskSpecError) as err:
        _emit.marshal(spec)
    assert err.value.field_path == path
    assert path in str(err.value)


def test_output_is_utf8_bytes_with_raw_bmp_text() -> None:
    spec = base_spec()
    spec.task_id = "\u4e2d\u6587 \xe9"
    written = _emit.marshal(spec)
    assert isinstance(written, bytes)
    assert "task_id: \u4e2d\u6587 \xe9\n".encode() in written


# --- differential check against Go (skipped without Go) ----------------------------


def _random_text(rng: random.Random) -> str:
    atoms = [*"ab09 -?:#'\"\t\n", "\r\n", "\u2028", "\x85", "\xa0", "\ufeff", "\x00", "\U0001f600"]
    atoms += ["yes", "null", "0x1F", "1e3", "2001-12-14", "1:20", "<<", "- ", ": ", " #", "---"]
    return "".join(rng.choice(atoms) for _ in range(rng.randint(0, 8)))


def test_random_specs_match_go(go: GoConsumer) -> None:
    """A fixed-seed sample of the differential fuzzing this writer was built with."""
    rng = random.Random(20260629)
    specs = []
    for _ in range(300):
        spec = base_spec()
        for position in POSITIONS:
            if rng.random() < 0.5:
                POSITIONS[position][0](spec, _random_text(rng))
        specs.append(spec)
    results = go.batch([{"op": "marshal", "spec": spec_to_json(s)} for s in specs])
    for spec, res in zip(specs, results, strict=True):
        assert res["ok"], res
        if res["roundtrip_ok"]:
            assert _emit.marshal(spec) == res["yaml"]
        else:  # yaml.v3 cannot read its own bytes: we must differ, and be readable
            ours = _emit.marshal(spec)
            assert ours != res["yaml"]
            assert go.decode(ours)["ok"]


# --- resolve -------------------------------------------------------------------------

#: (text, tag, value, needs_quotes) from yaml.v3's resolve("", text) and its
#: encoder's quoting test. Floats are Python floats (or "inf"/"-inf"/"nan").
#: "<<" is the one deliberate difference: see test_merge_key_resolution.
RESOLVE: Final[list[tuple[str, str, object, bool]]] = [
    ("", "!!null", None, True),
    ("~", "!!null", None, True),
    ("null", "!!null", None, True),
    ("Null", "!!null", None, True),
    ("NULL", "!!null", None, True),
    ("nULL", "!!str", "nULL", False),
    ("true", "!!bool", True, True),
    ("True", "!!bool", True, True),
    ("TRUE", "!!bool", True, True),
    ("tRUE", "!!str", "tRUE", False),
    ("false", "!!bool", False, True),
    ("False", "!!bool", False, True),
    ("FALSE", "!!bool", False, True),
    ("yes", "!!str", "yes", True),
    ("Yes", "!!str", "Yes", True),
    ("y", "!!str", "y", True),
    ("n", "!!str", "n", True),
    ("no", "!!str", "no", True),
    ("on", "!!str", "on", True),
    ("off", "!!str", "off", True),
    ("OFF", "!!str", "OFF", True),
    ("0", "!!int", 0, True),
    ("-0", "!!int", 0, True),
    ("+0", "!!int", 0, True),
    ("12", "!!int", 12, True),
    ("+12", "!!int", 12, True),
    ("-12", "!!int", -12, True),
    ("1_000", "!!int", 1000, True),
    ("_1", "!!str", "_1", False),
    ("1_", "!!int", 1, True),
    ("0x1F", "!!int", 31, True),
    ("0X1f", "!!int", 31, True),
    ("-0x1F", "!!int", -31, True),
    ("+0x1F", "!!int", 31, True),
    ("0x", "!!str", "0x", False),
    ("0xG", "!!str", "0xG", False),
    ("0o17", "!!int", 15, True),
    ("0O17", "!!int", 15, True),
    ("-0o17", "!!int", -15, True),
    ("0o8", "!!str", "0o8", False),
    ("017", "!!int", 15, True),
    ("08", "!!float", 8.0, True),
    ("09.5", "!!float", 9.5, True),
    ("0b101", "!!int", 5, True),
    ("0B101", "!!int", 5, True),
    ("-0b101", "!!int", -5, True),
    ("0b", "!!str", "0b", False),
    ("0b2", "!!str", "0b2", False),
    ("0b-1", "!!int", -1, True),
    ("0b+1", "!!int", 1, True),
    ("-0b-1", "!!str", "-0b-1", False),
    ("0o-7", "!!int", -7, True),
    ("0o+7", "!!int", 7, True),
    ("9223372036854775807", "!!int", 9223372036854775807, True),
    ("9223372036854775808", "!!int", 9223372036854775808, True),
    ("-9223372036854775808", "!!int", -9223372036854775808, True),
    ("-9223372036854775809", "!!float", -9.223372036854776e18, True),
    ("18446744073709551615", "!!int", 18446744073709551615, True),
    ("18446744073709551616", "!!float", 1.8446744073709552e19, True),
    ("0xFFFFFFFFFFFFFFFF", "!!int", 18446744073709551615, True),
    ("0x10000000000000000", "!!str", "0x10000000000000000", False),
    (
        "0b1111111111111111111111111111111111111111111111111111111111111111",
        "!!int",
        18446744073709551615,
        True,
    ),
    (
        "0b11111111111111111111111111111111111111111111111111111111111111111",
        "!!str",
        "0b11111111111111111111111111111111111111111111111111111111111111111",
        False,
    ),
    ("0o1777777777777777777777", "!!int", 18446744073709551615, True),
    ("01777777777777777777777", "!!int", 18446744073709551615, True),
    ("0o2000000000000000000000", "!!str", "0o2000000000000000000000", False),
    ("1e3", "!!float", 1000.0, True),
    ("1E3", "!!float", 1000.0, True),
    ("1e+3", "!!float", 1000.0, True),
    ("1e-3", "!!float", 0.001, True),
    ("1.5", "!!float", 1.5, True),
    ("1.", "!!float", 1.0, True),
    (".5", "!!float", 0.5, True),
    ("-.5", "!!float", -0.5, True),
    ("+.5", "!!float", 0.5, True),
    ("1.50", "!!float", 1.5, True),
    ("1e400", "!!str", "1e400", False),
    ("-1e400", "!!str", "-1e400", False),
    ("1e-400", "!!float", 0.0, True),
    ("1_0.5", "!!float", 10.5, True),
    ("1.5e1_0", "!!float", 15000000000.0, True),
    (".inf", "!!float", "inf", True),
    (".Inf", "!!float", "inf", True),
    (".INF", "!!float", "inf", True),
    ("+.inf", "!!float", "inf", True),
    ("-.inf", "!!float", "-inf", True),
    ("-.Inf", "!!float", "-inf", True),
    (".nan", "!!float", "nan", True),
    (".NaN", "!!float", "nan", True),
    (".NAN", "!!float", "nan", True),
    ("-.nan", "!!str", "-.nan", False),
    ("inf", "!!str", "inf", False),
    ("nan", "!!str", "nan", False),
    ("NaN", "!!str", "NaN", False),
    ("Infinity", "!!str", "Infinity", False),
    (".5_0", "!!float", 0.5, True),
    ("._5", "!!str", "._5", False),
    (".5_", "!!str", ".5_", False),
    (".e5", "!!str", ".e5", False),
    (".5e", "!!str", ".5e", False),
    (".5e5", "!!float", 50000.0, True),
    (".", "!!str", ".", False),
    ("..", "!!str", "..", False),
    ("...", "!!str", "...", False),
    (".1.2", "!!str", ".1.2", False),
    ("2001-12-14", "!!timestamp", "2001-12-14", True),
    ("2001-1-2", "!!timestamp", "2001-1-2", True),
    ("2001-12-14T21:59:43.10-05:00", "!!timestamp", "2001-12-14T21:59:43.10-05:00", True),
    ("2001-12-14t21:59:43.10-05:00", "!!timestamp", "2001-12-14t21:59:43.10-05:00", True),
    ("2001-12-14T21:59:43Z", "!!timestamp", "2001-12-14T21:59:43Z", True),
    ("2001-12-14T21:59:43,5Z", "!!timestamp", "2001-12-14T21:59:43,5Z", True),
    ("2001-12-14 21:59:43.10", "!!timestamp", "2001-12-14 21:59:43.10", True),
    ("2001-12-14    21:59:43", "!!timestamp", "2001-12-14    21:59:43", True),
    ("2001-12-14 21:59:43.10 -5", "!!str", "2001-12-14 21:59:43.10 -5", False),
    ("2001-12-14T21:59:43", "!!str", "2001-12-14T21:59:43", False),
    ("2001-12-14T24:00:00Z", "!!str", "2001-12-14T24:00:00Z", False),
    ("2001-12-14T21:60:00Z", "!!str", "2001-12-14T21:60:00Z", False),
    ("2001-12-14T21:59:60Z", "!!str", "2001-12-14T21:59:60Z", False),
    ("2001-12-14T21:59:43+24:00", "!!timestamp", "2001-12-14T21:59:43+24:00", True),
    ("2001-12-14T21:59:43+25:00", "!!str", "2001-12-14T21:59:43+25:00", False),
    ("2001-12-14T21:59:43+05:61", "!!str", "2001-12-14T21:59:43+05:61", False),
    ("2001-12-14T21:59:43+0500", "!!str", "2001-12-14T21:59:43+0500", False),
    ("2001-02-29", "!!str", "2001-02-29", False),
    ("2000-02-29", "!!timestamp", "2000-02-29", True),
    ("1900-02-29", "!!str", "1900-02-29", False),
    ("2004-02-29", "!!timestamp", "2004-02-29", True),
    ("2001-02-30", "!!str", "2001-02-30", False),
    ("2001-04-31", "!!str", "2001-04-31", False),
    ("2001-13-01", "!!str", "2001-13-01", False),
    ("2001-00-10", "!!str", "2001-00-10", False),
    ("2001-01-00", "!!str", "2001-01-00", False),
    ("2001-01-32", "!!str", "2001-01-32", False),
    ("20011-01-01", "!!str", "20011-01-01", False),
    ("201-01-01", "!!str", "201-01-01", False),
    ("2001-012-01", "!!str", "2001-012-01", False),
    ("2001-12-14 ", "!!str", "2001-12-14 ", False),
    ("2001-12-14x", "!!str", "2001-12-14x", False),
    ("2001-12-14T", "!!str", "2001-12-14T", False),
    ("1:20", "!!str", "1:20", True),
    ("-1:20:30.5", "!!str", "-1:20:30.5", True),
    ("1:60", "!!str", "1:60", False),
    ("190:20:30", "!!str", "190:20:30", True),
    ("1:2:3", "!!str", "1:2:3", True),
    ("1_0:20", "!!str", "1_0:20", True),
    ("=", "!!str", "=", False),
    ("-", "!!str", "-", False),
    ("+", "!!str", "+", False),
    ("-a", "!!str", "-a", False),
    ("+a", "!!str", "+a", False),
    ("-race", "!!str", "-race", False),
    ("./...", "!!str", "./...", False),
    ("a", "!!str", "a", False),
    ("1a", "!!str", "1a", False),
    ("12:30", "!!str", "12:30", True),
    ("1,000", "!!str", "1,000", False),
    ("0.1.2", "!!str", "0.1.2", False),
    ("1__0", "!!int", 10, True),
    ("\u0661", "!!str", "\u0661", False),
    ("\uff11", "!!str", "\uff11", False),
    ("1 ", "!!str", "1 ", False),
    (" 1", "!!str", " 1", False),
]


@pytest.mark.parametrize(("text", "tag", "value", "quoted"), RESOLVE)
def test_resolve_matches_yaml_v3(text: str, tag: str, value: object, quoted: bool) -> None:
    got_tag, got = resolve(text)
    assert got_tag == tag
    if tag == "!!float" and isinstance(value, str):
        assert isinstance(got, float)
        assert math.isnan(got) if value == "nan" else got == float(value)
    else:
        assert got == value
        assert type(got) is type(value)
    assert needs_quotes(text) is quoted


def test_merge_key_resolution() -> None:
    # yaml.v3's resolver says string (no hint for '<'), but its parser tags a
    # plain "<<" as a merge key; resolve() reports that, the encoder does not.
    assert resolve("<<") == ("!!merge", "<<")
    assert not needs_quotes("<<")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("9223372036854775807", 2**63 - 1),
        ("-9223372036854775808", -(2**63)),
        ("18446744073709551615", 2**64 - 1),
        ("0xFFFF_FFFF_FFFF_FFFF", 2**64 - 1),
        ("0b1_0", 2),
        ("-0o1_7", -15),
        ("010", 8),
    ],
)
def test_resolve_integers_keep_full_range(text: str, value: int) -> None:
    assert resolve(text) == ("!!int", value)
