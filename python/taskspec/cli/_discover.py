"""Which files the CLI checks: sidecar discovery that fits a real repository.

``taskspec validate .`` and ``taskspec fmt .`` run in CI and in pre-commit
hooks over whole repositories, next to GitHub workflows, pre-commit
configurations, virtualenvs and ``node_modules``, all full of ``*.yaml``
files that are not sidecars. So below a directory only sidecars are
checked: files named ``taskspec.yaml`` or ``*.taskspec.yaml``. Hidden
directories are walked, because a harness keeps its runs in
``.agents/eval/runs/<run-id>/taskspec.yaml``; ``.git``, ``node_modules`` and
virtualenvs (any directory holding a ``pyvenv.cfg``) are skipped. A file
named on the command line is always checked, whatever its name: naming it is
the user's choice.

``--include GLOB`` replaces the file patterns and ``--exclude GLOB`` adds to
what is skipped; both can live in ``[tool.taskspec]`` of the nearest
``pyproject.toml`` found upwards from the working directory, as ruff does.
A pattern without ``/`` matches a file or directory name; a pattern with
``/`` matches the path relative to where it was given (the working
directory for a flag, the ``pyproject.toml``'s directory for the
configuration). ``*`` matches across ``/`` in both.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from taskspec._io import TEMP_NAME, read_file
from taskspec._limits import MAX_DOCUMENT_BYTES
from taskspec.cli._kit import STDIN, os_reason

__all__ = [
    "DEFAULT_INCLUDE",
    "SKIPPED_DIRS",
    "ConfigError",
    "Selection",
    "find_config",
    "walk",
]

#: The file patterns that make a sidecar below a directory.
DEFAULT_INCLUDE = ("taskspec.yaml", "*.taskspec.yaml")
#: Directory names never walked into: version control and package caches.
#: Virtualenvs are recognised by their ``pyvenv.cfg`` instead of a name.
SKIPPED_DIRS = frozenset({".git", "node_modules"})
_VENV_MARKER = "pyvenv.cfg"

#: One entry of a walk: a file's path, or ``(path, reason)`` for a directory
#: that could not be listed (reported in place, and the walk goes on).
Item = str | tuple[str, str]


class ConfigError(Exception):
    """``[tool.taskspec]`` in pyproject.toml cannot be used (a usage error)."""


@dataclass(frozen=True)
class _Pattern:
    """A glob and the directory that a pattern with ``/`` is relative to."""

    glob: str
    anchor: str

    def matches(self, path: str, name: str) -> bool:
        if "/" not in self.glob:
            return fnmatch.fnmatchcase(name, self.glob)
        relative = os.path.relpath(os.path.abspath(path), self.anchor).replace(os.sep, "/")
        return fnmatch.fnmatchcase(relative, self.glob.strip("/"))


def _compile(patterns: Sequence[_Pattern]) -> Callable[[str], re.Match[str] | None] | None:
    """One regex for the name-only patterns, the common case, so a walk tests a name once."""
    names = [p.glob for p in patterns if "/" not in p.glob]
    if not names:
        return None
    return re.compile("|".join(fnmatch.translate(g) for g in names)).match


@dataclass(frozen=True)
class Selection:
    """What a walk below a directory keeps: included files, less what is excluded."""

    include: tuple[_Pattern, ...] = tuple(_Pattern(g, "") for g in DEFAULT_INCLUDE)
    exclude: tuple[_Pattern, ...] = ()
    #: Where the settings came from, for messages (a pyproject.toml, or "").
    source: str = ""
    _include_names: Callable[[str], Any] | None = field(init=False, repr=False, compare=False)
    _include_paths: tuple[_Pattern, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_include_names", _compile(self.include))
        object.__setattr__(self, "_include_paths", tuple(p for p in self.include if "/" in p.glob))

    @classmethod
    def build(
        cls,
        include: Sequence[str] | None = None,
        exclude: Sequence[str] = (),
        *,
        cwd: str | None = None,
        use_config: bool = True,
    ) -> Selection:
        """The selection for a run: the configuration, then the command line's flags.

        Flags win: ``--include`` replaces the configuration's patterns, and
        ``--exclude`` adds to its exclusions.
        """
        here = os.path.abspath(cwd or os.getcwd())
        base = find_config(here) if use_config else cls()
        inc = base.include if include is None else tuple(_Pattern(g, here) for g in include)
        exc = base.exclude + tuple(_Pattern(g, here) for g in exclude)
        return cls(inc, exc, base.source)

    @property
    def patterns(self) -> list[str]:
        """The include globs, for messages."""
        return [p.glob for p in self.include]

    def included(self, path: str, name: str) -> bool:
        """Whether a file met in a walk is a sidecar to check."""
        if TEMP_NAME.match(name):  # a killed writer's temporary file is never a sidecar
            return False
        names = self._include_names
        if not (names is not None and names(name)) and not any(
            p.matches(path, name) for p in self._include_paths
        ):
            return False
        return not self.excluded(path, name)

    def excluded(self, path: str, name: str) -> bool:
        """Whether a file or directory met in a walk is excluded by a pattern."""
        return any(p.matches(path, name) for p in self.exclude)


def find_config(start: str) -> Selection:
    """The selection ``[tool.taskspec]`` sets in the nearest pyproject.toml above *start*.

    Like ruff, the search stops at the first pyproject.toml that has the
    table; one without it is passed over. Without any, the defaults apply.
    """
    # os.path rather than pathlib: this runs on every command, and pathlib
    # (with the modules it imports) would be its one reason to load.
    directory = os.path.abspath(start)  # what Selection.build passes already
    while True:
        pyproject = os.path.join(directory, "pyproject.toml")
        if os.path.isfile(pyproject):
            table = _tool_table(pyproject)
            if table is not None:
                return _from_table(table, pyproject)
        parent = os.path.dirname(directory)
        if parent == directory:
            return Selection()
        directory = parent


def _tool_table(pyproject: str) -> dict[str, Any] | None:
    import tomllib  # noqa: PLC0415 - only a walk that finds a pyproject.toml pays for it

    try:
        data = read_file(pyproject)  # the bounded read sidecars get: a FIFO cannot hang it
        if len(data) > MAX_DOCUMENT_BYTES:
            raise ConfigError(f"{pyproject}: cannot read: larger than {MAX_DOCUMENT_BYTES} bytes")
        document = tomllib.loads(data.decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise ConfigError(f"{pyproject}: cannot read: {err}") from None
    tool = document.get("tool")
    table = tool.get("taskspec") if isinstance(tool, dict) else None
    return table if isinstance(table, dict) else None


def _from_table(table: dict[str, Any], pyproject: str) -> Selection:
    known = {"include", "exclude"}
    for key in table:
        if key not in known:
            raise ConfigError(
                f"{pyproject}: [tool.taskspec]: unknown key {key!r} (expected one of"
                f" {', '.join(sorted(known))})"
            )
    anchor = os.path.realpath(os.path.dirname(pyproject))

    def globs(key: str) -> tuple[_Pattern, ...] | None:
        value = table.get(key)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(g, str) and g for g in value):
            raise ConfigError(f"{pyproject}: [tool.taskspec].{key} must be a list of glob strings")
        return tuple(_Pattern(g, anchor) for g in value)

    default = Selection()
    return Selection(globs("include") or default.include, globs("exclude") or (), source=pyproject)


def walk(
    paths: Sequence[str],
    selection: Selection,
    on_empty: Callable[[str], None] | None = None,
) -> Iterator[Item]:
    """Every file to check, in output order, with unlistable directories in place.

    A path named on the command line is taken as it is: a file of any name,
    ``-`` for standard input, or a missing path (reported by the reader).
    Below a directory, only the files *selection* includes. Within a
    directory the files come first, then its subdirectories, each in
    code-point order of their names. Symbolic links to files are followed;
    links to directories are not, so a link loop cannot make the walk
    endless. *on_empty* is called with each named directory that held no
    file to check.

    It is a generator so that checking can start while a large tree is
    still being walked. Paths are plain strings: they are cheap to sort,
    join and send to worker processes.
    """
    for raw in paths:
        if raw == STDIN or not os.path.isdir(raw):
            yield raw
            continue
        found = 0
        stack = [raw]
        while stack:
            top = stack.pop()
            try:
                with os.scandir(top) as it:
                    entries = list(it)
            except OSError as err:
                yield (top, os_reason(err))
                continue
            if top is not raw and any(e.name == _VENV_MARKER for e in entries):
                continue  # a virtualenv: its files are installed packages, not sidecars
            if len(entries) > 1:  # a run directory often holds just its sidecar
                entries.sort(key=_name)
            subdirs: list[str] = []
            bare = top == os.curdir  # "validate ." reports "a/taskspec.yaml", not "./a/..."
            for entry in entries:
                # A file named "-" stays "./-": bare, it would name standard input.
                path = entry.name if bare and entry.name != STDIN else entry.path
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    is_dir = False
                if is_dir:
                    if (
                        entry.name not in SKIPPED_DIRS
                        and not entry.is_symlink()
                        and not selection.excluded(path, entry.name)
                    ):
                        subdirs.append(path)
                elif selection.included(path, entry.name):
                    found += 1
                    yield path
            stack.extend(reversed(subdirs))
        if not found and on_empty is not None:
            on_empty(raw)


def _name(entry: os.DirEntry[str]) -> str:
    return entry.name
