"""The YAML bridge: TaskSpec messages to and from ``taskspec.yaml`` bytes.

Everything here exists to make one promise: the bytes this package reads and
writes are the bytes the Go package (yaml.v3 v3.0.4 over its structs) reads
and writes. The modules, from the bottom up:

- :mod:`~taskspec.bridge._layout`: the descriptor-driven field tables (YAML
  key, Go struct tags, kinds) every other module walks;
- :mod:`~taskspec.bridge._gostr`: Go's string semantics (runes, ``%q``,
  ``strings.TrimSpace``);
- :mod:`~taskspec.bridge._resolve`: yaml.v3's plain-scalar resolution rules;
- :mod:`~taskspec.bridge._decode`: the strict general reader;
- :mod:`~taskspec.bridge._fastpath`: the reader for canonical documents;
- :mod:`~taskspec.bridge._emit`: the canonical writer;
- :mod:`~taskspec.bridge._comments`: formatting that keeps comments.

Nothing here is public API: :mod:`taskspec` re-exports what callers use.
This ``__init__`` imports nothing, so that importing one module of the
bridge does not load the rest.
"""
