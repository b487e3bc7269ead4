"""The JSON Schema (draft 2020-12) of the YAML sidecar, built from the descriptors.

Editors validate and complete ``taskspec.yaml`` files against a JSON Schema,
so the schema has to say what the Go package accepts, and nothing else. It is
built by walking :data:`taskspec.bridge._layout.TASK_SPEC`, the same descriptor walk
the YAML bridge uses, so a field added to the proto appears in the schema
with no hand edit. Two kinds of fact do not come from the descriptors:

* the Go struct tags (``omitempty``, pointers), which :mod:`taskspec.bridge._layout`
  already lists; and
* what ``Validate`` requires, read from the rule table
  :data:`taskspec._rules.RULES` (the same table
  :func:`taskspec._validate.check` runs): each rule is said with its kind's
  fragment (:data:`taskspec._constraints.IMPLEMENTATIONS`), and a key is
  required when its zero value breaks one of its rules.

Descriptions come from the proto's doc comments. The runtime descriptors do
not carry comments, so the caller passes them in (the generator script reads
them from a ``buf build`` image with source info) and this module stays a
pure function of the descriptors plus that text.

``required`` in the schema means "Validate rejects the document when the key
is missing". Go decodes a missing key as the zero value, so a key is required
exactly when its zero value is invalid: ``task_spec_version`` (0 is not 1),
the non-blank strings, the enums (``""`` is UNSPECIFIED, never valid) and
``test_cmd`` (``[]``), and every value-struct message holding such a field
(``generated_from``, ``verification``). Keys that are always *written* but
accept their zero value, such as a solution artifact's ``path``, are not
required.

Every rule of ``Validate`` is in the schema, "not blank after trimming"
included (a ``pattern`` spelled from Go's white space). What is left out is
listed in :data:`NOT_IN_SCHEMA`: the rules about the YAML text rather than
the data it denotes. Where the schema is stricter than the parser is listed in
:data:`STRICTER_THAN_PARSER`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any, Final

from google.protobuf.descriptor import EnumDescriptor, FieldDescriptor

from taskspec._constraints import NOT_BLANK_PATTERN, zero_breaks
from taskspec._limits import INT64_MAX, INT64_MIN, MAX_DOCUMENT_BYTES, MAX_NODES
from taskspec._rules import BY_FIELD, Rule
from taskspec.bridge import _layout

__all__ = [
    "DIALECT",
    "FILENAME",
    "NOT_BLANK_PATTERN",
    "NOT_IN_SCHEMA",
    "SCHEMA_ID",
    "STRICTER_THAN_PARSER",
    "build",
    "packaged",
    "render",
]

#: The JSON Schema dialect: draft 2020-12, the current one.
DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"

#: File name of the schema, both in ``schema/`` and as package data.
FILENAME: Final = "taskspec.v1.schema.json"

#: The schema's ``$id``: where the repository publishes ``schema/`` at its
#: default branch, which a modeline or an editor setting may name too. A v2
#: schema is another file, so the identifier of this one never changes.
SCHEMA_ID: Final = f"https://raw.githubusercontent.com/taskspec/taskspec/main/schema/{FILENAME}"


#: What ``taskspec validate`` rejects and the schema cannot say, each with the
#: reason. A JSON Schema judges the data a YAML reader hands it, so rules about
#: the YAML text itself are out of its reach. ``taskspec validate`` (and Go)
#: still enforce every one of them.
NOT_IN_SCHEMA: Final[Mapping[str, str]] = MappingProxyType(
    {
        "duplicate keys, at any level": (
            "the reader keeps one value per key (usually the last) before the schema sees it."
        ),
        "more than one YAML document in a file": (
            "editors validate each document on its own; a sidecar is exactly one document."
        ),
        "merge keys (<<) and tags other than the standard ones (!!binary, !custom)": (
            "readers resolve them, or not, before validation, each in their own way."
        ),
        "input that is not UTF-8 (invalid bytes, UTF-16, UTF-32)": (
            "the schema applies to decoded text, not to bytes."
        ),
        f"documents over {MAX_DOCUMENT_BYTES // (1 << 20)} MiB, or over {MAX_NODES:,} nodes"
        " after alias expansion": (
            "the parser's resource bounds are about the text, not the data it denotes."
        ),
    }
)

#: Documents ``taskspec validate`` (and Go) accept but the schema rejects,
#: each with the reason. The schema types the values the way a YAML 1.2
#: reader does, as an editor sees them, while Go reads each scalar by the
#: type of its field. ``taskspec fmt`` rewrites each case into a form the
#: schema accepts, because the canonical writer quotes, spells and omits
#: values so that every reader agrees on them.
STRICTER_THAN_PARSER: Final[Mapping[str, str]] = MappingProxyType(
    {
        "an unquoted number, boolean or null where a string goes (task_id: 123, role: true)": (
            "a YAML 1.2 reader types the scalar by its spelling; Go takes the text as written."
        ),
        "null or an empty value for a field (kg_query: ~, build_cmd:, role:)": (
            "Go reads it as the zero value; the schema wants the value's type, or the key left out."
        ),
        "integers spelled in ways YAML 1.2 has no integers for (0b101, 1_000)": (
            "Go's YAML 1.1 rules read them as numbers; a YAML 1.2 reader sees strings."
        ),
    }
)

#: Value bounds of the proto integer types the schema knows, by descriptor type.
_INT_BOUNDS: Final[Mapping[int, tuple[int, int]]] = MappingProxyType(
    {FieldDescriptor.TYPE_INT64: (INT64_MIN, INT64_MAX)}
)


@dataclass(frozen=True, slots=True)
class _Says:
    """What the schema says of one field on its rules' behalf (nothing, without rules).

    ``required``: the field's zero value (a missing key) breaks a rule.
    ``when_set``: its rules apply only when it is set (``FieldRules.ignore``),
    so its zero value is valid whatever they say.
    ``keywords``: the fragments of the field's own rules, merged in order;
    ``items``: those of its items' rules; ``messages``: the message of the
    rule behind each ``pattern`` (Go's words for a value that breaks it),
    by where the pattern is (``""`` the field, ``"items"`` its items).
    """

    required: bool
    when_set: bool
    keywords: Mapping[str, Any]
    items: Mapping[str, Any]
    messages: Mapping[str, str]

    @classmethod
    def of(cls, rules: tuple[Rule, ...], fi: _layout.FieldInfo, enum_ref: str | None) -> _Says:
        keywords: dict[str, Any] = {}
        items: dict[str, Any] = {}
        messages: dict[str, str] = {}
        required = False
        when_set = False
        for rule in rules:
            when_set = when_set or rule.ignore_zero
            fragment = rule.implementation.schema(rule.bound, enum_ref)
            (items if rule.item else keywords).update(fragment)
            if "pattern" in fragment:
                messages["items" if rule.item else ""] = rule.message
            if not rule.item and not rule.ignore_zero and zero_breaks(rule.kind, rule.bound):
                required = True
        return cls(required, when_set, keywords, items, messages)


def _plain_message(full_name: str, message: str) -> str:
    """A rule's message as an editor shows it for any value that breaks the rule.

    The message is Go's format string; one whose verbs take the offending
    value cannot be shown without it, and no schema keyword fills it in.
    """
    if "%" in message:
        raise RuntimeError(f"the message of {full_name}'s rule needs the value: {message!r}")
    return message


def _string(
    full_name: str, said: Mapping[str, Any], message: str, item: bool = False
) -> dict[str, Any]:
    """The schema of a string (or of each item of a list of strings) under its rules' keywords."""
    schema: dict[str, Any] = {"type": "string"}
    if "pattern" in said:
        # The pattern also refuses "", so no minLength, whose message
        # no editor lets a schema replace, is needed beside it.
        schema["pattern"] = said["pattern"]
        if not (item and "%" in message):
            schema["patternErrorMessage"] = _plain_message(full_name, message)
    # Every other keyword as its kind's fragment says it (minLength, ...).
    schema.update({k: v for k, v in said.items() if k != "pattern"})
    return schema


#: The zero value of each kind of field a rule can check, as JSON data.
_ZERO_JSON: Final[Mapping[_layout.Kind, Any]] = MappingProxyType(
    {
        _layout.Kind.STRING: "",
        _layout.Kind.INT: 0,
        _layout.Kind.ENUM: "",
        _layout.Kind.STRING_LIST: [],
    }
)

#: The keywords of a field's schema that say what it is, not what its rules demand.
_ABOUT: Final = frozenset({"title", "description", "type", "items"})


def _when_set(schema: dict[str, Any], zero: Any) -> dict[str, Any]:
    """*schema* with its rules' keywords applying only to a value other than *zero*.

    A field whose rules apply only when it is set (``FieldRules.ignore``)
    takes its zero value too: the keywords move under ``anyOf``, beside
    ``const`` of the zero value.
    """
    about = {k: v for k, v in schema.items() if k in _ABOUT}
    rules = {k: v for k, v in schema.items() if k not in _ABOUT}
    if not rules:
        return schema
    return {**about, "anyOf": [{"const": zero}, rules]}


class _Builder:
    """One walk over the descriptors, collecting ``$defs`` as it goes."""

    def __init__(self, descriptions: Mapping[str, str]) -> None:
        self.descriptions = descriptions
        self.defs: dict[str, dict[str, Any]] = {}
        self.used_rules: set[str] = set()

    def _describe(self, full_name: str) -> dict[str, Any]:
        text = self.descriptions.get(full_name, "")
        return {"description": text} if text else {}

    def _ref(self, name: str) -> dict[str, Any]:
        return {"$ref": f"#/$defs/{name}"}

    def _int(self, fd: FieldDescriptor, said: Mapping[str, Any]) -> dict[str, Any]:
        bounds = _INT_BOUNDS.get(fd.type)
        if bounds is None:
            raise RuntimeError(f"no integer bounds for the type of {fd.full_name}")
        # The bounds meet the type's range; every other keyword is as its
        # kind's fragment says it (multipleOf, say).
        others = {k: v for k, v in said.items() if k not in ("const", "minimum", "maximum")}
        if "const" in said:
            return {"type": "integer", "const": said["const"], **others}
        low, high = bounds
        low = max(low, said.get("minimum", low))
        high = min(high, said.get("maximum", high))
        return {"type": "integer", "minimum": low, "maximum": high, **others}

    def _enum_def(self, info: _layout.EnumInfo, desc: EnumDescriptor) -> None:
        if info.yaml_name in self.defs:
            return
        text = self.descriptions.get(desc.full_name, "")
        listed: list[str] = []
        values: list[str] = []
        abouts: list[str] = []
        for value in sorted(desc.values, key=lambda v: v.number):
            spelled = info.to_string[value.number]
            if not spelled:
                continue  # UNSPECIFIED is "" in YAML and never valid in a TaskSpec
            values.append(spelled)
            about = self.descriptions.get(f"{desc.full_name}.{value.name}", "")
            abouts.append(about)
            if about:
                listed.append(f"- `{spelled}`: {about}")
        if listed:
            text = "\n\n".join(p for p in (text, "\n".join(listed)) if p)
        schema: dict[str, Any] = {"title": desc.full_name}
        if text:
            schema["description"] = text
        schema.update({"type": "string", "enum": values})
        if any(abouts):
            # Each value's doc comment, shown beside it in completions and hovers.
            schema["enumDescriptions"] = abouts
        self.defs[info.yaml_name] = schema

    def _message_def(self, info: _layout.MessageInfo) -> str:
        name = info.full_name.rsplit(".", 1)[-1]
        if name not in self.defs:
            self.defs[name] = {}  # reserved first, so recursive messages terminate
            self.defs[name] = self.message(info)
        return name

    def field(self, fi: _layout.FieldInfo) -> tuple[dict[str, Any], bool]:
        """The schema of one field, and whether the field is required."""
        rules = BY_FIELD.get(fi.full_name, ())
        if rules:
            self.used_rules.add(fi.full_name)
        enum_ref = self._ref(fi.enum.yaml_name)["$ref"] if fi.enum is not None else None
        says = _Says.of(rules, fi, enum_ref)
        said = says.keywords
        kind = fi.kind
        # Titled with its own name: an editor's hover otherwise heads a
        # field with the title of the message that holds it.
        schema: dict[str, Any] = {"title": fi.name}
        schema.update(self._describe(fi.full_name))
        required = says.required
        if kind is _layout.Kind.STRING:
            schema.update(_string(fi.full_name, said, says.messages.get("", "")))
            if required and "pattern" not in said and "minLength" not in said:
                schema["minLength"] = 1
        elif kind is _layout.Kind.INT:
            schema.update(self._int(fi.descriptor, said))
            if required and said.get("const") in (None, 0) and said.get("minimum", 0) <= 0:
                raise RuntimeError(f"required integer {fi.full_name} must exclude 0")
        elif kind is _layout.Kind.ENUM:
            assert fi.enum is not None
            if not ((required or says.when_set) and "$ref" in said):
                # The enum's schema lists only defined values; a field that
                # Validate does not check would also accept "" and any
                # other string, which this builder cannot say yet.
                raise RuntimeError(f"enum field {fi.full_name} needs a defined rule")
            enum_type = fi.descriptor.enum_type
            assert enum_type is not None
            self._enum_def(fi.enum, enum_type)
            schema.update(self._ref(fi.enum.yaml_name))
        elif kind is _layout.Kind.MESSAGE:
            assert fi.message is not None
            name = self._message_def(fi.message)
            schema.update(self._ref(name))
            # A missing value struct decodes to its zero value, which is
            # invalid when it holds a required field. A missing pointer is nil.
            if not fi.pointer and self.defs[name].get("required"):
                required = True
        elif kind is _layout.Kind.STRING_LIST:
            item = _string(fi.full_name, says.items, says.messages.get("items", ""), item=True)
            schema.update({"type": "array", "items": item})
            schema.update(said)  # minItems, maxItems: as the kinds' fragments say them
            if required and "minItems" not in said:
                schema["minItems"] = 1
        elif kind is _layout.Kind.MESSAGE_LIST:
            assert fi.message is not None
            schema.update({"type": "array", "items": self._ref(self._message_def(fi.message))})
            if required:
                schema["minItems"] = 1
        elif kind is _layout.Kind.INT_MAP:
            entry = fi.descriptor.message_type
            assert entry is not None
            value = entry.fields_by_name["value"]
            schema.update({"type": "object", "additionalProperties": self._int(value, {})})
            if required:
                schema["minProperties"] = 1
        else:  # pragma: no cover - _layout rejects other kinds at import
            raise AssertionError(kind)
        if says.when_set:
            schema = _when_set(schema, _ZERO_JSON[kind])
        return schema, required

    def message(self, info: _layout.MessageInfo) -> dict[str, Any]:
        """The object schema of a message: its fields in canonical order, nothing else."""
        properties: dict[str, Any] = {}
        required: list[str] = []
        for fi in info.fields:
            schema, needed = self.field(fi)
            properties[fi.name] = schema
            if needed:
                required.append(fi.name)
        out: dict[str, Any] = {"title": info.full_name}
        out.update(self._describe(info.full_name))
        out.update({"type": "object", "properties": properties})
        if required:
            out["required"] = required
        out["additionalProperties"] = False
        return out


def build(descriptions: Mapping[str, str]) -> dict[str, Any]:
    """The JSON Schema of a TaskSpec sidecar, as plain JSON data.

    *descriptions* maps proto full names of messages, fields and enums, and
    ``<enum full name>.<VALUE_NAME>`` for enum values, to their doc comments
    as plain text; a name without one gets no ``description``. Key order is
    deterministic, so :func:`render` gives stable bytes.
    """
    builder = _Builder(descriptions)
    root = builder.message(_layout.TASK_SPEC)
    unused = BY_FIELD.keys() - builder.used_rules
    if unused:
        raise RuntimeError(f"rules name fields the schema does not have: {sorted(unused)}")
    schema: dict[str, Any] = {
        "$schema": DIALECT,
        "$id": SCHEMA_ID,
        "$comment": (
            "Generated from proto/taskspec/v1/taskspec.proto by `make schema`; do not edit."
        ),
    }
    schema.update(root)
    schema["$defs"] = {name: builder.defs[name] for name in sorted(builder.defs)}
    return schema


def render(schema: Mapping[str, Any]) -> bytes:
    """The committed bytes: UTF-8, 2-space indent, keys in build order, a final newline."""
    return (json.dumps(schema, indent=2, ensure_ascii=False) + "\n").encode()


def packaged() -> bytes:
    """The schema shipped inside the installed package (identical to ``schema/``)."""
    return resources.files("taskspec").joinpath(FILENAME).read_bytes()
