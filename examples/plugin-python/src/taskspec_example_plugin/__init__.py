"""An example generator plugin for taskspec.

It declares :class:`PythonGenerator` in the ``taskspec.generators``
entry-point group (see this package's ``pyproject.toml``), so that once it
is installed, ``Registry.from_entry_points()`` registers it and
``taskspec serve`` serves it to harnesses in any language.

A real generator would read a knowledge graph in its constructor and pick a
seed symbol per call; this one frames the same task every time, the one in
the repository's ``examples/python.taskspec.yaml``.
"""

from __future__ import annotations

import taskspec
from taskspec import (
    GeneratedFrom,
    GeneratedKind,
    GenerateOptions,
    KGQuery,
    Language,
    SolutionArtifact,
    TaskSpec,
    Verification,
)

__all__ = ["PythonGenerator"]

_PROMPT = (
    "Implement `textkit.dedent` in `textkit/dedent.py` so that the existing tests pass.\n"
    "\n"
    "It removes the common leading whitespace of every non-blank line."
)


class PythonGenerator:
    """Frames an implement-a-function task for Python."""

    language = Language.PYTHON

    def generate(self, opts: GenerateOptions) -> TaskSpec:
        """The task, from ``opts.template_id`` (``impl-pure-fn`` when empty)."""
        # The seed's subgraph: 2 symbols, 4 edges, a cyclomatic complexity of 3.
        band, signals = taskspec.derive_difficulty(node_count=2, edge_count=4, cyclomatic=3)
        return TaskSpec(
            task_spec_version=taskspec.CURRENT_TASK_SPEC_VERSION,
            task_id="kg-python-impl-textwrap-dedent",
            language=self.language.to_proto(),
            difficulty=band.to_proto(),
            difficulty_signals=signals,
            generated_from=GeneratedFrom(
                kind=GeneratedKind.KG_TEMPLATE.to_proto(),
                template_id=opts.template_id or "impl-pure-fn",
                kg_query=KGQuery(intent="code_context", seed_symbol="textkit.dedent"),
            ),
            prompt=_PROMPT,
            solution_artifacts=[SolutionArtifact(path="textkit/dedent.py", role="target")],
            verification=Verification(
                test_cmd=["python", "-m", "pytest", "-q", "tests/test_dedent.py"],
                timeout_seconds=60,
            ),
        )
