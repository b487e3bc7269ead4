"""The YAML bridge: TaskSpec messages to and from ``taskspec.yaml`` bytes.

Everything here exists to make one promise: the bytes this package reads and
writes are the bytes the Go package (yaml.v3 v3.0.4 over its structs) reads
and writes. The modules, from the bottom up:

- :mod:`~taskspec.bridge._layout`: the descriptor-driven field tables (YAML
  key, Go struct tags, kinds) every other module walks;
- :mod:`~taskspec.bridge._gostr`: Go's string semantics (runes, ``%q``,
  ``strings.TrimSpace``);
- :mod:`~taskspec.bridge._resolve`: yaml.v3's plain-scalar resolution rules;
- :mod:`~taskspec.bridge._decode`: the strict general reader (libyaml and
  the event pre-scans in ``_decode_load``, where a byte order mark may
  stand in ``_decode_bom``, where a tag ends in ``_decode_tags``, the
  descriptor walk in ``_decode_walk``, scalars in ``_decode_scalar``,
  wording in ``_decode_msg``);
- :mod:`~taskspec.bridge._fastpath`: the reader for canonical documents;
- :mod:`~taskspec.bridge._emit`: the canonical writer (the descriptor walk;
  string analysis, style selection and writing in ``_scalar``, yaml.v3's
  map-key order in ``_keyorder``);
The bridge depends only on the generated stubs and the leaves below it
(:mod:`taskspec._errors`, ``_codes``, ``_limits``, ``_contract``,
``_values`` and ``_suggest``), as ``make lint`` checks; formatting that
keeps comments is built on top of it, in :mod:`taskspec.cli._comments`.

Nothing here is public API: :mod:`taskspec` re-exports what callers use.
This ``__init__`` imports nothing, so that importing one module of the
bridge does not load the rest.
"""
