"""A user's program: builds, edits and reads a spec with the package's own names.

tests/test_typing.py runs ``mypy --strict`` on it, unchanged, as a user of
the installed package would, and runs it. It covers the enums on a
message's fields and in its constructor (a member, or the exact name of a
proto enum value, which is all the run time takes), the Registry, and the
errors.
"""

from __future__ import annotations

import taskspec
from taskspec import (
    Difficulty,
    GeneratedKind,
    GenerateOptions,
    Language,
    Registry,
    TaskSpec,
    Verification,
)
from taskspec.v1 import generator_service_pb2


def build() -> TaskSpec:
    spec = TaskSpec(
        task_spec_version=taskspec.CURRENT_TASK_SPEC_VERSION,
        task_id="kg-python-impl-textwrap-dedent",
        language=Language.PYTHON,
        difficulty=Difficulty.EASY,
        prompt="Implement textkit.dedent.",
        verification=Verification(test_cmd=["python", "-m", "pytest"], timeout_seconds=60),
    )
    spec.generated_from.kind = GeneratedKind.KG_TEMPLATE
    spec.difficulty_signals["edge_count"] = 4
    return spec


def by_name() -> tuple[TaskSpec, TaskSpec]:
    # The constructor takes a member or the exact name of a proto enum value.
    named = TaskSpec(language="LANGUAGE_GO", difficulty="DIFFICULTY_EASY")
    member = TaskSpec(language=Language.GO, difficulty=Difficulty.EASY)
    return named, member


def languages() -> list[Language]:
    reply = generator_service_pb2.ListLanguagesResponse(languages=["LANGUAGE_GO", Language.PYTHON])
    return [Language(language) for language in reply.languages]


def edit(spec: TaskSpec) -> None:
    spec.difficulty = Difficulty.HARD
    spec.language = Language("python")
    spec.verification.test_cmd.append("-q")
    spec.solution_artifacts.add(path="textkit/dedent.py", role="target")


def read(spec: TaskSpec) -> tuple[Language, Difficulty, str]:
    language: Language = Language(spec.language)
    difficulty = Difficulty.from_proto(spec.difficulty)
    assert spec.language == Language.PYTHON
    assert spec.generated_from.kind == GeneratedKind.KG_TEMPLATE
    return language, difficulty, f"{language}/{difficulty.value}"


class PythonGenerator:
    language = Language.PYTHON

    def generate(self, opts: GenerateOptions) -> TaskSpec:
        spec = build()
        spec.generated_from.template_id = opts.template_id or "default"
        return spec


def registry() -> TaskSpec:
    reg = Registry()
    reg.register(PythonGenerator())
    maybe = reg.lookup(Language.GO)
    assert maybe is None
    try:
        reg.get(Language.GO)
    except LookupError as err:
        assert "go" in str(err)
    return reg.get(Language.PYTHON).generate(GenerateOptions(template_id="t1"))


def errors(data: bytes) -> list[str]:
    try:
        taskspec.parse_task_spec(data)
    except taskspec.DecodeError as err:
        return [f"{v.code} {v.field_path} {v.line}:{v.column}" for v in err.violations]
    except taskspec.ValidationError as err:
        return [f"{v.code} {v.field_path}" for v in err.violations]
    return []


def main() -> None:
    spec = build()
    edit(spec)
    taskspec.validate(spec)
    data = taskspec.marshal_yaml(spec)
    again = taskspec.parse_task_spec(data)
    assert again == spec
    assert read(again) == (Language.PYTHON, Difficulty.HARD, "python/hard")
    assert registry().generated_from.template_id == "t1"
    named, member = by_name()
    assert named == member and named.language == Language.GO
    assert languages() == [Language.GO, Language.PYTHON]
    assert errors(b"task_spec_version: 1\ntaskid: x\n")[0] == "TS001 taskid 2:1"
    assert errors(data.replace(b"language: python", b"language: cobol")) == ["TS103 language"]
    view = taskspec.agent_view(spec)
    assert not view.HasField("verification")
    band, signals = taskspec.derive_difficulty(node_count=6, edge_count=9, cyclomatic=4)
    assert band is Difficulty.MEDIUM and signals["edge_count"] == 9
    assert [v.code for v in taskspec.check(data)] == []


if __name__ == "__main__":
    main()
