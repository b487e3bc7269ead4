"""The proto3 JSON format: a strict reader, and a writer in Go's ``protojson`` order.

The reader refuses what protobuf's would lose silently (a field named twice,
as ``taskId`` and ``task_id``), unknown keys and values of the wrong type,
each by its field path; it returns problems and never validates (the API
does). The writer orders every map, at any depth, as Go does (:mod:`taskspec._gowire`).
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any, Final, NoReturn, cast

from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor

from taskspec._codes import DUPLICATE_KEY, ENCODING, JSON_SYNTAX, UNKNOWN_KEY, WRONG_TYPE
from taskspec._errors import DecodeError, Violation, require_document, require_task_spec
from taskspec._format import Data
from taskspec._forms_gen import (
    HINT_UNKNOWN_KEY_DID_YOU_MEAN,
    HINT_UNKNOWN_KEY_ONE_OF,
    HINT_WRONG_TYPE_ONE_OF,
    MSG_DUPLICATE_KEY_FIELD_TWICE,
    MSG_ENCODING_LONE_SURROGATE,
    MSG_ENCODING_NOT_UTF8,
    MSG_JSON_SYNTAX_REASON,
    MSG_UNKNOWN_KEY_IN_PARENT,
    MSG_UNKNOWN_KEY_PLAIN,
    MSG_WRONG_TYPE_ENUM_NAME,
    MSG_WRONG_TYPE_EXPECTED,
    MSG_WRONG_TYPE_JSON_INTEGER_RANGE,
    MSG_WRONG_TYPE_JSON_TOP,
    MSG_WRONG_TYPE_JSON_VALUE,
    REASON_JSON_SYNTAX_DUPLICATE_KEY,
    REASON_JSON_SYNTAX_NOT_A_VALUE,
    WORD_A_BOOLEAN,
    WORD_A_NUMBER,
    WORD_A_STRING,
    WORD_AN_ARRAY,
    WORD_AN_ENUM_NAME,
    WORD_AN_INTEGER,
    WORD_AN_OBJECT,
    WORD_CLIPPED,
    WORD_NULL,
    WORD_NUMBER,
    WORD_STRING,
)
from taskspec._gowire import go_json, is_map
from taskspec._json_text import json_message, json_stop, too_deep_at, too_deep_error
from taskspec._suggest import suggest
from taskspec._values import INT64_MAX, INT64_MIN
from taskspec._words import render
from taskspec.bridge._gostr import go_quote
from taskspec.v1 import taskspec_pb2

__all__ = ["marshal_json", "read_json"]


def read_json(
    data: Data | str, *, collect: bool = False
) -> tuple[taskspec_pb2.TaskSpec, list[Violation]]:
    """The TaskSpec a proto3 JSON document holds, not validated, and its decode problems.

    Without *collect* the first decode problem is raised. With it, an
    unknown key, a field given twice and a value of the wrong type are
    returned and left out of the spec, so that every one of them is found in
    one run; JSON that cannot be read is still raised, alone.
    """
    data = require_document(data)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        offset = err.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)
        raise DecodeError(
            [
                Violation(
                    "",
                    render(MSG_ENCODING_NOT_UTF8, byte=f"0x{data[offset]:02x}", offset=offset),
                    code=ENCODING,
                )
            ]
        ) from None

    # Past the depth limit only the text before the bracket that goes past
    # it is read: a problem there comes first, as in a reader that stops at
    # the bracket.
    too_deep = too_deep_at(text)
    try:
        obj = json.loads(
            text if too_deep is None else text[:too_deep],
            object_pairs_hook=_no_duplicates,
            parse_constant=_no_constants,
            parse_int=_json_integer,
            parse_float=_WrittenFloat,
        )
    except json.JSONDecodeError as err:
        pos = json_stop(err.msg, text, err.pos)
        if too_deep is not None and pos >= too_deep:
            raise too_deep_error(text, too_deep) from None
        line = text.count("\n", 0, pos) + 1
        column = pos - text.rfind("\n", 0, pos)
        raise DecodeError(
            [
                Violation(
                    "",
                    json_message(err.msg, text, pos),
                    line,
                    column,
                    code=JSON_SYNTAX,
                )
            ]
        ) from None
    except _JSONValueError as err:
        raise _json_error(str(err)) from None
    if too_deep is not None:  # the cut text always ends inside a bracket
        raise too_deep_error(text, too_deep)
    if not isinstance(obj, dict):
        raise DecodeError(
            [
                Violation(
                    "",
                    render(MSG_WRONG_TYPE_JSON_TOP, got=_json_kind(obj)),
                    code=WRONG_TYPE,
                )
            ]
        )
    problems: list[Violation] = []
    _check_fields(obj, cast(Descriptor, taskspec_pb2.TaskSpec.DESCRIPTOR), "", problems, collect)

    spec = taskspec_pb2.TaskSpec()
    try:
        json_format.ParseDict(obj, spec, ignore_unknown_fields=False)
    except (json_format.Error, TypeError, ValueError) as err:  # pragma: no cover - checked above
        where = _json_format_path(err) or "the document"
        v = Violation("", render(MSG_WRONG_TYPE_JSON_VALUE, path=where), code=WRONG_TYPE)
        if not collect:
            raise DecodeError([v]) from None
        problems.append(v)
        spec = taskspec_pb2.TaskSpec()
    return spec, problems


def _json_error(reason: str) -> DecodeError:
    return DecodeError(
        [Violation("", render(MSG_JSON_SYNTAX_REASON, reason=reason), code=JSON_SYNTAX)]
    )


def marshal_json(spec: taskspec_pb2.TaskSpec) -> bytes:
    """Proto3 JSON, ordered as Go's ``protojson.Marshal``; two-space indent, a final newline.

    Fields come in declaration order and the keys of every map in Go's key
    order, at every depth, so the bytes depend only on the spec. As proto3
    JSON specifies, int64 values are strings, enums are their proto names
    and fields at their default value are left out; an unset kg_query is
    absent while an empty one is ``{}``, so that distinction survives.
    """
    require_task_spec(spec)
    obj = go_json(spec, json_format.MessageToDict(spec))
    return (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _one_line(text: str) -> str:
    return " ".join(text.split())


#: Most characters of an offending value (or of protobuf's own message,
#: which quotes the value whole) that a message carries.
_QUOTE_CHARS: Final = 80


def _clipped(text: str, limit: int = _QUOTE_CHARS) -> str:
    return text if len(text) <= limit else render(WORD_CLIPPED, text=text[:limit], n=len(text))


class _JSONValueError(ValueError):
    """JSON that json.loads would accept and misread.

    A repeated key (json.loads keeps the last one silently), or NaN and
    Infinity (which are not JSON at all).
    """


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """The object of *pairs*, refusing a key given twice.

    Keys are compared with each lone surrogate read as U+FFFD, as a reader
    that decodes to UTF-8 (the Go library) reads them.
    """
    out: dict[str, Any] = {}
    seen: set[str] = set()
    for key, value in pairs:
        same = _as_decoded(key)
        if same in seen:
            raise _JSONValueError(render(REASON_JSON_SYNTAX_DUPLICATE_KEY, key=_quoted(same)))
        seen.add(same)
        out[key] = value
    return out


def _no_constants(name: str) -> NoReturn:
    raise _JSONValueError(render(REASON_JSON_SYNTAX_NOT_A_VALUE, name=name))


class _LongInteger:
    """An integer literal of more digits than an int64 has, kept as its text.

    No field can hold it, so its value is never needed, only its text for
    the problem; and ``int()`` would take time quadratic in its length, and
    refuse it past ``sys.get_int_max_str_digits()`` digits.
    """

    __slots__ = ("negative", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.negative = text.startswith("-")


class _NegativeZero(int):
    """The integer literal ``-0``: the integer 0, which a message shows as written."""

    __slots__ = ()


class _WrittenFloat(float):
    """A JSON number with a fraction or an exponent, which keeps its text for messages.

    A message shows a number as the document writes it (``1E2``, not
    ``100.0``), so that it shows what the reader can find in the text, in
    both libraries alike.
    """

    __slots__ = ("text",)
    text: str

    def __new__(cls, text: str) -> _WrittenFloat:
        number = super().__new__(cls, text)
        number.text = text
        return number


def _json_integer(text: str) -> int | _LongInteger:
    """A JSON integer literal: an int, or past 20 digits a :class:`_LongInteger`."""
    if len(text) > 21:
        return _LongInteger(text)
    return _NegativeZero() if text == "-0" else int(text)


def _number_text(value: object) -> str | None:
    """A JSON number's text as the document writes it, or None for any other value."""
    if isinstance(value, (_WrittenFloat, _LongInteger)):
        return value.text
    if isinstance(value, _NegativeZero):
        return "-0"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def _json_kind(value: object) -> str:
    """What a decoded JSON *value* is, for "expected X, got Y" messages."""
    if value is None:
        return render(WORD_NULL)
    if isinstance(value, bool):
        return render(WORD_A_BOOLEAN)
    if isinstance(value, (int, float, _LongInteger)):
        return render(WORD_A_NUMBER)
    if isinstance(value, str):
        return render(WORD_A_STRING)
    if isinstance(value, dict):
        return render(WORD_AN_OBJECT)
    return render(WORD_AN_ARRAY)


@cache
def _json_fields(desc: Descriptor) -> dict[str, FieldDescriptor]:
    """Both accepted JSON names of every field of *desc*."""
    names: dict[str, FieldDescriptor] = {}
    for fd in desc.fields:
        names[fd.name] = fd
        names[fd.json_name] = fd
    return names


def _check_fields(
    obj: dict[str, Any], desc: Descriptor, path: str, problems: list[Violation], collect: bool
) -> None:
    """Refuse unknown keys, one field given under both of its names, and values of a wrong type.

    json_format rejects unknown keys too, but its message names the proto
    types rather than the field path a person can look for, and its words
    for a value of the wrong type are the runtime's. It only compares keys
    as written, so ``{"taskId": "a", "task_id": "b"}`` would quietly become
    ``task_id: b``. A key at fault is removed from *obj* and its problem
    added to *problems*; without *collect* the first is raised.
    """
    fields = _json_fields(desc)
    seen: dict[str, str] = {}
    for key, value in list(obj.items()):
        fd = fields.get(key)
        problem: Violation | None = None
        if fd is None:
            shown = _as_decoded(key)
            problem = Violation(
                f"{path}.{shown}" if path else shown,
                render(MSG_UNKNOWN_KEY_IN_PARENT, key=_quoted(shown), parent=path)
                if path
                else render(MSG_UNKNOWN_KEY_PLAIN, key=_quoted(shown)),
                hint=_unknown_key_hint(shown, desc),
                code=UNKNOWN_KEY,
            )
        else:
            field_path = f"{path}.{fd.name}" if path else fd.name
            if fd.name in seen:
                problem = Violation(
                    field_path,
                    render(
                        MSG_DUPLICATE_KEY_FIELD_TWICE,
                        path=field_path,
                        first=_quoted(seen[fd.name]),
                        second=_quoted(key),
                    ),
                    code=DUPLICATE_KEY,
                )
            else:
                seen[fd.name] = key
                problem = _check_value(fd, value, field_path, problems, collect)
        if problem is not None:
            del obj[key]
            if not collect:
                raise DecodeError([problem])
            problems.append(problem)


def _unknown_key_hint(key: str, desc: Descriptor) -> str:
    """The field an unknown JSON *key* most likely misspells, or every field of *desc*.

    The guess is made among the proto field names, as for a YAML key, so a
    misspelling gets the same guess in both formats; the hint names the
    field by its JSON name, the one a JSON writer uses (both are read).
    """
    guess = suggest(key, [f.name for f in desc.fields])
    if guess is not None:
        return render(
            HINT_UNKNOWN_KEY_DID_YOU_MEAN, key=go_quote(desc.fields_by_name[guess].json_name)
        )
    return render(HINT_UNKNOWN_KEY_ONE_OF, fields=", ".join(f.json_name for f in desc.fields))


def _check_value(
    fd: FieldDescriptor, value: Any, path: str, problems: list[Violation], collect: bool
) -> Violation | None:
    """The problem of *value* for field *fd*, or None; message values are checked in turn."""
    if value is None:
        return None  # proto3 JSON: null is the field's default
    if is_map(fd):
        if not isinstance(value, dict):
            return _wrong(path, render(WORD_AN_OBJECT), value)
        value_fd = cast(Descriptor, fd.message_type).fields_by_name["value"]
        for k, item in value.items():
            surrogate = _surrogate_problem(k, path)
            if surrogate is not None:
                return surrogate
            wrong = _scalar_problem(value_fd, item, f"{path}[{go_quote(k)}]")
            if wrong is not None:
                return wrong
        return None
    if fd.is_repeated:
        if not isinstance(value, list):
            return _wrong(path, render(WORD_AN_ARRAY), value)
        for i, item in enumerate(value):
            wrong = _item_problem(fd, item, f"{path}[{i}]", problems, collect)
            if wrong is not None:
                return wrong
        return None
    return _item_problem(fd, value, path, problems, collect)


def _item_problem(
    fd: FieldDescriptor, value: Any, path: str, problems: list[Violation], collect: bool
) -> Violation | None:
    if fd.message_type is None:
        return _scalar_problem(fd, value, path)
    if not isinstance(value, dict):
        message = render(
            MSG_WRONG_TYPE_EXPECTED, path=path, want=render(WORD_AN_OBJECT), got=_json_kind(value)
        )
        return Violation(path, message, code=WRONG_TYPE)
    _check_fields(value, fd.message_type, path, problems, collect)
    return None


_INTEGER_TEXT: Final = re.compile(r"-?(?:0|[1-9][0-9]*)")
#: A lone surrogate, which a JSON escape (``"\\ud800"``) can write and UTF-8 cannot.
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_INT_RANGES: Final = {
    FieldDescriptor.TYPE_INT64: (INT64_MIN, INT64_MAX, "int64"),
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1, "int32"),
}


def _scalar_problem(fd: FieldDescriptor, value: Any, path: str) -> Violation | None:
    """The problem of a string, integer or enum *value* for field *fd*, or None."""
    if fd.type == FieldDescriptor.TYPE_STRING:
        if not isinstance(value, str):
            return _wrong(path, render(WORD_A_STRING), value)
        return _surrogate_problem(value, path)
    if fd.enum_type is not None:
        if isinstance(value, str):
            # Before the lookup: the runtime cannot even encode such a name.
            surrogate = _surrogate_problem(value, path)
            if surrogate is not None:
                return surrogate
            if value in fd.enum_type.values_by_name:
                return None
            return Violation(
                path,
                render(
                    MSG_WRONG_TYPE_ENUM_NAME,
                    path=path,
                    enum=fd.enum_type.full_name,
                    value=_quoted(value),
                ),
                hint=render(
                    HINT_WRONG_TYPE_ONE_OF, values=", ".join(v.name for v in fd.enum_type.values)
                ),
                code=WRONG_TYPE,
            )
        if isinstance(value, int) and not isinstance(value, bool) and -(2**31) <= value < 2**31:
            return None
        return _wrong(path, render(WORD_AN_ENUM_NAME), value)
    low, high, name = _INT_RANGES.get(fd.type, _INT_RANGES[FieldDescriptor.TYPE_INT64])
    number: int | None = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int):
        number = value
    elif isinstance(value, _LongInteger):
        number, value = (low - 1 if value.negative else high + 1), value.text
    elif isinstance(value, str) and _INTEGER_TEXT.fullmatch(value):
        # Past 20 digits no integer field can hold it; int() would refuse
        # past 4,300.
        number = int(value) if len(value) <= 21 else high + 1
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    if number is None:
        return _wrong(path, render(WORD_AN_INTEGER), value)
    if not low <= number <= high:
        shown = value if isinstance(value, str) else _number_text(value) or str(number)
        message = render(
            MSG_WRONG_TYPE_JSON_INTEGER_RANGE, path=path, value=_quoted(shown), type=name
        )
        return Violation(path, message, code=WRONG_TYPE)
    return None


def _as_decoded(key: str) -> str:
    """*key* with each lone surrogate as U+FFFD: as a reader that decodes to UTF-8 reads it.

    A lone surrogate cannot be written out, and the Go library reads it so.
    """
    return _SURROGATE.sub("\ufffd", key)


def _surrogate_problem(text: str, path: str) -> Violation | None:
    """The problem of a string (a value, an enum's name or a map's key) at *path* that holds
    a lone surrogate, which UTF-8 cannot carry; None for any other string."""
    surrogate = _SURROGATE.search(text)
    if surrogate is None:
        return None
    return Violation(
        path,
        render(
            MSG_ENCODING_LONE_SURROGATE,
            path=path,
            value=go_quote(surrogate.group()).strip(chr(34)),
        ),
        code=ENCODING,
    )


def _wrong(path: str, expected: str, value: Any) -> Violation:
    message = render(MSG_WRONG_TYPE_EXPECTED, path=path, want=expected, got=_json_shown(value))
    return Violation(path, message, code=WRONG_TYPE)


def _json_shown(value: Any) -> str:
    """*value* for a message: its kind, and a string's or number's text."""
    if isinstance(value, str):
        return render(WORD_STRING, value=_quoted(_as_decoded(value)))
    number = _number_text(value)
    if number is not None:
        return render(WORD_NUMBER, value=_clipped(number))
    return _json_kind(value)


def _quoted(text: str) -> str:
    """*text* quoted as Go's ``%q`` quotes it, cut past _QUOTE_CHARS characters."""
    if len(text) <= _QUOTE_CHARS:
        return go_quote(text)
    return render(WORD_CLIPPED, text=go_quote(text[:_QUOTE_CHARS]), n=len(text))


def _json_format_path(err: Exception) -> str:
    """The dotted field names json_format's message *err* nests its failure in ("" for none)."""
    text = _one_line(str(err))
    names: list[str] = []
    prefix, marker = "Failed to parse ", " field: "
    while text.startswith(prefix) and marker in text:
        name, _, text = text[len(prefix) :].partition(marker)
        names.append(name)
    return ".".join(names)
