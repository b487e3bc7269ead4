"""A problem's words, rendered from the catalogue's forms.

Every form a problem's message or hint takes, every reason a message is
filled in with, and the few words messages share whatever their code (what
a node is: ``a sequence``, ``the string "x"``) are declared once, in
``proto/taskspec/v1/problems.proto``, each with an id. Code names a form by
the constant ``taskspec._forms_gen`` generates for it (``make generate``),
and renders it with its arguments by :func:`render`; the Go library renders
the same forms from the same declarations. So no module of the package
holds a problem's words, and a rewording is one edit to the proto.

A form's text is shown as written, but for ``{name}``: a name of lower case
letters, digits and ``_`` in braces stands for the argument of that name.
Any other brace is itself (``a { mapping is not closed with }``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from taskspec._codes import CATALOGUE
from taskspec.v1 import problems_pb2

__all__ = [
    "HINT",
    "MESSAGE",
    "REASON",
    "SERVICE",
    "WORD",
    "Form",
    "pieces",
    "render",
    "render_at",
    "text_of",
]

#: The lists a form is declared in: a ProblemKind's message_forms,
#: hint_forms and reasons, and ProblemTables' words and service_messages.
MESSAGE: Final = "message"
HINT: Final = "hint"
REASON: Final = "reason"
WORD: Final = "word"
SERVICE: Final = "service"

_ARGUMENT: Final = re.compile(r"\{([a-z0-9_]+)\}")


class Form(NamedTuple):
    """One form of the catalogue: the code it belongs to ("" for a word), its list, its id."""

    code: str
    kind: str
    id: str


def _tables() -> Any:
    enum: Any = problems_pb2.ProblemCode.DESCRIPTOR
    return enum.GetOptions().Extensions[problems_pb2.problem_tables]


#: The words messages share, by id.
_WORDS: Final[Mapping[str, str]] = MappingProxyType({f.id: f.text for f in _tables().words})
#: The GeneratorService's words, by id.
_SERVICE: Final[Mapping[str, str]] = MappingProxyType(
    {f.id: f.text for f in _tables().service_messages}
)


def text_of(form: Form) -> str:
    """The text of *form*, with its ``{name}`` arguments unfilled.

    Raises :class:`KeyError` for a form the catalogue does not declare.
    """
    if form.kind == WORD:
        return _WORDS[form.id]
    if form.kind == SERVICE:
        return _SERVICE[form.id]
    kind = CATALOGUE[form.code]
    if form.kind == MESSAGE:
        return kind.message_forms[form.id]
    if form.kind == HINT:
        return kind.hint_forms[form.id]
    return kind.reasons[form.id]


def render(form: Form, **args: object) -> str:
    """*form*'s text with each ``{name}`` replaced by ``str(args[name])``.

    An argument the text does not name is ignored, and a name with no
    argument is left as written, so that a form reworded to drop or add an
    argument still renders; the tests of both libraries compare the words.
    """
    text = text_of(form)
    if "{" not in text:
        return text
    return _ARGUMENT.sub(lambda m: str(args[m[1]]) if m[1] in args else m[0], text)


def render_at(form: Form, path: str, **args: object) -> str:
    """*form*, which starts ``{path}: ``, rendered at *path* as shown in a message.

    For the document as a whole (*path* ``""``) the form is rendered
    without that start, as the catalogue's form without ``{path}`` reads.
    """
    text = render(form, path=path, **args)
    return text if path else text.removeprefix(": ")


def pieces(form: Form) -> tuple[str, ...]:
    """The words of *form* between its arguments, in order, for code that reads a message."""
    return tuple(_ARGUMENT.split(text_of(form))[::2])
