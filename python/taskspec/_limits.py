"""Every limit and numeric bound of the contract, each declared once.

The readers, the writer, the converter, the CLI's bounded reads and the JSON
Schema all enforce or publish these numbers. The document limits are
declared in the proto (``(taskspec.v1.limits)`` on TaskSpec) and read here
from the descriptors, as the Go library reads them, so the two libraries
accept the same documents; the integer ranges are those of the field types.
"""

from __future__ import annotations

from typing import Final

from taskspec._contract import limits
from taskspec._values import INT64_MAX, INT64_MIN, UINT64_MAX

__all__ = [
    "INT64_MAX",
    "INT64_MIN",
    "MAX_DEPTH",
    "MAX_DOCUMENT_BYTES",
    "MAX_NODES",
    "UINT64_MAX",
]

#: Largest document accepted, in bytes. Sidecars are a few KiB; the bound
#: keeps a hostile or mistaken input (a log file, a binary) from costing more
#: than a fraction of a second.
MAX_DOCUMENT_BYTES: Final = int(limits().max_document_bytes)

#: Deepest nesting of collections accepted. A TaskSpec needs 3 levels; the
#: bound only exists so that libyaml never recurses deeply enough to exhaust
#: the C stack.
MAX_DEPTH: Final = int(limits().max_depth)

#: Most nodes a document may hold, counted on the parser's events before
#: anything is composed, and most nodes visited while walking, counting
#: every alias expansion. It bounds the time and memory a large or
#: alias-heavy document can cost; a TaskSpec has a few dozen nodes.
MAX_NODES: Final = int(limits().max_nodes)
