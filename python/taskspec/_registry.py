"""The generator seam: the Generator protocol and the language Registry.

A generator frames tasks for exactly one language; the harness resolves a
language to its generator through a Registry. Registration errors surface
at wiring time (a missing generator, an invalid language, two generators
for one language) rather than silently shadowing one another, as in the Go
package.

Generators may also live in other installed packages, which declare them as
entry points in the ``taskspec.generators`` group;
:meth:`Registry.from_entry_points` finds and registers them.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Protocol, runtime_checkable

from taskspec._enums import Language
from taskspec.bridge._gostr import go_quote
from taskspec.v1 import taskspec_pb2

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

__all__ = ["ENTRY_POINT_GROUP", "Generator", "PluginFailure", "Registry"]

#: The entry-point group in which installed packages declare generators.
ENTRY_POINT_GROUP: Final = "taskspec.generators"

_log = logging.getLogger("taskspec")


@runtime_checkable
class Generator(Protocol):
    """Produces TaskSpecs for a single language.

    ``generate`` must return a spec that passes :func:`taskspec.validate`,
    or raise. Collaborators such as a knowledge-graph reader belong in the
    generator's constructor, not in :class:`~taskspec.GenerateOptions`.
    """

    @property
    def language(self) -> Language | str:
        """The one language this generator produces tasks for."""
        ...

    def generate(self, opts: taskspec_pb2.GenerateOptions) -> taskspec_pb2.TaskSpec:
        """Synthesize one TaskSpec framed by *opts*."""
        ...


@dataclass(frozen=True, slots=True)
class PluginFailure:
    """A generator entry point that could not be loaded or registered.

    ``name`` and ``value`` are the entry point's (``python`` and
    ``acme_gen.python:PythonGenerator``); ``distribution`` is the installed
    package that declares it ("" when unknown), which is what a person
    fixes, upgrades or uninstalls. ``error`` is the exception, with its
    traceback.
    """

    name: str
    value: str
    distribution: str
    error: Exception

    def __str__(self) -> str:
        source = f" from {self.distribution}" if self.distribution else ""
        return (
            f"generator plugin {self.name!r} ({self.value}){source} failed: "
            f"{type(self.error).__name__}: {self.error}"
        )


class Registry:
    """Maps a :class:`Language` to the :class:`Generator` for it.

    Safe for concurrent use: registration and look-ups from many threads
    never see a half-updated table.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._generators: dict[Language, Generator] = {}
        self._plugin_failures: tuple[PluginFailure, ...] = ()

    @classmethod
    def from_entry_points(cls, group: str = ENTRY_POINT_GROUP) -> Registry:
        """A registry of the generators that installed packages declare in *group*.

        An entry point names either a Generator class or factory (any
        callable but a Generator instance), which is called with no
        arguments, or a ready Generator instance, which is used as is. A
        class is always called, even when its class attributes alone look
        like a Generator. Entry points are loaded in name order, so when two
        declare the same language the same one wins on every machine.

        One broken plugin must not take the others down, and must not go
        unnoticed either: every entry point that fails (import error, a
        factory that raises, an object that is not a Generator, an invalid
        or duplicate language) is skipped, recorded in
        :attr:`plugin_failures` for the program to act on, and logged as a
        warning with its traceback on the ``taskspec`` logger for the people
        running it. It is a log record rather than a :mod:`warnings` warning
        because the fault lies in an installed package, not in the code
        that calls this method, which is what a warning would point at.
        Only :class:`Exception` is caught: ``KeyboardInterrupt`` and
        ``SystemExit`` still stop the program.
        """
        registry = cls()
        failures: list[PluginFailure] = []
        # Imported here: importlib.metadata costs tens of milliseconds at start-up,
        # and only plugin discovery needs it.
        from importlib.metadata import entry_points  # noqa: PLC0415

        for ep in sorted(entry_points(group=group), key=lambda ep: (ep.name, ep.value)):
            try:
                registry.register(_generator_from(ep.load()))
            except Exception as err:
                failure = PluginFailure(ep.name, ep.value, _distribution(ep), err)
                failures.append(failure)
                _log.warning("%s", failure, exc_info=err)
        registry._plugin_failures = tuple(failures)
        return registry

    @property
    def plugin_failures(self) -> tuple[PluginFailure, ...]:
        """The entry points :meth:`from_entry_points` skipped, in load order; empty otherwise."""
        return self._plugin_failures

    def register(self, gen: Generator | None) -> None:
        """Add *gen*, keyed by its language.

        Raises :class:`ValueError` for ``None``, for a language that is not
        valid and for a second generator for the same language, and
        :class:`TypeError`, naming what is missing, for an object that is
        not a :class:`Generator`.
        """
        if gen is None:
            raise ValueError("cannot register nil generator")
        missing = _missing_members(gen)
        if missing:
            raise TypeError(
                f"cannot register: {type(gen).__name__} object is not a Generator "
                f"(it has no {missing})"
            )
        language = gen.language
        if not Language.is_valid(language):
            shown = language if isinstance(language, str) else str(language)
            raise ValueError(f"cannot register generator for invalid language {go_quote(shown)}")
        key = Language(language)
        with self._lock:
            if key in self._generators:
                raise ValueError(f"generator for language {go_quote(key.value)} already registered")
            self._generators[key] = gen

    def lookup(self, language: Language | str) -> Generator | None:
        """The generator registered for *language*, or ``None``."""
        if not Language.is_valid(language):
            return None
        with self._lock:
            return self._generators.get(Language(language))

    def get(self, language: Language | str) -> Generator:
        """The generator registered for *language*.

        Raises :class:`LookupError` when there is none (:meth:`lookup`
        returns ``None`` instead), naming the languages that have one.
        """
        gen = self.lookup(language)
        if gen is None:
            shown = language if isinstance(language, str) else str(language)
            have = ", ".join(lang.value for lang in self.languages()) or "none"
            raise LookupError(
                f"no generator registered for language {go_quote(shown)} (registered: {have})"
            )
        return gen

    def languages(self) -> list[Language]:
        """The registered languages, sorted (as Go sorts their strings)."""
        with self._lock:
            keys = list(self._generators)
        return sorted(keys, key=lambda lang: lang.value)


def _missing_members(obj: object) -> str:
    """What *obj* lacks of a Generator, as words ("" when nothing)."""
    missing = []
    if not hasattr(obj, "language"):
        missing.append("language attribute")
    if not callable(getattr(obj, "generate", None)):
        missing.append("generate method")
    return " and no ".join(missing)


def _generator_from(obj: object) -> Generator:
    """The generator an entry point names: call a class or factory, keep an instance."""
    if isinstance(obj, type) or (callable(obj) and not isinstance(obj, Generator)):
        obj = obj()
    if not isinstance(obj, Generator):
        raise TypeError(
            f"{type(obj).__name__} object is not a Generator "
            "(it needs a language attribute and a generate method)"
        )
    return obj


def _distribution(ep: EntryPoint) -> str:
    dist = ep.dist
    return dist.name if dist is not None else ""
