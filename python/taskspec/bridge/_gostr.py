"""Small re-implementations of Go standard-library string behaviour.

Validation messages must equal the Go package's byte for byte, and they
embed values formatted with Go's ``%q`` and tested with Go's
``strings.TrimSpace``. Python's ``repr`` and ``str.strip`` differ from both
in corner cases (``str.strip`` also removes U+001C..U+001F, which Go keeps),
so the Go rules are written out here.
"""

from __future__ import annotations

import unicodedata

__all__ = ["go_quote", "go_trim_space"]

#: Go's unicode.IsSpace set: the ASCII white space, NEL, NBSP and the
#: Unicode White_Space characters of category Z.
_GO_SPACE = (
    "\t\n\v\f\r \x85\xa0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)

_SHORT_ESCAPES = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    "\\": "\\\\",
    '"': '\\"',
}


def go_trim_space(s: str) -> str:
    """``strings.TrimSpace``: strip Go's Unicode white space from both ends."""
    return s.strip(_GO_SPACE)


def _go_printable(ch: str) -> bool:
    # unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the
    # ASCII space. Other spaces and every control or format rune are not.
    if ch == " ":
        return True
    return unicodedata.category(ch)[0] in "LMNPS"


def go_quote(s: str) -> str:
    """``strconv.Quote`` (the ``%q`` verb) for a valid Unicode string."""
    if s.isascii() and s.isprintable() and '"' not in s and "\\" not in s:
        return f'"{s}"'
    out = ['"']
    for ch in s:
        esc = _SHORT_ESCAPES.get(ch)
        if esc is not None:
            out.append(esc)
        elif _go_printable(ch):
            out.append(ch)
        else:
            cp = ord(ch)
            if cp < 0x80:
                out.append(f"\\x{cp:02x}")
            elif cp < 0x10000:
                out.append(f"\\u{cp:04x}")
            else:
                out.append(f"\\U{cp:08x}")
    out.append('"')
    return "".join(out)
