"""The descriptor walk: one composed document into a TaskSpec, field by field.

One converter walks the node tree by the message descriptors (through
:mod:`taskspec.bridge._layout`), threading the field path through every
call, so a problem is reported once, at the exact field, line and column.
It reads the tree the way yaml.v3 does with unknown fields rejected, and
refuses what yaml.v3 would drop silently (null keys, null list items, merge
keys, duplicate keys). Scalars are read by
:mod:`taskspec.bridge._decode_scalar`.

Aliases are expanded as the walk meets them, so the walk, not the parser,
holds the last part of the node budget: every node it visits is counted
against the budget it is given, and a document that expands past it fails
before the walk has done much more work than the budget allows.
"""

from __future__ import annotations

from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from taskspec._errors import DecodeError
from taskspec.bridge._decode_load import PLAIN, position
from taskspec.bridge._decode_msg import clip, describe, fail, join, q, unknown_field
from taskspec.bridge._decode_scalar import integer, is_null, string
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
from taskspec.v1 import taskspec_pb2

__all__ = ["Decoded", "Walker"]


class Decoded:
    """A decoded spec plus what validation needs to report in Go's terms."""

    __slots__ = ("positions", "raw_enums", "spec")

    def __init__(self) -> None:
        self.spec = taskspec_pb2.TaskSpec()
        #: Enum text that names no known value, by field path.
        self.raw_enums: dict[str, str] = {}
        #: (line, column) of each field's value, by field path.
        self.positions: dict[str, tuple[int, int]] = {}


class Walker:
    """Walks one composed document into a TaskSpec, within a node budget."""

    __slots__ = ("budget", "limit", "out", "source")

    def __init__(self, source: str, out: Decoded, budget: int) -> None:
        self.source = source
        self.out = out
        self.budget = budget
        self.limit = budget

    def _count(self, node: Node) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise fail("", f"document expands to more than {self.limit} nodes", node)

    def message(self, node: Node, info: MessageInfo, msg: Any, path: str) -> None:
        if type(node) is not MappingNode:
            if type(node) is ScalarNode and is_null(node):
                return
            what = path or "the document"
            raise fail(path, f"expected a mapping for {what}, got {describe(node)}", node)
        if node.flow_style:
            self._check_flow_scalars(node, [n for pair in node.value for n in pair], path)
        by_name = info.by_name
        seen: dict[str, Node] = {}
        positions = self.out.positions
        source = self.source
        for key_node, value_node in node.value:
            self._count(value_node)
            if type(key_node) is not ScalarNode:
                raise fail(
                    path, f"mapping keys must be strings, got {describe(key_node)}", key_node
                )
            if is_null(key_node):
                raise self._null_key(path, key_node)
            key = string(key_node, path, source) if key_node.tag != PLAIN else key_node.value
            if key == "<<" and key_node.tag == PLAIN:
                raise fail(path, "merge keys (<<) are not supported", key_node)
            fi = by_name.get(key)
            if fi is None:
                raise unknown_field(path, key, info, key_node)
            if key in seen:
                line = seen[key].start_mark.line + 1
                raise fail(
                    join(path, key),
                    f"duplicate key {q(key)} (first defined at line {line})",
                    key_node,
                )
            seen[key] = key_node
            sub = join(path, key)
            positions[sub] = position(value_node)
            self.field(value_node, fi, msg, sub)

    @staticmethod
    def _null_key(path: str, key_node: ScalarNode) -> DecodeError:
        shown = clip(key_node.value) or "an empty key"
        return fail(
            path,
            f"null key ({shown}) is not allowed: yaml.v3 skips such an entry silently;"
            " quote the key to mean a string",
            key_node,
        )

    @staticmethod
    def _not_null_item(node: Node, path: str, empty: str) -> None:
        if type(node) is ScalarNode and is_null(node):
            raise fail(
                path,
                "null item is not allowed: yaml.v3 drops it from the list silently;"
                f" write {empty} for an empty item",
                node,
            )

    def field(self, node: Node, fi: FieldInfo, msg: Any, path: str) -> None:
        kind = fi.kind
        name = fi.name
        if kind is K_STRING:
            setattr(msg, name, string(node, path, self.source))
        elif kind is K_INT:
            setattr(msg, name, integer(node, path, self.source))
        elif kind is K_ENUM:
            assert fi.enum is not None
            text = string(node, path, self.source)
            number = fi.enum.from_string.get(text)
            if number is None:
                self.out.raw_enums[path] = text
                number = 0
            setattr(msg, name, number)
        elif kind is K_MESSAGE:
            assert fi.message is not None
            if type(node) is ScalarNode and is_null(node):
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
                values.append(string(item, f"{path}[{i}]", self.source))
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
                type(child) is ScalarNode
                and not child.style
                and "?" in child.value
                and start <= child.start_mark.index < end
            ):
                raise fail(
                    path,
                    f"'?' in the plain scalar {q(child.value)} inside [] or {{}}: yaml.v3 cannot"
                    " read it; quote the string",
                    child,
                )

    def _sequence(self, node: Node, path: str) -> list[Node]:
        if type(node) is SequenceNode:
            items: list[Node] = node.value
            self.budget -= len(items)
            if self.budget < 0:
                raise fail(path, f"document expands to more than {self.limit} nodes", node)
            if node.flow_style:
                self._check_flow_scalars(node, items, path)
            return items
        if type(node) is ScalarNode and is_null(node):
            return []
        raise fail(path, f"expected a sequence, got {describe(node)}", node)

    def _int_map(self, node: Node, target: Any, path: str) -> None:
        target.clear()
        if type(node) is not MappingNode:
            if type(node) is ScalarNode and is_null(node):
                return
            raise fail(path, f"expected a mapping, got {describe(node)}", node)
        if node.flow_style:
            self._check_flow_scalars(node, [n for pair in node.value for n in pair], path)
        seen: dict[str, Node] = {}
        for key_node, value_node in node.value:
            self._count(value_node)
            if type(key_node) is not ScalarNode:
                raise fail(
                    path, f"mapping keys must be strings, got {describe(key_node)}", key_node
                )
            if key_node.tag == PLAIN and key_node.value == "<<":
                raise fail(path, "merge keys (<<) are not supported; quote the key", key_node)
            if is_null(key_node):
                raise self._null_key(path, key_node)
            key = string(key_node, path, self.source)
            sub = f"{path}[{key!r}]"
            if key in seen:
                line = seen[key].start_mark.line + 1
                message = f"duplicate key {q(key)} (first defined at line {line})"
                raise fail(sub, message, key_node)
            seen[key] = key_node
            target[key] = integer(value_node, sub, self.source)
