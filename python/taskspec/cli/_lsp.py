"""The ``taskspec lsp`` server: the engine of ``validate`` and ``fmt`` in an editor, on pygls.

- Diagnostics on open, change and save: every problem :func:`taskspec.check`
  reports (range, severity, code, message; the hint as related information;
  a link to the code's explanation). A file that ``[tool.taskspec]``'s
  include and exclude leave out gets none.
- Quick fixes from the hints (:func:`taskspec.cli._lsp_text.fixes`).
- Formatting: ``taskspec fmt``'s layout, comments kept; a document it
  refuses gets no edit, and the refusal is shown as a diagnostic.
- Hover: a key's documentation, whether agents see it and its rule; an enum
  value's other values.

Every handler is guarded: a bug becomes a TS999 diagnostic (or, where there
is nothing to show it on, a logged error), and the server keeps answering.

The engine (the catalogue, the checks, the selection) is imported after the
server has answered ``initialize``, when the client says it is
``initialized``: an editor waits for that answer, and pygls with lsprotocol
alone takes most of the half second the server has to start in.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Sequence
from functools import wraps
from typing import TYPE_CHECKING, Any, Final, TypeVar
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument

import taskspec
from taskspec._version import version
from taskspec.cli import frozen_imports

if TYPE_CHECKING:
    from taskspec._errors import Violation
    from taskspec.cli import _lsp_text

__all__ = ["EXPLANATIONS", "SOURCE", "make_server", "serve"]

#: The diagnostics' source.
SOURCE: Final = "taskspec"
#: Where each code is explained: the catalogue in the repository's docs.
EXPLANATIONS: Final = (
    "https://github.com/taskspec/taskspec/blob/main/docs/problems.md#the-catalogue"
)

_BREAKS: Final = re.compile(r"\r\n|\r|\n")

_log = logging.getLogger("taskspec.lsp")
_F = TypeVar("_F", bound=Callable[..., Any])


class TaskspecServer(LanguageServer):
    """The server, with the formatter's last refusal of each document."""

    def __init__(self) -> None:
        # Whole documents: pygls applies an incremental change by its own
        # lines, which are not LSP's when a value holds NEL or LS.
        super().__init__(
            "taskspec", version(), text_document_sync_kind=types.TextDocumentSyncKind.Full
        )
        #: A refusal of ``fmt`` shown with the problems until the next change.
        self.refusals: dict[str, list[Violation]] = {}


def _path_of(uri: str) -> str | None:
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else None


def is_sidecar(uri: str) -> bool:
    """Whether the document at *uri* is a YAML sidecar ``taskspec validate .`` would check.

    The selection is the nearest ``[tool.taskspec]`` above the file, as
    ``--force-exclude`` applies it; a document that is not a file (an
    unsaved buffer) is checked. The server reads YAML: a JSON sidecar, which
    the walk checks as JSON, is left to ``taskspec validate``.
    """
    from taskspec._format import Format, format_for_path  # noqa: PLC0415
    from taskspec.cli._discover import ConfigError, Selection, _skipped  # noqa: PLC0415

    path = _path_of(uri)
    if path is None:
        return True
    if format_for_path(path) is not Format.YAML:
        return False
    try:
        selection = Selection.build(cwd=os.path.dirname(path))
    except ConfigError as err:
        _log.warning("%s", err)
        selection = Selection.build(cwd=os.path.dirname(path), use_config=False)
    return not _skipped(path, selection, {})


def _internal(err: BaseException) -> Violation:
    from taskspec._codes import CATALOGUE, INTERNAL  # noqa: PLC0415
    from taskspec._errors import Violation  # noqa: PLC0415

    reason = f"{type(err).__name__}: {err}"
    return Violation("", CATALOGUE[INTERNAL].messages[0].format(reason=reason), code=INTERNAL)


def _data(doc: TextDocument) -> bytes:
    return doc.source.encode("utf-8", "surrogatepass")


def _range(doc: TextDocument, line: int, start: int, end: int) -> types.Range:
    codec, lines = doc.position_codec, _lines(doc)
    return codec.range_to_client_units(
        lines,
        types.Range(types.Position(line, start), types.Position(line, end)),
    )


def _lines(doc: TextDocument) -> list[str]:
    """The lines of *doc* as LSP counts them: split at LF, CRLF and CR only.

    (``str.splitlines``, which pygls uses, also splits at NEL, LINE
    SEPARATOR and others, which a sidecar may hold in a value.)
    """
    return _BREAKS.split(doc.source)


def diagnostic(doc: TextDocument, v: Violation) -> types.Diagnostic:
    """Problem *v* of *doc* as an LSP diagnostic."""
    from taskspec._codes import WARNING  # noqa: PLC0415
    from taskspec.cli import _lsp_text  # noqa: PLC0415

    lines = _lines(doc)
    line, start, end = _lsp_text.problem_span(lines, v.line, v.column, v.code)
    where = _range(doc, line, start, end)
    related = None
    if v.hint:
        location = types.Location(doc.uri, where)
        related = [types.DiagnosticRelatedInformation(location, v.hint)]
    return types.Diagnostic(
        range=where,
        # Most editors show the message alone: the hint goes with it.
        message=f"{v.message}; {v.hint}" if v.hint else v.message,
        severity=(
            types.DiagnosticSeverity.Warning
            if v.severity == WARNING
            else types.DiagnosticSeverity.Error
        ),
        code=v.code or None,
        code_description=types.CodeDescription(EXPLANATIONS) if v.code else None,
        source=SOURCE,
        related_information=related,
        # A problem whose line the document does not have is shown on the
        # first line, but no fix may edit that line for it ("placed").
        data={
            "hint": v.hint,
            "line": line,
            "start": start,
            "end": end,
            "placed": 0 < v.line <= len(lines),
            **({"fix": v.fix.to_dict()} if v.fix is not None else {}),
        },
    )


def problems(server: TaskspecServer, doc: TextDocument) -> list[Violation]:
    """Every problem of *doc*, and the formatter's refusal if it has one; none for a non-sidecar."""
    if not is_sidecar(doc.uri):
        return []
    try:
        found = taskspec.check(_data(doc))
    except Exception as err:
        _log.exception("checking %s", doc.uri)
        found = [_internal(err)]
    return [*found, *server.refusals.get(doc.uri, [])]


def publish(server: TaskspecServer, uri: str) -> None:
    """Check the document *uri* and publish its diagnostics."""
    doc = server.workspace.get_text_document(uri)
    try:
        found = [diagnostic(doc, v) for v in problems(server, doc)]
    except Exception as err:
        _log.exception("diagnostics of %s", uri)
        found = [diagnostic(doc, _internal(err))]
    server.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=uri, diagnostics=found, version=doc.version)
    )


def _guarded(default: Any = None) -> Callable[[_F], _F]:
    """Run a handler so that an exception is logged and *default* answered."""

    def wrap(handler: _F) -> _F:
        @wraps(handler)
        def run(server: TaskspecServer, params: Any) -> Any:
            try:
                return handler(server, params)
            except Exception:
                _log.exception("%s failed", handler.__name__)
                server.window_log_message(
                    types.LogMessageParams(
                        types.MessageType.Error,
                        f"taskspec lsp: {handler.__name__} failed; see the server's log",
                    )
                )
                return default

        return run  # type: ignore[return-value]

    return wrap


def _text_edit(doc: TextDocument, edit: _lsp_text.Edit) -> types.TextEdit:
    codec, lines = doc.position_codec, _lines(doc)
    span = codec.range_to_client_units(
        lines,
        types.Range(types.Position(edit.line, edit.start), types.Position(edit.end_line, edit.end)),
    )
    return types.TextEdit(span, edit.text)


def code_actions(
    doc: TextDocument, diagnostics: Sequence[types.Diagnostic]
) -> list[types.CodeAction]:
    """The quick fixes for *diagnostics* of *doc* that are this server's."""
    from taskspec.cli import _lsp_text  # noqa: PLC0415

    lines = _lines(doc)
    actions = []
    for diag in diagnostics:
        if diag.source != SOURCE:
            continue
        # What this server put in ``data``; a client that does not send it
        # back has the range and the hint as related information.
        data = diag.data if isinstance(diag.data, dict) else {}
        hint = data.get("hint")
        if hint is None:
            related = diag.related_information or []
            hint = related[0].message if related else ""
        if data.get("placed") is False:
            continue  # shown on the first line for want of its own: nothing to fix there
        if "line" in data:
            line, start, end = int(data["line"]), int(data["start"]), int(data["end"])
        else:
            span = doc.position_codec.range_from_client_units(lines, diag.range)
            line, start, end = span.start.line, span.start.character, span.end.character
        found = _lsp_text.fixes(
            lines, line, start, end, code=str(diag.code or ""), hint=hint, fix=data.get("fix")
        )
        for fix in found:
            edits = [_text_edit(doc, e) for e in fix.edits]
            actions.append(
                types.CodeAction(
                    title=fix.title,
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diag],
                    is_preferred=fix.preferred,
                    edit=types.WorkspaceEdit(changes={doc.uri: edits}),
                )
            )
    return actions


def format_edits(server: TaskspecServer, doc: TextDocument) -> list[types.TextEdit] | None:
    """``taskspec fmt`` of *doc* as one edit; none, and a diagnostic, when it refuses."""
    from taskspec._errors import DecodeError, TaskSpecError, ValidationError  # noqa: PLC0415
    from taskspec.cli._cmd_fmt import _crlf  # noqa: PLC0415
    from taskspec.cli._comments import CommentError, format_document  # noqa: PLC0415

    data = _data(doc)
    try:
        formatted = format_document(data)
    except CommentError as err:
        server.refusals[doc.uri] = list(err.violations)
        publish(server, doc.uri)
        return None
    except (DecodeError, ValidationError, TaskSpecError):
        return None  # invalid: its problems are already shown, and nothing is lost
    if _crlf(data):
        formatted = formatted.replace(b"\n", b"\r\n")
    if formatted == data:
        return []
    lines = _lines(doc)
    last = types.Position(len(lines) - 1, len(lines[-1]))
    end = doc.position_codec.position_to_client_units(lines, last)
    text = formatted.decode("utf-8")
    return [types.TextEdit(types.Range(types.Position(0, 0), end), text)]


def make_server() -> TaskspecServer:
    """The server with its features registered."""
    server = TaskspecServer()

    @server.feature(types.INITIALIZED)
    @_guarded()
    def initialized(ls: TaskspecServer, params: types.InitializedParams) -> None:
        warm()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @_guarded()
    def did_open(ls: TaskspecServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.refusals.pop(params.text_document.uri, None)
        publish(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @_guarded()
    def did_change(ls: TaskspecServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.refusals.pop(params.text_document.uri, None)
        publish(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @_guarded()
    def did_save(ls: TaskspecServer, params: types.DidSaveTextDocumentParams) -> None:
        publish(ls, params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @_guarded()
    def did_close(ls: TaskspecServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.refusals.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
        )

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    @_guarded(default=[])
    def code_action(ls: TaskspecServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        doc = ls.workspace.get_text_document(params.text_document.uri)
        return code_actions(doc, params.context.diagnostics)

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    @_guarded()
    def formatting(
        ls: TaskspecServer, params: types.DocumentFormattingParams
    ) -> list[types.TextEdit] | None:
        doc = ls.workspace.get_text_document(params.text_document.uri)
        if not is_sidecar(doc.uri):
            return None
        return format_edits(ls, doc)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @_guarded()
    def hover(ls: TaskspecServer, params: types.HoverParams) -> types.Hover | None:
        from taskspec.cli import _lsp_text  # noqa: PLC0415

        doc = ls.workspace.get_text_document(params.text_document.uri)
        lines = _lines(doc)
        at = doc.position_codec.position_from_client_units(lines, params.position)
        found = _lsp_text.hover(lines, at.line, at.character)
        if found is None:
            return None
        text, start, end = found
        return types.Hover(
            contents=types.MarkupContent(types.MarkupKind.Markdown, text),
            range=_range(doc, at.line, start, end),
        )

    return server


def warm() -> None:
    """Import the engine, so that the first document is checked at full speed.

    As pygls was, it is imported with the collector off and left frozen.
    """
    with frozen_imports():
        import taskspec._check  # noqa: PLC0415
        import taskspec.cli._comments  # noqa: PLC0415
        import taskspec.cli._discover  # noqa: PLC0415
        import taskspec.cli._lsp_text  # noqa: F401, PLC0415


def serve() -> None:
    """Run the server over standard input and output until the client ends it."""
    logging.basicConfig(level=logging.WARNING, format="taskspec lsp: %(levelname)s: %(message)s")
    make_server().start_io()
