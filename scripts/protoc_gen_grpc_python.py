"""A protoc plugin that runs the grpc_python generator bundled with grpcio-tools.

grpcio-tools compiles the gRPC Python generator into its own protoc
(``python -m grpc_tools.protoc --grpc_python_out``) and ships no separate
``protoc-gen-grpc_python`` binary, while ``buf generate`` can only reach a
generator through a protoc built-in it knows by name or a plugin executable.
This script is that executable (``tools/protoc-gen-grpc_python`` runs it): it
takes buf's CodeGeneratorRequest, hands the same descriptors to the bundled
protoc and returns what the generator wrote. Everything stays local and
pinned by grpcio-tools' version; no remote plugin is involved.

Only files that declare a service get a ``*_pb2_grpc.py`` module: for any
other file the generator writes a module with nothing in it but imports.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from google.protobuf import descriptor_pb2
from google.protobuf.compiler import plugin_pb2
from grpc_tools import protoc


def generate(request: plugin_pb2.CodeGeneratorRequest) -> plugin_pb2.CodeGeneratorResponse:
    """The response the bundled generator gives for *request*."""
    response = plugin_pb2.CodeGeneratorResponse()
    response.supported_features = plugin_pb2.CodeGeneratorResponse.FEATURE_PROTO3_OPTIONAL
    by_name = {f.name: f for f in request.proto_file}
    wanted = [name for name in request.file_to_generate if by_name[name].service]
    if not wanted:
        return response
    with tempfile.TemporaryDirectory() as tmp:
        image = Path(tmp, "image.binpb")
        # proto_file is in dependency order, as --descriptor_set_in needs it.
        image.write_bytes(
            descriptor_pb2.FileDescriptorSet(file=request.proto_file).SerializeToString()
        )
        out = Path(tmp, "out")
        out.mkdir()
        opt = f"{request.parameter}:" if request.parameter else ""
        # protoc writes its own diagnostics to stderr, which buf shows.
        status = protoc.main(
            ["protoc", f"--descriptor_set_in={image}", f"--grpc_python_out={opt}{out}", *wanted]
        )
        if status != 0:
            response.error = f"grpc_python generator failed with status {status}"
            return response
        for path in sorted(p for p in out.rglob("*") if p.is_file()):
            response.file.add(
                name=path.relative_to(out).as_posix(), content=path.read_text(encoding="utf-8")
            )
    return response


def main() -> int:
    """Read a request from stdin, write the response to stdout."""
    request = plugin_pb2.CodeGeneratorRequest.FromString(sys.stdin.buffer.read())
    sys.stdout.buffer.write(generate(request).SerializeToString())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
