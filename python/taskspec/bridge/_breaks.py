"""YAML 1.1's line breaks: one definition for the reader, the writer, the checks and the comments.

YAML 1.1 (which libyaml and yaml.v3 read) ends a line at CR, LF, CR LF,
NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR, not only at the breaks
``str.splitlines`` or a ``\\n`` count knows. Positions, comments, folding
and the writer's choice of style all turn on that set; written once here,
they cannot disagree about it. This module imports nothing of the package,
so the compiled writer can use it without loading the catalogue.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["LINE_BREAK", "LINE_ENDS"]

#: The characters that end a line in YAML 1.1 (CR LF is one break).
LINE_ENDS: Final = "\r\n\x85\u2028\u2029"
#: One line break, as libyaml counts lines.
LINE_BREAK: Final = re.compile(f"\r\n|[{LINE_ENDS}]")
