"""The PyYAML peers of ``scripts/bench.py``: what a user without taskspec would write.

- naive: ``yaml.safe_load`` (pure Python) and a few dict checks;
  ``yaml.dump`` of the equivalent dict;
- careful: ``yaml.load`` with libyaml's ``CSafeLoader`` and checks of the
  whole TaskSpec shape (every key known, every value of its field's type,
  enums among their spellings, the required fields present);
  ``yaml.dump`` with ``CSafeDumper``.

Neither is strict or byte-compatible with Go (both read YAML 1.1, so a plain
``<<`` is a merge key and ``1:20`` a number), so they are speed references
only.
"""

from __future__ import annotations

from typing import Any

import yaml

from taskspec.bridge import _layout

#: The keys of a TaskSpec document, for the naive peer's "dict checks".
_TOP_KEYS = frozenset(f.name for f in _layout.TASK_SPEC.fields)


def naive_parse(data: bytes) -> dict[str, Any] | None:
    """What a hand-rolled reader would do: yaml.safe_load plus a few dict checks.

    It cannot read every canonical document (a plain ``<<`` is a YAML 1.1
    merge key to PyYAML, ``1:20`` a sexagesimal number); those return None,
    and the time spent failing still counts.
    """
    try:
        doc = yaml.safe_load(data)
    except yaml.YAMLError:
        return None
    if not isinstance(doc, dict):
        raise ValueError("not a mapping")
    unknown = set(doc) - _TOP_KEYS
    if unknown:
        raise ValueError(f"unknown keys {sorted(unknown)}")
    if doc.get("task_spec_version") != 1:
        raise ValueError("bad version")
    if not str(doc.get("task_id") or "").strip():
        raise ValueError("task_id is required")
    verification = doc.get("verification") or {}
    if not verification.get("test_cmd"):
        raise ValueError("test_cmd is required")
    return doc


class ShapeError(ValueError):
    """A document the careful peer refuses."""


def _check(value: object, info: _layout.MessageInfo, where: str) -> None:
    """The careful peer's shape check: known keys, and each value of its field's type."""
    if not isinstance(value, dict):
        raise ShapeError(f"{where or 'document'}: not a mapping")
    for key, item in value.items():
        fi = info.by_name.get(key) if isinstance(key, str) else None
        if fi is None:
            raise ShapeError(f"{where}{key}: unknown key")
        if item is None:
            continue
        kind = fi.kind
        if kind is _layout.Kind.STRING:
            ok = isinstance(item, str)
        elif kind is _layout.Kind.INT:
            ok = isinstance(item, int) and not isinstance(item, bool)
        elif kind is _layout.Kind.ENUM:
            assert fi.enum is not None
            ok = isinstance(item, str) and item in fi.enum.from_string
        elif kind is _layout.Kind.STRING_LIST:
            ok = isinstance(item, list) and all(isinstance(v, str) for v in item)
        elif kind is _layout.Kind.INT_MAP:
            ok = isinstance(item, dict) and all(
                isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                for k, v in item.items()
            )
        elif kind is _layout.Kind.MESSAGE:
            assert fi.message is not None
            _check(item, fi.message, f"{where}{key}.")
            ok = True
        else:  # a list of messages
            assert fi.message is not None
            ok = isinstance(item, list)
            for i, v in enumerate(item if ok else ()):
                _check(v, fi.message, f"{where}{key}[{i}].")
        if not ok:
            raise ShapeError(f"{where}{key}: not a {kind.value}")


def careful_parse(data: bytes) -> dict[str, Any] | None:
    """What a careful user would write: libyaml's CSafeLoader and checks of the whole shape.

    Every key known, every value of its field's type (enums among their
    spellings), and the required fields present. Like the naive peer it
    reads YAML 1.1 (merge keys, sexagesimal numbers, dates), so it refuses a
    few valid documents; those return None, and the time still counts.
    """
    try:
        doc = yaml.load(data, Loader=yaml.CSafeLoader)
        _check(doc, _layout.TASK_SPEC, "")
    except (yaml.YAMLError, ShapeError):
        return None
    if doc.get("task_spec_version") != 1:
        return None
    if not str(doc.get("task_id") or "").strip() or not str(doc.get("prompt") or "").strip():
        return None
    if not (doc.get("verification") or {}).get("test_cmd"):
        return None
    return doc  # type: ignore[no-any-return]


def careful_dump(doc: dict[str, Any]) -> str:
    """The careful writer: yaml.dump through libyaml's CSafeDumper."""
    return yaml.dump(doc, Dumper=yaml.CSafeDumper, sort_keys=False, allow_unicode=True)


def plain(msg: Any, info: _layout.MessageInfo = _layout.TASK_SPEC) -> dict[str, Any]:
    """A spec as the plain dict a naive writer would hold (canonical keys, enum strings)."""
    out: dict[str, Any] = {}
    for fi in info.fields:
        value = getattr(msg, fi.name)
        if fi.kind is _layout.Kind.ENUM:
            assert fi.enum is not None
            out[fi.name] = fi.enum.to_string.get(value, "")
        elif fi.kind is _layout.Kind.MESSAGE:
            assert fi.message is not None
            out[fi.name] = plain(value, fi.message)
        elif fi.kind is _layout.Kind.MESSAGE_LIST:
            assert fi.message is not None
            out[fi.name] = [plain(v, fi.message) for v in value]
        elif fi.kind is _layout.Kind.STRING_LIST:
            out[fi.name] = list(value)
        elif fi.kind is _layout.Kind.INT_MAP:
            out[fi.name] = dict(value)
        else:
            out[fi.name] = value
    return out


def naive_dump(doc: dict[str, Any]) -> str:
    """The naive writer: yaml.dump of the dict (not byte-compatible with Go)."""
    return yaml.dump(doc, sort_keys=False, allow_unicode=True)
