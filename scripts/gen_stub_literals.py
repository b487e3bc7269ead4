"""Make the generated ``*_pb2.pyi`` stubs accept, for an enum field, only what the run time does.

protoc's pyi generator types the constructor argument of an enum field as
``_Union[Language, str]``, so ``TaskSpec(language="go")`` passes ``mypy
--strict`` and then fails at run time with ``ValueError: unknown enum label
"go"``. The run time takes the enum's value (``Language.GO``,
``LANGUAGE_GO``) or the exact name of one of its values (``"LANGUAGE_GO"``),
and no other string. This script rewrites every such ``_Union[Enum, str]``
(a singular or ``optional`` field, the element of a repeated one, the value
of a map entry's constructor) as ``_Union[Enum, _Literal["LANGUAGE_UNSPECIFIED",
"LANGUAGE_GO", ...]]`` and adds ``Literal as _Literal`` to the stub's
``from typing import`` line, where protoc writes its other typing names.

The value names come from the descriptors, never from a hand list: the ones
that the same protoc run serialized into the ``*_pb2.py`` beside each stub
(read as data; nothing generated is imported), so the stubs and the
messages cannot disagree. A map field's own constructor argument keeps
protoc's ``_Mapping[str, Enum]``: upb takes value names as map values but
the pure-Python implementation refuses them.

``make generate`` runs it on ``python/`` right after ``buf generate``, and
``make checkgenerate`` on its temporary output before comparing, so the
committed stubs are exactly this script's output. Running it twice changes
nothing. It fails, rather than writing a stub that still says ``str``, when
a ``_Union[..., str]`` names no known enum or when the number of rewritten
arguments differs from the number of enum fields the descriptors declare.

Usage: ``python scripts/gen_stub_literals.py OUTPUT_DIR`` (the ``out`` of
buf's Python plugins, e.g. ``python``).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from google.protobuf import descriptor_pb2, descriptor_pool

# protoc's text for an enum field's constructor argument: the enum's type as
# the stub names it (Language, M.Inner, _taskspec_pb2.Language), then str.
_ENUM_OR_STR = re.compile(r"_Union\[(?P<type>[A-Za-z_][\w.]*), str\]")
_NARROWED = re.compile(r"_Union\[[A-Za-z_][\w.]*, _Literal\[")
_TYPING_IMPORT = re.compile(r"^from typing import (?P<names>.+)$", re.MULTILINE)
_FROM_IMPORT = re.compile(r"^from (?P<package>[\w.]+) import (?P<name>\w+) as (?P<alias>\w+)$")
_IMPORT = re.compile(r"^import (?P<module>[\w.]+) as (?P<alias>\w+)$")
_LITERAL_IMPORT = "Literal as _Literal"


class StubError(Exception):
    """A stub this script cannot rewrite faithfully."""


def module_name(proto_file: str) -> str:
    """The Python module protoc generates for *proto_file*, as protoc names it."""
    stem = proto_file.removesuffix(".proto").replace("-", "_").replace("/", ".")
    return stem + "_pb2"


def serialized_descriptor(pb2_path: Path) -> descriptor_pb2.FileDescriptorProto:
    """The FileDescriptorProto a generated ``*_pb2.py`` registers, read without running it."""
    tree = ast.parse(pb2_path.read_text(), str(pb2_path))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "AddSerializedFile"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, bytes)
        ):
            return descriptor_pb2.FileDescriptorProto.FromString(node.args[0].value)
    raise StubError(f"{pb2_path}: no serialized file descriptor found")


def _installed_descriptor(proto_file: str) -> descriptor_pb2.FileDescriptorProto | None:
    """A dependency that is not in the output directory (a well-known type), if importable."""
    try:
        importlib.import_module(module_name(proto_file))
        found = descriptor_pool.Default().FindFileByName(proto_file)
    except (ImportError, KeyError):
        return None
    proto = descriptor_pb2.FileDescriptorProto()
    found.CopyToProto(proto)
    return proto


def _enums(
    prefix: str,
    enums: list[descriptor_pb2.EnumDescriptorProto],
    messages: list[descriptor_pb2.DescriptorProto],
) -> Iterator[tuple[str, list[str]]]:
    """(name relative to the package, value names) of every enum, nested ones included."""
    for enum in enums:
        yield prefix + enum.name, [value.name for value in enum.value]
    for message in messages:
        yield from _enums(
            f"{prefix}{message.name}.", list(message.enum_type), list(message.nested_type)
        )


def _enum_field_count(messages: list[descriptor_pb2.DescriptorProto]) -> int:
    """Enum fields of every message, nested ones and map entries included."""
    count = 0
    for message in messages:
        count += sum(f.type == descriptor_pb2.FieldDescriptorProto.TYPE_ENUM for f in message.field)
        count += _enum_field_count(list(message.nested_type))
    return count


def _aliases(stub: str) -> dict[str, str]:
    """Module name -> the alias the stub imports it as."""
    aliases = {}
    for line in stub.splitlines():
        if m := _FROM_IMPORT.match(line):
            aliases[f"{m['package']}.{m['name']}"] = m["alias"]
        elif m := _IMPORT.match(line):
            aliases[m["module"]] = m["alias"]
    return aliases


def _add_literal_import(stub: str, path: Path) -> str:
    match = _TYPING_IMPORT.search(stub)
    if match is None:
        raise StubError(f"{path}: no 'from typing import' line to add {_LITERAL_IMPORT} to")
    names = [name.strip() for name in match["names"].split(",")]
    if _LITERAL_IMPORT in names:
        return stub
    names = sorted([*names, _LITERAL_IMPORT])
    line = "from typing import " + ", ".join(names)
    return stub[: match.start()] + line + stub[match.end() :]


def rewrite(
    stub: str,
    path: Path,
    own: descriptor_pb2.FileDescriptorProto,
    files: dict[str, descriptor_pb2.FileDescriptorProto],
) -> str:
    """*stub*, the pyi of *own*, with each enum argument narrowed to the enum or its value names.

    *files* maps proto file names to descriptors, for the enums of the
    files *own* imports.
    """
    literals: dict[str, list[str]] = {}
    for name, values in _enums("", list(own.enum_type), list(own.message_type)):
        literals[name] = values
    aliases = _aliases(stub)
    for dependency in own.dependency:
        dep = files.get(dependency) or _installed_descriptor(dependency)
        alias = aliases.get(module_name(dependency))
        if dep is None or alias is None:
            continue
        for name, values in _enums("", list(dep.enum_type), list(dep.message_type)):
            literals[f"{alias}.{name}"] = values

    rewritten = 0

    def narrow(match: re.Match[str]) -> str:
        nonlocal rewritten
        type_name = match["type"]
        if type_name not in literals:
            raise StubError(f"{path}: _Union[{type_name}, str] names no enum known to the stub")
        rewritten += 1
        labels = ", ".join(f'"{value}"' for value in literals[type_name])
        return f"_Union[{type_name}, _Literal[{labels}]]"

    new = _ENUM_OR_STR.sub(narrow, stub)
    # A stub this script already rewrote is left as it is.
    narrowed = rewritten + len(_NARROWED.findall(stub))
    expected = _enum_field_count(list(own.message_type))
    if narrowed != expected:
        raise StubError(
            f"{path}: {narrowed} enum arguments narrowed, but the descriptors declare "
            f"{expected} enum fields"
        )
    if rewritten:
        new = _add_literal_import(new, path)
    return new


def process(out_dir: Path) -> list[Path]:
    """Rewrite every ``*_pb2.pyi`` under *out_dir* in place; the paths that changed."""
    stubs = sorted(out_dir.rglob("*_pb2.pyi"))
    descriptors = {}
    for stub in stubs:
        pb2 = stub.with_suffix(".py")
        if not pb2.is_file():
            raise StubError(f"{stub}: no {pb2.name} beside it to read the descriptors from")
        proto = serialized_descriptor(pb2)
        descriptors[proto.name] = (stub, proto)
    files = {name: proto for name, (_, proto) in descriptors.items()}
    changed = []
    for stub, proto in descriptors.values():
        text = stub.read_text()
        new = rewrite(text, stub, proto, files)
        if new != text:
            stub.write_text(new)
            changed.append(stub)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("out_dir", type=Path, help="the directory buf wrote the Python stubs to")
    args = parser.parse_args(argv)
    if not args.out_dir.is_dir():
        parser.error(f"not a directory: {args.out_dir}")
    try:
        process(args.out_dir)
    except StubError as err:
        print(f"gen_stub_literals: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
