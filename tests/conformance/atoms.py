"""The hard strings and signal keys the canonical vectors are built from.

Every string here is one that a YAML writer can get wrong: YAML 1.1
booleans and nulls, numbers, dates and sexagesimals that a plain scalar
would turn into another type, indicators, leading and trailing space, line
breaks of every kind, control and non-ASCII characters, and very long
lines. The signal keys exercise yaml.v3's natural key order. The
generator puts each one into a spec and asks Go how it writes it.
"""

from __future__ import annotations

from taskspec._limits import INT64_MAX, INT64_MIN
from taskspec.bridge._gostr import go_trim_space

__all__ = [
    "ATOMS",
    "INT_VALUES",
    "KEY_ALPHABET",
    "KEY_ATOMS",
    "TRICKY_ALPHABET",
    "WORDS",
    "go_blank",
]

# -- the hard strings ------------------------------------------------------------


def _yaml11_booleans() -> list[str]:
    words = ["y", "n", "yes", "no", "on", "off", "true", "false"]
    out: list[str] = []
    for w in words:
        for form in (w, w.capitalize(), w.upper()):
            if form not in out:
                out.append(form)
    # Mixed case is not a boolean in any YAML version: these stay plain.
    out += ["yEs", "tRUE", "oFF", "nO"]
    return out


_INDICATORS = "-?:,[]{}#&*!|>'\"%@`"


def _indicator_strings() -> list[str]:
    out: list[str] = []
    for c in _INDICATORS:
        out += [c, c + "x", "x" + c, "x" + c + "y", c + " x", "x " + c, "x " + c + " y"]
    out += ["- x", "? x", ": x", "x: y", "x:y", "x #y", "x#y", "a, b", "[a]", "{a: b}", "a]"]
    out += ["---", "...", "--- x", "... x", "--", "-1x", "::", "<<", "=", "~x", "x~"]
    out += ["!!str", "!x", "&a", "*a", "%YAML 1.2", "@x", "`x`", "\\", "x\\y", "a'b", 'a"b']
    out += ["http://example.com/a?b=c#d", "C:\\path\\file", "x -", "x ?", "- ", "-\t"]
    return out


#: (category, string) pairs: every string the canonical set must carry.
ATOMS: tuple[tuple[str, str], ...] = tuple(
    [("bool", s) for s in _yaml11_booleans()]
    + [("null", s) for s in ["null", "Null", "NULL", "nULL", "~", ""]]
    + [
        ("number", s)
        for s in [
            "0",
            "-0",
            "+0",
            "1",
            "-1",
            "+1",
            "0x1F",
            "0X1F",
            "0x",
            "-0x1F",
            "1e3",
            "1E3",
            "1e+3",
            "1e-3",
            "1.50",
            ".5",
            "5.",
            "-.5",
            "0o17",
            "0O17",
            "017",
            "08",
            "09",
            "0b101",
            "0b2",
            "1_000",
            "1,000",
            "_1",
            "1_",
            ".inf",
            ".Inf",
            ".INF",
            "-.inf",
            "+.inf",
            ".nan",
            ".NaN",
            ".NAN",
            "inf",
            "nan",
            "Infinity",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775809",
            "1e400",
            "0.",
            "1.2.3",
            "1e",
            "e3",
            "0e0",
            "1:20",
            "1:20:30",
            "-1:20",
            "190:20:30.15",
            "0:0",
            "12:30:00",
        ]
    ]
    + [
        ("date", s)
        for s in [
            "2001-12-14",
            "2001-12-14t21:59:43.10-05:00",
            "2001-12-14 21:59:43.10 -5",
            "2001-12-15T02:59:43.1Z",
            "2002-1-1",
            "20:00",
            "T12:00",
            "2001-12-14T",
        ]
    ]
    + [("indicator", s) for s in _indicator_strings()]
    + [
        ("space", s)
        for s in [" x", "x ", " x ", " ", "  ", "\t", "\tx", "x\t", " \t ", "x  y", "x \t y"]
    ]
    + [
        ("multiline", s)
        for s in [
            "a\nb",
            "a\nb\n",
            "a\nb\n\n",
            "a\n\nb",
            "a\n",
            "a\n\n",
            "\n",
            "\n\n",
            "a \nb",
            "a\t\nb",
            "a\n b",
            "a\n\tb",
            "a\nb ",
            "a\nb\t",
            "a\r\nb",
            "a\r\nb\r\n",
            "a\rb",
            "\r",
            "a\r",
            "a\u2028b",
            "a\u2029b",
            "a\x85b",
            "a\nb\x85",
            "# a\nb",
            "- a\n- b",
            "a: b\nc: d",
            "|\na",
            "---\na",
            "a\n---\nb",
            "a\n...\nb",
            "a\n  b\n    c",
            "x" * 90 + "\n" + "y" * 90,
            "one\ntwo\nthree\n",
            "a\n\n\nb\n\n\n",
        ]
    ]
    + [
        ("unicode", s)
        for s in [
            "a\xa0b",
            "\xa0",
            "\xa0x",
            "x\xa0",
            "\ufeff",
            "\ufeffa",
            "a\ufeff",
            "\x00",
            "a\x00b",
            "\x07",
            "\x08",
            "\x1b[0m",
            "\x7f",
            "\x80",
            "\x9f",
            "\u200b",
            "\u200d",
            "\ue000",
            "\ufffd",
            "\ufffe",
            "\U0010ffff",
            "e\u0301",
            "\u202e",
            "\u3000",
            "\u1680",
            "caf\u00e9",
            "na\u00efve",
            "\U0001f600",
            "a\U0001f600b",
            "\U0001f468\u200d\U0001f469\u200d\U0001f467",
            "\u6f22\u5b57",
            "\u65e5\u672c\u8a9e\u30c6\u30ad\u30b9\u30c8",
            "\ud55c\uad6d\uc5b4",
            "\u0627\u0644\u0639\u0631\u0628\u064a\u0629",
            "\u0663\u0664",
        ]
    ]
    + [
        ("long", s)
        for s in [
            "x" * 200,
            "word " * 60 + "end",
            "a" * 5000,
            "a b" * 100 + "\n" + "c" * 300,
            ("lorem ipsum " * 30 + "\n") * 3,
        ]
    ]
    + [("empty", "")]
)

#: Signal keys that exercise yaml.v3's natural key order.
KEY_ATOMS: tuple[str, ...] = (
    "a9",
    "a10",
    "a09",
    "a010",
    "a1",
    "a01",
    "a001",
    "9",
    "10",
    "09",
    "010",
    "0",
    "00",
    "1",
    "a",
    "A",
    "b",
    "B",
    "z",
    "Z",
    "_",
    "-",
    ".",
    "_a",
    "a_",
    "a-",
    "a.",
    "a1b",
    "a01b",
    "a1a",
    "a10a",
    "a9z",
    "x.1",
    "x.10",
    "x.9",
    "v1.2",
    "v1.10",
    "v1.2.3",
    "1a",
    "1_",
    "1.",
    "10a",
    "1a1",
    "a1_",
    "a_1",
    "\u00e9",
    "\u00ea",
    "\u0663",
    "1\u0663",
    "\u6f22",
    "\U0001f600",
    "",
    " ",
    "~",
    "null",
    "true",
    "y",
    "Yes",
    "1e3",
    "0x1F",
    "-1",
    ".5",
    "a b",
    "a:b",
    "a: b",
    "#",
    "- a",
    "k" * 128,
    "k" * 129,
    "a\nb",
    "\ta",
    "a ",
    "99999999999999999999",
    "18446744073709551617",
    "a18446744073709551617",
    "cyclomatic_complexity",
    "edge_count",
    "involved_symbols",
    "kg_nodes",
    "kg_edges",
)

#: What random signal keys and random strings are made of.
KEY_ALPHABET = "aAbZ019_-. \u00e9\u0663"
TRICKY_ALPHABET = "aZ09 \t\n:#-?{}[],&*!|>'\"%@`\\~\xa0\u2028\x85\x00\x1b\u00e9\u6f22\U0001f600\r"

#: Integer values worth writing: small ones, large ones and the int64 extremes.
INT_VALUES = (0, 1, -1, 2, 42, 100, 1000, 10**9, 10**18, INT64_MAX, INT64_MIN, INT64_MAX - 1)
#: Ordinary command words, joined with atoms into random strings.
WORDS = ("go", "test", "./...", "build", "pytest", "-q", "npm", "run", "lint", "make", "check")


def go_blank(s: str) -> bool:
    """Whether Go's strings.TrimSpace leaves nothing of *s* (so Validate calls it missing)."""
    return not go_trim_space(s)
