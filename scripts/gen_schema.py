"""Generate the TaskSpec JSON Schema from proto/ (run by ``make schema``).

The schema's structure comes from the descriptors the package already walks
and from the rule table that ``Validate`` runs (:mod:`taskspec._jsonschema`,
:mod:`taskspec._rules`); this script only adds what the runtime descriptors
lack: the proto's doc comments. They are read from a
``buf build`` image with source info, so the descriptions editors show are
the proto's own words and cannot drift from them.

The same bytes are written twice: ``schema/`` is what sidecar modelines and
editor settings point at, and the copy inside the package is what
``taskspec schema`` prints from an installed package. ``make checkschema``
runs this with ``--out`` set to a temporary directory and compares.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from google.protobuf import descriptor_pb2

from taskspec import _jsonschema

ROOT = Path(__file__).resolve().parent.parent

#: Where the schema is written, relative to --out.
OUTPUTS = (
    Path("schema") / _jsonschema.FILENAME,
    Path("python") / "taskspec" / _jsonschema.FILENAME,
)

# Field numbers of descriptor.proto, as they appear in SourceCodeInfo paths.
_FILE_MESSAGE = 4  # FileDescriptorProto.message_type
_FILE_ENUM = 5  # FileDescriptorProto.enum_type
_MESSAGE_FIELD = 2  # DescriptorProto.field
_MESSAGE_NESTED = 3  # DescriptorProto.nested_type
_MESSAGE_ENUM = 4  # DescriptorProto.enum_type
_ENUM_VALUE = 2  # EnumDescriptorProto.value


def build_image(buf: str) -> descriptor_pb2.FileDescriptorSet:
    """Compile proto/ with buf, keeping source info (where the comments live)."""
    result = subprocess.run(
        [buf, "build", "--as-file-descriptor-set", "-o", "-#format=binpb"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if result.returncode != 0:
        sys.stderr.buffer.write(result.stderr)
        raise SystemExit(f"buf build failed with exit status {result.returncode}")
    image = descriptor_pb2.FileDescriptorSet()
    image.ParseFromString(result.stdout)
    return image


def clean(comment: str) -> str:
    """A proto comment as plain text: lines of a paragraph joined, paragraphs kept.

    protoc keeps the space after ``//`` and the line breaks of the source;
    editors reflow descriptions themselves, so hard breaks inside a
    paragraph only get in the way.
    """
    paragraphs: list[list[str]] = [[]]
    for line in comment.splitlines():
        text = line.removeprefix(" ").rstrip()
        if text:
            paragraphs[-1].append(text)
        elif paragraphs[-1]:
            paragraphs.append([])
    return "\n\n".join(" ".join(p) for p in paragraphs if p)


def _named(
    file: descriptor_pb2.FileDescriptorProto,
) -> Iterator[tuple[tuple[int, ...], str]]:
    """Every (source path, full name) of a file's messages, fields, enums and enum values.

    Enum values are named ``<enum full name>.<VALUE_NAME>``, the key the
    schema builder looks them up by.
    """

    def enum(
        path: tuple[int, ...], scope: str, desc: descriptor_pb2.EnumDescriptorProto
    ) -> Iterator[tuple[tuple[int, ...], str]]:
        name = f"{scope}.{desc.name}"
        yield path, name
        for i, value in enumerate(desc.value):
            yield (*path, _ENUM_VALUE, i), f"{name}.{value.name}"

    def message(
        path: tuple[int, ...], scope: str, desc: descriptor_pb2.DescriptorProto
    ) -> Iterator[tuple[tuple[int, ...], str]]:
        name = f"{scope}.{desc.name}"
        yield path, name
        for i, fd in enumerate(desc.field):
            yield (*path, _MESSAGE_FIELD, i), f"{name}.{fd.name}"
        for i, nested in enumerate(desc.nested_type):
            yield from message((*path, _MESSAGE_NESTED, i), name, nested)
        for i, nested_enum in enumerate(desc.enum_type):
            yield from enum((*path, _MESSAGE_ENUM, i), name, nested_enum)

    for i, msg in enumerate(file.message_type):
        yield from message((_FILE_MESSAGE, i), file.package, msg)
    for i, top_enum in enumerate(file.enum_type):
        yield from enum((_FILE_ENUM, i), file.package, top_enum)


def descriptions(image: descriptor_pb2.FileDescriptorSet) -> dict[str, str]:
    """Proto full name -> leading doc comment, for everything in the image that has one."""
    out: dict[str, str] = {}
    for file in image.file:
        comments = {
            tuple(loc.path): loc.leading_comments
            for loc in file.source_code_info.location
            if loc.leading_comments
        }
        for path, name in _named(file):
            text = clean(comments.get(path, ""))
            if text:
                out[name] = text
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Write the schema under --out (the repository root by default)."""
    parser = argparse.ArgumentParser(description="Generate the TaskSpec JSON Schema from proto/.")
    parser.add_argument("--buf", default=str(ROOT / ".venv" / "bin" / "buf"), help="buf binary")
    parser.add_argument("--out", type=Path, default=ROOT, help="directory to write into")
    args = parser.parse_args(argv)
    image = build_image(args.buf)
    data = _jsonschema.render(_jsonschema.build(descriptions(image)))
    for rel in OUTPUTS:
        target: Path = args.out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
