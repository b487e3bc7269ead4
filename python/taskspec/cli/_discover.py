"""Which files the CLI checks: sidecar discovery that fits a real repository.

``taskspec validate .`` and ``taskspec fmt .`` run in CI and in pre-commit
hooks over whole repositories, next to GitHub workflows, pre-commit
configurations, virtualenvs and ``node_modules``, all full of ``*.yaml``
and ``*.json`` files that are not sidecars. So below a directory only
sidecars are checked: files named ``taskspec.yaml`` or ``*.taskspec.yaml``,
and the same names ending in ``.yml`` or ``.json`` (:data:`DEFAULT_INCLUDE`),
each read in the format its extension names. A ``.yml`` one is checked and
warned of: a sidecar's name ends in ``.yaml`` (see :func:`walk`). Hidden
directories are walked, because a harness keeps its runs in
``.agents/eval/runs/<run-id>/taskspec.yaml``; ``.git``, ``node_modules`` and
virtualenvs (any directory holding a ``pyvenv.cfg``) are skipped. A file
named on the command line is checked whatever its name: naming it is the
user's choice; with ``--force-exclude`` (what the pre-commit hooks pass, as
ruff's do) it is checked only if a walk would check it (see below).

Inside a git repository, what git ignores is not walked into: the
``.gitignore`` files of the walked directories and of those above them up
to the repository's top (each for the paths below it, a deeper one
overriding, ``!`` re-including), and ``.git/info/exclude``, with git's
semantics as the ``pathspec`` package implements them. ``--no-ignore``
walks them too. A path named on the command line is taken even when git
ignores it, unless ``--force-exclude`` is given.

``--include GLOB`` replaces the file patterns and ``--exclude GLOB`` adds to
what is skipped; both can live in ``[tool.taskspec]`` of the nearest
``pyproject.toml`` found upwards from the working directory, as ruff does.
A pattern without ``/`` matches a file or directory name; a pattern with
``/`` matches the path relative to where it was given (the working
directory for a flag, the ``pyproject.toml``'s directory for the
configuration). ``*`` matches across ``/`` in both.

``--force-exclude`` applies the selection to the paths named on the command
line too, so that a tool passing every changed YAML or JSON file
(pre-commit) gets exactly what ``taskspec validate .`` would check: a named
file is skipped, silently, when its name or path matches no include
pattern, when it or a directory on its path is excluded (by a pattern, the
built-in ``.git`` and ``node_modules``, or, unless ``--no-ignore``, by
git's ignore rules). The directories on its path are those below the
working directory when it lies there, else those of the path as written.
A named directory is skipped when it or a directory on its path is
excluded; ``-`` is always read.
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

#: The file patterns that make a sidecar below a directory: the YAML name,
#: its ``.yml`` spelling (checked, with a warning) and its proto3 JSON form.
DEFAULT_INCLUDE = (
    "taskspec.yaml",
    "*.taskspec.yaml",
    "taskspec.yml",
    "*.taskspec.yml",
    "taskspec.json",
    "*.taskspec.json",
)
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


#: The file of git's ignore rules in each directory, and the repository's own.
_GITIGNORE = ".gitignore"
_INFO_EXCLUDE = os.path.join(".git", "info", "exclude")

#: The ignore rules in force in a directory: (the directory they are relative
#: to, as an absolute path with a trailing separator; the compiled rules),
#: outermost first, so the last rule that matches decides, as in git.
Chain = tuple[tuple[str, Any], ...]


def _rules(path: str) -> Any:
    """The compiled gitignore rules of the file at *path*, or None when it has none."""
    try:
        data = read_file(path)
    except OSError:
        return None
    lines = data.decode("utf-8", "replace").splitlines()
    if not any(line.strip() and not line.startswith("#") for line in lines):
        return None
    import pathspec  # noqa: PLC0415 - only a walk that meets a .gitignore pays for it

    return pathspec.GitIgnoreSpec.from_lines(lines)


def _repository(directory: str) -> str | None:
    """The top of the git repository holding the absolute *directory*, or None."""
    while True:
        if os.path.exists(os.path.join(directory, ".git")):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def _with(chain: Chain, directory: str, name: str = _GITIGNORE) -> Chain:
    """*chain* and the rules of *directory*'s file *name*, if it has any."""
    spec = _rules(os.path.join(directory, name))
    if spec is None:
        return chain
    return (*chain, (os.path.join(directory, ""), spec))


def _chain(directory: str, memo: dict[str, Chain | None]) -> Chain | None:
    """The rules in force in the absolute *directory*, from the repository top; None outside one."""
    if directory in memo:
        return memo[directory]
    parent = os.path.dirname(directory)
    if os.path.exists(os.path.join(directory, ".git")) or parent == directory:
        top = _repository(directory)
        found = None if top is None else _with(_with((), top, _INFO_EXCLUDE), top)
    else:
        above = _chain(parent, memo)
        found = None if above is None else _with(above, directory)
    memo[directory] = found
    return found


def _ignored(chain: Chain, path: str, is_dir: bool) -> bool:
    """Whether git ignores the absolute *path* under the rules of *chain*."""
    verdict = None
    for base, spec in chain:
        if not path.startswith(base):
            continue
        relative = path[len(base) :].replace(os.sep, "/")
        result = spec.check_file(relative + "/" if is_dir else relative).include
        if result is not None:
            verdict = result
    return bool(verdict)


def _skipped(raw: str, selection: Selection, memo: dict[str, Chain | None] | None) -> bool:
    """``--force-exclude``: whether a walk would leave out the path *raw* named on the command line.

    *memo* caches the ignore rules by directory; None means ``--no-ignore``.
    """
    is_dir = os.path.isdir(raw)
    name = os.path.basename(os.path.normpath(raw))
    if not is_dir and not selection.included(raw, name):
        return True
    absolute = os.path.abspath(raw)
    if selection.excluded(raw, name) or (
        memo is not None
        and _ignored(_chain(os.path.dirname(absolute), memo) or (), absolute, is_dir)
    ):
        return True
    here = os.path.join(os.getcwd(), "")
    shown = absolute[len(here) :] if absolute.startswith(here) else os.path.normpath(raw)
    parts = shown.split(os.sep)[:-1]
    for i, part in enumerate(parts):
        if not part or part == os.curdir:
            continue
        if part in SKIPPED_DIRS or selection.excluded(os.sep.join(parts[: i + 1]) or os.sep, part):
            return True
    return False


def walk(
    paths: Sequence[str],
    selection: Selection,
    on_empty: Callable[[str], None] | None = None,
    *,
    force_exclude: bool = False,
    ignore: bool = True,
    on_misspelt: Callable[[str, bool], None] | None = None,
    accept: Callable[[str], bool] | None = None,
) -> Iterator[Item]:
    """Every file to check, in output order, with unlistable directories in place.

    A path named on the command line is taken as it is: a file of any name,
    ``-`` for standard input, or a missing path (reported by the reader).
    Below a directory, only the files *selection* includes. Within a
    directory the files come first, then its subdirectories, each in
    code-point order of their names. Symbolic links to files are followed;
    links to directories are not, so a link loop cannot make the walk
    endless. *on_empty* is called with each named directory that held no
    file to check. With *ignore*, what git ignores is left out (see the
    module's documentation), and with *force_exclude* the named paths go
    through the selection too. *on_misspelt* is called, just before the file
    is yielded or passed over, with each file whose name ends in ``.yml``
    where the same name ending in ``.yaml`` would be checked
    (``taskspec.yml``), and whether it is checked: it is when the include
    patterns take it (the default ones do), else it is left out. *accept*,
    when given, is a further test of a file's name that a file found below a
    directory (or named, under *force_exclude*) must pass: ``fmt`` leaves out
    the JSON ones so.

    It is a generator so that checking can start while a large tree is
    still being walked. Paths are plain strings: they are cheap to sort,
    join and send to worker processes.
    """
    memo: dict[str, Chain | None] | None = {} if ignore else None

    def spelt_yml(path: str, name: str) -> bool:
        if not name.endswith(".yml"):
            return False
        return selection.included(path[:-4] + ".yaml", name[:-4] + ".yaml")

    for raw in paths:
        if force_exclude and raw != STDIN and _skipped(raw, selection, memo):
            continue
        if raw == STDIN or not os.path.isdir(raw):
            if raw != STDIN:
                name = os.path.basename(raw)
                if force_exclude and accept is not None and not accept(name):
                    continue
                if on_misspelt is not None and spelt_yml(raw, name):
                    on_misspelt(raw, True)
            yield raw
            continue
        found = 0
        root_chain: Chain | None = None
        if memo is not None:
            # The rules from above the named directory; its own are read below.
            root_chain = _chain(os.path.dirname(os.path.abspath(raw)), memo)
        stack: list[tuple[str, Chain | None]] = [(raw, root_chain)]
        while stack:
            top, chain = stack.pop()
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
            at = ""
            if memo is not None:
                at = os.path.abspath(top)
                if chain is None and any(e.name == ".git" for e in entries):
                    chain = _with((), at, _INFO_EXCLUDE)  # the top of a repository
                if chain is not None and any(e.name == _GITIGNORE for e in entries):
                    chain = _with(chain, at)
            subdirs: list[tuple[str, Chain | None]] = []
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
                        and not (chain and _ignored(chain, os.path.join(at, entry.name), True))
                    ):
                        subdirs.append((path, chain))
                elif selection.included(path, entry.name):
                    if (accept is not None and not accept(entry.name)) or (
                        chain and _ignored(chain, os.path.join(at, entry.name), False)
                    ):
                        continue
                    found += 1
                    if on_misspelt is not None and spelt_yml(path, entry.name):
                        on_misspelt(path, True)
                    yield path
                elif (
                    on_misspelt is not None
                    and spelt_yml(path, entry.name)
                    and not (chain and _ignored(chain, os.path.join(at, entry.name), False))
                ):
                    on_misspelt(path, False)
            stack.extend(reversed(subdirs))
        if not found and on_empty is not None:
            on_empty(raw)


def _name(entry: os.DirEntry[str]) -> str:
    return entry.name
