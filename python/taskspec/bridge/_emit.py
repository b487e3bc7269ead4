"""The canonical YAML writer: the bytes go yaml.v3's ``yaml.Marshal`` writes.

Go services write ``taskspec.yaml`` with ``yaml.Marshal`` (``go.yaml.in/yaml/v3``
v3.0.4, default settings) and compare, hash and diff the bytes, so the Python
writer must reproduce them exactly rather than produce "equivalent YAML". The
layout yaml.v3 uses for a Go struct is fixed (block mappings, 4-space indent,
indented block sequences, ``{}``/``[]`` for empty collections, no line
folding), so instead of simulating yaml.v3's event-driven emitter this module
walks the message with the descriptor tables of
:mod:`taskspec.bridge._layout` and writes each piece directly.

Only strings need real analysis: yaml.v3 picks plain, single-quoted,
double-quoted or literal style per string, and
:mod:`taskspec.bridge._scalar` reproduces that choice rule for rule. Map keys
are written in yaml.v3's order (:mod:`taskspec.bridge._keyorder`). Where
yaml.v3 writes bytes that it cannot read back itself, the writer does *not*
copy them; see :data:`ROUND_TRIP_FIXES`.

The walk: everything that depends only on the schema and the position in the
document (field order, YAML keys with their indentation, omitempty and
pointer rules, enum spellings already written as YAML, the indentation of
string continuation lines) is worked out once per message and position, at
import, into a small plan object per field. Writing a message is then one
loop over its plan's fields, each appending whole pieces of text to a list.

The plans also count, without writing anything, the nodes a document
holds (:func:`nodes`) and how deep its collections nest (:data:`DEPTH`),
which is what a reader's node budget and depth limit count: writers refuse
a spec whose YAML a reader would refuse (see :mod:`taskspec._writable`).

The plans are also the canonical reader's specification:
:mod:`taskspec.bridge._fastpath` walks them to prove, piece by piece, that a
document is exactly what :func:`marshal` would write for the spec it reads.
"""

from __future__ import annotations

from typing import Any, Final

from taskspec._errors import TaskSpecError, Violation
from taskspec.bridge._keyorder import sorted_items
from taskspec.bridge._layout import TASK_SPEC, FieldInfo, Kind, MessageInfo
from taskspec.bridge._scalar import BEST_INDENT, ROUND_TRIP_FIXES, key_text, value_text
from taskspec.v1 import taskspec_pb2

__all__ = [
    "DEPTH",
    "DOCUMENT",
    "ROUND_TRIP_FIXES",
    "EnumPlan",
    "FieldPlan",
    "IntMapPlan",
    "IntPlan",
    "MappingPlan",
    "MessageListPlan",
    "MessagePlan",
    "StringListPlan",
    "StringPlan",
    "marshal",
    "nodes",
]


class _BadEnumError(Exception):
    """An enum number with no YAML spelling; ``path`` grows as the walk unwinds."""

    def __init__(self, name: str, number: int, enum_name: str) -> None:
        super().__init__(name)
        self.path = name
        self.number = number
        self.enum_name = enum_name

    def within(self, prefix: str) -> _BadEnumError:
        self.path = prefix + self.path
        return self


def _value_indent(key_column: int) -> int:
    """The column yaml.v3 indents the value node of a key at ``key_column`` to."""
    return BEST_INDENT * ((key_column + BEST_INDENT) // BEST_INDENT)


# --- field plans ---------------------------------------------------------------------
#
# A field plan writes one field of a message at one position. ``write``
# gets the line start to use, ``head`` (indentation, key and ':') or, for
# the first key of a sequence item, ``first_head`` (with the '- '), and
# returns whether it wrote anything: an omitted field leaves the next one
# to start the item.


class FieldPlan:
    """What every field plan knows: its name, its line starts and omitempty."""

    __slots__ = ("first_head", "head", "name", "omitempty")

    def __init__(self, fi: FieldInfo, column: int, first: str) -> None:
        self.name = fi.name
        self.omitempty = fi.omitempty
        self.head = " " * column + fi.name + ":"
        self.first_head = first + fi.name + ":"

    def write(self, msg: Any, out: list[str], head: str) -> bool:  # pragma: no cover
        raise NotImplementedError

    def nodes(self, msg: Any) -> int:
        """The YAML nodes :meth:`write` writes: key and value, 0 when the field is omitted.

        A scalar field is two nodes (its key and its value); a collection
        adds one node per item, or per map key and value.
        """
        return 0 if self.omitempty and not getattr(msg, self.name) else 2

    def depth(self) -> int:
        """How many collections deep the field's value nests (0 for a scalar)."""
        return 0

    def empty_nodes(self) -> int:
        """The nodes of a collection with no element: its key and ``[]``/``{}``, or none."""
        return 0 if self.omitempty else 2

    def write_empty(self, out: list[str], head: str, empty: str) -> bool:
        """Write a collection with no element: *empty* (``[]`` or ``{}``), or, omitempty, nothing.

        Returns whether anything was written, as :meth:`write` does.
        """
        if self.omitempty:
            return False
        out.append(head + empty)
        return True


class StringPlan(FieldPlan):
    __slots__ = ("indicator", "pad")

    def __init__(self, fi: FieldInfo, column: int, first: str) -> None:
        super().__init__(fi, column, first)
        inner = _value_indent(column)
        self.pad = " " * inner
        self.indicator = str(inner - column)

    def write(self, msg: Any, out: list[str], head: str) -> bool:
        s = getattr(msg, self.name)
        if not s and self.omitempty:
            return False
        out.append(head + value_text(s, self.pad, self.indicator))
        return True


class IntPlan(FieldPlan):
    __slots__ = ()

    def write(self, msg: Any, out: list[str], head: str) -> bool:
        n = getattr(msg, self.name)
        if not n and self.omitempty:
            return False
        out.append(f"{head} {n}\n")
        return True


class EnumPlan(FieldPlan):
    __slots__ = ("enum_name", "texts", "zero")

    def __init__(self, fi: FieldInfo, column: int, first: str) -> None:
        super().__init__(fi, column, first)
        assert fi.enum is not None
        inner = _value_indent(column)
        pad, indicator = " " * inner, str(inner - column)
        spelled = fi.enum.to_string
        self.enum_name = fi.enum.full_name
        # Each value already written as YAML, from the space after the ':'.
        self.texts = {n: value_text(text, pad, indicator) for n, text in spelled.items()}
        self.zero = frozenset(n for n, text in spelled.items() if not text)

    def write(self, msg: Any, out: list[str], head: str) -> bool:
        n = getattr(msg, self.name)
        text = self.texts.get(n)
        if text is None:
            raise _BadEnumError(self.name, n, self.enum_name)
        if self.omitempty and n in self.zero:
            return False
        out.append(head + text)
        return True

    def nodes(self, msg: Any) -> int:
        return 0 if self.omitempty and getattr(msg, self.name) in self.zero else 2


class MessagePlan(FieldPlan):
    """A nested message: a Go struct value, or a Go pointer (``null`` when unset).

    A mapping with no key written is ``{}``.
    """

    __slots__ = ("mapping", "pointer", "prefix")

    def __init__(self, fi: FieldInfo, column: int, first: str) -> None:
        super().__init__(fi, column, first)
        assert fi.message is not None
        self.pointer = fi.pointer
        self.prefix = fi.name + "."
        inner = " " * _value_indent(column)
        self.mapping = _mapping(fi.message, len(inner), inner)

    def write(self, msg: Any, out: list[str], head: str) -> bool:
        if self.pointer and not msg.HasField(self.name):
            if self.omitempty:
                return False
            out.append(head + " null\n")
            return True
        value = getattr(msg, self.name)
        if self.omitempty and not self.pointer and not value.ByteSize():
            return False  # a Go struct value is empty when all of its fields are
        out.append(head + "\n")
        start = len(out)
        try:
            self.mapping.write(value, out)
        except _BadEnumError as err:
            raise err.within(self.prefix) from None
        if len(out) == start:
            out[-1] = head + " {}\n"
        return True

    def nodes(self, msg: Any) -> int:
        if self.pointer and not msg.HasField(self.name):
            return 0 if self.omitempty else 2
        value = getattr(msg, self.name)
        if self.omitempty and not self.pointer and not value.ByteSize():
            return 0
        return 1 + self.mapping.nodes(value)

    def depth(self) -> int:
        return self.mapping.depth()


class StringListPlan(FieldPlan):
    __slots__ = ("dash", "indicator", "pad")

    def __init__(self, fi: FieldInfo, column: int, first: str) -> None:
        super().__init__(fi, column, first)
        inner = _value_indent(column)
        self.dash = " " * inner + "-"
        # An item's text starts after the "- ", 2 columns right of the dash,
        # which is what a literal block's indentation indicator counts from.
        self.pad = " " * (inner + 2)
        self.indicator = "2"

    def write(self, msg: Any, out: list[str], head: str) -> bool:
        items = getattr(msg, self.name)
        if not items:
            return self.write_empty(out, head, " []\n")
        out.append(head + "\n")
        dash, pad, indicator = self.dash, self.pad, self.indicator
        for s in items[:]:  # a list iterates faster than the container
            out.append(dash + value_text(s, pad, indicator))
        return True

    def nodes(self, msg: Any) -> int:
        n = len(getattr(msg, self.name))
        return 2 + n if n else self.empty_nodes()

    def depth(self) -> int:
        return 1


class MessageListPlan(FieldPlan):
    __slots__ = ("dash", "empty_item", "mapping")

    def __init__(self, fi: FieldInfo, column: int, first: str) -> None:
        super().__init__(fi, column, first)
        assert fi.message is not None
        dash = " " * _value_indent(column) + "- "
        # An item's first key shares the dash's line; the rest align with it.
        self.dash = dash
        self.mapping = _mapping(fi.message, len(dash), dash)
        self.empty_item = dash + "{}\n"

    def write(self, msg: Any, out: list[str], head: str) -> bool:
        items = getattr(msg, self.name)
        if not items:
            return self.write_empty(out, head, " []\n")
        out.append(head + "\n")
        mapping = self.mapping
        for i, item in enumerate(items[:]):
            start = len(out)
            try:
                mapping.write(item, out)
            except _BadEnumError as err:
                raise err.within(f"{self.name}[{i}].") from None
            if len(out) == start:
                out.append(self.empty_item)
        return True

    def nodes(self, msg: Any) -> int:
        items = getattr(msg, self.name)
        if not items:
            return self.empty_nodes()
        mapping = self.mapping
        return 2 + sum(mapping.nodes(item) for item in items[:])

    def depth(self) -> int:
        return 1 + self.mapping.depth()


class IntMapPlan(FieldPlan):
    """A map of string to int64, its keys in yaml.v3's order."""

    __slots__ = ("indicator", "key_pad", "pad")

    def __init__(self, fi: FieldInfo, column: int, first: str) -> None:
        super().__init__(fi, column, first)
        inner = _value_indent(column)
        key_inner = _value_indent(inner)
        self.pad = " " * inner
        # Where an explicit key's continuation lines go.
        self.key_pad = " " * key_inner
        self.indicator = str(key_inner - inner)

    def write(self, msg: Any, out: list[str], head: str) -> bool:
        m = getattr(msg, self.name)
        if not m:
            return self.write_empty(out, head, " {}\n")
        out.append(head + "\n")
        pad, key_pad, indicator = self.pad, self.key_pad, self.indicator
        for key, n in sorted_items(m):
            out.append(f"{pad}{key_text(key, pad, key_pad, indicator)} {n}\n")
        return True

    def nodes(self, msg: Any) -> int:
        n = len(getattr(msg, self.name))
        return 2 + 2 * n if n else self.empty_nodes()

    def depth(self) -> int:
        return 1


_FIELD_PLANS: Final[dict[Kind, type[FieldPlan]]] = {
    Kind.STRING: StringPlan,
    Kind.INT: IntPlan,
    Kind.ENUM: EnumPlan,
    Kind.MESSAGE: MessagePlan,
    Kind.STRING_LIST: StringListPlan,
    Kind.MESSAGE_LIST: MessageListPlan,
    Kind.INT_MAP: IntMapPlan,
}


class MappingPlan:
    """The plan of a message written as a block mapping at one position."""

    __slots__ = ("fields",)

    def __init__(self, info: MessageInfo, column: int, first: str) -> None:
        self.fields = tuple(_FIELD_PLANS[fi.kind](fi, column, first) for fi in info.fields)

    def write(self, msg: Any, out: list[str]) -> None:
        """Append the mapping's lines; nothing at all if every field is omitted."""
        first = True
        for field in self.fields:
            if field.write(msg, out, field.first_head if first else field.head):
                first = False

    def nodes(self, msg: Any) -> int:
        """The nodes :meth:`write` writes: the mapping itself (``{}`` when empty) and its fields."""
        return 1 + sum(field.nodes(msg) for field in self.fields)

    def depth(self) -> int:
        """How many collections deep the mapping nests, itself included."""
        return 1 + max((field.depth() for field in self.fields), default=0)


_MAPPINGS: dict[tuple[str, int, str], MappingPlan] = {}


def _mapping(info: MessageInfo, column: int, first: str) -> MappingPlan:
    """The cached plan of ``info`` with keys at ``column``, the first written after ``first``.

    ``first`` is the indentation, or for a sequence item the indentation
    and the ``- `` indicator.
    """
    key = (info.full_name, column, first)
    plan = _MAPPINGS.get(key)
    if plan is None:
        plan = _MAPPINGS[key] = MappingPlan(info, column, first)
    return plan


DOCUMENT: Final[MappingPlan] = _mapping(TASK_SPEC, 0, "")

#: How deep the collections of any TaskSpec's YAML nest: it depends on the
#: schema alone, not on the values.
DEPTH: Final = DOCUMENT.depth()


def nodes(spec: taskspec_pb2.TaskSpec) -> int:
    """The number of YAML nodes :func:`marshal` writes for *spec*, as a reader counts them.

    Every key, scalar value, mapping and sequence is one node; no document
    :func:`marshal` writes has an alias. It walks the message, not the
    text, and counts a list or a map by its length, so it costs
    microseconds even for a spec of a hundred thousand signals.
    """
    return DOCUMENT.nodes(spec)


def marshal(spec: taskspec_pb2.TaskSpec) -> bytes:
    """``yaml.Marshal(spec)`` of the Go struct, as UTF-8 bytes.

    Field order, omission, quoting, escaping and layout follow yaml.v3
    exactly, except for the round-trip fixes in :data:`ROUND_TRIP_FIXES`.
    Raises :class:`TaskSpecError` for an enum number that has no YAML
    spelling, naming the field, because writing it would lose the value.
    """
    out: list[str] = []
    try:
        DOCUMENT.write(spec, out)
    except _BadEnumError as e:
        raise TaskSpecError(
            [
                Violation(
                    e.path,
                    f"{e.path}: enum value {e.number} is not defined in {e.enum_name} "
                    "and cannot be written as YAML",
                )
            ]
        ) from None
    return "".join(out).encode("utf-8")
