"""Strict YAML -> TaskSpec decoding.

One converter walks the document by the message descriptors (through
:mod:`taskspec.bridge._layout`), threading the field path through every call, so a
problem is reported once, at the exact field, line and column. It reads the
document the way Go's ``ParseTaskSpec`` does (yaml.v3 with unknown fields
rejected), and is stricter wherever yaml.v3 would lose data silently; each
such case is listed in ``STRICTER_THAN_GO``.

Safety: the YAML is parsed by libyaml through PyYAML's C parser and composed
into plain nodes. No constructor runs, so no tag can instantiate anything.
Input size is bounded before parsing, node count and nesting depth on the
parser's events before anything is composed, and alias expansion while the
tree is walked, so a hostile document fails fast with a :class:`DecodeError`
instead of exhausting the stack, the CPU or memory. Whatever the input, no
exception but a :class:`~taskspec.TaskSpecError` leaves this module; the
numbers in a document are read by Go's ASCII-only rules (:mod:`taskspec.bridge._resolve`),
never by Python's ``int()``, which takes other scripts' digits and refuses
more than 4,300 of them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any, Final

import yaml
from yaml._yaml import CParser
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from taskspec._errors import DecodeError, Violation
from taskspec._limits import INT64_MAX, INT64_MIN, MAX_DEPTH, MAX_DOCUMENT_BYTES, MAX_NODES
from taskspec._suggest import suggest
from taskspec.bridge import _layout
from taskspec.bridge._layout import (
    K_ENUM,
    K_INT,
    K_INT_MAP,
    K_MESSAGE,
    K_MESSAGE_LIST,
    K_STRING,
    K_STRING_LIST,
    FieldInfo,
    MessageInfo,
)
from taskspec.bridge._resolve import resolve
from taskspec.v1 import taskspec_pb2

__all__ = [
    "STRICTER_THAN_GO",
    "Decoded",
    "decode",
]

#: Documents Go's ParseTaskSpec accepts and this decoder rejects on purpose,
#: each with the reason. Every one of them either loses data silently in Go,
#: depends on a YAML feature whose meaning differs between YAML readers, or
#: is beyond libyaml, which this decoder is built on. The conformance vectors
#: hold an example of each (tests/conformance/stricter.json).
STRICTER_THAN_GO: Final[Mapping[str, str]] = {
    "non-integral number in an integer field (timeout_seconds: 1.5)": (
        "yaml.v3 truncates it to 1 silently; that is data loss."
    ),
    "number outside int64 in an integer field (-1e300, -.inf, -9223372036854775809, 2**63)": (
        "yaml.v3 converts such a float to int64 with undefined results (the int64 minimum"
        " on amd64); an out-of-range integer it does reject."
    ),
    "more than one YAML document": ("Go reads the first document and ignores the rest silently."),
    "null keys (~: 1, null: 1, an empty key) in any mapping": (
        "yaml.v3 skips an entry whose key is null silently, even with unknown fields"
        " rejected; in difficulty_signals that loses the entry."
    ),
    "null items in a list (test_cmd: [go, ~], solution_artifacts: [~])": (
        "yaml.v3 drops such an item silently; an empty string is written ''."
    ),
    "an integer written as a float that float64 cannot hold (9.2233720368547748e18)": (
        "yaml.v3 reads the number through float64 and stores a different integer silently."
    ),
    "merge keys (<<)": (
        "YAML 1.1 merge keys are not part of YAML 1.2 and readers disagree on them."
    ),
    "tags other than the standard ones for the field (!!binary, !custom, !!int on a string)": (
        "they change how a value is read in reader-specific ways."
    ),
    "the non-specific tag ! on an integer (timeout_seconds: ! 5)": (
        "YAML makes '! 5' the string \"5\", which an integer field rejects; yaml.v3 ignores"
        " the tag and reads 5, so readers disagree."
    ),
    "a byte order mark at the start of a line, outside quotes": (
        "libyaml skips it and yaml.v3 reads it as text, so the two read different values."
    ),
    "a plain scalar ending in ':' inside [] or {} ([go, a:, b])": (
        "libyaml, which this decoder is built on, cannot read it; yaml.v3 reads 'a:'."
        " Quote the string."
    ),
    "UTF-16 or UTF-32 input": ("sidecars are UTF-8; yaml.v3 also accepts UTF-16 with a BOM."),
    "documents larger than MAX_DOCUMENT_BYTES or nested deeper than MAX_DEPTH": (
        "bounds that keep hostile input cheap; no valid sidecar comes near them."
    ),
    "documents of more than MAX_NODES nodes, or expanding to more through aliases": (
        "a bound that keeps hostile input cheap, checked before anything is built;"
        " a TaskSpec has a few dozen nodes. yaml.v3 bounds only the aliasing ratio."
    ),
}

_TAG_PREFIX: Final = "tag:yaml.org,2002:"
_INT_TAG: Final = _TAG_PREFIX + "int"
_FLOAT_TAG: Final = _TAG_PREFIX + "float"
_PLAIN: Final = "?"  # our resolver's tag for an untagged (or "!"-tagged) plain scalar
_QUOTED: Final = "!"  # our resolver's tag for an untagged quoted or block scalar
# Characters that can open a nesting level. When a document has few of them,
# its depth is provably small and the exact depth scan is skipped.
_NESTING_CHARS: Final = (b"[", b"{", b"-", b"?")
_CHEAP_DEPTH_BOUND: Final = 1000


class _Loader(CParser):
    """libyaml's composer with resolution turned off.

    Plain scalars are tagged ``?`` and quoted or block scalars ``!``;
    explicit tags come through expanded. The decoder interprets plain
    scalars itself, by the rules of yaml.v3, according to the field they
    belong to.
    """

    def resolve(self, kind: type[Node], value: Any, implicit: tuple[bool, bool] | bool) -> str:
        if kind is ScalarNode:
            assert isinstance(implicit, tuple)
            return _PLAIN if implicit[0] else _QUOTED
        return ""

    def descend_resolver(self, parent: Any, index: Any) -> None:
        return None

    def ascend_resolver(self) -> None:
        return None


class Decoded:
    """A decoded spec plus what validation needs to report in Go's terms."""

    __slots__ = ("positions", "raw_enums", "spec")

    def __init__(self) -> None:
        self.spec = taskspec_pb2.TaskSpec()
        #: Enum text that names no known value, by field path.
        self.raw_enums: dict[str, str] = {}
        #: (line, column) of each field's value, by field path.
        self.positions: dict[str, tuple[int, int]] = {}


def _pos(node: Node) -> tuple[int, int]:
    mark = node.start_mark
    return mark.line + 1, mark.column + 1


#: Most characters of an offending value a decode message quotes. A value
#: can be megabytes long; a message quoting all of it buries the problem.
_QUOTE_CHARS: Final = 80


def _clip(text: str) -> str:
    """*text* for a message: past _QUOTE_CHARS characters, cut with its length."""
    if len(text) <= _QUOTE_CHARS:
        return text
    return f"{text[:_QUOTE_CHARS]}... ({len(text)} characters)"


def _q(text: str) -> str:
    """``repr(text)`` for a message, cut like :func:`_clip` (the length outside the quotes)."""
    if len(text) <= _QUOTE_CHARS:
        return repr(text)
    return f"{text[:_QUOTE_CHARS]!r}... ({len(text)} characters)"


def _shown_path(path: str) -> str:
    """*path* as a message begins with it: cut when a long key makes it long.

    Field names keep paths short; only a mapping key (an unknown field, a
    signal name) can make one long. The violation keeps the whole path.
    """
    return path if len(path) <= 2 * _QUOTE_CHARS else _clip(path)


def _fail(path: str, message: str, node: Node | None) -> DecodeError:
    line, column = _pos(node) if node is not None else (0, 0)
    where = f"{_shown_path(path)}: " if path else ""
    return DecodeError([Violation(path, f"{where}{message}", line, column)])


def _unknown_field(path: str, key: str, info: MessageInfo, node: Node) -> DecodeError:
    """An unknown key, with the field the writer most likely meant when there is one.

    With a suggestion the message names just that field (also given as the
    violation's hint); without one it lists every field the mapping takes.
    """
    where = f" in {path}" if path else ""
    sub = _join(path, key)
    guess = suggest(key, info.by_name)
    line, column = _pos(node)
    if guess is None:
        shown = _shown_path(sub)
        message = f"{shown}: unknown field {_q(key)}{where}; expected one of: {info.expected}"
        return DecodeError([Violation(sub, message, line, column)])
    hint = f"did you mean {guess!r}?"
    message = f"{_shown_path(sub)}: unknown field {_q(key)}{where}; {hint}"
    return DecodeError([Violation(sub, message, line, column, hint)])


def _describe(node: Node) -> str:
    if isinstance(node, MappingNode):
        return "a mapping"
    if isinstance(node, SequenceNode):
        return "a sequence"
    tag = node.tag
    if tag == _QUOTED:
        return f"the string {_q(node.value)}"
    if tag.startswith(_TAG_PREFIX):
        return f"!!{tag[len(_TAG_PREFIX) :]} {_q(node.value)}"
    if tag != _PLAIN:
        return f"{tag} {_q(node.value)}"
    rtag, _ = resolve(node.value)
    kind = rtag[2:]
    return f"the {kind} {_q(node.value)}" if kind != "str" else f"the string {_q(node.value)}"


def _null_text(value: str) -> bool:
    """Whether a scalar's text spells null (``""``, ``~``, ``null``, ``Null``, ``NULL``).

    The first-character test skips the resolver for almost every string.
    """
    return not value or (value[0] in "~nN" and resolve(value)[0] == "!!null")


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


class _Walker:
    """Walks one composed document into a TaskSpec."""

    __slots__ = ("budget", "out", "source")

    def __init__(self, source: str, out: Decoded) -> None:
        self.source = source
        self.out = out
        self.budget = MAX_NODES

    # -- scalars --------------------------------------------------------

    def _is_null(self, node: ScalarNode) -> bool:
        tag = node.tag
        if tag == _PLAIN:
            return _null_text(node.value)
        return tag == _TAG_PREFIX + "null"

    def _has_bang_tag(self, node: ScalarNode) -> bool:
        # libyaml reports "! 5" exactly like "5". YAML reads the former as a
        # string and yaml.v3 as the integer 5 (it ignores a "!" tag), so an
        # integer field rejects it. Look at the node's properties in the
        # source to tell.
        start, end = node.start_mark.index, node.end_mark.index
        if end - start == len(node.value) and not node.value.startswith("!"):
            return False
        text = self.source[start:end]
        while text[:1] in ("&", "!"):
            if text[0] == "!":
                return True
            cut = 0
            while cut < len(text) and text[cut] not in " \t\r\n":
                cut += 1
            text = text[cut:].lstrip(" \t\r\n")
        return False

    def _check_escapes(self, node: ScalarNode, path: str) -> None:
        # libyaml knows the JSON escape "\/" in double-quoted scalars; yaml.v3
        # rejects it as an unknown escape character.
        text = self.source[node.start_mark.index : node.end_mark.index]
        at = text.find("\\")
        while at != -1:
            if text[at + 1 : at + 2] == "/":
                raise _fail(path, "unknown escape character '\\/' in a double-quoted string", node)
            at = text.find("\\", at + 2)

    def string(self, node: Node, path: str) -> str:
        if type(node) is not ScalarNode:
            raise _fail(path, f"expected a string, got {_describe(node)}", node)
        tag = node.tag
        if tag == _PLAIN:
            value: str = node.value
            return "" if _null_text(value) else value
        if node.style == '"' and "/" in node.value:
            self._check_escapes(node, path)
        if tag == _QUOTED or tag == _TAG_PREFIX + "str":
            return str(node.value)
        if tag == _TAG_PREFIX + "null" and _null_text(node.value):
            return ""
        raise _fail(path, f"unsupported tag {_q(tag)} for a string field", node)

    def integer(self, node: Node, path: str) -> int:
        if type(node) is not ScalarNode:
            raise _fail(path, f"expected an integer, got {_describe(node)}", node)
        tag = node.tag
        value: str = node.value
        if tag == _PLAIN:
            if self._has_bang_tag(node):
                raise _fail(path, f"expected an integer, got the tagged string {_q(value)}", node)
        elif tag in (_TAG_PREFIX + "int", _TAG_PREFIX + "float"):
            pass
        elif tag == _TAG_PREFIX + "null" and _null_text(value):
            return 0
        else:
            raise _fail(path, f"expected an integer, got {_describe(node)}", node)
        if (
            tag != _FLOAT_TAG
            and value.isdigit()
            and value.isascii()  # isdigit() alone takes any Unicode digit, which Go rejects
            and len(value) < 19
            and (value[0] != "0" or len(value) == 1)
        ):
            return int(value)  # fast path: plain decimal that fits
        rtag, resolved = resolve(value)
        if rtag == "!!null" and tag == _PLAIN:
            return 0
        if tag == _INT_TAG and rtag != "!!int":
            # yaml.v3 converts an !!int into a !!float, never the reverse.
            raise _fail(path, f"cannot read {_q(value)} as an !!int: it is a {rtag[2:]}", node)
        exact: int | Decimal | None = None
        if tag == _FLOAT_TAG and rtag == "!!int":
            assert isinstance(resolved, int)
            exact, rtag, resolved = resolved, "!!float", float(resolved)  # as yaml.v3 does
        if rtag == "!!int":
            assert isinstance(resolved, int)
            if INT64_MIN <= resolved <= INT64_MAX:
                return resolved
            raise _fail(path, f"integer {_q(value)} is out of the int64 range", node)
        if rtag == "!!float":
            assert isinstance(resolved, float)
            return self._integral_float(value, resolved, exact, path, node)
        raise _fail(path, f"expected an integer, got {_describe(node)}", node)

    @staticmethod
    def _integral_float(
        value: str, number: float, exact: int | Decimal | None, path: str, node: Node
    ) -> int:
        """The int of a float-valued scalar, when yaml.v3 would store exactly that number.

        yaml.v3 stores int64(f) for any float f up to the int64 maximum: it
        truncates fractions, wraps out-of-range values and keeps float64's
        rounding of large integers. Each of those changes the number
        written, so each is rejected here.
        """
        if math.isinf(number):
            raise _fail(path, f"number {_q(value)} is out of the int64 range", node)
        if math.isnan(number) or number != int(number):
            raise _fail(path, f"expected an integer, got the non-integral number {_q(value)}", node)
        if exact is None:
            try:
                exact = Decimal(value.replace("_", ""))
            except InvalidOperation:
                exact = None
        result = int(number)
        if exact is not None and exact != result:
            if isinstance(exact, Decimal) and exact != exact.to_integral_value():
                raise _fail(
                    path, f"expected an integer, got the non-integral number {_q(value)}", node
                )
            if INT64_MIN <= exact <= INT64_MAX:
                raise _fail(
                    path,
                    f"number {_q(value)} does not survive float64, which yaml.v3 reads it"
                    f" through (it becomes {number!r})",
                    node,
                )
            raise _fail(path, f"number {_q(value)} is out of the int64 range", node)
        if not INT64_MIN <= result <= INT64_MAX:
            raise _fail(path, f"number {_q(value)} is out of the int64 range", node)
        return result

    # -- collections ----------------------------------------------------

    def _count(self, node: Node) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise _fail("", f"document expands to more than {MAX_NODES} nodes", node)

    def message(self, node: Node, info: MessageInfo, msg: Any, path: str) -> None:
        if type(node) is not MappingNode:
            if type(node) is ScalarNode and self._is_null(node):
                return
            what = path or "the document"
            raise _fail(path, f"expected a mapping for {what}, got {_describe(node)}", node)
        if node.flow_style:
            self._check_flow_scalars(node, [n for pair in node.value for n in pair], path)
        by_name = info.by_name
        seen: dict[str, Node] = {}
        positions = self.out.positions
        for key_node, value_node in node.value:
            self._count(value_node)
            if type(key_node) is not ScalarNode:
                raise _fail(
                    path, f"mapping keys must be strings, got {_describe(key_node)}", key_node
                )
            if self._is_null(key_node):
                raise self._null_key(path, key_node)
            key = self.string(key_node, path) if key_node.tag != _PLAIN else key_node.value
            if key == "<<" and key_node.tag == _PLAIN:
                raise _fail(path, "merge keys (<<) are not supported", key_node)
            fi = by_name.get(key)
            if fi is None:
                raise _unknown_field(path, key, info, key_node)
            if key in seen:
                line = seen[key].start_mark.line + 1
                raise _fail(
                    _join(path, key),
                    f"duplicate key {_q(key)} (first defined at line {line})",
                    key_node,
                )
            seen[key] = key_node
            sub = _join(path, key)
            positions[sub] = _pos(value_node)
            self.field(value_node, fi, msg, sub)

    @staticmethod
    def _null_key(path: str, key_node: ScalarNode) -> DecodeError:
        shown = _clip(key_node.value) or "an empty key"
        return _fail(
            path,
            f"null key ({shown}) is not allowed: yaml.v3 skips such an entry silently;"
            " quote the key to mean a string",
            key_node,
        )

    def _not_null_item(self, node: Node, path: str, empty: str) -> None:
        if type(node) is ScalarNode and self._is_null(node):
            raise _fail(
                path,
                "null item is not allowed: yaml.v3 drops it from the list silently;"
                f" write {empty} for an empty item",
                node,
            )

    def field(self, node: Node, fi: FieldInfo, msg: Any, path: str) -> None:
        kind = fi.kind
        name = fi.name
        if kind is K_STRING:
            setattr(msg, name, self.string(node, path))
        elif kind is K_INT:
            setattr(msg, name, self.integer(node, path))
        elif kind is K_ENUM:
            assert fi.enum is not None
            text = self.string(node, path)
            number = fi.enum.from_string.get(text)
            if number is None:
                self.out.raw_enums[path] = text
                number = 0
            setattr(msg, name, number)
        elif kind is K_MESSAGE:
            assert fi.message is not None
            if type(node) is ScalarNode and self._is_null(node):
                msg.ClearField(name)
                return
            sub = getattr(msg, name)
            sub.SetInParent()
            self.message(node, fi.message, sub, path)
        elif kind is K_STRING_LIST:
            items = self._sequence(node, path)
            target = getattr(msg, name)
            del target[:]
            values = []
            for i, item in enumerate(items):
                self._not_null_item(item, f"{path}[{i}]", "''")
                values.append(self.string(item, f"{path}[{i}]"))
            target.extend(values)
        elif kind is K_MESSAGE_LIST:
            assert fi.message is not None
            items = self._sequence(node, path)
            target = getattr(msg, name)
            del target[:]
            for i, item in enumerate(items):
                self._not_null_item(item, f"{path}[{i}]", "{}")
                self.message(item, fi.message, target.add(), f"{path}[{i}]")
        elif kind is K_INT_MAP:
            self._int_map(node, getattr(msg, name), path)
        else:  # pragma: no cover - _schema rejects other kinds at import
            raise AssertionError(kind)

    @staticmethod
    def _check_flow_scalars(node: Node, children: list[Node], path: str) -> None:
        """Reject a '?' inside a plain scalar written in a flow collection.

        libyaml 0.2 reads ``[a?b]`` as the string "a?b"; yaml.v3 ends a plain
        scalar at '?' inside [] and {}, and fails. Only scalars written inside
        the collection count: an alias may point at one written elsewhere.
        """
        start, end = node.start_mark.index, node.end_mark.index
        for child in children:
            if (
                type(child) is ScalarNode
                and not child.style
                and "?" in child.value
                and start <= child.start_mark.index < end
            ):
                raise _fail(
                    path,
                    f"'?' in the plain scalar {_q(child.value)} inside [] or {{}}: yaml.v3 cannot"
                    " read it; quote the string",
                    child,
                )

    def _sequence(self, node: Node, path: str) -> list[Node]:
        if type(node) is SequenceNode:
            items: list[Node] = node.value
            self.budget -= len(items)
            if self.budget < 0:
                raise _fail(path, f"document expands to more than {MAX_NODES} nodes", node)
            if node.flow_style:
                self._check_flow_scalars(node, items, path)
            return items
        if type(node) is ScalarNode and self._is_null(node):
            return []
        raise _fail(path, f"expected a sequence, got {_describe(node)}", node)

    def _int_map(self, node: Node, target: Any, path: str) -> None:
        target.clear()
        if type(node) is not MappingNode:
            if type(node) is ScalarNode and self._is_null(node):
                return
            raise _fail(path, f"expected a mapping, got {_describe(node)}", node)
        if node.flow_style:
            self._check_flow_scalars(node, [n for pair in node.value for n in pair], path)
        seen: dict[str, Node] = {}
        for key_node, value_node in node.value:
            self._count(value_node)
            if type(key_node) is not ScalarNode:
                raise _fail(
                    path, f"mapping keys must be strings, got {_describe(key_node)}", key_node
                )
            if key_node.tag == _PLAIN and key_node.value == "<<":
                raise _fail(path, "merge keys (<<) are not supported; quote the key", key_node)
            if self._is_null(key_node):
                raise self._null_key(path, key_node)
            key = self.string(key_node, path)
            sub = f"{path}[{key!r}]"
            if key in seen:
                line = seen[key].start_mark.line + 1
                message = f"duplicate key {_q(key)} (first defined at line {line})"
                raise _fail(sub, message, key_node)
            seen[key] = key_node
            target[key] = self.integer(value_node, sub)


def _utf8_error(data: bytes, err: UnicodeDecodeError) -> DecodeError:
    offset = err.start
    line = data.count(b"\n", 0, offset) + 1
    line_start = data.rfind(b"\n", 0, offset) + 1
    column = len(data[line_start:offset].decode("utf-8", "replace")) + 1
    return DecodeError(
        [
            Violation(
                "",
                f"input is not valid UTF-8 (byte 0x{data[offset]:02x} at offset {offset})",
                line,
                column,
            )
        ]
    )


def _yaml_error(err: yaml.YAMLError) -> DecodeError:
    if isinstance(err, yaml.MarkedYAMLError):
        mark = err.problem_mark or err.context_mark
        parts = [p for p in (err.context, err.problem) if p]
        message = "invalid YAML: " + (", ".join(parts) if parts else "syntax error")
        if mark is not None:
            return DecodeError([Violation("", message, mark.line + 1, mark.column + 1)])
        return DecodeError([Violation("", message)])
    if isinstance(err, yaml.reader.ReaderError):
        reason = err.reason
        return DecodeError(
            [Violation("", f"invalid YAML: {reason} (character #x{err.character:04X})")]
        )
    return DecodeError([Violation("", f"invalid YAML: {err}")])


def _check_bounds(data: bytes) -> None:
    """Fail fast on a document with more than MAX_NODES nodes or nested deeper than MAX_DEPTH.

    Both bounds are enforced on libyaml's parser events, before anything is
    composed: composing costs about half a kilobyte and a microsecond per
    node, so a 10 MiB flow mapping of a million entries would take seconds
    and most of a gigabyte before a walk over the tree could count it.
    Depth must be known early too, because libyaml's scanner is quadratic
    in flow depth and its composer recursive.

    Reading events from Python costs about as much as composing, so the
    scan is skipped when it cannot find anything: every node takes at
    least half a byte of source (``{a,b}`` is two nodes in two bytes), so a
    document of under MAX_NODES / 2 bytes is within the node budget, and
    every nesting level needs one of ``[ { - ?``, so a document with few of
    those is shallow enough.
    """
    budget = MAX_NODES
    many = 2 * len(data) + 2 > budget
    deep = sum(data.count(c) for c in _NESTING_CHARS) > _CHEAP_DEPTH_BOUND
    if not (many or deep):
        return
    parser = CParser(data)
    depth = 0
    try:
        while True:
            event = parser.get_event()
            kind = type(event)
            if kind is yaml.ScalarEvent or kind is yaml.AliasEvent:
                budget -= 1
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                budget -= 1
                depth += 1
                if depth > MAX_DEPTH:
                    raise _event_error(event, f"document is nested deeper than {MAX_DEPTH} levels")
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                depth -= 1
            elif event is None or kind is yaml.StreamEndEvent or kind is yaml.DocumentEndEvent:
                return  # later documents are rejected by the composer
            if budget < 0:
                raise _event_error(event, f"document has more than {MAX_NODES} nodes")
    except yaml.YAMLError as err:
        raise _yaml_error(err) from None
    finally:
        parser.dispose()


def _event_error(event: Any, message: str) -> DecodeError:
    mark = event.start_mark
    line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
    return DecodeError([Violation("", message, line, column)])


def _check_line_start_boms(data: bytes | str, source: str) -> None:
    """Reject a byte order mark at the start of a line, outside quoted scalars.

    libyaml skips such a BOM as if it were not there; yaml.v3 reads it as
    text (an unknown key, or part of a flow scalar), so the two readers
    disagree. Inside a quoted scalar both keep it.
    """
    at: list[int] = []
    index = source.find("\ufeff", 1)
    while index != -1:
        if source[index - 1] in "\r\n":
            at.append(index)
        index = source.find("\ufeff", index + 1)
    if not at:
        return
    quoted: list[tuple[int, int]] = []
    parser = CParser(data)
    try:
        while True:
            event = parser.get_event()
            if event is None or isinstance(event, yaml.StreamEndEvent):
                break
            if isinstance(event, yaml.ScalarEvent) and event.style in ("'", '"'):
                start, end = event.start_mark, event.end_mark
                if start is not None and end is not None:
                    quoted.append((start.index, end.index))
    except yaml.YAMLError:
        return  # the composer reports the syntax error
    finally:
        parser.dispose()
    for index in at:
        if not any(start <= index < end for start, end in quoted):
            line = source.count("\n", 0, index) + 1
            raise DecodeError(
                [
                    Violation(
                        "",
                        "byte order mark at the start of a line: libyaml skips it, yaml.v3"
                        " reads it as text; remove it",
                        line,
                        1,
                    )
                ]
            )


def _check_yaml_version(data: bytes | str) -> None:
    """Reject a %YAML directive other than 1.1, which is all yaml.v3 reads.

    libyaml also takes ``%YAML 1.2`` (and warns on other 1.x); yaml.v3 fails
    with "found incompatible YAML document". Only the first document
    matters: a second one is rejected anyway.
    """
    parser = CParser(data)
    try:
        while True:
            event = parser.get_event()
            if event is None or isinstance(event, yaml.StreamEndEvent):
                return
            if isinstance(event, yaml.DocumentStartEvent):
                version = event.version
                if version is not None and tuple(version) != (1, 1):
                    mark = event.start_mark
                    line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
                    major, minor = version
                    message = (
                        f"%YAML {major}.{minor} is not supported: yaml.v3 reads only"
                        " YAML 1.1 documents (%YAML 1.1, or no directive)"
                    )
                    raise DecodeError([Violation("", message, line, column)])
                return
    except yaml.YAMLError as err:
        raise _yaml_error(err) from None
    finally:
        parser.dispose()


def decode(data: bytes | bytearray | memoryview | str) -> Decoded:
    """Decode one TaskSpec document strictly, without validating it."""
    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    if isinstance(data, bytes):
        if len(data) > MAX_DOCUMENT_BYTES:
            raise DecodeError(f"document is larger than {MAX_DOCUMENT_BYTES} bytes")
        try:
            source = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise _utf8_error(data, err) from None
        raw: bytes = data
    elif isinstance(data, str):
        source = data
        try:
            raw = data.encode("utf-8")
        except UnicodeEncodeError as err:
            raise DecodeError(
                f"input is not valid Unicode (lone surrogate at character {err.start})"
            ) from None
        if len(raw) > MAX_DOCUMENT_BYTES:
            raise DecodeError(f"document is larger than {MAX_DOCUMENT_BYTES} bytes")
    else:
        raise DecodeError(f"expected bytes or str, got {type(data).__name__}")

    _check_bounds(raw)
    if "%YAML" in source:
        _check_yaml_version(raw)
    loader = _Loader(raw)
    try:
        root = loader.get_single_node()
    except yaml.YAMLError as err:
        raise _yaml_error(err) from None
    except RecursionError:
        raise DecodeError(f"document is nested deeper than {MAX_DEPTH} levels") from None
    finally:
        loader.dispose()
    if root is None:
        raise DecodeError("empty document: expected a TaskSpec mapping")
    if source.startswith("\ufeff"):
        # libyaml's marks do not count a leading BOM; keep the source in step.
        source = source[1:]
    if "\ufeff" in source:
        _check_line_start_boms(raw, source)
    walker = _Walker(source, out := Decoded())
    if type(root) is not MappingNode and not (type(root) is ScalarNode and walker._is_null(root)):
        # A null document ("---", "~") decodes to the zero spec, as in Go, and
        # then fails Validate with Go's message.
        raise _fail(
            "", f"expected a mapping at the top of the document, got {_describe(root)}", root
        )
    walker.message(root, _layout.TASK_SPEC, out.spec, "")
    return out
