"""Where the conformance data lives, and the vector classes, written once.

The generator writes these paths and the tests read them; both take them
from here so that neither can drift from the other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

__all__ = [
    "CLASSES",
    "CONFORMANCE_DIR",
    "DEFAULT_BINARY",
    "ROOT",
    "SOURCES_DIR",
    "STRICTER_FILE",
    "VECTORS_DIR",
]

#: The repository root.
ROOT: Final = Path(__file__).resolve().parent.parent.parent
CONFORMANCE_DIR: Final = ROOT / "tests" / "conformance"
#: The generated vectors, one directory per class.
VECTORS_DIR: Final = CONFORMANCE_DIR / "vectors"
#: The hand-written documents behind ``rejected/`` and ``accepted/``.
SOURCES_DIR: Final = CONFORMANCE_DIR / "sources"
#: The documents Python rejects on purpose although Go does not, with the reason.
STRICTER_FILE: Final = CONFORMANCE_DIR / "stricter.json"
#: The Go consumer that ``make conform`` builds.
DEFAULT_BINARY: Final = ROOT / ".bin" / "taskspec-conform"

#: The vector classes, one directory each, in the order they are written.
CLASSES: Final = ("canonical", "roundtrip_bugs", "rejected", "accepted")
