"""A scratch copy of the schema with map fields the code has never seen, for Python and Go.

The writers in :mod:`taskspec._json` and :mod:`taskspec._binpb` promise Go's bytes for every map
field at every depth, found by walking descriptors. The proof is a schema
with new maps: this module copies proto/taskspec/v1/taskspec.proto into a
temporary directory and adds

- ``map<string, int64> extra_counts`` at the end of TaskSpec, numbered
  after its last field;
- ``map<string, int64> weights`` on the nested KGQuery, declared before the
  fields it is numbered after (protojson and YAML write fields in
  declaration order, binary in number order);
- a second file with ``MapProbe``, outside TaskSpec: a map for every key
  type, maps of messages that hold maps, maps in repeated and singular
  messages, and a Struct.

It generates Python and Go stubs with the project's own local tools, as
``make generate`` does (buf from the venv, protoc from grpcio-tools,
protoc-gen-go from .bin/; no remote plugin), and builds a small Go program
against the scratch Go stubs. Only the scratch files are generated: the Go
stubs of every other proto, which is unchanged (the GeneratorService, which
the Go package serves; the problem catalogue, which it reads its codes
from), are copied from gen/go so that the Go package builds.

Python runs against the scratch stubs in a child process, ``python -m
tests.scratchproto PYTHON_DIR``, which loads them as
``taskspec.v1.taskspec_pb2`` before it imports taskspec, so the whole
package, YAML bridge included, sees the scratch schema and the test
process's own stubs are never touched.
"""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = [
    "GO_PROBE",
    "MAP_PROBE_PROTO",
    "Scratch",
    "ToolMissingError",
    "build",
    "run_go",
    "run_python",
]

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"
PROTOC = ROOT / "tools" / "protoc"
PROTOC_GEN_GO = ROOT / ".bin" / "protoc-gen-go"
GEN_GO = ROOT / "gen" / "go"

#: The second file of the scratch schema.
MAP_PROBE_PROTO = """\
syntax = "proto3";

package taskspec.v1;

import "google/protobuf/struct.proto";
import "taskspec/v1/taskspec.proto";

option go_package = "github.com/taskspec/taskspec/gen/go/taskspec/v1;taskspecv1";

// MapProbe has a map for every key type, and maps at every depth.
message MapProbe {
  // Declared first, numbered last.
  string label = 20;
  map<string, MapProbe> by_string = 1;
  map<int32, MapProbe> by_int32 = 2;
  map<bool, MapProbe> by_bool = 3;
  map<sint64, MapProbe> by_sint64 = 4;
  map<fixed32, MapProbe> by_fixed32 = 5;
  map<sfixed64, MapProbe> by_sfixed64 = 6;
  map<uint64, MapProbe> by_uint64 = 7;
  int64 between = 8;
  map<int64, string> int64_strings = 9;
  map<uint32, bytes> uint32_bytes = 10;
  map<sint32, bool> sint32_bools = 11;
  map<fixed64, int32> fixed64_int32s = 12;
  map<sfixed32, uint64> sfixed32_uint64s = 13;
  map<string, Language> languages = 14;
  map<string, SolutionArtifact> artifacts = 15;
  repeated MapProbe items = 16;
  MapProbe child = 17;
  google.protobuf.Struct meta = 18;
}
"""

#: The Go side. For each request it reads the message from Python's bytes
#: and writes it back with Go's deterministic proto.Marshal and protojson;
#: for a TaskSpec also the YAML that the Go package would write if its
#: structs gained the new fields as map[string]int64 fields, without
#: omitempty, where they are declared (the plugin declares struct fields in
#: the proto's order, which Python's YAML order follows too): the package's
#: MarshalYAML for the fields it knows, with yaml.v3's encoding of each new
#: map added to its mapping, extra_counts last and weights first.
GO_PROBE = """\
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	taskspecv1 "github.com/taskspec/taskspec/gen/go/taskspec/v1"
	taskspec "github.com/taskspec/taskspec/go"
	yaml "go.yaml.in/yaml/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

type request struct {
	Type  string `json:"type"`
	Binpb []byte `json:"binpb"`
}

type result struct {
	Binpb []byte  `json:"binpb"`
	JSON  string  `json:"json"`
	YAML  *string `json:"yaml,omitempty"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run() error {
	var reqs []request
	if err := json.NewDecoder(os.Stdin).Decode(&reqs); err != nil {
		return err
	}
	out := make([]result, 0, len(reqs))
	for _, req := range reqs {
		mt, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName(req.Type))
		if err != nil {
			return err
		}
		msg := mt.New().Interface()
		if err := proto.Unmarshal(req.Binpb, msg); err != nil {
			return err
		}
		bin, err := proto.MarshalOptions{Deterministic: true}.Marshal(msg)
		if err != nil {
			return err
		}
		js, err := protojson.Marshal(msg)
		if err != nil {
			return err
		}
		res := result{Binpb: bin, JSON: string(js)}
		if spec, ok := msg.(*taskspecv1.TaskSpec); ok {
			y, err := specYAML(spec)
			if err != nil {
				return err
			}
			res.YAML = &y
		}
		out = append(out, res)
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}

func specYAML(spec *taskspecv1.TaskSpec) (string, error) {
	known, err := taskspec.MarshalYAML(spec)
	if err != nil {
		return "", err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(known, &doc); err != nil {
		return "", err
	}
	if again, err := yaml.Marshal(&doc); err != nil || !bytes.Equal(again, known) {
		return "", errors.New("yaml.v3 does not write the package's YAML again from its nodes")
	}
	root := doc.Content[0]
	if q := spec.GetGeneratedFrom().GetKgQuery(); q != nil {
		kg := child(child(root, "generated_from"), "kg_query")
		if err := addMap(kg, "weights", q.GetWeights(), true); err != nil {
			return "", err
		}
	}
	if err := addMap(root, "extra_counts", spec.GetExtraCounts(), false); err != nil {
		return "", err
	}
	out, err := yaml.Marshal(&doc)
	return string(out), err
}

func child(mapping *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(mapping.Content); i += 2 {
		if mapping.Content[i].Value == key {
			return mapping.Content[i+1]
		}
	}
	panic("no key " + key)
}

func addMap(mapping *yaml.Node, key string, m map[string]int64, first bool) error {
	if m == nil {
		m = map[string]int64{}
	}
	var value yaml.Node
	if err := value.Encode(m); err != nil {
		return err
	}
	name := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}
	if first {
		mapping.Content = append([]*yaml.Node{name, &value}, mapping.Content...)
	} else {
		mapping.Content = append(mapping.Content, name, &value)
	}
	return nil
}
"""


class ToolMissingError(Exception):
    """A tool the scratch build needs is missing."""


@dataclass(frozen=True)
class Scratch:
    """A generated scratch schema: its Python stubs and the Go program built on its Go stubs."""

    python_dir: Path
    go_probe: Path


def _edit(text: str, anchor: str, replacement: str) -> str:
    if text.count(anchor) != 1:
        raise AssertionError(f"taskspec.proto no longer has exactly one {anchor!r}")
    return text.replace(anchor, replacement)


#: The contract options of an optional field the agent may see.
OPTIONAL_SHOWN = (
    "[(field) = {\n    presence: PRESENCE_OMIT_EMPTY\n    visibility: VISIBILITY_SHOWN\n  }]"
)


def next_number(text: str, message: str) -> int:
    """The next free field number of *message* in the proto *text*."""
    import re  # noqa: PLC0415

    body = _body(text, message)
    return max(int(n) for n in re.findall(r"^  [^/\n]*? = (\d+)", body, re.MULTILINE)) + 1


def _body(text: str, message: str) -> str:
    head = f"\nmessage {message} {{\n"
    if text.count(head) != 1:
        raise AssertionError(f"taskspec.proto no longer has exactly one message {message}")
    start = text.index(head) + len(head)
    return text[start : text.index("\n}\n", start)]


def add_field(text: str, message: str, declaration: str, *, first: bool = False) -> str:
    """*text* with *declaration* (``{n}``: the next free number) added to *message*.

    The field is declared last, or first with *first*.
    """
    line = "  " + declaration.replace("{n}", str(next_number(text, message))) + "\n"
    head = f"\nmessage {message} {{\n"
    body = _body(text, message)
    at = text.index(head) + len(head) + (0 if first else len(body) + 1)
    return text[:at] + line + text[at:]


def scratch_proto() -> str:
    """proto/taskspec/v1/taskspec.proto with the two new map fields."""
    text = (ROOT / "proto" / "taskspec" / "v1" / "taskspec.proto").read_text()
    text = add_field(
        text, "TaskSpec", "map<string, int64> extra_counts = {n} " + OPTIONAL_SHOWN + ";"
    )
    return add_field(
        text, "KGQuery", "map<string, int64> weights = {n} " + OPTIONAL_SHOWN + ";", first=True
    )


def _run(argv: list[str], cwd: Path, stdin: bytes = b"") -> bytes:
    env = {**os.environ, "GOWORK": "off"}
    done = subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True, env=env, check=False)
    if done.returncode:
        raise AssertionError(
            f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr.decode(errors='replace')}"
        )
    return done.stdout


def _tools() -> tuple[str, Path]:
    """go and buf, and protoc-gen-go installed by the Makefile if it is missing."""
    go = shutil.which("go")
    buf = VENV_BIN / "buf"
    if go is None:
        raise ToolMissingError("go is not installed")
    if not buf.exists() or not (VENV_BIN / "python").exists():
        raise ToolMissingError(f"{buf} is missing (make venv)")
    if not PROTOC_GEN_GO.exists():
        done = subprocess.run(
            ["make", str(PROTOC_GEN_GO)], cwd=ROOT, capture_output=True, check=False
        )
        if done.returncode:
            raise ToolMissingError(f"cannot install protoc-gen-go: {done.stderr.decode()[-500:]}")
    return go, buf


def build(tmp: Path) -> Scratch:
    """Write the scratch schema under *tmp*, generate its stubs and build the Go program."""
    go, buf = _tools()
    proto = tmp / "proto" / "taskspec" / "v1"
    proto.mkdir(parents=True)
    (proto / "taskspec.proto").write_text(scratch_proto())
    # The options and what they import (the catalogue's ProblemKind).
    for name in ("options.proto", "problems.proto"):
        shutil.copy(ROOT / "proto" / "taskspec" / "v1" / name, proto / name)
    (proto / "mapprobe.proto").write_text(MAP_PROBE_PROTO)
    (tmp / "buf.yaml").write_text("version: v2\nmodules:\n  - path: proto\n")
    template = {
        "version": "v2",
        "plugins": [
            {
                "protoc_builtin": "python",
                "protoc_path": str(ROOT / "tools" / "protoc"),
                "out": "python",
            },
            {"local": str(PROTOC_GEN_GO), "out": "gen/go", "opt": ["paths=source_relative"]},
        ],
    }
    (tmp / "buf.gen.yaml").write_text(json.dumps(template))
    _run([str(buf), "generate"], tmp)

    gen_go = tmp / "gen" / "go"
    for name in ("go.mod", "go.sum"):
        shutil.copy(GEN_GO / name, gen_go / name)
    # Every stub the scratch schema did not generate is of a proto it leaves
    # unchanged: copied as it is, so that a proto added later needs no edit here.
    stubs = gen_go / "taskspec" / "v1"
    for stub in sorted((GEN_GO / "taskspec" / "v1").glob("*.go")):
        if not (stubs / stub.name).exists():
            shutil.copy(stub, stubs / stub.name)

    probe = tmp / "probe"
    probe.mkdir()
    conform = ROOT / "tests" / "conformance" / "go"
    for name in ("go.mod", "go.sum"):
        shutil.copy(conform / name, probe / name)
    (probe / "main.go").write_text(GO_PROBE)
    _run(
        [
            go,
            "mod",
            "edit",
            "-module=scratchprobe",
            f"-replace=github.com/taskspec/taskspec/gen/go={gen_go}",
            f"-replace=github.com/taskspec/taskspec/go={ROOT / 'go'}",
        ],
        probe,
    )
    _run([go, "build", "-o", "probe", "."], probe)
    return Scratch(python_dir=tmp / "python", go_probe=probe / "probe")


def run_python(scratch: Scratch) -> dict[str, Any]:
    """What taskspec writes for the scratch messages, from a child process on the scratch stubs."""
    out = _run([sys.executable, "-m", "tests.scratchproto", str(scratch.python_dir)], ROOT)
    result: dict[str, Any] = json.loads(out)
    return result


def run_go(scratch: Scratch, requests: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """What Go writes for each (message name, base64 binpb) request."""
    body = json.dumps([{"type": name, "binpb": data} for name, data in requests]).encode()
    results: list[dict[str, Any]] = json.loads(_run([str(scratch.go_probe)], ROOT, body))
    return results


# -- the child process ---------------------------------------------------------

#: Keys whose byte order, yaml.v3 order and upb order all differ.
STRING_KEYS = ["b", "a10", "a9", "", "Z", "é", "edge_count_max", "edge_count", "😀", "~"]


def _load(python_dir: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        f"taskspec.v1.{name}", python_dir / "taskspec" / "v1" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _probe(cls: Any, depth: int) -> Any:
    """A MapProbe with many keys of every type, and message maps two levels deep."""
    p = cls(label=f"depth {depth}", between=-depth - 1)
    few = 3 if depth else None
    for i, k in enumerate([3, -3, 30, 0, -(2**63)][:few]):
        p.int64_strings[k] = f"s{i}"
    for i, k in enumerate([4_000_000_000, 1, 20, 3, 0][:few]):
        p.uint32_bytes[k] = bytes([i, 255 - i])
    for i, k in enumerate([-7, 7, 0, -(2**31), 2**31 - 1][:few]):
        p.sint32_bools[k] = i % 2 == 0
    for i, k in enumerate([2**64 - 1, 8, 80, 0][:few]):
        p.fixed64_int32s[k] = -i
    for i, k in enumerate([-(2**31), 2**31 - 1, -4, 4, 0][:few]):
        p.sfixed32_uint64s[k] = 2**64 - 1 - i
    for i, name in enumerate(STRING_KEYS[:few]):
        p.languages[name] = i % 4
        p.artifacts[name].path = f"a{i}.go"
    p.meta.update(
        {"z": "last", "": None, "b": [True, {"y": "", "x": False}], "a": {"é": "", "e": ""}}
    )
    if depth >= 2:
        return p
    message_maps: dict[str, list[Any]] = {
        "by_string": STRING_KEYS,
        "by_int32": [10, -1, 2, -(2**31), 2**31 - 1, 0],
        "by_bool": [True, False],
        "by_sint64": [2**63 - 1, 5, -5, 0, -(2**63)],
        "by_fixed32": [2**32 - 1, 0, 7, 300],
        "by_sfixed64": [-1, 1, -(2**63), 0],
        "by_uint64": [2**64 - 1, 0, 10, 9, 2**63],
    }
    for field, keys in message_maps.items():
        if depth and field not in ("by_string", "by_bool"):
            continue
        for k in keys[: 2 if depth else None]:
            getattr(p, field)[k].CopyFrom(_probe(cls, depth + 1))
    p.items.add().CopyFrom(_probe(cls, depth + 1))
    p.items.add()
    p.child.CopyFrom(_probe(cls, 2))
    # Fields this schema does not know (numbers 111 and 112), which Go and
    # Python both keep and write last.
    p.child.MergeFromString(b"\xf8\x06\x01\x82\x07\x01z")
    p.MergeFromString(b"\xf8\x06\x02")
    return p


def child_main(python_dir: Path) -> dict[str, Any]:
    """Everything taskspec writes for a TaskSpec and a MapProbe of the scratch schema."""
    _load(python_dir, "taskspec_pb2")
    mapprobe_pb2 = _load(python_dir, "mapprobe_pb2")

    # Imported only now, so that they see the scratch stubs.
    from google.protobuf import json_format  # noqa: PLC0415

    import taskspec  # noqa: PLC0415
    from taskspec._gowire import go_binary, go_json  # noqa: PLC0415
    from tests.cliutil import run_cli  # noqa: PLC0415
    from tests.helpers import valid_spec  # noqa: PLC0415

    spec: Any = valid_spec()  # a scratch TaskSpec, with the new maps
    for i, key in enumerate(reversed(STRING_KEYS)):
        spec.extra_counts[key] = i - 3
    for i, key in enumerate(STRING_KEYS):
        spec.generated_from.kg_query.weights[key] = 2**62 - i
    encoded = {fmt: taskspec.marshal(spec, fmt) for fmt in taskspec.Format}
    converted = {
        f"{source}->{target}": taskspec.convert(encoded[source], source, target)
        for source, target in product(taskspec.Format, taskspec.Format)
    }
    cli: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "spec.yaml")
        path.write_bytes(encoded[taskspec.Format.YAML])
        for fmt in taskspec.Format:
            ran = run_cli(["convert", "--to", fmt, str(path)])
            assert ran.code == 0, ran.err
            cli[fmt] = ran.out

    probe = _probe(mapprobe_pb2.MapProbe, 0)
    probe_json = go_json(probe, json_format.MessageToDict(probe))

    def b64(data: bytes) -> str:
        return base64.b64encode(data).decode()

    return {
        "task_spec_fields": [fd.name for fd in spec.DESCRIPTOR.fields],
        "spec": {
            "binpb": b64(encoded[taskspec.Format.BINPB]),
            "json": encoded[taskspec.Format.JSON].decode(),
            "yaml": encoded[taskspec.Format.YAML].decode(),
            "upb_binpb": b64(spec.SerializeToString(deterministic=True)),
            "converted": {k: b64(v) for k, v in converted.items()},
            "cli": {k: b64(v) for k, v in cli.items()},
            "encoded": {k: b64(v) for k, v in encoded.items()},
        },
        "probe": {
            "binpb": b64(go_binary(probe)),
            "json": json.dumps(probe_json, ensure_ascii=False),
            "upb_binpb": b64(probe.SerializeToString(deterministic=True)),
            "upb_json": json.dumps(json_format.MessageToDict(probe), ensure_ascii=False),
        },
    }


if __name__ == "__main__":
    print(json.dumps(child_main(Path(sys.argv[1]))))
