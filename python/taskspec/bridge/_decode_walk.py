"""The descriptor walk: one composed document into a TaskSpec, field by field.

One converter walks the node tree by the message descriptors (through
:mod:`taskspec.bridge._layout`), threading the field path through every
call, so a problem is reported once, at the exact field, line and column.
It reads the tree the way yaml.v3 does with unknown fields rejected, and
refuses what yaml.v3 would drop silently (null keys, null list items, merge
keys, duplicate keys). Scalars are read by
:mod:`taskspec.bridge._decode_scalar`.

By default the walk stops at the first problem, as Go's decoder does. In
collecting mode (``collect=True``, what ``taskspec validate`` uses) it
records each problem in :attr:`Decoded.problems` and goes on with the next
key, list item or map entry, so a file's every unknown key, duplicate key
and misread value is reported in one run; the entry at fault is left out
of the spec. A node budget overrun still stops the walk at once.

Aliases are expanded as the walk meets them, so the walk, not the parser,
holds the last part of the node budget: every node it visits is counted
against the budget it is given, and a document that expands past it fails
before the walk has done much more work than the budget allows.
"""

from __future__ import annotations

from typing import Any, Final

from yaml.nodes import Node, ScalarNode

from taskspec._errors import DecodeError, Violation
from taskspec._forms_gen import (
    MSG_DUPLICATE_KEY_AT_PATH,
    MSG_LIMIT_EXPANDS,
    MSG_WRONG_TYPE_EXPECTED,
    MSG_WRONG_TYPE_EXPECTED_MAPPING_FOR,
    MSG_WRONG_TYPE_KEY_NOT_STRING_AT_PATH,
    REASON_UNSUPPORTED_EMPTY_TAG_ITEM,
    REASON_UNSUPPORTED_MERGE_KEY,
    REASON_UNSUPPORTED_NULL_ITEM,
    REASON_UNSUPPORTED_NULL_KEY,
    REASON_UNSUPPORTED_QUESTION_IN_FLOW,
    WORD_EMPTY_KEY,
    WORD_MAPPING,
    WORD_SEQUENCE,
)
from taskspec._words import render
from taskspec.bridge._breaks import editor_position
from taskspec.bridge._decode_load import MAPPING, PLAIN, SCALAR, SEQUENCE, position
from taskspec.bridge._decode_msg import clip, describe, fail, join, q, refuse, unknown_field
from taskspec.bridge._decode_scalar import NULL_TAG, integer, is_null, null_text, string
from taskspec.bridge._gostr import go_quote
from taskspec.bridge._layout import (
    K_ENUM,
    K_INT,
    K_INT_MAP,
    K_MESSAGE,
    K_MESSAGE_LIST,
    K_STRING,
    K_STRING_LIST,
    TASK_SPEC,
    FieldInfo,
    Kind,
    MessageInfo,
)
from taskspec.v1 import taskspec_pb2

__all__ = ["Decoded", "Walker"]

# The field kinds under Final names of this module, for the same reason as
# SCALAR in _decode_load: a compiled build holds them in C statics.
_STRING: Final = K_STRING
_INT: Final = K_INT
_ENUM: Final = K_ENUM
_MESSAGE: Final = K_MESSAGE
_STRING_LIST: Final = K_STRING_LIST
_MESSAGE_LIST: Final = K_MESSAGE_LIST
_INT_MAP: Final = K_INT_MAP


class Decoded:
    """A decoded spec plus what validation needs to report in Go's terms."""

    __slots__ = ("positions", "problems", "raw_enums", "spec")

    def __init__(self) -> None:
        self.spec = taskspec_pb2.TaskSpec()
        #: Every problem the walk met, in document order (collecting mode only).
        self.problems: list[Violation] = []
        #: Enum text that names no known value, by field path.
        self.raw_enums: dict[str, str] = {}
        #: (line, column) of each field's value, by field path.
        self.positions: dict[str, tuple[int, int]] = {}


class _Plan:
    """One message as the walk reads it: its fields by YAML key.

    Derived from :mod:`taskspec.bridge._layout` once per message, so that the
    walk reads plain dictionaries and attributes of its own classes (native
    ones in the compiled build) rather than the layout's mappings.
    """

    __slots__ = ("fields", "info")

    def __init__(self, info: MessageInfo) -> None:
        self.info = info
        self.fields: dict[str, _Field] = {}


class _Field:
    """One field as the walk reads it (see :class:`_Plan`)."""

    __slots__ = ("kind", "message", "name", "pointer", "values")

    def __init__(self, info: FieldInfo, message: _Plan | None) -> None:
        self.name: str = info.name
        self.kind: Kind = info.kind
        self.pointer: bool = info.pointer
        self.values: dict[str, int] = dict(info.enum.from_string) if info.enum is not None else {}
        self.message = message


_PLANS: dict[str, _Plan] = {}


def _plan(info: MessageInfo) -> _Plan:
    """The cached :class:`_Plan` of *info* (registered before its fields: recursion ends)."""
    plan = _PLANS.get(info.full_name)
    if plan is None:
        plan = _PLANS[info.full_name] = _Plan(info)
        for fi in info.by_name.values():
            sub = _plan(fi.message) if fi.message is not None else None
            plan.fields[fi.name] = _Field(fi, sub)
    return plan


_ROOT: Final = _plan(TASK_SPEC)


def _bang_empty(node: Node) -> bool:
    """Whether *node* is the empty plain scalar tagged ``!`` alone: "" to YAML, null to yaml.v3."""
    return type(node) is SCALAR and node.tag == "!" and node.value == "" and not node.style


def _second(key: Node, first: Node, value: Node) -> Node:
    """Where a duplicate key stands: the key itself, or its value when the key is an alias.

    An alias (``*k : 3``) composes to the node it names, which stands
    earlier in the document; its value stands where the alias was written.
    """
    return key if key.start_mark.index > first.start_mark.index else value


class Walker:
    """Walks one composed document into a TaskSpec, within a node budget."""

    __slots__ = ("budget", "collect", "limit", "out", "source")

    def __init__(self, source: str, out: Decoded, budget: int, collect: bool = False) -> None:
        self.source = source
        self.out = out
        self.budget = budget
        self.limit = budget
        self.collect = collect

    def _keep(self, err: DecodeError) -> None:
        """Record *err* and go on (collecting mode), or raise it.

        A budget overrun is always raised: past it, the walk must stop.
        """
        if not self.collect or self.budget < 0:
            raise err
        self.out.problems.extend(err.violations)

    def _count(self, node: Node) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise fail("", MSG_LIMIT_EXPANDS, node, n=self.limit)

    def document(self, root: Node) -> None:
        """Walk *root*, the document's top node (a mapping, or null), into ``out.spec``."""
        if self.collect:
            self.out.positions[""] = position(root)
        try:
            self.message(root, _ROOT, self.out.spec, "")
        except DecodeError as err:
            self._keep(err)

    def message(self, node: Node, plan: _Plan, msg: Any, path: str) -> None:
        if type(node) is not MAPPING:
            if type(node) is SCALAR and is_null(node):
                return
            what = path or "the document"
            raise fail(
                path, MSG_WRONG_TYPE_EXPECTED_MAPPING_FOR, node, field=what, got=describe(node)
            )
        pairs: list[tuple[Node, Node]] = node.value
        if node.flow_style:
            self._check_flow_scalars(node, [n for pair in pairs for n in pair], path)
        fields = plan.fields
        seen: dict[str, Node] = {}
        positions = self.out.positions
        for key_node, value_node in pairs:
            self._count(value_node)
            try:
                fd: _Field | None = None
                if type(key_node) is SCALAR and key_node.tag == PLAIN and not key_node.style:
                    # The common case: a plain key that names a field, so is
                    # neither null nor "<<" and needs none of _key's checks.
                    # (libyaml gives '! "k"' a plain scalar's tag too.)
                    key: str = key_node.value
                    fd = fields.get(key)
                if fd is None:
                    key, fd = self._key(key_node, plan, path)
                if key in seen:
                    line = editor_position(self.source, seen[key].start_mark.line + 1, 0)[0]
                    raise fail(
                        join(path, key),
                        MSG_DUPLICATE_KEY_AT_PATH,
                        _second(key_node, seen[key], value_node),
                        key=q(key),
                        line=line,
                    )
                seen[key] = key_node
                sub = join(path, key)
                positions[sub] = position(value_node)
                self.field(value_node, fd, msg, sub)
            except DecodeError as err:
                self._keep(err)

    def _key(self, key_node: Node, plan: _Plan, path: str) -> tuple[str, _Field]:
        """The field a mapping key names, or the error that it names none."""
        if type(key_node) is not SCALAR:
            raise fail(
                path, MSG_WRONG_TYPE_KEY_NOT_STRING_AT_PATH, key_node, got=describe(key_node)
            )
        if is_null(key_node):
            raise self._null_key(path, key_node)
        plain = key_node.tag == PLAIN and not key_node.style
        key = key_node.value if plain else string(key_node, path, self.source)
        if key == "<<" and plain:
            raise refuse(path, REASON_UNSUPPORTED_MERGE_KEY, key_node)
        fd = plan.fields.get(key)
        if fd is None:
            raise unknown_field(path, key, plan.info, key_node, self.source)
        return key, fd

    @staticmethod
    def _null_key(path: str, key_node: ScalarNode) -> DecodeError:
        shown = clip(key_node.value) or render(WORD_EMPTY_KEY)
        return refuse(path, REASON_UNSUPPORTED_NULL_KEY, key_node, key=shown)

    @staticmethod
    def _not_null_item(node: Node, path: str, empty: str) -> None:
        if type(node) is SCALAR and is_null(node):
            raise refuse(path, REASON_UNSUPPORTED_NULL_ITEM, node, empty=empty)

    @staticmethod
    def _not_bang_item(node: Node, path: str) -> None:
        """Refuse ``- !``: the empty string to YAML, which yaml.v3 reads as null and drops."""
        if _bang_empty(node):
            raise refuse(path, REASON_UNSUPPORTED_EMPTY_TAG_ITEM, node)

    def field(self, node: Node, fd: _Field, msg: Any, path: str) -> None:
        kind = fd.kind
        name = fd.name
        if kind is _STRING:
            setattr(msg, name, string(node, path, self.source))
        elif kind is _INT:
            setattr(msg, name, integer(node, path, self.source))
        elif kind is _ENUM:
            text = string(node, path, self.source)
            number = fd.values.get(text)
            if number is None:
                self.out.raw_enums[path] = text
                number = 0
            setattr(msg, name, number)
        elif kind is _MESSAGE:
            assert fd.message is not None
            if type(node) is SCALAR and is_null(node):
                msg.ClearField(name)
                return
            if fd.pointer and type(node) is MAPPING and node.tag == NULL_TAG:
                # yaml.v3's prepare leaves a null-tagged node's pointer nil, and
                # its mapping then has nowhere to go: the Go package refuses it.
                got = f"{describe(node)} tagged !!null"
                raise fail(path, MSG_WRONG_TYPE_EXPECTED_MAPPING_FOR, node, field=path, got=got)
            sub = getattr(msg, name)
            sub.SetInParent()
            self.message(node, fd.message, sub, path)
        elif kind is _STRING_LIST:
            items = self._sequence(node, path)
            target = getattr(msg, name)
            del target[:]
            values: list[str] = []
            positions = self.out.positions
            for i, item in enumerate(items):
                # Where an item rule's violation points (verification.test_cmd[2]).
                positions[f"{path}[{i}]"] = position(item)
                if type(item) is SCALAR and item.tag == PLAIN and not item.style:
                    plain: str = item.value
                    if not null_text(plain):
                        values.append(plain)  # what string() reads, without making a path
                        continue
                try:
                    self._not_null_item(item, f"{path}[{i}]", "''")
                    self._not_bang_item(item, f"{path}[{i}]")
                    values.append(string(item, f"{path}[{i}]", self.source))
                except DecodeError as err:
                    self._keep(err)
            target.extend(values)
        elif kind is _MESSAGE_LIST:
            assert fd.message is not None
            items = self._sequence(node, path)
            target = getattr(msg, name)
            del target[:]
            for i, item in enumerate(items):
                try:
                    self._not_null_item(item, f"{path}[{i}]", "{}")
                    self.message(item, fd.message, target.add(), f"{path}[{i}]")
                except DecodeError as err:
                    self._keep(err)
        elif kind is _INT_MAP:
            self._int_map(node, getattr(msg, name), path)
        else:  # pragma: no cover - _layout rejects other kinds at import
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
                type(child) is SCALAR
                and not child.style
                and "?" in child.value
                and start <= child.start_mark.index < end
            ):
                raise refuse(path, REASON_UNSUPPORTED_QUESTION_IN_FLOW, child, value=q(child.value))

    def _sequence(self, node: Node, path: str) -> list[Node]:
        if type(node) is SEQUENCE:
            items: list[Node] = node.value
            self.budget -= len(items)
            if self.budget < 0:
                raise fail(path, MSG_LIMIT_EXPANDS, node, n=self.limit)
            if node.flow_style:
                self._check_flow_scalars(node, items, path)
            return items
        if type(node) is SCALAR and is_null(node):
            return []
        raise fail(
            path, MSG_WRONG_TYPE_EXPECTED, node, want=render(WORD_SEQUENCE), got=describe(node)
        )

    def _int_map(self, node: Node, target: Any, path: str) -> None:
        target.clear()
        if type(node) is not MAPPING:
            if type(node) is SCALAR and is_null(node):
                return
            raise fail(
                path, MSG_WRONG_TYPE_EXPECTED, node, want=render(WORD_MAPPING), got=describe(node)
            )
        if node.flow_style:
            self._check_flow_scalars(node, [n for pair in node.value for n in pair], path)
        seen: dict[str, Node] = {}
        for key_node, value_node in node.value:
            self._count(value_node)
            try:
                self._int_entry(key_node, value_node, target, path, seen)
            except DecodeError as err:
                self._keep(err)

    def _int_entry(
        self, key_node: Node, value_node: Node, target: Any, path: str, seen: dict[str, Node]
    ) -> None:
        """One entry of a map of integers (difficulty_signals) into *target*."""
        if type(key_node) is not SCALAR:
            raise fail(
                path, MSG_WRONG_TYPE_KEY_NOT_STRING_AT_PATH, key_node, got=describe(key_node)
            )
        if key_node.tag == PLAIN and not key_node.style and key_node.value == "<<":
            raise refuse(path, REASON_UNSUPPORTED_MERGE_KEY, key_node)
        if is_null(key_node) or _bang_empty(key_node):
            # "? !" is the empty string to YAML, but null to yaml.v3, which
            # skips the entry: refused as the null key it is to Go.
            raise self._null_key(path, key_node)
        key = string(key_node, path, self.source)
        sub = f"{path}[{go_quote(key)}]"
        if key in seen:
            line = editor_position(self.source, seen[key].start_mark.line + 1, 0)[0]
            at = _second(key_node, seen[key], value_node)
            raise fail(sub, MSG_DUPLICATE_KEY_AT_PATH, at, key=q(key), line=line)
        seen[key] = key_node
        target[key] = integer(value_node, sub, self.source)
