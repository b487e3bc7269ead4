"""The conformance vectors: Go's recorded answers, and the code that records them.

``vectors/`` holds the vectors and ``sources/`` the hand-written documents
they start from; :mod:`tests.conformance.generate` (``make vectors``) asks
the Go consumer (``go/`` here, built into ``.bin/taskspec-conform``) about
every document through :mod:`tests.conformance.gobridge` and writes down
its answers.

The package depends only on the taskspec library, the Go consumer and its
own modules, never on the test modules above it, so that generating the
vectors cannot depend on what the tests that check them do.
"""

from __future__ import annotations

__all__: list[str] = []
