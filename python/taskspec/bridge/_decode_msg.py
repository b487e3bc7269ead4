"""How the decoder words a problem: one violation at the field, line and column.

Every decode failure is raised through :func:`fail` (or
:func:`unknown_field`), so its shape is the same everywhere: the field path,
``path: message`` as the text, and the position of the node at fault. The
helpers here keep those messages readable whatever the input: a value can
be megabytes long and a mapping key as long, so quoted values and shown
paths are cut (:func:`q`, :func:`clip`), while the violation's own field
path stays whole for programs.
"""

from __future__ import annotations

from typing import Final

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from taskspec._codes import UNKNOWN_KEY
from taskspec._errors import DecodeError, Violation
from taskspec._forms_gen import (
    HINT_UNKNOWN_KEY_DID_YOU_MEAN,
    HINT_UNKNOWN_KEY_ONE_OF,
    MSG_UNKNOWN_KEY_AT_PATH,
    MSG_UNKNOWN_KEY_AT_PATH_IN_PARENT,
    MSG_UNSUPPORTED_AT_PATH,
    WORD_CLIPPED,
    WORD_MAPPING,
    WORD_SCALAR,
    WORD_SEQUENCE,
    WORD_STRING,
    WORD_TAGGED,
)
from taskspec._suggest import suggest
from taskspec._words import Form, render, render_at
from taskspec.bridge._decode_load import PLAIN, QUOTED, TAG_PREFIX, position
from taskspec.bridge._fixes import replace_at
from taskspec.bridge._gostr import go_quote
from taskspec.bridge._layout import MessageInfo
from taskspec.bridge._resolve import resolve

__all__ = [
    "clip",
    "describe",
    "fail",
    "join",
    "q",
    "refuse",
    "short_tag",
    "shown_path",
    "unknown_field",
]

#: Most characters of an offending value a decode message quotes. A value
#: can be megabytes long; a message quoting all of it buries the problem.
_QUOTE_CHARS: Final = 80


def clip(text: str) -> str:
    """*text* for a message: past _QUOTE_CHARS characters, cut with its length."""
    if len(text) <= _QUOTE_CHARS:
        return text
    return render(WORD_CLIPPED, text=text[:_QUOTE_CHARS], n=len(text))


def q(text: str) -> str:
    """*text* quoted as Go's ``%q`` quotes it, cut like :func:`clip` (the length outside).

    Every message quotes the same way, Go's, so the Go library's messages
    and these can be the same text.
    """
    if len(text) <= _QUOTE_CHARS:
        return go_quote(text)
    return render(WORD_CLIPPED, text=go_quote(text[:_QUOTE_CHARS]), n=len(text))


def short_tag(tag: str) -> str:
    """A tag as written, as yaml.v3 shows it: ``!!binary`` for a standard tag, else in full."""
    return "!!" + tag[len(TAG_PREFIX) :] if tag.startswith(TAG_PREFIX) else tag


def shown_path(path: str) -> str:
    """*path* as a message begins with it: cut when a long key makes it long.

    Field names keep paths short; only a mapping key (an unknown field, a
    signal name) can make one long. The violation keeps the whole path.
    """
    return path if len(path) <= 2 * _QUOTE_CHARS else clip(path)


def join(path: str, name: str) -> str:
    """The path of field *name* of the message at *path*."""
    return f"{path}.{name}" if path else name


def fail(path: str, form: Form, node: Node | None, **args: object) -> DecodeError:
    """The error for a problem at *path*, placed at *node* (or nowhere, for None).

    The message is *form* of the catalogue (one that starts ``{path}: ``,
    or has no ``{path}``) rendered with *args*, at *path* as shown; its code
    is the form's.
    """
    line, column = position(node) if node is not None else (0, 0)
    message = render_at(form, shown_path(path) if path else "", **args)
    return DecodeError([Violation(path, message, line, column, code=form.code)])


def refuse(path: str, reason: Form, node: Node | None, **args: object) -> DecodeError:
    """TS004 at *path*: YAML that readers disagree on, for *reason* rendered with *args*."""
    return fail(path, MSG_UNSUPPORTED_AT_PATH, node, reason=render(reason, **args))


def unknown_field(
    path: str, key: str, info: MessageInfo, node: Node, source: str = ""
) -> DecodeError:
    """An unknown key, with the field the writer most likely meant when there is one.

    The message says only that the key is unknown; the hint names the
    likely field, or, without one, lists every field the mapping takes.
    With the document's *source*, a key written as it reads gets the fix
    that writes the likely field's name in its place.
    """
    sub = join(path, key)
    guess = suggest(key, info.by_name)
    line, column = position(node)
    # The path the message starts with: none for the empty key at the top.
    if path:
        message = render_at(
            MSG_UNKNOWN_KEY_AT_PATH_IN_PARENT, shown_path(sub), key=q(key), parent=path
        )
    else:
        message = render_at(MSG_UNKNOWN_KEY_AT_PATH, shown_path(sub), key=q(key))
    fix = None
    if guess is None:
        hint = render(HINT_UNKNOWN_KEY_ONE_OF, fields=info.expected)
    else:
        hint = render(HINT_UNKNOWN_KEY_DID_YOU_MEAN, key=go_quote(guess))
        fix = replace_at(source, line, column, key, guess) if source else None
    return DecodeError([Violation(sub, message, line, column, hint, UNKNOWN_KEY, fix=fix)])


def describe(node: Node) -> str:
    """What *node* is, for "expected X, got Y" messages (``the integer '5'``, ``a mapping``)."""
    if isinstance(node, MappingNode):
        return render(WORD_MAPPING)
    if isinstance(node, SequenceNode):
        return render(WORD_SEQUENCE)
    tag = node.tag
    if tag == QUOTED:
        return render(WORD_STRING, value=q(node.value))
    if tag != PLAIN:
        return render(WORD_TAGGED, tag=short_tag(tag), value=q(node.value))
    if isinstance(node, ScalarNode) and node.style:
        # libyaml reports '! "~"' as untagged; its quotes make it a string.
        return render(WORD_STRING, value=q(node.value))
    rtag, _ = resolve(node.value)
    kind = rtag[2:]
    # A plain "<<" is a merge key only as a key; as a value it is a string.
    if kind in ("str", "merge"):
        return render(WORD_STRING, value=q(node.value))
    return render(WORD_SCALAR, kind=kind, value=q(node.value))
